//! Connecting: `test` pings and counts the collections; a closed port is unreachable quickly and
//! a refused login is unauthorized, neither showing the password nor the driver's text; a
//! replica set's other members are never dialed.

use super::*;
use payback_connectors::database::source::Database;

use std::time::Instant;

#[tokio::test]
async fn test_pings_and_counts_the_collections() {
    let db = database("probe").await;
    for name in ["orders", "users", "carts", "refunds"] {
        insert(&db, name, vec![doc! { "_id": 1 }]).await;
    }
    let config_probe = config("probe", limits(7, 100));
    let probing = config_probe.test();
    assert_send(&probing);
    let answer = probing.await.unwrap();
    assert_eq!(answer, "MongoDB answers; database probe, 4 collections");

    let single = database("probe_one").await;
    insert(&single, "orders", vec![doc! { "_id": 1 }]).await;
    let answer = config("probe_one", limits(7, 100)).test().await.unwrap();
    assert_eq!(answer, "MongoDB answers; database probe_one, 1 collection");
}

#[tokio::test]
async fn a_closed_port_is_unreachable_quickly() {
    let port = nx_server::free_port();
    let uri = format!("mongodb://reader:hunter2-secret@127.0.0.1:{port}/shop");
    let config = DocdbConfig {
        credentials: DocdbCredentials::from_json(&json!({ "uri": uri })).unwrap(),
        seeds: vec![loopback(port)],
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
        config.test().await.unwrap_err(),
        docdb::describe(&config, None).await.unwrap_err(),
        config
            .read(&maps, window(), "USD", &mut RecordingSink::default())
            .await
            .unwrap_err(),
    ];
    for error in errors {
        // Plain: the host as given, not the driver's text.
        assert!(
            matches!(&error, ConnectorError::Unreachable(m) if m == &format!("cannot reach MongoDB at 127.0.0.1:{port}")),
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
        seeds: vec![loopback(server.port)],
        limits: limits(7, 100),
    };
    let error = config.test().await.unwrap_err();
    // nx-27017 speaks no SCRAM: the driver's login fails as it does against a wrong password.
    assert!(
        matches!(&error, ConnectorError::Unauthorized(m)
            if m == &format!("MongoDB at 127.0.0.1:{} refused the credentials", server.port)),
        "{error:?}"
    );
    assert!(!error.to_string().contains("hunter2"), "{error}");
}

/// A server announcing another replica-set member (as a tenant's server could announce an
/// address next to the API host): the connector talks to the seed it was given and never dials
/// the member.
#[tokio::test]
async fn announced_members_are_never_dialed() {
    let set = fake_replica_set::FakeReplicaSet::start().await;
    let config = DocdbConfig {
        credentials: DocdbCredentials::from_json(&json!({ "uri": set.uri("shop") })).unwrap(),
        seeds: vec![loopback(set.primary_port)],
        limits: limits(7, 100),
    };
    let answer = config.test().await.unwrap();
    assert_eq!(answer, "MongoDB answers; database shop, 0 collections");
    // The driver's monitors start at once; give one the time to follow the announcement.
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(set.member_connections(), 0, "port {}", set.member_port);
}

/// The connector dials the seed's checked addresses, never its name: a name that resolves
/// nowhere still connects through the address it was checked at, and an address given for
/// another port than the connection string's host is the one dialed.
#[tokio::test]
async fn only_the_checked_addresses_are_dialed() {
    let server = nx_server::server();
    let uri = format!("mongodb://db.example.invalid:{}/probe_pinned", server.port);
    let mut config = DocdbConfig {
        credentials: DocdbCredentials::from_json(&json!({ "uri": uri })).unwrap(),
        seeds: vec![Seed {
            host: "db.example.invalid".to_owned(),
            ..loopback(server.port)
        }],
        limits: limits(7, 100),
    };
    let answer = config.test().await.unwrap();
    assert_eq!(
        answer,
        "MongoDB answers; database probe_pinned, 0 collections"
    );

    // The string names the live server; the checked seed is a closed port: nothing answers.
    let closed = nx_server::free_port();
    config.credentials = DocdbCredentials::from_json(
        &json!({ "uri": format!("mongodb://127.0.0.1:{}/probe_pinned", server.port) }),
    )
    .unwrap();
    config.seeds = vec![loopback(closed)];
    config.limits.statement_timeout = Duration::from_secs(2);
    let error = config.test().await.unwrap_err();
    assert!(
        matches!(&error, ConnectorError::Unreachable(m) if m == &format!("cannot reach MongoDB at 127.0.0.1:{closed}")),
        "{error:?}"
    );
}
