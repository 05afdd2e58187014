//! The Connections page with a customer database, in headless Chromium
//! (`e2e/dashboard-databases.mjs`): a MariaDB database holding `users` and `orders` tables the
//! presets recognise is connected through the form, mapped from the preset suggestions (plus a
//! filter the browser adds), activated, tested and synced; the script compares the product's
//! 30-day revenue with the figure computed here from the rows inserted. The form connects as a
//! read-only user with a password, as the page advises, so the password input is exercised too.
//! Runs on both backends.

use base64::Engine as _;
use payback_domain::{Clock, DAY_MS, HOUR_MS, SystemClock, Timestamp};
use payback_server::secret::Secret;
use payback_testkit::Backend;
use payback_testkit::browser::{run_browser_script_with_env, spawn_on_wall_clock};
use payback_testkit::customer_db::{CustomerDb, Engine};
use serde_json::Value;

/// A user row: id, email, utm_source, days before now they signed up.
const USERS: [(i64, &str, Option<&str>, i64); 4] = [
    (1, "ada@example.com", Some("google"), 25),
    (2, "brook@example.com", Some("newsletter"), 22),
    (3, "cyd@example.com", None, 21),
    (4, "dee@example.com", Some("google"), 15),
];

/// An order row: id, user id, amount in cents, currency, status, days before now it was made.
/// The refunded one is left out by the filter the browser adds; the euro one is skipped by the
/// connector (the product is in USD, amounts are never converted).
const ORDERS: [(i64, i64, i64, &str, &str, i64); 6] = [
    (1, 1, 4_900, "USD", "paid", 2),
    (2, 2, 2_900, "USD", "paid", 5),
    (3, 3, 12_000, "USD", "refunded", 6),
    (4, 1, 1_500, "EUR", "paid", 8),
    (5, 4, 19_900, "USD", "paid", 12),
    (6, 2, 990, "USD", "paid", 20),
];

/// What the product's 30-day revenue must be after the sync: paid orders in dollars.
fn expected_revenue_cents() -> i64 {
    ORDERS
        .iter()
        .filter(|(_, _, _, currency, status, _)| *currency == "USD" && *status == "paid")
        .map(|(_, _, cents, ..)| cents)
        .sum()
}

/// `days` days before the wall clock (plus three hours, away from midnight), as MariaDB takes
/// it: `2026-11-20 14:00:00.000`, read back as UTC.
fn days_ago(days: i64) -> String {
    let at = Timestamp::from_millis(SystemClock.now().millis() - days * DAY_MS - 3 * HOUR_MS);
    at.to_rfc3339()
        .replace('T', " ")
        .trim_end_matches('Z')
        .to_owned()
}

/// A shop's database: the tables the `signups` and `orders` presets fit, dated within the last
/// 30 days of the real clock (the browser test runs on it).
async fn shop_database() -> CustomerDb {
    let db = CustomerDb::create(Engine::MariaDb).await;
    let mut statements = vec![
        "CREATE TABLE users (id BIGINT PRIMARY KEY, email VARCHAR(200) NOT NULL, \
         utm_source VARCHAR(40), created_at DATETIME(6) NOT NULL)"
            .to_owned(),
        "CREATE TABLE orders (id BIGINT PRIMARY KEY, user_id BIGINT NOT NULL, amount_cents INT NOT NULL, \
         currency CHAR(3) NOT NULL, status VARCHAR(20) NOT NULL, created_at DATETIME(6) NOT NULL)"
            .to_owned(),
    ];
    for (id, email, source, days) in USERS {
        let source = source.map_or("NULL".to_owned(), |s| format!("'{s}'"));
        statements.push(format!(
            "INSERT INTO users VALUES ({id}, '{email}', {source}, '{}')",
            days_ago(days)
        ));
    }
    for (id, user, cents, currency, status, days) in ORDERS {
        statements.push(format!(
            "INSERT INTO orders VALUES ({id}, {user}, {cents}, '{currency}', '{status}', '{}')",
            days_ago(days)
        ));
    }
    let refs: Vec<&str> = statements.iter().map(String::as_str).collect();
    db.execute(&refs).await;
    db
}

/// A MariaDB account that may only read the customer's database; dropped by the test.
struct Reader {
    user: String,
    password: String,
}

impl Reader {
    async fn create(db: &CustomerDb) -> Self {
        let suffix = uuid::Uuid::new_v4().simple().to_string();
        let reader = Self {
            user: format!("payback_e2e_{}", &suffix[..12]),
            password: format!("pw-{}", &suffix[12..]),
        };
        let create = format!(
            "CREATE USER '{}'@'%' IDENTIFIED BY '{}'",
            reader.user, reader.password
        );
        let grant = format!("GRANT SELECT ON {}.* TO '{}'@'%'", db.name, reader.user);
        db.execute(&[&create, &grant]).await;
        reader
    }

    async fn drop_user(&self, db: &CustomerDb) {
        let drop = format!("DROP USER IF EXISTS '{}'@'%'", self.user);
        db.execute(&[&drop]).await;
    }
}

/// The credentials as the form's fields take them, and the expected revenue, for the script.
fn script_env(db: &CustomerDb, reader: &Reader) -> Vec<(&'static str, String)> {
    let credentials = db.credentials();
    let text = |field: &str| match &credentials[field] {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    };
    vec![
        ("PAYBACK_E2E_DB_HOST", text("host")),
        ("PAYBACK_E2E_DB_PORT", text("port")),
        ("PAYBACK_E2E_DB_USER", reader.user.clone()),
        ("PAYBACK_E2E_DB_PASSWORD", reader.password.clone()),
        ("PAYBACK_E2E_DB_DATABASE", text("database")),
        (
            "PAYBACK_E2E_REVENUE_CENTS",
            expected_revenue_cents().to_string(),
        ),
    ]
}

async fn databases_page(backend: Backend) {
    let db = shop_database().await;
    let app = spawn_on_wall_clock(
        backend,
        |config| {
            let key = base64::engine::general_purpose::STANDARD.encode([11_u8; 32]);
            config.secret_key = Some(Secret::new(key));
        },
        |_| {},
    )
    .await;
    let reader = Reader::create(&db).await;
    let env = script_env(&db, &reader);
    // The account is dropped whether or not the script passed; its verdict comes after.
    let outcome = tokio::spawn(async move {
        run_browser_script_with_env(&app, "dashboard-databases", &env).await;
    })
    .await;
    reader.drop_user(&db).await;
    if let Err(failure) = outcome {
        std::panic::resume_unwind(failure.into_panic());
    }
}

#[tokio::test]
async fn databases_page_sqlite() {
    databases_page(Backend::Sqlite).await;
}

#[tokio::test]
async fn databases_page_postgres() {
    databases_page(Backend::Postgres).await;
}

#[test]
fn the_fixture_has_rows_the_revenue_leaves_out() {
    // The filter and the currency rule each change the figure the browser checks.
    let all: i64 = ORDERS.iter().map(|(_, _, cents, ..)| cents).sum();
    assert_eq!(expected_revenue_cents(), 28_690);
    assert_eq!(all - expected_revenue_cents(), 12_000 + 1_500);
}
