//! Growth actions on both backends: synthetic products built to trip each action (one product
//! per situation), the expected ids and ranking computed here from the situation each test
//! builds, impact estimates against the formulas in docs/health-and-growth.md computed here, the prompt of each
//! coding agent, and the refusals.
//!
//! - `situations`: nothing yet; a healthy product (no action); unstitched, unattributed
//!   revenue; an empty funnel step.
//! - `budget`: channels whose CAC exceeds LTV, ranked by the revenue moving their budget may
//!   bring; ad spend recorded by hand; nothing raised.
//! - `prompts`: each action's prompt for each of the five agents.
//! - `suffix`: the search-ads URL suffix read live from the Google fake, until Payback writes it.
//! - `errors`: `days` and `tool` named, unknown ids, bearers, another account's product.

use payback_domain::Clock;
use payback_domain::connection::ConnectionKind;
use payback_testkit::{Reply, Session, TestApp, backend_tests};
use serde_json::{Value, json};

mod budget;
mod errors;
mod injection;
mod prompts;
mod situations;
mod suffix;

/// The five coding-agent words.
const TOOLS: [&str; 5] = ["agent_a", "agent_b", "agent_c", "agent_d", "agent_e"];

struct Founder {
    session: Session,
    key: String,
}

async fn founder(app: &TestApp, email: &str) -> Founder {
    let session = app.signup_verified(email).await;
    let key = app.api_key(&session).await;
    Founder { session, key }
}

/// Creates the product and answers its id.
async fn product(app: &TestApp, founder: &Founder, slug: &str) -> String {
    app.create_product(&founder.key, slug).await["id"]
        .as_str()
        .unwrap()
        .to_owned()
}

fn hours_ago(app: &TestApp, hours: i64) -> String {
    app.clock.now().minus_millis(hours * 3_600_000).to_rfc3339()
}

/// A product with nothing to fix: a payments connection, a saved funnel of visit and payment,
/// a primary conversion on payment, and `customers` buyers, each an identified visit from an
/// email campaign and a payment of `each` cents.
async fn tracked(app: &TestApp, owner: &Founder, slug: &str, customers: usize, each: i64) {
    let id = product(app, owner, slug).await;
    app.insert_connection(
        &owner.session.account_id,
        &id,
        ConnectionKind::Payments,
        &json!({}),
        true,
    )
    .await;
    app.post(
        &format!("/products/{slug}/funnel/definition"),
        Some(&owner.key),
        json!({ "steps": [{"stage": "visit", "label": "Visits"}, {"stage": "payment", "label": "Paid"}] }),
    )
    .await
    .expect(200);
    app.post(
        &format!("/products/{slug}/conversions"),
        Some(&owner.key),
        json!({"key": "purchase", "label": "Purchase", "tier": "primary", "stage": "payment",
               "value_mode": "transaction"}),
    )
    .await
    .expect(200);
    let mut events = Vec::new();
    for n in 0..customers {
        let user = format!("mail-{n}");
        events.push(json!({"dedupe_id": format!("v-{user}"), "stage": "visit", "user_id": user,
            "occurred_at": hours_ago(app, 6),
            "attribution": {"utm_source": "newsletter", "utm_medium": "email", "utm_campaign": "launch"}}));
        events.push(
            json!({"dedupe_id": format!("p-{user}"), "stage": "payment", "user_id": user,
            "value": each, "occurred_at": hours_ago(app, 5)}),
        );
    }
    app.send_events(&owner.key, slug, json!(events)).await;
}

/// The list, after checking the frame every list keeps: ranks 1..n in order, ids unique, each
/// action's prompt path under the product.
async fn list(app: &TestApp, key: &str, slug: &str, query: &str) -> Value {
    let list = app
        .get(
            &format!("/products/{slug}/growth-actions{query}"),
            Some(key),
        )
        .await
        .expect(200)
        .clone();
    assert_eq!(list["product_slug"], slug);
    assert_eq!(list["product_name"], format!("Product {slug}"));
    assert!(list["generated_at"].is_string());
    let actions = list["actions"].as_array().unwrap();
    for (index, action) in actions.iter().enumerate() {
        assert_eq!(action["rank"], index + 1, "{action:#}");
        let id = action["id"].as_str().unwrap();
        assert_eq!(
            action["prompt_path"],
            format!("/products/{slug}/growth-actions/{id}/prompt")
        );
        assert!(id.starts_with(action["kind"].as_str().unwrap()), "{id}");
        assert!(!action["headline"].as_str().unwrap().is_empty());
        assert!(!action["why"].as_str().unwrap().is_empty());
        assert!(!action["links"].as_array().unwrap().is_empty());
    }
    list
}

fn ids(list: &Value) -> Vec<&str> {
    list["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|action| action["id"].as_str().unwrap())
        .collect()
}

fn action<'a>(list: &'a Value, id: &str) -> &'a Value {
    list["actions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|action| action["id"] == id)
        .unwrap_or_else(|| panic!("no action {id} in {list:#}"))
}

async fn prompt(app: &TestApp, key: &str, slug: &str, id: &str, body: Value) -> Reply {
    app.post(
        &format!("/products/{slug}/growth-actions/{id}/prompt"),
        Some(key),
        body,
    )
    .await
}
