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
