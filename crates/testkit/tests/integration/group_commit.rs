//! Group commit: batches written together in one transaction store exactly what the same
//! batches written one by one store, each batch's outcome counts its own events, and the
//! writer answers every request of a concurrent burst, on both backends.

use std::collections::HashSet;
use std::time::Duration;

use payback_domain::Timestamp;
use payback_store::ingest::{self, Batch, BatchOutcome, EventRecord};
use payback_store::{Db, StoreError};
use payback_testkit::{TEST_START, TestApp, backend_tests, event_record, keep_folder_busy};

const HOUR_MS: i64 = 3_600_000;

/// A small deterministic generator, so a failure reproduces.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n
    }
}

fn event(dedupe_id: String, stage: &'static str, at: i64) -> EventRecord {
    event_record("api:shop", &dedupe_id, stage, Timestamp::from_millis(at))
}

/// Six batches over 25 visitors and 6 people: visits with and without a channel, sign-ins that
/// link visitors (some linked twice, to different people: the first link wins), paid
/// conversions arriving before and after the visits that explain them, a batch repeating five
/// dedupe ids of the first, and a batch repeating one of its own.
fn scenario() -> Vec<Vec<EventRecord>> {
    let mut random = Lcg(7);
    let channels = [None, Some("paid_google"), Some("organic_search")];
    let stages = ["visit", "visit", "visit", "lead", "signup", "converted"];
    let mut batches: Vec<Vec<EventRecord>> = (0..6)
        .map(|batch| {
            (0..40)
                .map(|n| {
                    let stage = stages[random.below(stages.len() as u64) as usize];
                    let at = TEST_START.millis() - random.below(72) as i64 * HOUR_MS;
                    let mut record = event(format!("b{batch}-{n}"), stage, at);
                    record.anonymous_id = Some(format!("v{}", random.below(25)));
                    record.channel = channels[random.below(3) as usize].map(str::to_owned);
                    if matches!(stage, "signup" | "converted") {
                        record.user_id = Some(format!("p{}", random.below(6)));
                    }
                    if stage == "converted" {
                        record.is_revenue = true;
                        record.value_cents = Some(1_000 + random.below(9_000) as i64);
                        record.currency = Some("USD".to_owned());
                    }
                    record
                })
                .collect()
        })
        .collect();
    let repeated: Vec<EventRecord> = batches[0][..5].to_vec();
    batches[2].extend(repeated);
    let own = batches[3][7].clone();
    batches[3].push(own);
    batches
}

/// Every row a product's ingestion maintains, as text, in a fixed order; ids and the moment a
/// link was recorded (the transaction's) are left out.
async fn maintained_rows(app: &TestApp, product_id: &str) -> Vec<String> {
    let tables = [
        (
            "events",
            // Events keep the identity they were stored under; compared as they count now
            // (a linked anonymous identity's user), as the store's readers resolve it.
            "namespace, dedupe_id, stage, occurred_at, \
             COALESCE((SELECT 'u:' || l.user_id FROM identity_links l WHERE l.product_id = events.product_id \
             AND substr(events.identity,1,2) = 'a:' AND l.anonymous_id = substr(events.identity,3)),identity), \
             channel, received_at",
        ),
        ("identity_touches", "identity, occurred_at, channel"),
        (
            "event_days",
            "day, stage, channel, identified, source, events",
        ),
        ("stage_identity_days", "stage, day, identity, events"),
        (
            "identity_profiles",
            "identity, first_seen_at, last_seen_at, first_touch_at, first_channel, acquired_at, acquired_day, revenue_cents",
        ),
        (
            "transactions",
            "kind, stage, identity, occurred_at, amount_cents, currency, last_touch_at, last_channel",
        ),
        ("identity_links", "anonymous_id, user_id"),
    ];
    let mut rows = Vec::new();
    for (table, columns) in tables {
        let text: Vec<String> = columns
            .split(", ")
            .map(|column| format!("COALESCE(CAST({column} AS TEXT), '-')"))
            .collect();
        let sql = format!(
            "SELECT '{table}: ' || {} AS row FROM {table} WHERE product_id = $1 ORDER BY 1",
            text.join(" || ' | ' || ")
        );
        let table_rows: Vec<(String,)> = app.sql_rows(&sql, &[product_id.into()]).await;
        rows.extend(table_rows.into_iter().map(|(row,)| row));
    }
    rows
}

async fn two_products(app: &TestApp) -> (String, String) {
    let session = app.signup_verified("founder@example.com").await;
    let key = app.api_key(&session).await;
    let id = |product: serde_json::Value| product["id"].as_str().unwrap().to_owned();
    (
        id(app.create_product(&key, "grouped").await),
        id(app.create_product(&key, "single").await),
    )
}

