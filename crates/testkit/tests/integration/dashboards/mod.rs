//! Stored dashboards, on both backends: every endpoint's success, every validation rule by name,
//! the composer's determinism and matched words, real deletion, the audit, and another
//! account's 404 on every route.
//!
//! - `crud`: create from a full spec (round trip), from a prompt, blank; list; edit; delete;
//!   history; the per-product cap.
//! - `validation`: each rule of the name, description, prompt and spec, table-driven, answering
//!   400 naming the field and storing nothing.
//! - `composer`: the same prompt twice gives the same spec; the words each prompt matched.
//! - `access`: strangers (sessions and API keys) get 404 on every route, no bearer 401.
//! - `schema`: `/openapi.json` describes the Dashboard, the widget and its rules as the spec.

use payback_testkit::{TestApp, backend_tests};
use serde_json::{Value, json};

mod access;
mod composer;
mod crud;
mod schema;
mod validation;

/// A founder with product `shop`: (session token, API key).
async fn setup(app: &TestApp) -> (String, String) {
    let session = app.signup_verified("founder@example.com").await;
    let key = app.api_key(&session).await;
    app.create_product(&session.token, "shop").await;
    (session.token, key)
}

/// Creates a dashboard on `shop`, answering it.
async fn create(app: &TestApp, token: &str, body: Value) -> Value {
    app.post("/products/shop/dashboards", Some(token), body)
        .await
        .expect(200)
        .clone()
}

/// A spec with one widget of every type and every field each type takes, every optional
/// common field somewhere, and values at the edges of their ranges.
fn full_spec() -> Value {
    json!({"widgets": [
        {"id": "spend", "type": "metric", "metric": "spend_30d", "title": "Spend", "size": "sm",
         "layout": {"x": 0, "y": 0, "w": 3, "h": 2}},
        {"id": "cac", "type": "metric", "metric": "cac", "size": "xs"},
        {"id": "revenue-line", "type": "timeseries", "series": "revenue", "days": 365,
         "layout": {"x": 0, "y": 2, "w": 12, "h": 60}},
        {"id": "funnel", "type": "funnel", "days": 1, "size": "md"},
        {"id": "payback", "type": "payback", "title": ""},
        {"id": "queue", "type": "queue", "layout": {"x": 11, "y": 500, "w": 1, "h": 1}},
        {"id": "channels", "type": "breakdown", "measure": "revenue_last", "title": "Last touch"},
        {"id": "x".repeat(40), "type": "note", "text": "é".repeat(2000), "size": "lg",
         "title": "t".repeat(80)}
    ]})
}
