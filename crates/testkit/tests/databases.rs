#![allow(clippy::unwrap_used)]
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
    for word in [
        "sql-a",
        "sql-b",
        "docdb",
        "payments",
        "analytics-a",
        "nothing",
    ] {
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

/// Operators may name environment variables of the API host instead of giving credentials;
/// tenants may not. The names are stored and shown, the values never.
async fn the_operator_environment_path(backend: Backend) {
    let db = CustomerDb::create(Engine::Postgres).await;
    db.execute(&[
        "CREATE TABLE users (id BIGINT PRIMARY KEY, created_at TIMESTAMPTZ NOT NULL, email TEXT)",
    ])
    .await;
    let creds = db.credentials();
    let host = creds["host"].as_str().unwrap().to_owned();
    let user = creds["user"].as_str().unwrap().to_owned();
    let port = creds["port"].to_string();
    let name = db.name.clone();
    let app = TestApp::spawn_with(backend, move |config| {
        config.host_env.set("SHOP_DB_HOST", host);
        config.host_env.set("SHOP_DB_PORT", port);
        config.host_env.set("SHOP_DB_USER", user);
        config.host_env.set("SHOP_DB_NAME", name);
    })
    .await;
    let owner = founder(&app).await;
    let body = json!({ "host_env": "SHOP_DB_HOST", "port_env": "SHOP_DB_PORT", "user_env": "SHOP_DB_USER",
                       "database_env": "SHOP_DB_NAME", "event_maps": [signups()] });
    app.post(
        "/products/shop/connections/sql-a",
        Some(&owner.token),
        body.clone(),
    )
    .await
    .expect_error(403, "operators only");

    payback_server::operator::grant(&app.state, "founder@example.com")
        .await
        .unwrap();
    let mut bad = body.clone();
    bad["password_env"] = json!("PAYBACK_SECRET_KEY");
    app.post("/products/shop/connections/sql-a", Some(&owner.token), bad)
        .await
        .expect_error(400, "password_env");
    let mut both = body.clone();
    both["credentials"] = credentials();
    app.post("/products/shop/connections/sql-a", Some(&owner.token), both)
        .await
        .expect_error(400, "credentials: give either");
    let mut missing = body.clone();
    missing.as_object_mut().unwrap().remove("user_env");
    app.post(
        "/products/shop/connections/sql-a",
        Some(&owner.token),
        missing,
    )
    .await
    .expect_error(400, "user_env");

    // Without PAYBACK_SECRET_KEY: the environment path stores no credential, so it works.
    let reply = app
        .post("/products/shop/connections/sql-a", Some(&owner.token), body)
        .await;
    assert_eq!(reply.expect(200)["status"], "active");
    let shown = &connections(&app, &owner.token).await[0];
    assert_eq!(shown["config"]["via"], "operator_environment");
    assert_eq!(shown["config"]["env"]["host_env"], "SHOP_DB_HOST");
    assert!(!shown.to_string().contains(&db.name), "{shown}");
    let tested = app
        .post(
            "/products/shop/connections/sql-a/test",
            Some(&owner.token),
            json!({}),
        )
        .await
        .expect(200)
        .clone();
    assert_eq!(tested["ok"], true, "{tested}");
}

/// A variable the operator named but the host does not have: the test says which.
async fn an_unset_variable_is_named(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let owner = founder(&app).await;
    payback_server::operator::grant(&app.state, "founder@example.com")
        .await
        .unwrap();
    let body = json!({ "host_env": "NOPE_HOST", "user_env": "NOPE_USER", "database_env": "NOPE_DB",
                       "status": "pending" });
    app.post("/products/shop/connections/sql-a", Some(&owner.token), body)
        .await
        .expect(200);
    let tested = app
        .post(
            "/products/shop/connections/sql-a/test",
            Some(&owner.token),
            json!({}),
        )
        .await
        .expect(200)
        .clone();
    assert_eq!(tested["ok"], false);
    assert!(
        tested["detail"].as_str().unwrap().contains("NOPE_HOST"),
        "{tested}"
    );
}

/// A tenant may not point a connection at the API host's neighbours.
async fn private_hosts_are_refused(backend: Backend) {
    let app = TestApp::spawn_with(backend, |config| {
        config.secret_key = Some(secret_key());
        config.allow_private_database_hosts = false;
    })
    .await;
    let owner = founder(&app).await;
    let token = Some(owner.token.as_str());
    let mut local = credentials();
    local["host"] = json!("localhost");
    app.post(
        "/products/shop/connections/sql-b",
        token,
        json!({ "credentials": local }),
    )
    .await
    .expect_error(
        400,
        "credentials.host: `localhost` is a loopback or private address",
    );
    let mut metadata = credentials();
    metadata["host"] = json!("169.254.169.254");
    app.post(
        "/products/shop/connections/sql-a",
        token,
        json!({ "credentials": metadata }),
    )
    .await
    .expect_error(400, "credentials.host");
    // Every host of a seed list is checked (a public one first does not let the rest through).
    let uri = json!({ "uri": "mongodb://8.8.8.8,10.0.0.7:27017/shop" });
    app.post(
        "/products/shop/connections/docdb",
        token,
        json!({ "credentials": uri }),
    )
    .await
    .expect_error(400, "credentials.uri: `10.0.0.7`");
    assert!(connections(&app, &owner.token).await.is_empty());
}

/// A host that does not resolve is refused by name at once, whether private hosts are allowed
/// or not (before, it was let through and the driver resolved it later), and so is a
/// `mongodb+srv://` name without an SRV record. A refused private host is named as given,
/// never by the address it resolved to. `.invalid` never resolves (RFC 6761).
async fn unresolvable_hosts_are_refused(backend: Backend) {
    for allow_private in [true, false] {
        let app = TestApp::spawn_with(backend, move |config| {
            config.secret_key = Some(secret_key());
            config.allow_private_database_hosts = allow_private;
        })
        .await;
        let owner = founder(&app).await;
        let token = Some(owner.token.as_str());
        let mut typo = credentials();
        typo["host"] = json!("db.example.invalid");
        for word in ["sql-a", "sql-b"] {
            let reply = app
                .post(
                    &format!("/products/shop/connections/{word}"),
                    token,
                    json!({ "credentials": typo }),
                )
                .await;
            reply.expect_error(
                400,
                "credentials.host: `db.example.invalid` does not resolve",
            );
        }
        for (uri, name) in [
            (
                "mongodb://reader:pw@db.example.invalid:27017/shop",
                "db.example.invalid",
            ),
            (
                "mongodb://reader:pw@127.0.0.1:27017,replica.example.invalid/shop",
                "replica.example.invalid",
            ),
            (
                "mongodb+srv://reader:pw@cluster0.example.invalid/shop",
                "cluster0.example.invalid",
            ),
        ] {
            let reply = app
                .post(
                    "/products/shop/connections/docdb",
                    token,
                    json!({ "credentials": { "uri": uri } }),
                )
                .await;
            if allow_private || !uri.contains("127.0.0.1") {
                reply.expect_error(400, &format!("credentials.uri: `{name}` does not resolve"));
            } else {
                reply.expect_error(400, "credentials.uri: `127.0.0.1` is a loopback");
            }
        }
        assert!(connections(&app, &owner.token).await.is_empty());
        if !allow_private {
            let mut local = credentials();
            local["host"] = json!("localhost");
            let reply = app
                .post(
                    "/products/shop/connections/sql-b",
                    token,
                    json!({ "credentials": local }),
                )
                .await;
            reply.expect_error(
                400,
                "credentials.host: `localhost` is a loopback or private address; databases must be reachable on the internet",
            );
            let text = reply.expect(400).to_string();
            assert!(
                !text.contains("127.0.0.1") && !text.contains("::1"),
                "{text}"
            );
        }
    }
}

/// A port nothing listens on.
fn closed_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

/// Connects `word` with `credentials` (staged) and answers what `test` says.
async fn tested(app: &TestApp, token: &str, word: &str, credentials: Value) -> Value {
    app.post(
        &format!("/products/shop/connections/{word}"),
        Some(token),
        json!({ "credentials": credentials, "status": "pending" }),
    )
    .await
    .expect(200);
    app.post(
        &format!("/products/shop/connections/{word}/test"),
        Some(token),
        json!({}),
    )
    .await
    .expect(200)
    .clone()
}

/// Testing a connection is no port scanner: a failure is one plain sentence naming the host
/// as the tenant gave it, never the driver's text (`Connection refused (os error 111)`) nor an
/// address the name resolved to.
async fn connection_failures_are_plain(backend: Backend) {
    let app = spawn(backend).await;
    let owner = founder(&app).await;
    let port = closed_port();
    let sql = |host: &str| json!({ "host": host, "port": port, "user": "root", "database": "shop", "sslmode": "disable" });
    let cases = [
        (
            "sql-a",
            sql("127.0.0.1"),
            format!("PostgreSQL at 127.0.0.1:{port}"),
        ),
        (
            "sql-b",
            sql("localhost"),
            format!("MySQL at localhost:{port}"),
        ),
        (
            "docdb",
            json!({ "uri": format!("mongodb://localhost:{port}/shop") }),
            format!("MongoDB at localhost:{port}"),
        ),
    ];
    for (word, credentials, target) in cases {
        let answer = tested(&app, &owner.token, word, credentials).await;
        assert_eq!(answer["ok"], false, "{answer}");
        let detail = answer["detail"].as_str().unwrap();
        assert!(
            detail.starts_with(&format!(
                "could not reach the vendor: cannot reach {target}"
            )),
            "{detail}"
        );
        assert!(
            !detail.contains("os error") && !detail.contains("refused"),
            "{detail}"
        );
        if target.contains("localhost") {
            assert!(
                !detail.contains("127.0.0.1") && !detail.contains("::1"),
                "{detail}"
            );
        }
    }
}

/// A password that is part of the host name (`o` in `localhost`) leaves the host whole in the
/// error: messages are built without the password instead of having every occurrence of it
/// blanked out (`l<redacted>calh<redacted>st` before).
async fn a_password_inside_the_host_name_leaves_it_whole(backend: Backend) {
    let app = spawn(backend).await;
    let owner = founder(&app).await;
    let port = closed_port();
    for word in ["sql-a", "sql-b"] {
        let credentials = json!({ "host": "localhost", "port": port, "user": "root",
                                  "password": "o", "database": "shop", "sslmode": "disable" });
        let answer = tested(&app, &owner.token, word, credentials).await;
        let detail = answer["detail"].as_str().unwrap();
        assert!(detail.contains(&format!("localhost:{port}")), "{detail}");
        assert!(!detail.contains("redacted"), "{detail}");
    }
    let uri = format!("mongodb://reader:o@localhost:{port}/shop");
    let answer = tested(&app, &owner.token, "docdb", json!({ "uri": uri })).await;
    let detail = answer["detail"].as_str().unwrap();
    assert!(detail.contains(&format!("localhost:{port}")), "{detail}");
    // A connection string the driver refuses: its message quotes the hosts, never the password
    // (`pass-o` could not be found in it), and the host stays whole.
    let bad = format!("mongodb://reader:pass-o@localhost:{port}/shop?w=oops&journal=maybe");
    let reply = app
        .post(
            "/products/shop/connections/docdb",
            Some(&owner.token),
            json!({ "credentials": { "uri": bad } }),
        )
        .await;
    reply.expect_error(400, "credentials.uri: is not a MongoDB connection string");
    let text = reply.expect(400).to_string();
    assert!(!text.contains("pass-o") && !text.contains("***"), "{text}");
}

/// The operator's environment path never echoes a value it read from the API host's
/// environment, whatever fails: the host not resolving, the port closed, the database missing,
/// the user refused, a value that is no host name or port; nor when it works (the `test`
/// answer names the variable, not the database), nor in a failed run's `last_error`. Each
/// message names the variable instead.
async fn environment_values_never_show(backend: Backend) {
    let db = CustomerDb::create(Engine::Postgres).await;
    db.execute(&[
        "CREATE TABLE users (id BIGINT PRIMARY KEY, created_at TIMESTAMPTZ NOT NULL, email TEXT)",
    ])
    .await;
    let creds = db.credentials();
    let closed = closed_port();
    let values = [
        ("OK_HOST", creds["host"].as_str().unwrap().to_owned()),
        ("OK_PORT", creds["port"].to_string()),
        ("OK_USER", creds["user"].as_str().unwrap().to_owned()),
        ("OK_NAME", db.name.clone()),
        ("GHOST_HOST", "payback-secret-host.invalid".to_owned()),
        ("CLOSED_PORT", closed.to_string()),
        ("MISSING_NAME", "payback_secret_db_missing".to_owned()),
        ("STRANGER_USER", "payback_secret_role".to_owned()),
        ("SOCKET_HOST", "/run/payback-secret.sock".to_owned()),
        ("BAD_PORT", "54x32".to_owned()),
    ];
    let set = values.clone();
    let app = TestApp::spawn_with(backend, move |config| {
        for (name, value) in set {
            config.host_env.set(name, value);
        }
    })
    .await;
    let owner = founder(&app).await;
    payback_server::operator::grant(&app.state, "founder@example.com")
        .await
        .unwrap();
    // The values no answer may carry (the working host, port and user are too common to look
    // for in a whole answer: `127.0.0.1`, `5432`, `postgres`; the closed port is looked for in
    // the messages, since ids could hold its digits).
    let secrets: Vec<String> = values
        .iter()
        .filter(|(name, _)| !["OK_HOST", "OK_PORT", "OK_USER", "CLOSED_PORT"].contains(name))
        .map(|(_, value)| value.clone())
        .collect();
    let shows_none = |text: &str| {
        for secret in &secrets {
            assert!(!text.contains(secret.as_str()), "{secret} in {text}");
        }
    };
    let names = |host: &str, port: &str, user: &str, database: &str| {
        json!({ "host_env": host, "port_env": port, "user_env": user, "database_env": database,
                "status": "pending" })
    };
    let cases = [
        (
            names("GHOST_HOST", "OK_PORT", "OK_USER", "OK_NAME"),
            "host_env: the host in GHOST_HOST does not resolve",
        ),
        (
            names("OK_HOST", "CLOSED_PORT", "OK_USER", "OK_NAME"),
            "cannot reach PostgreSQL at the host in OK_HOST (port in CLOSED_PORT)",
        ),
        (
            names("OK_HOST", "OK_PORT", "OK_USER", "MISSING_NAME"),
            "the database in MISSING_NAME does not exist",
        ),
        (
            names("OK_HOST", "OK_PORT", "STRANGER_USER", "OK_NAME"),
            "refused the credentials of the user in STRANGER_USER",
        ),
        (
            names("SOCKET_HOST", "OK_PORT", "OK_USER", "OK_NAME"),
            "host_env: the value of SOCKET_HOST must be a host name or an IP address",
        ),
        (
            names("OK_HOST", "BAD_PORT", "OK_USER", "OK_NAME"),
            "port_env: BAD_PORT does not hold a port number",
        ),
    ];
    let token = Some(owner.token.as_str());
    for (body, needle) in cases {
        app.post("/products/shop/connections/sql-a", token, body.clone())
            .await
            .expect(200);
        let answer = app
            .post("/products/shop/connections/sql-a/test", token, json!({}))
            .await
            .expect(200)
            .clone();
        assert_eq!(answer["ok"], false, "{body}: {answer}");
        let detail = answer["detail"].as_str().unwrap();
        assert!(detail.contains(needle), "{body}: {answer}");
        assert!(
            !detail.contains(&closed.to_string()) && !detail.contains("127.0.0.1"),
            "{detail}"
        );
        shows_none(&answer.to_string());
    }

    // Working: the answer names the database by its variable.
    app.post(
        "/products/shop/connections/sql-a",
        token,
        names("OK_HOST", "OK_PORT", "OK_USER", "OK_NAME"),
    )
    .await
    .expect(200);
    let answer = app
        .post("/products/shop/connections/sql-a/test", token, json!({}))
        .await
        .expect(200)
        .clone();
    assert_eq!(answer["ok"], true, "{answer}");
    assert!(
        answer["detail"]
            .as_str()
            .unwrap()
            .contains("the database in OK_NAME"),
        "{answer}"
    );
    shows_none(&answer.to_string());

    // A run that fails records an error naming the variables only.
    let mut failing = names("OK_HOST", "CLOSED_PORT", "OK_USER", "OK_NAME");
    failing["status"] = json!("active");
    failing["event_maps"] = json!([signups()]);
    app.post("/products/shop/connections/sql-a", token, failing)
        .await
        .expect(200);
    assert_eq!(run_due(&app).await, "1 sync runs");
    let shown = connections(&app, &owner.token).await;
    let last_error = shown[0]["last_error"].as_str().unwrap_or_default();
    assert!(last_error.contains("CLOSED_PORT"), "{shown:?}");
    assert!(!last_error.contains(&closed.to_string()), "{last_error}");
    shows_none(&json!(shown).to_string());
}

per_backend!(
    concurrent_connects_leave_one_connection,
    private_hosts_are_refused,
    staging_activation_and_maps,
    sql_a_may_be_staged_without_credentials,
    bad_bodies_name_their_field,
    encryption_must_be_configured,
    one_source_per_stage,
    maps_need_a_connection_and_the_callers_account,
    the_operator_environment_path,
    an_unset_variable_is_named,
    unresolvable_hosts_are_refused,
    connection_failures_are_plain,
    a_password_inside_the_host_name_leaves_it_whole,
    environment_values_never_show,
);
