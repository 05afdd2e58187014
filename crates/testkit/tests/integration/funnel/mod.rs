//! The funnel: stage x channel rows, the daily stage series and the funnel definition, checked
//! against an independent computation from the synthetic dataset on both backends, plus
//! hand-built edge cases, validation, audit and access rules.
//!
//! - `oracle`: plain loops over the dataset's events, and the endpoints checked against them.
//! - `edge_cases`: hand-built events and aggregates: identity counting, browser events.
//! - `definition`: the funnel definition (defaults, saving, validation), access rules, OpenAPI.

use std::collections::HashMap;

use payback_domain::{Clock, Stage};
use payback_testkit::{TestApp, backend_tests};
use serde_json::{Value, json};

mod definition;
mod edge_cases;
mod oracle;

/// A verified founder with an API key and product `shop`; returns (session token, API key).
async fn setup(app: &TestApp) -> (String, String) {
    let session = app.signup_verified("founder@example.com").await;
    let key = app.api_key(&session).await;
    app.create_product(&key, "shop").await;
    (session.token, key)
}

fn array(reply: &payback_testkit::Reply) -> Vec<Value> {
    reply.expect(200).as_array().unwrap().clone()
}
