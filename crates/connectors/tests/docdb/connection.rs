//! Connecting: `test` pings and counts the collections; a closed port is unreachable quickly and
//! a refused login is unauthorized, neither showing the password.

use super::*;

use std::time::Instant;

#[tokio::test]
async fn test_pings_and_counts_the_collections() {
    let db = database("probe").await;
    for name in ["orders", "users", "carts", "refunds"] {
        insert(&db, name, vec![doc! { "_id": 1 }]).await;
    }
    let config_probe = config("probe", limits(7, 100));
    let probing = docdb::test(&config_probe);
    assert_send(&probing);
    let answer = probing.await.unwrap();
    assert_eq!(answer, "MongoDB answers; database probe, 4 collections");

    let single = database("probe_one").await;
    insert(&single, "orders", vec![doc! { "_id": 1 }]).await;
    let answer = docdb::test(&config("probe_one", limits(7, 100)))
        .await
        .unwrap();
    assert_eq!(answer, "MongoDB answers; database probe_one, 1 collection");
}

#[tokio::test]
async fn a_closed_port_is_unreachable_quickly() {
    let port = nx_server::free_port();
    let uri = format!("mongodb://reader:hunter2-secret@127.0.0.1:{port}/shop");
    let config = DocdbConfig {
        credentials: DocdbCredentials::from_json(&json!({ "uri": uri })).unwrap(),
        limits: ReadLimits {
            statement_timeout: Duration::from_secs(2),
            ..ReadLimits::default()
        },
    };
    let started = Instant::now();
    let maps = maps(json!([{
        "collection": "orders", "stage": "visit", "timestamp": "at", "dedupe_key": "_id"
    }]));
    let errors = [
        docdb::test(&config).await.unwrap_err(),
        docdb::describe(&config, None).await.unwrap_err(),
        docdb::sync(
            &config,
            &maps,
            window(),
            "USD",
            &mut RecordingSink::default(),
        )
        .await
        .unwrap_err(),
    ];
    for error in errors {
        assert!(
            matches!(&error, ConnectorError::Unreachable(m) if m.contains("Connection refused")),
            "{error:?}"
        );
        assert!(!error.to_string().contains("hunter2"), "{error}");
    }
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn a_refused_login_is_unauthorized_without_the_password() {
    let server = nx_server::server();
    let uri = format!(
        "mongodb://reader:hunter2-secret@127.0.0.1:{}/shop",
        server.port
    );
    let config = DocdbConfig {
        credentials: DocdbCredentials::from_json(&json!({ "uri": uri })).unwrap(),
        limits: limits(7, 100),
    };
    let error = docdb::test(&config).await.unwrap_err();
    // nx-27017 speaks no SCRAM: the driver's login fails as it does against a wrong password.
    assert!(
        matches!(&error, ConnectorError::Unauthorized(m) if m.starts_with("MongoDB refused the login: SCRAM failure")),
        "{error:?}"
    );
    assert!(!error.to_string().contains("hunter2"), "{error}");
}
