//! Where a tenant's database may live and what its errors may say (security review, issue 19):
//! the operator's environment-variable path (names stored and shown, values never), private and
//! unresolvable hosts refused, connection failures as plain sentences naming the host as given,
//! and messages built without the credential.

use super::*;

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
    the_operator_environment_path,
    an_unset_variable_is_named,
    private_hosts_are_refused,
    unresolvable_hosts_are_refused,
    connection_failures_are_plain,
    a_password_inside_the_host_name_leaves_it_whole,
    environment_values_never_show,
);
