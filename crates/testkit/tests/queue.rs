#![allow(clippy::unwrap_used)]
//! The approval queue end to end: an agent's key proposes, the card waits, the agent cannot
//! resolve it, a human does, the executor is asked once, history shows who and how. Every
//! transition of the spec's card table with the injected clock, API keys refused at every
//! resolution, other accounts' cards answering 404, and the operator's `actor` override.

use payback_domain::policy::Network;
use payback_domain::{Clock, HOUR_MS};
use payback_server::services::execution::ExecutionOutcome;
use payback_testkit::{Backend, RecordingExecutor, Session, TestApp, backend_tests};
use serde_json::{Value, json};

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

async fn whole_promise(backend: Backend) {
    let executor = RecordingExecutor::new(
        Network::Google,
        ExecutionOutcome::Applied {
            detail: "budget 50.00 USD set on cmp-1".to_owned(),
        },
    );
    let app = TestApp::spawn_with_executor(backend, executor.clone()).await;
    let (owner, key) = founder(&app).await;

    let id = propose(&app, &key, proposal(5_000)).await;
    let cards = app.queue(&key).await;
    assert_eq!(cards.len(), 1);
    let card = &cards[0];
    assert_eq!(card["id"], id.as_str());
    assert_eq!(card["product_slug"], "shop");
    assert_eq!(card["card_type"], "proposal");
    assert_eq!(card["proposed_by"], "keeper");
    assert_eq!(card["status"], "pending");
    assert_eq!(
        card["detail"],
        "CAC on search is well under target; room to grow."
    );
    assert_eq!(
        card["headline"],
        "Raise Google Ads daily budget for Product shop to 50.00 USD"
    );
    assert!(
        card["metric_line"]
            .as_str()
            .unwrap()
            .contains("Google Ads spend 7d 0.00 USD")
    );
    assert_eq!(card["action_spec"]["kind"], "spend_change");
    assert_eq!(card["action_spec"]["to_cents"], 5_000);
    assert_eq!(
        card["action_spec"]["rollback_if"]["cac_ceiling_cents"],
        4_000
    );
    assert_eq!(card["created_at"], "2026-11-21T12:00:00.000Z");
    assert_eq!(card["expires_at"], "2026-11-24T12:00:00.000Z");
    assert_eq!(pending_cards(&app, &key).await, 1);

    // The agent cannot decide, however it asks.
    for resolution in RESOLUTIONS {
        resolve(&app, &key, &id, resolution, json!({}))
            .await
            .expect_error(403, "a human must resolve cards");
    }
    assert!(executor.calls().is_empty());
    assert_eq!(queue_ids(&app, &owner.token).await, vec![id.clone()]);

    // A human approves; the executor is asked once, with exactly the approved change.
    resolve(&app, &owner.token, &id, "approve", json!({}))
        .await
        .expect(200);
    let calls = executor.calls();
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].card_id, id);
    assert_eq!(calls[0].network, Network::Google);
    assert_eq!(calls[0].to_cents, 5_000);
    assert_eq!(calls[0].from_cents, Some(2_000));
    assert_eq!(calls[0].campaign_id.as_deref(), Some("cmp-1"));
    assert_eq!(calls[0].product_slug, "shop");
    assert!(app.queue(&owner.token).await.is_empty());
    assert_eq!(pending_cards(&app, &owner.token).await, 0);
    // Approving again finds no pending card, and the executor is not asked again.
    resolve(&app, &owner.token, &id, "approve", json!({}))
        .await
        .expect_error(404, "no such pending card");
    assert_eq!(executor.calls().len(), 1);

    // History: who proposed, who approved, what the network did.
    let events = card_history(&app, &owner.token, &id).await;
    let summary: Vec<(&str, &str, &str)> = events
        .iter()
        .map(|e| {
            (
                e["action"].as_str().unwrap(),
                e["actor"].as_str().unwrap(),
                e["via"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        vec![
            ("proposal.create", "keeper", "api"),
            ("card.approve", OWNER, "dashboard"),
            ("spend.applied", "system", "dashboard"),
        ]
    );
    assert!(
        events
            .iter()
            .all(|e| e["card_type"] == "proposal" && e["product_slug"] == "shop")
    );
    assert_eq!(events[2]["payload"]["applied"], true);
    assert_eq!(events[2]["payload"]["approved_by"], OWNER);

    // The approved budget now counts against the ceiling.
    let policy = app.get("/policy", Some(&key)).await.expect(200).clone();
    assert_eq!(policy["committed_daily_cents"], 5_000);
    assert_eq!(policy["budgets"][0]["applied"], true);
    assert_eq!(policy["budgets"][0]["card_id"], id.as_str());
}

#[tokio::test]
async fn whole_promise_sqlite() {
    whole_promise(Backend::Sqlite).await;
}

#[tokio::test]
async fn whole_promise_postgres() {
    whole_promise(Backend::Postgres).await;
}

/// With no executor for the network the card is approved and history says why nothing changed.
async fn approval_without_connector_records_not_applied(app: TestApp) {
    let (owner, key) = founder(&app).await;
    let id = propose(&app, &key, proposal(5_000)).await;
    resolve(&app, &owner.token, &id, "approve", json!({}))
        .await
        .expect(200);
    let events = card_history(&app, &owner.token, &id).await;
    let outcome = events
        .iter()
        .find(|e| e["action"] == "spend.not_applied")
        .expect("not applied");
    assert_eq!(outcome["payload"]["applied"], false);
    let reason = outcome["payload"]["reason"].as_str().unwrap();
    assert!(reason.contains("no Google Ads connection"), "{reason}");
    assert!(reason.contains("50.00 USD"), "{reason}");
    let policy = app
        .get("/policy", Some(&owner.token))
        .await
        .expect(200)
        .clone();
    assert_eq!(policy["budgets"][0]["applied"], false);
    assert_eq!(policy["committed_daily_cents"], 5_000);
}

async fn reject_dismisses_for_good(app: TestApp) {
    let (owner, key) = founder(&app).await;
    let id = propose(&app, &key, proposal(5_000)).await;
    resolve(&app, &owner.token, &id, "reject", json!({}))
        .await
        .expect(200);
    assert!(app.queue(&owner.token).await.is_empty());
    for resolution in RESOLUTIONS {
        resolve(&app, &owner.token, &id, resolution, json!({}))
            .await
            .expect_error(404, "no such pending card");
    }
    let events = card_history(&app, &owner.token, &id).await;
    let reject = events
        .iter()
        .find(|e| e["action"] == "card.reject")
        .unwrap();
    assert_eq!(reject["actor"], OWNER);
    assert_eq!(reject["payload"]["to"], "dismissed");
    assert!(
        !events
            .iter()
            .any(|e| e["action"].as_str().unwrap().starts_with("spend."))
    );
}

async fn snooze_hides_until_the_time_comes(app: TestApp) {
    let (owner, key) = founder(&app).await;
    let id = propose(&app, &key, proposal(5_000)).await;
    // Default: 24 hours.
    resolve(&app, &owner.token, &id, "snooze", json!({}))
        .await
        .expect(200);
    assert!(app.queue(&owner.token).await.is_empty());
    assert_eq!(pending_cards(&app, &owner.token).await, 0);
    for resolution in ["approve", "reject", "snooze"] {
        resolve(&app, &owner.token, &id, resolution, json!({}))
            .await
            .expect_error(404, "no such pending card");
    }
    app.clock.advance(24 * HOUR_MS - 1);
    assert!(app.queue(&owner.token).await.is_empty());
    app.clock.advance(1);
    assert_eq!(queue_ids(&app, &owner.token).await, vec![id.clone()]);

    // snoozeHours chooses the length; restore brings it back at once.
    resolve(
        &app,
        &owner.token,
        &id,
        "snooze",
        json!({ "snoozeHours": 2 }),
    )
    .await
    .expect(200);
    assert!(app.queue(&owner.token).await.is_empty());
    resolve(&app, &owner.token, &id, "restore", json!({}))
        .await
        .expect(200);
    assert_eq!(queue_ids(&app, &owner.token).await, vec![id.clone()]);
    // Restore never resolves: a pending card has nothing to restore.
    resolve(&app, &owner.token, &id, "restore", json!({}))
        .await
        .expect_error(404, "no such pending card");

    let snooze = card_history(&app, &owner.token, &id).await;
    let hours: Vec<i64> = snooze
        .iter()
        .filter(|e| e["action"] == "card.snooze")
        .map(|e| e["payload"]["snooze_hours"].as_i64().unwrap())
        .collect();
    assert_eq!(hours, vec![24, 2]);

    for bad in [
        json!({ "snoozeHours": 0 }),
        json!({ "snoozeHours": -3 }),
        json!({ "snoozeHours": "two" }),
        json!({ "snoozeHours": 9000 }),
    ] {
        resolve(&app, &owner.token, &id, "snooze", bad)
            .await
            .expect_error(400, "snoozeHours");
    }
    assert_eq!(queue_ids(&app, &owner.token).await, vec![id]);
}

async fn proposals_expire_after_72_hours_and_restore_with_a_fresh_wait(app: TestApp) {
    let (owner, key) = founder(&app).await;
    let id = propose(&app, &key, proposal(5_000)).await;
    app.clock.advance(72 * HOUR_MS - 1);
    assert_eq!(queue_ids(&app, &owner.token).await, vec![id.clone()]);
    app.clock.advance(1);
    assert!(app.queue(&owner.token).await.is_empty());
    for resolution in ["approve", "reject", "snooze"] {
        resolve(&app, &owner.token, &id, resolution, json!({}))
            .await
            .expect_error(404, "no such pending card");
    }
    // A snooze does not outlive the proposal either.
    let second = propose(&app, &key, proposal(4_000)).await;
    resolve(
        &app,
        &owner.token,
        &second,
        "snooze",
        json!({ "snoozeHours": 100 }),
    )
    .await
    .expect(200);

    // The job persists the expiry and records it.
    app.clock.advance(72 * HOUR_MS);
    payback_server::jobs::run_due(&app.state, "runner-a")
        .await
        .unwrap();
    for card in [&id, &second] {
        let events = card_history(&app, &owner.token, card).await;
        let expired = events
            .iter()
            .find(|e| e["action"] == "card.expire")
            .expect("expired");
        assert_eq!(expired["actor"], "system");
        assert_eq!(expired["via"], "job");
    }

    resolve(&app, &owner.token, &id, "restore", json!({}))
        .await
        .expect(200);
    let cards = app.queue(&owner.token).await;
    assert_eq!(cards.len(), 1);
    let now = app.clock.now();
    assert_eq!(
        cards[0]["expires_at"],
        now.plus_millis(72 * HOUR_MS).to_rfc3339()
    );
    resolve(&app, &owner.token, &id, "approve", json!({}))
        .await
        .expect(200);
}

async fn api_keys_never_resolve(app: TestApp) {
    let (owner, key) = founder(&app).await;
    let id = propose(&app, &key, proposal(5_000)).await;
    // Even a snoozed card cannot be restored by a key.
    let snoozed = propose(&app, &key, proposal(4_000)).await;
    resolve(&app, &owner.token, &snoozed, "snooze", json!({}))
        .await
        .expect(200);
    for resolution in RESOLUTIONS {
        for card in [&id, &snoozed] {
            let reply = resolve(
                &app,
                &key,
                card,
                resolution,
                json!({ "actor": "someone@example.com" }),
            )
            .await;
            reply.expect_error(403, "a human must resolve cards");
        }
    }
    assert_eq!(queue_ids(&app, &owner.token).await, vec![id]);
    let resolutions = app
        .history(&owner.token, "?limit=1000")
        .await
        .into_iter()
        .filter(|e| {
            ["card.approve", "card.reject", "card.restore"].contains(&e["action"].as_str().unwrap())
        })
        .count();
    assert_eq!(resolutions, 0);
}

async fn members_resolve_and_actor_is_their_own_email(app: TestApp) {
    let (owner, key) = founder(&app).await;
    let member = app.add_member(&owner, "member@example.com", "member").await;
    let id = propose(&app, &key, proposal(5_000)).await;
    // A non-operator's `actor` is ignored: they are recorded as themselves.
    resolve(
        &app,
        &member.token,
        &id,
        "reject",
        json!({ "actor": "ceo@example.com" }),
    )
    .await
    .expect(200);
    let events = card_history(&app, &owner.token, &id).await;
    let reject = events
        .iter()
        .find(|e| e["action"] == "card.reject")
        .unwrap();
    assert_eq!(reject["actor"], "member@example.com");
}

async fn other_accounts_cards_answer_404_and_operators_see_all(app: TestApp) {
    let (owner, key) = founder(&app).await;
    let id = propose(&app, &key, proposal(5_000)).await;
    let stranger = app.signup_verified("stranger@example.com").await;
    let stranger_key = app.api_key(&stranger).await;
    assert!(app.queue(&stranger.token).await.is_empty());
    assert!(app.queue(&stranger_key).await.is_empty());
    for resolution in RESOLUTIONS {
        resolve(&app, &stranger.token, &id, resolution, json!({}))
            .await
            .expect_error(404, "no such pending card");
    }
    resolve(
        &app,
        &owner.token,
        "0196a1d2-0000-7000-8000-000000000000",
        "approve",
        json!({}),
    )
    .await
    .expect_error(404, "no such pending card");
    app.get("/queue", None).await.expect_error(401, "bearer");
    app.post(&format!("/queue/{id}/approve"), None, json!({}))
        .await
        .expect_error(401, "bearer");
    app.post_raw(
        &format!("/queue/{id}/approve"),
        Some(&owner.token),
        "application/json",
        "{oops",
    )
    .await
    .expect_error(400, "");

    // The operator token sees every account's queue and may name the resolver.
    let operator = app.operator_token.clone();
    assert_eq!(queue_ids(&app, &operator).await, vec![id.clone()]);
    resolve(
        &app,
        &operator,
        &id,
        "approve",
        json!({ "actor": "ops-lead@payback.test" }),
    )
    .await
    .expect(200);
    let events = card_history(&app, &owner.token, &id).await;
    let approve = events
        .iter()
        .find(|e| e["action"] == "card.approve")
        .unwrap();
    assert_eq!(approve["actor"], "ops-lead@payback.test");
    assert_eq!(approve["via"], "api");
}

async fn concurrent_approvals_apply_once(backend: Backend) {
    let executor = RecordingExecutor::new(
        Network::Google,
        ExecutionOutcome::Applied {
            detail: "ok".to_owned(),
        },
    );
    let app = TestApp::spawn_with_executor(backend, executor.clone()).await;
    let (owner, key) = founder(&app).await;
    let id = propose(&app, &key, proposal(5_000)).await;
    // Six approvals in flight at once: exactly one wins.
    let mut tries = tokio::task::JoinSet::new();
    for _ in 0..6 {
        let request = app
            .client
            .post(app.url(&format!("/queue/{id}/approve")))
            .bearer_auth(&owner.token)
            .json(&json!({}));
        tries.spawn(async move { request.send().await.unwrap().status().as_u16() });
    }
    let statuses: Vec<u16> = tries.join_all().await;
    assert_eq!(
        statuses.iter().filter(|s| **s == 200).count(),
        1,
        "{statuses:?}"
    );
    assert!(
        statuses.iter().all(|s| *s == 200 || *s == 404),
        "{statuses:?}"
    );
    assert_eq!(executor.calls().len(), 1);
}

#[tokio::test]
async fn concurrent_approvals_apply_once_sqlite() {
    concurrent_approvals_apply_once(Backend::Sqlite).await;
}

#[tokio::test]
async fn concurrent_approvals_apply_once_postgres() {
    concurrent_approvals_apply_once(Backend::Postgres).await;
}

/// `GET /queue?status=` lists the cards set aside, so a human can find what to restore: snoozed
/// ones until their time comes, expired ones once their 72 hours pass (before and after the
/// expiry job stores it), never another account's; an unknown status is a 400 naming the field.
async fn set_aside_cards_are_listed_by_status(app: TestApp) {
    let (owner, key) = founder(&app).await;
    let listed = |status: &'static str| {
        let app = &app;
        let token = owner.token.clone();
        async move {
            let reply = app
                .get(&format!("/queue?status={status}"), Some(&token))
                .await;
            reply
                .expect(200)
                .as_array()
                .unwrap()
                .iter()
                .map(|c| {
                    (
                        c["id"].as_str().unwrap().to_owned(),
                        c["status"].as_str().unwrap().to_owned(),
                    )
                })
                .collect::<Vec<_>>()
        }
    };
    let snoozed = propose(&app, &key, proposal(3_000)).await;
    app.clock.advance(2 * HOUR_MS);
    let expiring = propose(&app, &key, proposal(4_000)).await;
    resolve(
        &app,
        &owner.token,
        &snoozed,
        "snooze",
        json!({ "snoozeHours": 100 }),
    )
    .await
    .expect(200);

    assert_eq!(
        listed("pending").await,
        vec![(expiring.clone(), "pending".to_owned())]
    );
    assert_eq!(
        listed("snoozed").await,
        vec![(snoozed.clone(), "snoozed".to_owned())]
    );
    assert!(listed("expired").await.is_empty());
    // The default is pending.
    assert_eq!(queue_ids(&app, &owner.token).await, vec![expiring.clone()]);

    // Both pass 72 hours from their creation: expired, whether or not the job has run.
    app.clock.advance(72 * HOUR_MS);
    let expired = listed("expired").await;
    assert_eq!(
        expired.iter().map(|(id, _)| id.clone()).collect::<Vec<_>>(),
        vec![expiring.clone(), snoozed.clone()]
    );
    assert!(
        expired.iter().all(|(_, status)| status == "expired"),
        "{expired:?}"
    );
    assert!(listed("snoozed").await.is_empty());
    assert!(listed("pending").await.is_empty());

    // Restoring takes one back to pending.
    resolve(&app, &owner.token, &expiring, "restore", json!({}))
        .await
        .expect(200);
    assert_eq!(listed("expired").await.len(), 1);
    assert_eq!(queue_ids(&app, &owner.token).await, vec![expiring]);

    let stranger = app.signup_verified("stranger@example.com").await;
    for status in ["pending", "snoozed", "expired"] {
        let reply = app
            .get(&format!("/queue?status={status}"), Some(&stranger.token))
            .await;
        assert_eq!(reply.expect(200), &json!([]));
    }
    app.get("/queue?status=resolved", Some(&owner.token))
        .await
        .expect_error(400, "status");
}

backend_tests!(
    approval_without_connector_records_not_applied,
    reject_dismisses_for_good,
    snooze_hides_until_the_time_comes,
    proposals_expire_after_72_hours_and_restore_with_a_fresh_wait,
    api_keys_never_resolve,
    members_resolve_and_actor_is_their_own_email,
    other_accounts_cards_answer_404_and_operators_see_all,
    set_aside_cards_are_listed_by_status,
);
