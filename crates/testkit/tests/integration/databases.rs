//! Connecting customer databases and replacing their event maps: every success and every error
//! the spec lists (400 naming the field, 403 for the operator-only environment path, 404 for a
//! missing connection or another account's product, 409 sync of a staged connection, 503
//! without credential encryption), staging and activation, the one-source-per-stage rule, and
//! the operator path reading the API host's environment.

use base64::Engine as _;
use payback_domain::Clock;
use payback_server::secret::Secret;
use payback_testkit::customer_db::{CustomerDb, Engine};
use payback_testkit::{Backend, Session, TestApp, per_backend};
use serde_json::{Value, json};

fn secret_key() -> Secret {
    Secret::new(base64::engine::general_purpose::STANDARD.encode([9_u8; 32]))
}

async fn spawn(backend: Backend) -> TestApp {
    TestApp::spawn_with(backend, |config| config.secret_key = Some(secret_key())).await
}

async fn founder(app: &TestApp) -> Session {
    let owner = app.signup_verified("founder@example.com").await;
    app.create_product(&owner.token, "shop").await;
    owner
}

fn signups() -> Value {
    json!({ "table": "users", "stage": "signup", "timestamp": "created_at", "dedupe_key": "id",
            "email": "email" })
}

fn credentials() -> Value {
    // MariaDB's server, which has no database `shop`.
    json!({ "host": "127.0.0.1", "port": 3306, "user": "root", "database": "shop" })
}

async fn run_due(app: &TestApp) -> String {
    payback_server::services::sync::run_due(&app.state, app.clock.now())
        .await
        .unwrap()
}

async fn connections(app: &TestApp, token: &str) -> Vec<Value> {
    app.get("/connections", Some(token))
        .await
        .expect(200)
        .as_array()
        .unwrap()
        .clone()
}

async fn staging_activation_and_maps(backend: Backend) {
    let app = spawn(backend).await;
    let owner = founder(&app).await;
    let token = Some(owner.token.as_str());

    // Credentials without maps: staged.
    let reply = app
        .post(
            "/products/shop/connections/sql-b",
            token,
            json!({ "credentials": credentials() }),
        )
        .await;
    let staged = reply.expect(200).clone();
    assert_eq!(staged["status"], "pending");
    let shown = &connections(&app, &owner.token).await[0];
    assert_eq!(shown["status"], "pending");
    assert_eq!(shown["event_maps"], json!([]));
    assert_eq!(shown["config"]["target"], "root@127.0.0.1:3306/shop");
    app.post("/products/shop/connections/sql-b/sync", token, json!({}))
        .await
        .expect_error(409, "pending");
    // Staged: the hourly job passes it by.
    assert_eq!(run_due(&app).await, "0 sync runs");

    // Maps with `status: active` activate it; the answer is the maps as stored (trimmed).
    let mut map = signups();
    map["table"] = json!(" users ");
    let saved = app
        .post(
            "/products/shop/connections/sql-b/event-maps",
            token,
            json!({ "event_maps": [map], "status": "active" }),
        )
        .await
        .expect(200)
        .clone();
    assert_eq!(saved["ok"], true);
    assert_eq!(saved["event_maps"], json!([signups()]));
    let shown = &connections(&app, &owner.token).await[0];
    assert_eq!(shown["status"], "active");
    assert_eq!(shown["event_maps"], json!([signups()]));
    assert_eq!(shown["id"], staged["connection_id"]);
    // Active: the job reads it. There is no database `shop` on that server, so the run fails
    // and the connection shows the error.
    assert_eq!(run_due(&app).await, "1 sync runs");
    let shown = &connections(&app, &owner.token).await[0];
    assert_eq!(shown["status"], "error", "{shown}");
    assert!(
        shown["last_error"].as_str().unwrap().contains("shop"),
        "{shown}"
    );

    // Re-connecting with new credentials keeps the maps; an empty list stages it again.
    app.post(
        "/products/shop/connections/sql-b",
        token,
        json!({ "credentials": credentials() }),
    )
    .await
    .expect(200);
    assert_eq!(
        connections(&app, &owner.token).await[0]["event_maps"],
        json!([signups()])
    );
    app.post(
        "/products/shop/connections/sql-b/event-maps",
        token,
        json!({ "event_maps": [] }),
    )
    .await
    .expect(200);
    assert_eq!(
        connections(&app, &owner.token).await[0]["status"],
        "pending"
    );

    // Every change is in the history.
    let actions: Vec<String> = app
        .history(&owner.token, "?limit=100")
        .await
        .iter()
        .filter_map(|event| event["action"].as_str().map(str::to_owned))
        .collect();
    assert_eq!(
        actions
            .iter()
            .filter(|a| *a == "connection.event_maps")
            .count(),
        2,
        "{actions:?}"
    );
    assert_eq!(
        actions
            .iter()
            .filter(|a| *a == "connection.connect")
            .count(),
        2,
        "{actions:?}"
    );
}

