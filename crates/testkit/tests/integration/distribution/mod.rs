//! The distribution log: POST /distribution (camelCase body, `{ok, id}`, `created_by` the
//! owner's email through a session and `keeper` through an API key, a `distribution.create`
//! history event) and GET /products/{slug}/distribution?days=&limit= (entries of the window,
//! newest first, `limit` capping them, each joined to what its `utm_campaign` brought all time:
//! visits, leads, customers, revenue). The joined numbers are checked against an oracle computed
//! here from the events the test ingested (identities resolved here: a user id wins, an
//! anonymous id seen with a user id is that user, first link wins). Errors: 400 naming the
//! field, malformed JSON, 401 without bearer, 404 for unknown and other accounts' products.
//!
//! - `oracle`: the events the join test ingests, and what a campaign brought, from them alone.
//! - `listing`: entries joined to what their campaign brought, audit; the window and `limit`.
//! - `refusals`: 400 naming the field, malformed JSON, 401, 404; blank text and unsafe links.

use payback_domain::{Clock, DAY_MS, MINUTE_MS};
use payback_testkit::{Session, TestApp, backend_tests};
use serde_json::{Value, json};

mod listing;
mod oracle;
mod refusals;

const OWNER: &str = "owner@example.com";
const LAUNCH: &str = "hn-launch";
const OTHER: &str = "spring-sale";

async fn founder(app: &TestApp) -> (Session, String) {
    let owner = app.signup_verified(OWNER).await;
    app.create_product(&owner.token, "shop").await;
    app.create_product(&owner.token, "side").await;
    let key = app.api_key(&owner).await;
    (owner, key)
}

async fn record(app: &TestApp, token: &str, body: Value) -> String {
    let reply = app.post("/distribution", Some(token), body).await;
    let answer = reply.expect(200);
    assert_eq!(answer["ok"], true);
    assert_eq!(answer.as_object().unwrap().len(), 2, "{answer}");
    let id = answer["id"].as_str().unwrap().to_owned();
    assert!(!id.is_empty());
    id
}

async fn list(app: &TestApp, token: &str, query: &str) -> Value {
    app.get(&format!("/products/shop/distribution{query}"), Some(token))
        .await
        .expect(200)
        .clone()
}

fn ids(list: &Value) -> Vec<String> {
    list["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["id"].as_str().unwrap().to_owned())
        .collect()
}
