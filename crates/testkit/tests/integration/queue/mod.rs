//! The approval queue end to end: an agent's key proposes, the card waits, the agent cannot
//! resolve it, a human does, the executor is asked once, history shows who and how. Every
//! transition of the spec's card table with the injected clock, API keys refused at every
//! resolution, other accounts' cards answering 404, and the operator's `actor` override.
//!
//! - `execution`: the whole promise end to end, approvals without a connector, and concurrent
//!   approvals applying once.
//! - `apply`: the durable apply job: retries with backoff, a crash between approval and apply,
//!   refusals, and no request reaching the network before a human approves.
//! - `transitions`: reject, snooze, expiry and restore with the injected clock, and the cards
//!   set aside listed by status.
//! - `access`: API keys never resolve, members resolve as themselves, other accounts' cards
//!   answer 404 and operators see every card.
//! - `limits`: the queue's default and maximum `limit`, every list's maximum, and the size cap
//!   on `rollback_if`.
//! - `proposed_account`: the job's retry refuses a change whose connection now points at
//!   another ad account.

use payback_testkit::{Session, TestApp, backend_tests, per_backend};
use serde_json::{Value, json};

mod access;
mod apply;
mod execution;
mod limits;
mod proposed_account;
mod transitions;

const OWNER: &str = "owner@example.com";
const RESOLUTIONS: [&str; 4] = ["approve", "reject", "snooze", "restore"];

/// A signed-in owner with a product `shop` and an agent key.
async fn founder(app: &TestApp) -> (Session, String) {
    let owner = app.signup_verified(OWNER).await;
    app.create_product(&owner.token, "shop").await;
    let key = app.api_key(&owner).await;
    (owner, key)
}

fn proposal(to_cents: i64) -> Value {
    json!({
        "network": "google",
        "from_cents": 2_000,
        "to_cents": to_cents,
        "campaign_id": "cmp-1",
        "rationale": "CAC on search is well under target; room to grow.",
        "rollback_if": { "cac_ceiling_cents": 4_000, "window_days": 7 },
    })
}

/// Proposes through `token` and returns the card id.
async fn propose(app: &TestApp, token: &str, body: Value) -> String {
    let reply = app
        .post("/products/shop/proposals", Some(token), body)
        .await;
    let accepted = reply.expect(202);
    assert_eq!(accepted["status"], "pending_human");
    assert_eq!(accepted["expires_in_hours"], 72);
    accepted["proposal_id"].as_str().unwrap().to_owned()
}

async fn queue_ids(app: &TestApp, token: &str) -> Vec<String> {
    app.queue(token)
        .await
        .iter()
        .map(|c| c["id"].as_str().unwrap().to_owned())
        .collect()
}

async fn resolve(
    app: &TestApp,
    token: &str,
    id: &str,
    resolution: &str,
    body: Value,
) -> payback_testkit::Reply {
    app.post(&format!("/queue/{id}/{resolution}"), Some(token), body)
        .await
}

async fn pending_cards(app: &TestApp, token: &str) -> i64 {
    app.get("/products/shop", Some(token)).await.expect(200)["pending_cards"]
        .as_i64()
        .unwrap()
}

/// The history events about one card, oldest first.
async fn card_history(app: &TestApp, token: &str, card_id: &str) -> Vec<Value> {
    app.history_where(token, |e| e["subject_ref"] == card_id)
        .await
}

/// The actions of `events`, in their order.
fn actions(events: &[Value]) -> Vec<&str> {
    events
        .iter()
        .map(|e| e["action"].as_str().unwrap())
        .collect()
}

/// One pass of the job loop, as the runner `test-runner`.
async fn run_jobs(app: &TestApp) {
    payback_server::jobs::run_due(&app.state, "test-runner")
        .await
        .unwrap();
}
