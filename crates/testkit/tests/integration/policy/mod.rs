//! The policy settings and the policy engine at the HTTP boundary: GET/POST
//! /products/{slug}/policy and GET/POST /policy (defaults, owners' sessions only: API keys and
//! members 403, no bearer 401; absent keeps, null removes; every change a `policy.update` or
//! `policy.portfolio_update` history event with before and after; 400s naming the field; other
//! accounts' products 404), then the proposal path: caps (inclusive), walls (adult-adjacent,
//! blocked), the portfolio ceiling and its currency refuse with 422 `{error, policy_code}`, no
//! card and a `proposal.policy_block` event by `policy`; approval re-checks the policy (403 with
//! `policy_code`, the card waits, `card.approve_refused`); proposal input rules answer 400
//! naming the field.
//!
//! Modules:
//! - `product_policy`: GET/POST /products/{slug}/policy, and unknown fields on both settings;
//! - `portfolio_policy`: GET/POST /policy, the account-wide ceiling and its currency;
//! - `caps_and_walls`: daily caps and network walls refusing proposals, and re-checked at approval;
//! - `ceiling`: the portfolio ceiling and currency on proposals and approvals, racing approvals;
//! - `proposal_input`: proposal input rules answering 400 naming the field.

use payback_testkit::{Reply, Session, TestApp, backend_tests};
use serde_json::{Value, json};

const OWNER: &str = "owner@example.com";
const RATIONALE: &str = "Search CAC is under target; room to grow.";

async fn founder(app: &TestApp) -> (Session, String) {
    let owner = app.signup_verified(OWNER).await;
    app.create_product(&owner.token, "shop").await;
    let key = app.api_key(&owner).await;
    (owner, key)
}

fn spend_change(network: &str, to_cents: i64) -> Value {
    json!({ "network": network, "to_cents": to_cents, "rationale": RATIONALE })
}

async fn propose(app: &TestApp, token: &str, slug: &str, body: Value) -> Reply {
    app.post(&format!("/products/{slug}/proposals"), Some(token), body)
        .await
}

/// A 202 with exactly `{proposal_id, status: "pending_human", expires_in_hours: 72}`; the id.
#[track_caller]
fn accepted(reply: &Reply) -> String {
    let body = reply.expect(202);
    let id = body["proposal_id"].as_str().unwrap().to_owned();
    assert_eq!(
        body,
        &json!({ "proposal_id": id, "status": "pending_human", "expires_in_hours": 72 })
    );
    id
}

/// A policy refusal: `status`, exactly `{error, policy_code}`, and the code.
#[track_caller]
fn refused(reply: &Reply, status: u16, code: &str) {
    reply.expect_error(status, "");
    assert_eq!(reply.body["policy_code"], code, "{}", reply.text);
    let keys: Vec<&String> = reply.body.as_object().unwrap().keys().collect();
    assert_eq!(keys, vec!["error", "policy_code"], "{}", reply.text);
}

async fn approve(app: &TestApp, owner: &Session, id: &str) -> Reply {
    app.post(
        &format!("/queue/{id}/approve"),
        Some(&owner.token),
        json!({}),
    )
    .await
}

async fn queue_ids(app: &TestApp, token: &str) -> Vec<String> {
    app.queue(token)
        .await
        .iter()
        .map(|c| c["id"].as_str().unwrap().to_owned())
        .collect()
}

/// History events with `action`, oldest first.
async fn actions(app: &TestApp, token: &str, action: &str) -> Vec<Value> {
    app.history_where(token, |e| e["action"] == action).await
}

mod caps_and_walls;
mod ceiling;
mod portfolio_policy;
mod product_policy;
mod proposal_input;
