//! Approval reaches the executor: the whole promise end to end (propose, wait, a human
//! approves, the executor is asked once, history shows who and how), concurrent approvals
//! applying once, and an approval with no connector recorded as not applied.

use payback_domain::policy::Network;
use payback_testkit::{Backend, RecordingBudgets};

use super::*;

async fn whole_promise(backend: Backend) {
    let executor = RecordingBudgets::answering(RecordingBudgets::applied("cmp-1", 2_000, 5_000));
    let app = TestApp::spawn_with_budgets(backend, Network::Google, executor.clone()).await;
    let (owner, key) = founder(&app).await;
    app.connect_ad_network(&owner, "shop", Network::Google)
        .await;

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
    assert_eq!(calls[0].to_cents, 5_000);
    assert_eq!(calls[0].currency, "USD");
    assert_eq!(calls[0].campaign_id.as_deref(), Some("cmp-1"));
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
    let applied = &events[2]["payload"];
    assert_eq!(applied["applied"], true);
    assert_eq!(applied["state"], "applied");
    assert_eq!(applied["approved_by"], OWNER);
    assert_eq!(applied["before_cents"], 2_000);
    assert_eq!(applied["after_cents"], 5_000);
    assert_eq!(applied["attempts"], 1);
    assert_eq!(
        applied["detail"],
        "daily budget of campaign cmp-1 changed from 20.00 USD to 50.00 USD"
    );

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

/// With no connection that changes the network's budgets the card is approved and history says
/// why nothing changed.
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

async fn concurrent_approvals_apply_once(backend: Backend) {
    let executor = RecordingBudgets::answering(RecordingBudgets::applied("cmp-1", 2_000, 5_000));
    let app = TestApp::spawn_with_budgets(backend, Network::Google, executor.clone()).await;
    let (owner, key) = founder(&app).await;
    app.connect_ad_network(&owner, "shop", Network::Google)
        .await;
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

backend_tests!(approval_without_connector_records_not_applied);
