//! The connector's session: read-only and UTC (a writing view is refused), what `test` reports,
//! the statement timeout cutting off a slow read, TLS following the SSL mode, and the checked
//! addresses dialed instead of the host name.

use super::*;
use payback_connectors::database::source::Database;

use std::time::{Duration, Instant};

use payback_connectors::sql::SslMode;

on_both!(
    sessions_are_read_only_utc_and_say_so,
    a_slow_statement_is_cut_off,
    tls_follows_the_ssl_mode,
    the_checked_address_is_dialed_not_the_name,
);

/// `PostgreSQL 15.20` / `MariaDB 10.11.19`, from the server's own version string.
async fn server_label(db: &mut TestDb) -> String {
    let version = match db.backend {
        Backend::Postgres => db.text("SHOW server_version").await,
        Backend::MySql => db.text("SELECT CAST(VERSION() AS CHAR)").await,
    };
    let number: String = version
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    let product = match db.backend {
        Backend::Postgres => "PostgreSQL",
        Backend::MySql if version.contains("MariaDB") => "MariaDB",
        Backend::MySql => "MySQL",
    };
    format!("{product} {number}")
}

async fn sessions_are_read_only_utc_and_say_so(backend: Backend) {
    let mut db = TestDb::create(backend).await;
    let pg = backend == Backend::Postgres;
    let config = db.config();

    let settings = sql::session_settings(&config).await.unwrap();
    assert!(settings.read_only);
    assert_eq!(settings.server, server_label(&mut db).await);
    if pg {
        assert_eq!(settings.time_zone, "UTC");
        assert_eq!(settings.statement_timeout, "10s");
    } else {
        assert_eq!(settings.time_zone, "+00:00");
        let limit: f64 = settings.statement_timeout.parse().unwrap();
        assert!(limit == 10.0 || limit == 10_000.0, "{limit}");
    }

    // A view whose column calls a function that writes: through the connector's session the
    // write is refused; through the setup connection the same read writes.
    if pg {
        db.exec(
            "CREATE TABLE audit_log (n integer); \
             CREATE TABLE base_rows (id integer PRIMARY KEY, created_at timestamptz NOT NULL); \
             CREATE FUNCTION bump() RETURNS integer LANGUAGE plpgsql AS \
               $$ BEGIN INSERT INTO audit_log VALUES (1); RETURN 1; END $$; \
             CREATE VIEW sneaky AS SELECT id, created_at, bump() AS touched FROM base_rows",
        )
        .await;
    } else {
        db.exec(
            "CREATE TABLE audit_log (n INT); \
             CREATE TABLE base_rows (id INT PRIMARY KEY, created_at DATETIME(6) NOT NULL)",
        )
        .await;
        db.exec(
            "CREATE FUNCTION bump() RETURNS INT MODIFIES SQL DATA \
             BEGIN INSERT INTO audit_log VALUES (1); RETURN 1; END",
        )
        .await;
        db.exec("CREATE VIEW sneaky AS SELECT id, created_at, bump() AS touched FROM base_rows")
            .await;
    }
    db.exec(&format!(
        "INSERT INTO base_rows VALUES (1, {}), (2, {})",
        time_literal(T0 + HOUR, pg),
        time_literal(T0 + 2 * HOUR, pg)
    ))
    .await;
    let sneaky = parse_maps(json!([{"table": "sneaky", "stage": "signup",
        "timestamp": "created_at", "dedupe_key": "id", "user_id": "touched"}]));
    let err = run(&config, &sneaky, window(T0, T0 + DAY))
        .await
        .expect_err("the write is refused");
    // PostgreSQL refuses the write itself; MariaDB already hides such a view's columns from
    // a read-only session.
    assert!(
        match (&err, pg) {
            (ConnectorError::Vendor(m), true) =>
                m.contains("refused a write") && m.contains("read-only"),
            (ConnectorError::Config(m), false) =>
                m.contains("`sneaky` shows no columns to the connector's read-only session"),
            _ => false,
        },
        "{err:?}"
    );
    assert_eq!(db.number("SELECT COUNT(*) FROM audit_log").await, 0);
    let control = if pg {
        "SELECT COUNT(touched) FROM sneaky"
    } else {
        "SELECT CAST(COUNT(touched) AS SIGNED) FROM sneaky"
    };
    assert_eq!(db.number(control).await, 2);
    assert_eq!(db.number("SELECT COUNT(*) FROM audit_log").await, 2);

    // `test` reports the server, the database and what is readable.
    let tables = 2 + 1; // audit_log, base_rows, the view
    let detail = config.test().await.unwrap();
    assert_eq!(
        detail,
        format!(
            "{} answers; database `{}`, {tables} tables readable; read-only session",
            server_label(&mut db).await,
            db.name
        )
    );
}