/// What each batch should report, computed from the dedupe ids alone: an id already seen, in an
/// earlier batch or earlier in the same one, is a duplicate.
fn expected_outcomes(batches: &[Vec<EventRecord>]) -> Vec<BatchOutcome> {
    let mut seen = HashSet::new();
    batches
        .iter()
        .map(|batch| {
            let inserted = batch
                .iter()
                .filter(|record| seen.insert(record.dedupe_id.clone()))
                .count();
            BatchOutcome {
                inserted,
                duplicates: batch.len() - inserted,
            }
        })
        .collect()
}

async fn one_transaction_stores_what_one_by_one_stores(app: TestApp) {
    let (grouped, single) = two_products(&app).await;
    let batches = scenario();
    let received =
        |index: usize| Timestamp::from_millis(TEST_START.millis() + index as i64 * 1_000);

    let mut tx = app.state.store.begin().await.unwrap();
    let together: Vec<Batch<'_>> = batches
        .iter()
        .enumerate()
        .map(|(index, events)| Batch {
            events,
            received_at: received(index),
        })
        .collect();
    let grouped_outcomes = ingest::write_batches(&mut tx, &grouped, &together)
        .await
        .unwrap();
    tx.commit().await.unwrap();

    let mut single_outcomes = Vec::new();
    for (index, events) in batches.iter().enumerate() {
        single_outcomes.push(app.write_batch(&single, events, received(index)).await);
    }

    let expected = expected_outcomes(&batches);
    assert_eq!(expected[2].duplicates, 5);
    assert_eq!(expected[3].duplicates, 1);
    assert_eq!(grouped_outcomes, expected);
    assert_eq!(single_outcomes, expected);
    let rows = maintained_rows(&app, &grouped).await;
    for table in [
        "events",
        "event_days",
        "stage_identity_days",
        "identity_profiles",
        "transactions",
        "identity_links",
    ] {
        let prefix = format!("{table}: ");
        assert!(
            rows.iter().any(|row| row.starts_with(&prefix)),
            "the scenario writes {table}"
        );
    }
    assert_eq!(rows, maintained_rows(&app, &single).await);
}

backend_tests!(one_transaction_stores_what_one_by_one_stores);

/// The same scenario written through the writer (each request answered once its batch is in
/// the inbox, folded whenever the folder gets to it) leaves exactly the rows that writing the
/// batches one by one leaves.
async fn the_inbox_folds_what_one_by_one_stores(app: TestApp) {
    let (through_inbox, single) = two_products(&app).await;
    let batches = scenario();
    let received =
        |index: usize| Timestamp::from_millis(TEST_START.millis() + index as i64 * 1_000);
    for (index, events) in batches.iter().enumerate() {
        app.state
            .ingest
            .write(&through_inbox, events.clone(), received(index))
            .await
            .unwrap();
        app.write_batch(&single, events, received(index)).await;
    }
    // `maintained_rows` settles first, as every report does.
    let rows = maintained_rows(&app, &through_inbox).await;
    assert!(rows.iter().any(|row| row.starts_with("transactions: ")));
    assert_eq!(rows, maintained_rows(&app, &single).await);
    assert_eq!(pending_in_inbox(&app).await, 0);
}

backend_tests!(the_inbox_folds_what_one_by_one_stores);

/// Thirty requests at once, for two products, with dedupe ids shared between requests: every
/// request is answered, and once settled each distinct event is stored exactly once.
async fn a_burst_through_the_writer_is_answered_request_by_request(app: TestApp) {
    let (first, second) = two_products(&app).await;
    let mut requests = tokio::task::JoinSet::new();
    for request in 0..30 {
        let writer = app.state.ingest.clone();
        let product = if request % 3 == 0 {
            second.clone()
        } else {
            first.clone()
        };
        let events: Vec<EventRecord> = (0..50)
            // Requests n and n + 6 share ids 0..25: half of each later one is duplicates.
            .map(|n| {
                let owner = if n < 25 { request % 6 } else { request };
                let mut record = event(format!("r{owner}-{n}"), "visit", TEST_START.millis());
                record.anonymous_id = Some(format!("v{}", n % 7));
                record
            })
            .collect();
        requests.spawn(async move { writer.write(&product, events, TEST_START).await });
    }
    let answers = requests.join_all().await;
    assert_eq!(answers.len(), 30);
    assert!(answers.iter().all(Result::is_ok), "{answers:?}");
    for product in [&first, &second] {
        let stored = maintained_rows(&app, product)
            .await
            .into_iter()
            .filter(|row| row.starts_with("events: "))
            .count();
        // Distinct ids sent to this product: 25 of its own per request, plus 25 per
        // `request % 6` group reaching it.
        let distinct: HashSet<String> = (0..30)
            .filter(|request| (request % 3 == 0) == (product == &second))
            .flat_map(|request| {
                (0..50).map(move |n| {
                    let owner = if n < 25 { request % 6 } else { request };
                    format!("r{owner}-{n}")
                })
            })
            .collect();
        assert_eq!(stored, distinct.len());
    }
}

