//! Group commit: batches written together in one transaction store exactly what the same
//! batches written one by one store, each batch's outcome counts its own events, and the
//! writer answers every request of a concurrent burst, on both backends.

#![allow(clippy::unwrap_used)]

use std::collections::HashSet;

use payback_domain::Timestamp;
use payback_store::ingest::{self, Batch, BatchOutcome, EventRecord};
use payback_testkit::{TEST_START, TestApp, backend_tests};

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
    EventRecord {
        namespace: "api:shop".to_owned(),
        dedupe_id,
        stage,
        name: None,
        occurred_at: Timestamp::from_millis(at),
        anonymous_id: None,
        user_id: None,
        email: None,
        value_cents: None,
        currency: None,
        channel: None,
        attribution: None,
        utm_campaign: None,
        properties: None,
        is_revenue: false,
        acquires: matches!(stage, "converted" | "payment"),
    }
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
            "namespace, dedupe_id, stage, occurred_at, identity, channel, received_at",
        ),
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
        let mut tx = app.state.store.begin().await.unwrap();
        single_outcomes.push(
            ingest::write_batch(&mut tx, &single, events, received(index))
                .await
                .unwrap(),
        );
        tx.commit().await.unwrap();
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

/// Thirty requests at once, for two products, with dedupe ids shared between requests: every
/// request is answered, each event stored once, and the outcomes add up to what was sent.
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
        requests.spawn(async move {
            let outcome = writer.write(&product, events, TEST_START).await.unwrap();
            (product, outcome)
        });
    }
    let answers = requests.join_all().await;
    assert_eq!(answers.len(), 30);
    for product in [&first, &second] {
        let outcomes: Vec<BatchOutcome> = answers
            .iter()
            .filter(|(id, _)| id == product)
            .map(|(_, outcome)| *outcome)
            .collect();
        let inserted: usize = outcomes.iter().map(|o| o.inserted).sum();
        let sent: usize = outcomes.iter().map(|o| o.inserted + o.duplicates).sum();
        assert_eq!(sent, outcomes.len() * 50);
        let stored = maintained_rows(&app, product)
            .await
            .into_iter()
            .filter(|row| row.starts_with("events: "))
            .count();
        assert_eq!(stored, inserted);
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
        assert_eq!(inserted, distinct.len());
    }
}

backend_tests!(a_burst_through_the_writer_is_answered_request_by_request);

/// A batch the database refuses fails alone: the batches queued with it are still stored. On
/// PostgreSQL, text holding U+0000 is refused by the database itself (the API refuses it
/// before the store; this goes straight to the writer); SQLite stores any text, so there is
/// no batch it refuses to write.
#[tokio::test]
async fn a_refused_batch_fails_alone() {
    let app = TestApp::spawn(payback_testkit::Backend::Postgres).await;
    let (product, _) = two_products(&app).await;
    // A large first batch keeps the writer busy while the others queue behind it, so they are
    // written as one group, which fails, and then one by one.
    let large: Vec<EventRecord> = (0..3_000)
        .map(|n| event(format!("large-{n}"), "visit", TEST_START.millis()))
        .collect();
    let mut requests = tokio::task::JoinSet::new();
    let writer = app.state.ingest.clone();
    let first = product.clone();
    requests.spawn(async move { ("large", writer.write(&first, large, TEST_START).await) });
    tokio::task::yield_now().await;
    for name in ["good-1", "poisoned", "good-2"] {
        let writer = app.state.ingest.clone();
        let product = product.clone();
        let dedupe = if name == "poisoned" {
            "bad\0id".to_owned()
        } else {
            name.to_owned()
        };
        let events = vec![event(dedupe, "lead", TEST_START.millis())];
        requests.spawn(async move { (name, writer.write(&product, events, TEST_START).await) });
    }
    let mut answers = requests.join_all().await;
    answers.sort_by_key(|(name, _)| *name);
    let summary: Vec<(&str, Result<usize, String>)> = answers
        .into_iter()
        .map(|(name, outcome)| (name, outcome.map(|o| o.inserted).map_err(|e| e.to_string())))
        .collect();
    assert_eq!(summary[0], ("good-1", Ok(1)));
    assert_eq!(summary[1], ("good-2", Ok(1)));
    assert_eq!(summary[2], ("large", Ok(3_000)));
    assert_eq!(summary[3].0, "poisoned");
    assert!(summary[3].1.is_err(), "{:?}", summary[3]);
    let stored = maintained_rows(&app, &product)
        .await
        .into_iter()
        .filter(|row| row.starts_with("events: "))
        .count();
    assert_eq!(stored, 3_002);
}