async fn a_slow_statement_is_cut_off(backend: Backend) {
    let mut db = TestDb::create(backend).await;
    let pg = backend == Backend::Postgres;
    if pg {
        db.exec(
            "CREATE TABLE base_rows (id integer PRIMARY KEY, created_at timestamptz NOT NULL); \
             CREATE FUNCTION slow_id(n integer) RETURNS integer LANGUAGE plpgsql AS \
               $$ BEGIN PERFORM pg_sleep(0.5); RETURN n; END $$; \
             CREATE VIEW slow_rows AS SELECT slow_id(id) AS id, created_at FROM base_rows",
        )
        .await;
    } else {
        db.exec(
            "CREATE TABLE base_rows (id INT PRIMARY KEY, created_at DATETIME(6) NOT NULL); \
             CREATE VIEW slow_rows AS SELECT id + SLEEP(0.5) AS id, created_at FROM base_rows",
        )
        .await;
    }
    let rows: Vec<String> = (1..=8)
        .map(|i| format!("({i}, {})", time_literal(T0 + i * MINUTE, pg)))
        .collect();
    db.exec(&format!("INSERT INTO base_rows VALUES {}", rows.join(", ")))
        .await;
    let mut config = db.config();
    config.limits.statement_timeout = Duration::from_secs(1);
    let slow = parse_maps(json!([{"table": "slow_rows", "stage": "visit",
        "timestamp": "created_at", "dedupe_key": "id"}]));
    let started = Instant::now();
    let err = run(&config, &slow, window(T0, T0 + DAY))
        .await
        .expect_err("cut off");
    let elapsed = started.elapsed();
    assert!(
        matches!(&err, ConnectorError::Vendor(m) if m.contains("statement timed out after 1s")),
        "{err:?}"
    );
    // Eight rows at half a second each would take four.
    assert!(elapsed < Duration::from_millis(3500), "{elapsed:?}");
}

async fn tls_follows_the_ssl_mode(backend: Backend) {
    let mut db = TestDb::create(backend).await;
    let server_has_tls = match backend {
        Backend::Postgres => db.text("SHOW ssl").await == "on",
        Backend::MySql => db.text("SELECT CAST(@@have_ssl AS CHAR)").await == "YES",
    };
    let mut config = db.config();
    config.credentials.ssl_mode = SslMode::Disable;
    let plain = config.test().await.unwrap();
    assert!(plain.ends_with("read-only session"), "{plain}");

    config.credentials.ssl_mode = SslMode::Require;
    let required = config.test().await;
    if server_has_tls {
        assert_eq!(required.unwrap(), plain);
    } else {
        let err = required.expect_err("no TLS on this server");
        assert!(
            matches!(&err, ConnectorError::Unreachable(m) if m.contains("TLS")),
            "{err:?}"
        );
    }
}

/// The connector dials the addresses the host was checked at and never resolves the name
/// itself: a name that resolves nowhere (RFC 6761's `.invalid`) connects through its checked
/// address, with and without TLS, and messages name the host as given.
async fn the_checked_address_is_dialed_not_the_name(backend: Backend) {
    let db = TestDb::create(backend).await;
    let mut config = db.config();
    config.credentials.host = "db.example.invalid".to_owned();
    for mode in [SslMode::Disable, SslMode::Prefer] {
        config.credentials.ssl_mode = mode;
        let detail = config.test().await.unwrap();
        assert!(detail.ends_with("read-only session"), "{detail}");
    }
    let mut wrong = config.clone();
    wrong.credentials.database = format!("{}_elsewhere", db.name);
    let err = wrong.test().await.expect_err("no such database");
    let text = err.to_string();
    assert!(text.contains("db.example.invalid:"), "{text}");
    for address in &config.addresses {
        assert!(!text.contains(&address.to_string()), "{text}");
    }
}
