//! Customer databases end to end: a product's own PostgreSQL (`sql-a`) or MariaDB (`sql-b`)
//! holds signups and orders; connecting with event maps, the sync climbs the backfill ladder and
//! the attribution report equals an independent computation from the rows the test inserted
//! (the refunded order filtered out, the euro order skipped, users without utm tags
//! `unattributed`). A re-read stores nothing twice; the password never shows.

use base64::Engine as _;
use payback_domain::{Clock, DAY_MS, HOUR_MS, Timestamp};
use payback_server::secret::Secret;
use payback_server::services::sync;
use payback_testkit::customer_db::{CustomerDb, Engine};
use payback_testkit::{Backend, Session, TEST_START, TestApp, per_backend};
use serde_json::{Value, json};

const USERS: i64 = 30;

fn secret_key() -> Secret {
    Secret::new(base64::engine::general_purpose::STANDARD.encode([7_u8; 32]))
}

/// How many days before the test's start user `i` signed up (1 to 320).
fn signup_days_ago(i: i64) -> i64 {
    i * 11 + 1
}

fn signed_up_at(i: i64) -> Timestamp {
    Timestamp::from_millis(TEST_START.millis() - signup_days_ago(i) * DAY_MS)
}

/// Users 0, 3, 6... came from a Google ad; 1, 4, 7... from the newsletter; the rest untagged.
fn utm(i: i64) -> Option<(&'static str, &'static str)> {
    match i % 3 {
        0 => Some(("google", "cpc")),
        1 => Some(("newsletter", "email")),
        _ => None,
    }
}

fn channel(i: i64) -> &'static str {
    match i % 3 {
        0 => "paid_google",
        1 => "email",
        _ => "unattributed",
    }
}

/// Even users order two hours after signing up, 10.00 + i; user 4 pays in euros (skipped),
/// user 10's order was refunded (filtered out by the map).
fn order_cents(i: i64) -> Option<i64> {
    (i % 2 == 0 && i != 4 && i != 10).then_some(1_000 + 100 * i)
}

fn sql_time(at: Timestamp) -> String {
    // `2026-11-20 14:00:00`: both engines read it; PostgreSQL as UTC under the session zone.
    at.to_rfc3339()
        .replace('T', " ")
        .trim_end_matches('Z')
        .to_owned()
}

async fn fill(db: &CustomerDb) {
    let (schema, ts, money) = match db.engine {
        Engine::Postgres => ("app.", "TIMESTAMPTZ", "NUMERIC(10,2)"),
        Engine::MariaDb => ("", "DATETIME(6)", "DECIMAL(10,2)"),
    };
    let mut statements = Vec::new();
    if db.engine == Engine::Postgres {
        statements.push("CREATE SCHEMA app".to_owned());
    }
    statements.push(format!(
        "CREATE TABLE {schema}users (id BIGINT PRIMARY KEY, created_at {ts} NOT NULL, user_id VARCHAR(40), \
         email VARCHAR(200), utm_source VARCHAR(40), utm_medium VARCHAR(40))"
    ));
    statements.push(format!(
        "CREATE TABLE {schema}orders (id VARCHAR(40) PRIMARY KEY, user_id VARCHAR(40), paid_at {ts} NOT NULL, \
         amount {money} NOT NULL, currency CHAR(3) NOT NULL, status VARCHAR(20) NOT NULL)"
    ));
    let zone = if db.engine == Engine::Postgres {
        "+00"
    } else {
        ""
    };
    for i in 0..USERS {
        let (source, medium) = match utm(i) {
            Some((s, m)) => (format!("'{s}'"), format!("'{m}'")),
            None => ("NULL".to_owned(), "NULL".to_owned()),
        };
        statements.push(format!(
            "INSERT INTO {schema}users VALUES ({i}, '{}{zone}', 'u{i}', 'User{i}@Example.com', {source}, {medium})",
            sql_time(signed_up_at(i))
        ));
        if i % 2 == 0 {
            let paid = Timestamp::from_millis(signed_up_at(i).millis() + 2 * HOUR_MS);
            let currency = if i == 4 { "EUR" } else { "USD" };
            let status = if i == 10 { "refunded" } else { "paid" };
            statements.push(format!(
                "INSERT INTO {schema}orders VALUES ('o{i}', 'u{i}', '{}{zone}', {}.00, '{currency}', '{status}')",
                sql_time(paid),
                10 + i
            ));
        }
    }
    let refs: Vec<&str> = statements.iter().map(String::as_str).collect();
    db.execute(&refs).await;
}