backend_tests!(a_burst_through_the_writer_is_answered_request_by_request);

/// The inbox of the app's store: the SQLite inbox file beside the database, or PostgreSQL's
/// `event_inbox` table.
async fn inbox_db(app: &TestApp) -> Db {
    match &app.state.store {
        Db::Sqlite(pool) => {
            let file = pool
                .connect_options()
                .get_filename()
                .to_string_lossy()
                .into_owned();
            Db::connect(&format!("sqlite://{file}.inbox"))
                .await
                .unwrap()
        }
        Db::Postgres(pool) => Db::Postgres(pool.clone()),
    }
}

/// Runs `$body` with `$pool` bound to the inbox's pool of either backend.
macro_rules! on_inbox {
    ($app:expr, $pool:ident => $body:expr) => {
        match inbox_db($app).await {
            Db::Sqlite($pool) => $body,
            Db::Postgres($pool) => $body,
        }
    };
}

async fn pending_in_inbox(app: &TestApp) -> i64 {
    let sql = "SELECT COUNT(*) FROM event_inbox";
    on_inbox!(app, pool => sqlx::query_scalar(sql).fetch_one(&pool).await.unwrap())
}

/// Puts a batch into the inbox the way an earlier run would have left it.
async fn leave_in_inbox(app: &TestApp, product_id: &str, events: &[EventRecord]) {
    let sql = "INSERT INTO event_inbox (product_id, received_at, payload) VALUES ($1, $2, $3)";
    let payload = serde_json::to_string(events).unwrap();
    let inserted = on_inbox!(app, pool => sqlx::query(sql)
        .bind(product_id)
        .bind(TEST_START.millis())
        .bind(payload)
        .execute(&pool)
        .await
        .unwrap()
        .rows_affected());
    assert_eq!(inserted, 1);
}

/// A batch left in the inbox (a run stopped after folding it but before removing it, or
/// before folding it at all) is folded by the next settle, and folding it again stores
/// nothing twice.
async fn a_batch_left_in_the_inbox_is_folded_once(app: TestApp) {
    let (product, _) = two_products(&app).await;
    let mut sale = event("sale-1".to_owned(), "converted", TEST_START.millis());
    sale.user_id = Some("p1".to_owned());
    sale.is_revenue = true;
    sale.value_cents = Some(4_200);
    sale.currency = Some("USD".to_owned());
    let batch = vec![
        event("visit-1".to_owned(), "visit", TEST_START.millis()),
        sale,
    ];
    leave_in_inbox(&app, &product, &batch).await;
    leave_in_inbox(&app, &product, &batch).await;
    app.settle().await;
    assert_eq!(pending_in_inbox(&app).await, 0);
    let rows = maintained_rows(&app, &product).await;
    let count = |prefix: &str| rows.iter().filter(|row| row.starts_with(prefix)).count();
    assert_eq!(count("events: "), 2);
    assert_eq!(count("transactions: "), 1);
    let revenue: i64 = app
        .sql_value(
            "SELECT revenue_cents FROM identity_profiles WHERE product_id = $1 AND identity = 'u:p1'",
            &[product.as_str().into()],
        )
        .await;
    assert_eq!(revenue, 4_200);
}

backend_tests!(a_batch_left_in_the_inbox_is_folded_once);

