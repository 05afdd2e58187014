//! What the per-kind connection tests share: the founder's product `shop` with an API key, and
//! a connection of one kind as `GET /connections` lists it.

use payback_testkit::{Session, TestApp};
use serde_json::Value;

/// A verified founder owning the product `shop`, and an API key of theirs.
pub async fn founder(app: &TestApp) -> (Session, String) {
    let owner = app.signup_verified("founder@example.com").await;
    app.create_product(&owner.token, "shop").await;
    let key = app.api_key(&owner).await;
    (owner, key)
}

/// The connection of `kind` (its wire word) as `GET /connections` lists it, if any.
pub async fn listed_connection(app: &TestApp, token: &str, kind: &str) -> Option<Value> {
    let listed = app
        .get("/connections", Some(token))
        .await
        .expect(200)
        .clone();
    listed
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["kind"] == kind)
        .cloned()
}