fn maps(engine: Engine) -> Value {
    let schema = match engine {
        Engine::Postgres => json!("app"),
        Engine::MariaDb => Value::Null,
    };
    let mut users = json!({
        "table": "users", "stage": "signup", "timestamp": "created_at", "dedupe_key": "id",
        "user_id": "user_id", "email": "email",
        "attribution": { "utm_source": "utm_source", "utm_medium": "utm_medium" }
    });
    let mut orders = json!({
        "table": "orders", "stage": "payment", "timestamp": "paid_at", "dedupe_key": "id",
        "user_id": "user_id",
        "revenue": { "column": "amount", "unit": "major", "currency": "currency" },
        "filter": [{ "column": "status", "op": "eq", "value": "paid" }]
    });
    if !schema.is_null() {
        users["schema"] = schema.clone();
        orders["schema"] = schema;
    }
    json!([users, orders])
}

fn path_word(engine: Engine) -> &'static str {
    match engine {
        Engine::Postgres => "sql-a",
        Engine::MariaDb => "sql-b",
    }
}

async fn attribution(app: &TestApp, token: &str, days: i64) -> Value {
    app.get(
        &format!("/products/shop/attribution?days={days}"),
        Some(token),
    )
    .await
    .expect(200)
    .clone()
}

/// Revenue per channel (the report's first-touch column) in a `days` window, from the rows.
fn expected_revenue(days: i64) -> std::collections::BTreeMap<&'static str, i64> {
    let mut by_channel = std::collections::BTreeMap::new();
    for i in 0..USERS {
        if let Some(cents) = order_cents(i).filter(|_| signup_days_ago(i) < days) {
            *by_channel.entry(channel(i)).or_insert(0) += cents;
        }
    }
    by_channel
}

fn report_revenue(report: &Value) -> std::collections::BTreeMap<String, i64> {
    report["channels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| {
            (
                row["channel"].as_str().unwrap().to_owned(),
                row["revenue_first_cents"].as_i64().unwrap(),
            )
        })
        .filter(|(_, cents)| *cents != 0)
        .collect()
}

fn assert_revenue(report: &Value, days: i64) {
    let expected = expected_revenue(days);
    let got = report_revenue(report);
    let expected: std::collections::BTreeMap<String, i64> = expected
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v))
        .collect();
    assert_eq!(got, expected, "days={days}");
    assert_eq!(
        report["totals"]["revenue_cents"].as_i64().unwrap(),
        expected.values().sum::<i64>()
    );
}

async fn run(app: &TestApp) {
    let ran = sync::run_due(&app.state, app.clock.now()).await.unwrap();
    assert_eq!(ran, "1 sync runs");
}

async fn connection(app: &TestApp, token: &str) -> Value {
    let list = app
        .get("/connections", Some(token))
        .await
        .expect(200)
        .clone();
    list.as_array().unwrap()[0].clone()
}

