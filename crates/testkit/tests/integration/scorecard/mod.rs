//! The weekly scorecard (issue 40) from outside: weekly values against sums the tests compute
//! from the data they ingest, layouts and validation, manual cells, insights, exports, share
//! links and the Sheets sync, on both backends.

mod data;
mod exports;
mod insights;
mod layout;
mod share;
mod sheets;
mod values;

use payback_domain::connection::ConnectionKind;
use payback_testkit::{Session, TestApp};
use serde_json::Value;

/// A founder with the product `shop`, its API key and the product id.
pub async fn setup(app: &TestApp) -> (Session, String, String) {
    let (owner, key) = crate::shop::founder(app).await;
    let product = app.get("/products/shop", Some(&key)).await;
    let product_id = product.expect(200)["product_id"]
        .as_str()
        .unwrap()
        .to_owned();
    (owner, key, product_id)
}

/// Gives the founder's `shop` a connection of `kind` (no vendor behind it: the scorecard only
/// asks whether one exists).
pub async fn connect(app: &TestApp, owner: &Session, product_id: &str, kind: ConnectionKind) {
    app.insert_connection(
        &owner.account_id,
        product_id,
        kind,
        &serde_json::json!({}),
        false,
    )
    .await;
}

/// Every row of a matrix, in order.
pub fn rows(matrix: &Value) -> Vec<Value> {
    matrix["sections"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|section| section["rows"].as_array().unwrap().clone())
        .collect()
}

/// The row of `metric`.
pub fn row(matrix: &Value, metric: &str) -> Value {
    rows(matrix)
        .into_iter()
        .find(|row| row["metric"] == metric)
        .unwrap_or_else(|| panic!("no row {metric}"))
}

/// The metrics of a matrix, in order.
pub fn metrics(matrix: &Value) -> Vec<String> {
    rows(matrix)
        .iter()
        .map(|row| row["metric"].as_str().unwrap().to_owned())
        .collect()
}