/// Connects of one database kind that arrive together queue: one connection, and of the six
/// credentials sealed on the way only the last one's is kept (each replaced one is deleted).
async fn concurrent_connects_leave_one_connection(backend: Backend) {
    let app = spawn(backend).await;
    let owner = founder(&app).await;
    let token = Some(owner.token.as_str());
    let connect = || {
        app.post(
            "/products/shop/connections/sql-b",
            token,
            json!({ "credentials": credentials(), "event_maps": [signups()] }),
        )
    };
    let replies = tokio::join!(
        connect(),
        connect(),
        connect(),
        connect(),
        connect(),
        connect()
    );
    let replies = [
        replies.0, replies.1, replies.2, replies.3, replies.4, replies.5,
    ];
    let shown = connections(&app, &owner.token).await;
    assert_eq!(shown.len(), 1, "{shown:?}");
    for reply in &replies {
        assert_eq!(reply.expect(200)["connection_id"], shown[0]["id"]);
    }
    let credentials: i64 = app.sql_value("SELECT COUNT(*) FROM credentials", &[]).await;
    assert_eq!(credentials, 1);
}

async fn sql_a_may_be_staged_without_credentials(backend: Backend) {
    let app = spawn(backend).await;
    let owner = founder(&app).await;
    let token = Some(owner.token.as_str());
    let reply = app
        .post(
            "/products/shop/connections/sql-a",
            token,
            json!({ "event_maps": [signups()] }),
        )
        .await;
    assert_eq!(reply.expect(200)["status"], "pending");
    let tested = app
        .post("/products/shop/connections/sql-a/test", token, json!({}))
        .await;
    let tested = tested.expect(200);
    assert_eq!(tested["ok"], false);
    assert!(
        tested["detail"]
            .as_str()
            .unwrap()
            .contains("no credentials"),
        "{tested}"
    );
    app.post(
        "/products/shop/connections/sql-a/suggest-mappings",
        token,
        json!({ "source": "preset" }),
    )
    .await
    .expect_error(409, "no credentials");
    app.post(
        "/products/shop/connections/sql-a",
        token,
        json!({ "event_maps": [signups()], "status": "active" }),
    )
    .await
    .expect_error(400, "status");
}

async fn bad_bodies_name_their_field(backend: Backend) {
    let app = spawn(backend).await;
    let owner = founder(&app).await;
    let token = Some(owner.token.as_str());
    let cases = [
        ("sql-b", json!({}), "credentials"),
        (
            "sql-b",
            json!({ "credentials": { "port": 3306, "user": "u", "database": "d" } }),
            "credentials.host",
        ),
        (
            "docdb",
            json!({ "credentials": { "uri": "postgres://x/y" } }),
            "credentials.uri",
        ),
        (
            "sql-b",
            json!({ "credentials": credentials(), "status": "paused" }),
            "status",
        ),
        (
            "sql-b",
            json!({ "credentials": credentials(), "status": "active" }),
            "status",
        ),
        (
            "sql-b",
            json!({ "credentials": credentials(), "event_maps": [{ "table": "users" }] }),
            "event_maps",
        ),
        (
            "sql-b",
            json!({ "credentials": credentials(), "event_maps": [{ "table": "users", "stage": "sale",
            "timestamp": "t", "dedupe_key": "id" }] }),
            "event_maps[0].stage",
        ),
        (
            "sql-b",
            json!({ "credentials": credentials(), "event_maps": [{ "table": "users; drop", "stage": "lead",
            "timestamp": "t", "dedupe_key": "id" }] }),
            "event_maps[0].table",
        ),
        (
            "docdb",
            json!({ "credentials": { "uri": "mongodb://127.0.0.1/shop" }, "event_maps": [{ "collection": "users",
            "schema": "x", "stage": "lead", "timestamp": "t", "dedupe_key": "_id" }] }),
            "event_maps[0].schema",
        ),
        (
            "sql-b",
            json!({ "credentials": credentials(), "host_env": "DB_HOST" }),
            "host_env",
        ),
    ];
    for (word, body, field) in cases {
        let reply = app
            .post(
                &format!("/products/shop/connections/{word}"),
                token,
                body.clone(),
            )
            .await;
        reply.expect_error(400, field);
    }
    // Nothing was half-written.
    assert!(connections(&app, &owner.token).await.is_empty());
}