async fn numbers_match(backend: Backend, engine: Engine) {
    let db = CustomerDb::create(engine).await;
    fill(&db).await;
    let app = TestApp::spawn_with(backend, |config| config.secret_key = Some(secret_key())).await;
    let owner: Session = app.signup_verified("founder@example.com").await;
    app.create_product(&owner.token, "shop").await;
    let word = path_word(engine);
    let reply = app
        .post(
            &format!("/products/shop/connections/{word}"),
            Some(&owner.token),
            json!({ "credentials": db.credentials(), "event_maps": maps(engine) }),
        )
        .await;
    let body = reply.expect(200);
    assert_eq!(body["ok"], true);
    assert_eq!(body["status"], "active");

    let shown = connection(&app, &owner.token).await;
    assert_eq!(shown["kind"], word.replace('-', "_"));
    assert_eq!(shown["config"]["via"], "credentials");
    assert!(
        shown["config"]["target"]
            .as_str()
            .unwrap()
            .ends_with(&db.name)
    );
    assert_eq!(shown["event_maps"].as_array().unwrap().len(), 2);

    // The ladder: 30 days first, then a year, then everything.
    run(&app).await;
    let shown = connection(&app, &owner.token).await;
    assert_eq!(shown["last_error"], Value::Null, "{shown}");
    assert_eq!(shown["backfill_days"], 30);
    // The status line counts what the 30 days held: users signed up 1, 12 and 23 days ago
    // (0, 1, 2), orders of users 0 and 2 (both paid, in dollars).
    let table = |name: &str| match engine {
        Engine::Postgres => format!("app.{name}"),
        Engine::MariaDb => name.to_owned(),
    };
    assert_eq!(
        shown["last_detail"],
        format!(
            "{}: 3 rows, 3 events; {}: 2 rows, 2 events",
            table("users"),
            table("orders")
        )
    );
    assert_revenue(&attribution(&app, &owner.token, 30).await, 30);
    let year = attribution(&app, &owner.token, 365).await;
    assert_eq!(
        year["totals"]["revenue_cents"],
        attribution(&app, &owner.token, 30).await["totals"]["revenue_cents"]
    );

    for depth in [365, 3650] {
        app.clock.advance(HOUR_MS);
        run(&app).await;
        assert_eq!(connection(&app, &owner.token).await["backfill_days"], depth);
    }
    // Everything read: the euro order is counted apart, the refunded one never read.
    let orders = (0..USERS).filter(|i| i % 2 == 0 && *i != 10).count();
    let detail = connection(&app, &owner.token).await["last_detail"].clone();
    assert_eq!(
        detail,
        format!(
            "{}: {USERS} rows, {USERS} events; {}: {orders} rows, {} events, 1 in another currency",
            table("users"),
            table("orders"),
            orders - 1
        )
    );
    let now_days = 365;
    let report = attribution(&app, &owner.token, now_days).await;
    assert_revenue(&report, now_days);
    // Customers: every user with a counted order, by the channel of their signup.
    let customers: i64 = (0..USERS).filter(|i| order_cents(*i).is_some()).count() as i64;
    let reported: i64 = report["channels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row["customers_first"].as_i64().unwrap_or(0))
        .sum();
    assert_eq!(reported, customers);

    // A re-read of the recent days stores nothing twice.
    app.clock.advance(HOUR_MS);
    run(&app).await;
    assert_eq!(
        attribution(&app, &owner.token, now_days).await["totals"],
        report["totals"]
    );
}

async fn postgres_numbers(backend: Backend) {
    numbers_match(backend, Engine::Postgres).await;
}

async fn mariadb_numbers(backend: Backend) {
    numbers_match(backend, Engine::MariaDb).await;
}

/// A wrong password: the test answers `ok: false` saying the credentials were refused, and
/// neither that answer, the inventory, the history nor the stored bytes contain the password.
async fn wrong_password_never_shows(backend: Backend) {
    const PASSWORD: &str = "hunter2-very-secret";
    let db = CustomerDb::create(Engine::Postgres).await;
    let app = TestApp::spawn_with(backend, |config| config.secret_key = Some(secret_key())).await;
    let owner = app.signup_verified("founder@example.com").await;
    app.create_product(&owner.token, "shop").await;
    let mut credentials = db.credentials();
    credentials["user"] = json!("payback_nobody");
    credentials["password"] = json!(PASSWORD);
    app.post(
        "/products/shop/connections/sql-a",
        Some(&owner.token),
        json!({ "credentials": credentials, "status": "pending" }),
    )
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
        tested["detail"].as_str().unwrap().contains("refused"),
        "{tested}"
    );
    let inventory = app
        .get("/connections", Some(&owner.token))
        .await
        .expect(200)
        .to_string();
    let history = app.history(&owner.token, "?limit=1000").await;
    for text in [tested.to_string(), inventory, json!(history).to_string()] {
        assert!(!text.contains(PASSWORD), "{text}");
    }
    // The stored bytes: read through the store, as the service reads them.
    let store = &app.state.store;
    let list = payback_store::connections::list(store, &payback_store::Visibility::AllAccounts)
        .await
        .unwrap();
    let credential_id = list[0].credential_id.as_deref().unwrap();
    let sealed = payback_store::connections::credential(store, credential_id)
        .await
        .unwrap()
        .unwrap();
    assert!(
        !sealed
            .ciphertext
            .windows(PASSWORD.len())
            .any(|w| w == PASSWORD.as_bytes())
    );
}

per_backend!(
    postgres_numbers,
    mariadb_numbers,
    wrong_password_never_shows
);

#[test]
fn the_fixture_spreads_revenue_over_every_row_kind() {
    let all = expected_revenue(3650);
    assert_eq!(all.len(), 3, "{all:?}");
    assert!(expected_revenue(30).values().sum::<i64>() < all.values().sum::<i64>());
}
