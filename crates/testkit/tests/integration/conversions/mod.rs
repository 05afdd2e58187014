//! Conversion definitions: upsert by key, list with 30-day volume and value, deletion, audit,
//! every validation rule, and the report (current against previous window, channel split)
//! checked against an oracle computed straight from the synthetic events, on both backends.
//!
//! - `definitions`: upsert by key, the list with volume and value, deletion, audit.
//! - `validation_and_access`: every validation rule, and the doors (404, 401, bad windows).
//! - `report_hand_made`: the report over hand-made events: names, channels, windows.
//! - `oracle`: the report over synthetic datasets against an oracle computed from the events.

use payback_domain::{Clock, DAY_MS, Timestamp};
use payback_testkit::{TestApp, backend_tests};
use serde_json::{Value, json};

mod definitions;
mod oracle;
mod report_hand_made;
mod validation_and_access;

async fn setup(app: &TestApp) -> (String, String) {
    let session = app.signup_verified("founder@example.com").await;
    let key = app.api_key(&session).await;
    app.create_product(&key, "shop").await;
    (session.token, key)
}

async fn save(app: &TestApp, token: &str, body: Value) -> Value {
    app.post("/products/shop/conversions", Some(token), body)
        .await
        .expect(200)["conversion"]
        .clone()
}

fn at(days_ago: i64, hour: i64) -> String {
    let now = Timestamp::parse_rfc3339("2026-11-21T00:00:00Z").unwrap();
    now.minus_millis(days_ago * DAY_MS)
        .plus_millis(hour * 3_600_000)
        .to_rfc3339()
}
