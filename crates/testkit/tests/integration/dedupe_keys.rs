//! Deduplication by compact key (`store/src/ingest/keys.rs`): a hash collision never drops a
//! genuine event, and events stored before keys existed get theirs at the next start, on both
//! backends.

use payback_domain::Timestamp;
use payback_store::ingest::{BatchOutcome, EventRecord, dedupe_key};
use payback_testkit::{TEST_START, TestApp, backend_tests, event_record};

const NAMESPACE: &str = "api:shop";

fn visit(dedupe_id: &str) -> EventRecord {
    let mut record = event_record(NAMESPACE, dedupe_id, "visit", TEST_START);
    record.anonymous_id = Some(format!("visitor-{dedupe_id}"));
    record
}

async fn product(app: &TestApp) -> String {
    app.founder_product_id("shop").await
}

async fn write(app: &TestApp, product_id: &str, events: &[EventRecord]) -> BatchOutcome {
    app.write_batch(product_id, events, Timestamp::from_millis(0))
        .await
}

async fn rows_in(app: &TestApp, table: &str) -> i64 {
    app.sql_value(
        &format!("SELECT CAST(COUNT(*) AS BIGINT) FROM {table}"),
        &[],
    )
    .await
}

/// The dedupe ids held by their exact entry (their key belongs to another event).
async fn exact_entries(app: &TestApp) -> Vec<String> {
    let rows: Vec<(String,)> = app
        .sql_rows("SELECT dedupe_id FROM event_key_collisions", &[])
        .await;
    rows.into_iter().map(|(id,)| id).collect()
}

fn outcome(inserted: usize, duplicates: usize) -> BatchOutcome {
    BatchOutcome {
        inserted,
        duplicates,
    }
}

/// Two distinct dedupe ids sharing a key (planted: a real 64-bit collision cannot be found for
/// a test) are both stored, and each is still deduplicated exactly afterwards.
async fn a_key_collision_keeps_both_events(app: TestApp) {
    let product_id = product(&app).await;
    assert_eq!(
        write(&app, &product_id, &[visit("first")]).await,
        outcome(1, 0)
    );
    let first_id: i64 = app
        .sql_value("SELECT id FROM events WHERE dedupe_id = 'first'", &[])
        .await;
    // "second"'s key now belongs to "first".
    let second_key = dedupe_key(&product_id, NAMESPACE, "second");
    app.sql_execute(
        "INSERT INTO event_keys (key, event_id) VALUES ($1, $2)",
        &[second_key.into(), first_id.into()],
    )
    .await;

    assert_eq!(
        write(&app, &product_id, &[visit("second")]).await,
        outcome(1, 0)
    );
    assert_eq!(
        app.stored_dedupe_ids(&product_id, None).await,
        ["first", "second"]
    );
    let exact = exact_entries(&app).await;
    assert_eq!(exact, ["second"]);

    // Retries of either are duplicates, alone or together with a new id.
    assert_eq!(
        write(
            &app,
            &product_id,
            &[visit("second"), visit("first"), visit("third")]
        )
        .await,
        outcome(1, 2)
    );
    assert_eq!(
        app.stored_dedupe_ids(&product_id, None).await,
        ["first", "second", "third"]
    );
}

backend_tests!(a_key_collision_keeps_both_events);

/// A key taken between the fold's look and its write (on PostgreSQL, by another product's
/// fold; planted here as a key whose event is gone) sends the event to its exact entry: stored,
/// and deduplicated afterwards.
async fn a_key_taken_meanwhile_falls_back_to_the_exact_entry(app: TestApp) {
    let product_id = product(&app).await;
    app.sql_execute(
        "INSERT INTO event_keys (key, event_id) VALUES ($1, 0)",
        &[dedupe_key(&product_id, NAMESPACE, "b").into()],
    )
    .await;
    assert_eq!(
        write(&app, &product_id, &[visit("a"), visit("b"), visit("a")]).await,
        outcome(2, 1)
    );
    let exact = exact_entries(&app).await;
    assert_eq!(exact, ["b"]);
    assert_eq!(
        write(&app, &product_id, &[visit("b"), visit("a")]).await,
        outcome(0, 2)
    );
    assert_eq!(app.stored_dedupe_ids(&product_id, None).await, ["a", "b"]);
}

backend_tests!(a_key_taken_meanwhile_falls_back_to_the_exact_entry);

/// Events stored before migration 0010 (no key; the migration names the last of them) get
/// their keys when the store migrates again at the next start, and are deduplicated from then.
async fn events_stored_before_keys_get_them_at_start(app: TestApp) {
    let product_id = product(&app).await;
    for dedupe_id in ["old-1", "old-2"] {
        app.sql_execute(
            "INSERT INTO events (product_id, namespace, dedupe_id, stage, occurred_at, day, received_at) \
             VALUES ($1, $2, $3, 'visit', 0, '1970-01-01', 0)",
            &[product_id.as_str().into(), NAMESPACE.into(), dedupe_id.into()],
        )
        .await;
    }
    let last: i64 = app.sql_value("SELECT MAX(id) FROM events", &[]).await;
    app.sql_execute(
        "INSERT INTO event_keys_backfill (through_event_id) VALUES ($1)",
        &[last.into()],
    )
    .await;

    app.state.store.migrate().await.unwrap();

    let keys = rows_in(&app, "event_keys").await;
    assert_eq!(keys, 2);
    let pending = rows_in(&app, "event_keys_backfill").await;
    assert_eq!(pending, 0);
    assert_eq!(
        write(
            &app,
            &product_id,
            &[visit("old-1"), visit("new"), visit("old-2")]
        )
        .await,
        outcome(1, 2)
    );
    assert_eq!(
        app.stored_dedupe_ids(&product_id, None).await,
        ["new", "old-1", "old-2"]
    );
    // A second start finds nothing to do.
    app.state.store.migrate().await.unwrap();
    let keys = rows_in(&app, "event_keys").await;
    assert_eq!(keys, 3);
}

backend_tests!(events_stored_before_keys_get_them_at_start);

#[test]
fn the_key_separates_its_parts_and_never_changes() {
    assert_ne!(dedupe_key("p", "a", "bc"), dedupe_key("p", "ab", "c"));
    // Fixed forever: stored keys must keep matching the events they hold. The first 8 bytes,
    // little endian, of SHA-256 over "product\0api:shop\0order-1\0" (computed apart).
    assert_eq!(dedupe_key("product", "api:shop", "order-1"), KEY_OF_ORDER_1);
}

const KEY_OF_ORDER_1: i64 = -7_483_126_673_754_363_416;