async fn encryption_must_be_configured(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let owner = founder(&app).await;
    let token = Some(owner.token.as_str());
    for (word, creds) in [
        ("sql-a", credentials()),
        ("sql-b", credentials()),
        ("docdb", json!({ "uri": "mongodb://127.0.0.1:27017/shop" })),
    ] {
        let reply = app
            .post(
                &format!("/products/shop/connections/{word}"),
                token,
                json!({ "credentials": creds }),
            )
            .await;
        reply.expect_error(503, "PAYBACK_SECRET_KEY");
    }
    assert!(connections(&app, &owner.token).await.is_empty());
}

async fn one_source_per_stage(backend: Backend) {
    let app = spawn(backend).await;
    let owner = founder(&app).await;
    let token = Some(owner.token.as_str());
    app.post(
        "/products/shop/connections/sql-b",
        token,
        json!({ "credentials": credentials(), "event_maps": [signups()] }),
    )
    .await
    .expect(200);
    let mongo = json!({ "uri": "mongodb://127.0.0.1:27017/shop" });
    let mut doc_map = signups();
    doc_map["email"] = json!("profile.email");
    app.post(
        "/products/shop/connections/docdb",
        token,
        json!({ "credentials": mongo, "event_maps": [doc_map] }),
    )
    .await
    .expect_error(
        400,
        "event_maps[0].stage: `signup` is already fed by the sql_b connection",
    );
    // The same table twice into one stage is refused too.
    app.post(
        "/products/shop/connections/sql-b/event-maps",
        token,
        json!({ "event_maps": [signups(), signups()] }),
    )
    .await
    .expect_error(400, "event_maps[1].stage");
}

async fn maps_need_a_connection_and_the_callers_account(backend: Backend) {
    let app = spawn(backend).await;
    let owner = founder(&app).await;
    let token = Some(owner.token.as_str());
    for word in ["sql-a", "sql-b", "docdb", "payments", "nothing"] {
        app.post(
            &format!("/products/shop/connections/{word}/event-maps"),
            token,
            json!({ "event_maps": [signups()] }),
        )
        .await
        .expect_error(404, "connection");
    }
    app.post(
        "/products/shop/connections/sql-b",
        token,
        json!({ "credentials": credentials() }),
    )
    .await
    .expect(200);
    let stranger = app.signup_verified("stranger@example.com").await;
    let theirs = Some(stranger.token.as_str());
    app.post(
        "/products/shop/connections/sql-b/event-maps",
        theirs,
        json!({ "event_maps": [] }),
    )
    .await
    .expect_error(404, "");
    for (word, creds) in [
        ("sql-a", credentials()),
        ("sql-b", credentials()),
        ("docdb", json!({ "uri": "mongodb://127.0.0.1:27017/shop" })),
    ] {
        app.post(
            &format!("/products/shop/connections/{word}"),
            theirs,
            json!({ "credentials": creds }),
        )
        .await
        .expect_error(404, "");
    }
    app.post(
        "/products/shop/connections/sql-b/suggest-mappings",
        theirs,
        json!({ "source": "preset" }),
    )
    .await
    .expect_error(404, "");
    assert!(connections(&app, &stranger.token).await.is_empty());
    app.post(
        "/products/shop/connections/sql-b/event-maps",
        None,
        json!({ "event_maps": [] }),
    )
    .await
    .expect_error(401, "");
}

// A crate root's modules sit beside it; this one lives in a folder of the binary's name so
// cargo does not take it for a test binary of its own.
#[path = "databases/hosts.rs"]
mod hosts;

per_backend!(
    concurrent_connects_leave_one_connection,
    staging_activation_and_maps,
    sql_a_may_be_staged_without_credentials,
    bad_bodies_name_their_field,
    encryption_must_be_configured,
    one_source_per_stage,
    maps_need_a_connection_and_the_callers_account,
);
