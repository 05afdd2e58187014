//! Events as the store's writer takes them, for tests that write batches straight to the store.

use payback_domain::Timestamp;
use payback_store::ingest::EventRecord;

/// An event of `stage` with nothing but its ids and time: no identity, channel or value. Tests
/// set the fields they need on the result.
pub fn event_record(
    namespace: &str,
    dedupe_id: &str,
    stage: &'static str,
    occurred_at: Timestamp,
) -> EventRecord {
    EventRecord {
        namespace: namespace.to_owned(),
        dedupe_id: dedupe_id.to_owned(),
        stage,
        name: None,
        occurred_at,
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

/// Accepts 3,000 visits of `product_id` (namespace `api:shop`) through the writer, so it is
/// busy folding them while a test writes its next batches: those are then folded as one group.
pub async fn keep_folder_busy(app: &crate::TestApp, product_id: &str) {
    let at = crate::TEST_START;
    let visits = (0..3_000)
        .map(|n| event_record("api:shop", &format!("large-{n}"), "visit", at))
        .collect();
    let accepted = app.state.ingest.write(product_id, visits, at).await;
    assert!(accepted.is_ok(), "{accepted:?}");
}
