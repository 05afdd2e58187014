//! Products and portfolio: POST /products, POST /products/{slug}, GET /products/{slug},
//! GET /portfolio and POST /products/{slug}/onboarding-complete, on both backends.
//!
//! Modules:
//! - `create_product`: POST /products;
//! - `update_product`: POST /products/{slug};
//! - `reads`: GET /products/{slug} and GET /portfolio;
//! - `onboarding`: POST /products/{slug}/onboarding-complete.

use std::collections::BTreeSet;

use payback_testkit::{TestApp, backend_tests};
use serde_json::{Value, json};

fn keys(value: &Value) -> BTreeSet<String> {
    value
        .as_object()
        .unwrap_or_else(|| panic!("not an object: {value}"))
        .keys()
        .cloned()
        .collect()
}

fn slugs(rows: &Value) -> BTreeSet<String> {
    rows.as_array()
        .unwrap_or_else(|| panic!("not an array: {rows}"))
        .iter()
        .map(|row| row["slug"].as_str().unwrap().to_owned())
        .collect()
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| (*s).to_owned()).collect()
}

async fn portfolio(app: &TestApp, token: &str) -> Value {
    app.get("/portfolio", Some(token)).await.expect(200).clone()
}

mod create_product;
mod onboarding;
mod reads;
mod update_product;
