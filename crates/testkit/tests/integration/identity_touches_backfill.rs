//! Migration 0011 fills `identity_touches` from the events stored before it, so revenue that
//! arrives after the upgrade still finds the last touch of an identity first seen before it,
//! on both backends.

use payback_domain::Timestamp;
use payback_testkit::{TEST_START, TestApp, backend_tests, event_record};

const NAMESPACE: &str = "api:shop";

/// Puts the schema back as it was before migration 0011 and forgets that 0011 ran, so the next
/// `migrate` applies it to whatever the test stores meanwhile.
async fn rewind_migration_0011(app: &TestApp) {
    for statement in [
        "DROP TABLE identity_touches",
        "DROP INDEX stage_identity_days_by_identity",
        "CREATE INDEX events_by_identity ON events(product_id, identity, occurred_at)",
        "DELETE FROM _sqlx_migrations WHERE version = 11",
    ] {
        app.sql_execute(statement, &[]).await;
    }
}

/// An event as the store kept it before 0011 (raw row; events then held the identity they
/// count under). An empty identity or channel is stored as NULL.
async fn store_old_event(
    app: &TestApp,
    product_id: &str,
    dedupe_id: &str,
    identity: &str,
    channel: &str,
    occurred_at: i64,
) -> i64 {
    app.sql_execute(
        "INSERT INTO events (product_id, namespace, dedupe_id, stage, occurred_at, day, identity, channel, received_at) \
         VALUES ($1, $2, $3, 'visit', $4, '2026-01-01', NULLIF($5, ''), NULLIF($6, ''), 0)",
        &[
            product_id.into(),
            NAMESPACE.into(),
            dedupe_id.into(),
            occurred_at.into(),
            identity.into(),
            channel.into(),
        ],
    )
    .await;
    app.sql_value(
        "SELECT id FROM events WHERE dedupe_id = $1",
        &[dedupe_id.into()],
    )
    .await
}

async fn migration_0011_fills_touches_from_stored_events(app: TestApp) {
    let product_id = app.founder_product_id("shop").await;
    rewind_migration_0011(&app).await;
    let start = TEST_START.millis();
    let paid = store_old_event(&app, &product_id, "e1", "u:ada", "paid_google", start).await;
    let organic = store_old_event(
        &app,
        &product_id,
        "e2",
        "a:anon",
        "organic_search",
        start + 1,
    )
    .await;
    // Neither an identity-less touch nor a channel-less event is a touch of anyone.
    store_old_event(&app, &product_id, "e3", "", "direct", start + 2).await;
    store_old_event(&app, &product_id, "e4", "u:ada", "", start + 3).await;

    app.state.store.migrate().await.unwrap();

    let touches: Vec<(String, i64, i64, String)> = app
        .sql_rows(
            "SELECT identity, occurred_at, event_id, channel FROM identity_touches \
             WHERE product_id = $1 ORDER BY event_id",
            &[product_id.as_str().into()],
        )
        .await;
    assert_eq!(
        touches,
        [
            ("u:ada".to_owned(), start, paid, "paid_google".to_owned()),
            (
                "a:anon".to_owned(),
                start + 1,
                organic,
                "organic_search".to_owned()
            ),
        ]
    );

    // A payment after the upgrade takes its last touch from the backfilled row.
    let mut payment = event_record(
        NAMESPACE,
        "pay-1",
        "payment",
        Timestamp::from_millis(start + 10),
    );
    payment.user_id = Some("ada".to_owned());
    payment.value_cents = Some(4_900);
    payment.currency = Some("USD".to_owned());
    payment.is_revenue = true;
    app.write_batch(&product_id, &[payment], Timestamp::from_millis(start + 20))
        .await;
    let last: Vec<(String, i64)> = app
        .sql_rows(
            "SELECT last_channel, last_touch_at FROM transactions WHERE product_id = $1",
            &[product_id.as_str().into()],
        )
        .await;
    assert_eq!(last, [("paid_google".to_owned(), start)]);
}

backend_tests!(migration_0011_fills_touches_from_stored_events);
