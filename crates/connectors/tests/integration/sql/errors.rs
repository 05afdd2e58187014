//! Errors name what to fix (a missing column, table or database; refused credentials; a port
//! nothing listens on) and never show the password.

use super::*;
use payback_connectors::database::source::Database;

use super::fixtures::ticket_table;

on_both!(errors_name_what_to_fix_and_never_the_password);

async fn errors_name_what_to_fix_and_never_the_password(backend: Backend) {
    let mut db = TestDb::create(backend).await;
    let schema = ticket_table(&mut db).await;
    let config = db.config();
    let secret = "Sup3r-Secret-Value-9";

    let missing_column = parse_maps(json!([{"table": "tickets", "stage": "lead",
        "timestamp": "created_at", "dedupe_key": "id", "email": "e_mail"}]));
    let err = run(&config, &missing_column, window(T0, T0 + DAY))
        .await
        .expect_err("missing column");
    assert!(
        matches!(&err, ConnectorError::Config(m)
            if m == &format!("column `e_mail` does not exist in table `{schema}.tickets`")),
        "{err:?}"
    );

    let missing_table = parse_maps(json!([{"table": "tickets_archive", "stage": "lead",
        "timestamp": "created_at", "dedupe_key": "id"}]));
    let err = run(&config, &missing_table, window(T0, T0 + DAY))
        .await
        .expect_err("missing table");
    assert!(
        matches!(&err, ConnectorError::Config(m) if m.contains("`tickets_archive` does not exist")),
        "{err:?}"
    );

    // Refused credentials: on MySQL this test's user with a wrong password; PostgreSQL here
    // trusts loopback, so a role that does not exist.
    let mut refused = config.clone();
    refused.credentials.password = Some(secret.to_owned());
    if backend == Backend::Postgres {
        refused.credentials.user = "payback_no_such_role".to_owned();
    }
    let err = refused.test().await.expect_err("refused");
    assert!(matches!(err, ConnectorError::Unauthorized(_)), "{err:?}");
    let text = format!("{err} {err:?}");
    assert!(!text.contains(secret), "{text}");
    assert!(text.contains(&refused.credentials.user), "{text}");
    let debug = format!("{refused:?}");
    assert!(!debug.contains(secret), "{debug}");

    // A port nothing listens on.
    let closed = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let mut unreachable = config.clone();
    unreachable.credentials.host = "localhost".to_owned();
    unreachable.credentials.port = closed;
    unreachable.addresses = vec![std::net::Ipv4Addr::LOCALHOST.into()];
    // A password inside the host name: the message names the host whole (it is built without
    // the password, not scrubbed of it) and not the address dialed.
    unreachable.credentials.password = Some("o".to_owned());
    let err = unreachable.test().await.expect_err("unreachable");
    let product = if backend == Backend::Postgres {
        "PostgreSQL"
    } else {
        "MySQL"
    };
    assert!(
        matches!(&err, ConnectorError::Unreachable(m)
            if m == &format!("cannot reach {product} at localhost:{closed}")),
        "{err:?}"
    );

    // No address to dial: unreachable, without the driver resolving anything.
    let mut nowhere = config.clone();
    nowhere.addresses.clear();
    let err = nowhere.test().await.expect_err("no address");
    assert!(matches!(err, ConnectorError::Unreachable(_)), "{err:?}");

    // A database that is not there (or, for this MySQL user, not theirs).
    let mut elsewhere = config.clone();
    elsewhere.credentials.database = format!("{}_missing", db.name);
    let err = elsewhere.test().await.expect_err("no database");
    assert!(
        matches!(&err, ConnectorError::Config(m) if m.contains(&elsewhere.credentials.database)),
        "{err:?}"
    );
}