/// A batch the database refuses while folding is set aside in `ingest_failures` with the
/// error, and the batches around it are still stored. On PostgreSQL, text holding U+0000 is
/// refused by the database itself (the API refuses it before the store; this goes straight to
/// the writer); SQLite stores any text, so its refusals are planted with a trigger instead
/// (`ingest_failures.rs`, on both backends).
#[tokio::test]
async fn a_refused_batch_is_set_aside_alone() {
    let app = TestApp::spawn(payback_testkit::Backend::Postgres).await;
    let (product, _) = two_products(&app).await;
    keep_folder_busy(&app, &product).await;
    for name in ["good-1", "poisoned", "good-2"] {
        let dedupe = if name == "poisoned" {
            "bad\0id".to_owned()
        } else {
            name.to_owned()
        };
        let events = vec![event(dedupe, "lead", TEST_START.millis())];
        // Accepted: the inbox holds it as JSON text, where U+0000 is an escape.
        app.state
            .ingest
            .write(&product, events, TEST_START)
            .await
            .unwrap();
    }
    let stored = maintained_rows(&app, &product)
        .await
        .into_iter()
        .filter(|row| row.starts_with("events: "))
        .count();
    assert_eq!(stored, 3_002);
    assert_eq!(pending_in_inbox(&app).await, 0);
    let failures: Vec<(String, String)> = app
        .sql_rows(
            "SELECT payload, error FROM ingest_failures WHERE product_id = $1",
            &[product.as_str().into()],
        )
        .await;
    assert_eq!(failures.len(), 1, "{failures:?}");
    let set_aside: Vec<EventRecord> = serde_json::from_str(&failures[0].0).unwrap();
    assert_eq!(set_aside[0].dedupe_id, "bad\0id");
    assert!(failures[0].1.contains("0x00"), "{}", failures[0].1);

    assert_health_reports_one_failure(&app, "0x00").await;
}

/// `GET /health` says the `grouped` product's tracking is failing: one batch set aside, with
/// an error containing `cause`; the `single` product stays healthy.
async fn assert_health_reports_one_failure(app: &TestApp, cause: &str) {
    let health = app.health_seen_by("founder@example.com").await;
    let tracking = tracking_of(&health, "grouped");
    assert_eq!(tracking["status"], "failing");
    assert_eq!(tracking["consecutive_failures"], 1);
    let error = tracking["last_error"].as_str().unwrap();
    assert!(
        error.starts_with("1 accepted batch(es) could not be stored"),
        "{error}"
    );
    assert!(error.contains(cause), "{error}");
    let product = health["products"]
        .as_array()
        .unwrap()
        .iter()
        .find(|product| product["slug"] == "grouped")
        .unwrap();
    assert_eq!(product["status"], "fail");
    let healthy = tracking_of(&health, "single");
    assert_eq!(healthy["consecutive_failures"], 0);
    assert_eq!(healthy["last_error"], serde_json::Value::Null);
}

/// The `tracking` source of `slug` in a `GET /health` answer.
fn tracking_of<'a>(health: &'a serde_json::Value, slug: &str) -> &'a serde_json::Value {
    health["sources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|source| source["product_slug"] == slug && source["source"] == "tracking")
        .unwrap()
}

/// Closing the store (the service shutting down) stops the folder instead of leaving it
/// retrying against a closed pool: a reader waiting on a fold is told the writer stopped.
async fn closing_the_store_stops_the_folder(app: TestApp) {
    app.state.store.close().await;
    let stopped = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            match app.state.ingest.settle_all().await {
                Err(StoreError::WriterStopped) => break,
                _ => tokio::time::sleep(Duration::from_millis(50)).await,
            }
        }
    })
    .await;
    assert!(
        stopped.is_ok(),
        "the folder still answered 10 s after the store closed"
    );
}

backend_tests!(closing_the_store_stops_the_folder);

/// A service stopping (`payback serve` after SIGTERM: `app::close`) closes the store, lets the
/// folder stop and closes the inbox: nothing answers a settle any more, SQLite's WAL is copied
/// back into both database files (no `-wal` left with content), and every accepted batch is
/// stored by the next start, folded or still pending.
async fn a_stopping_service_keeps_every_accepted_batch(app: TestApp) {
    let (product, _) = two_products(&app).await;
    for batch in 0..20 {
        let events: Vec<EventRecord> = (0..50)
            .map(|n| event(format!("b{batch}-{n}"), "visit", TEST_START.millis() + n))
            .collect();
        app.state
            .ingest
            .write(&product, events, TEST_START)
            .await
            .unwrap();
    }
    payback_server::app::close(&app.state.store, &app.state.ingest).await;
    assert!(matches!(
        app.state.ingest.settle_all().await,
        Err(StoreError::WriterStopped)
    ));
    if let Db::Sqlite(pool) = &app.state.store {
        let file = pool.connect_options().get_filename().to_owned();
        for wal in [
            format!("{}-wal", file.display()),
            format!("{}.inbox-wal", file.display()),
        ] {
            let left = std::fs::metadata(&wal).map_or(0, |meta| meta.len());
            assert_eq!(left, 0, "{wal} still holds {left} bytes");
        }
    }
    let app = app.restart_with(|_| {}).await;
    app.settle().await;
    let stored: i64 = app
        .sql_value(
            "SELECT COUNT(*) FROM events WHERE product_id = $1",
            &[product.as_str().into()],
        )
        .await;
    assert_eq!(stored, 1_000);
}

backend_tests!(a_stopping_service_keeps_every_accepted_batch);
