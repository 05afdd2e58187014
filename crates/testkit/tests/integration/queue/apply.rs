//! Applying an approved budget change durably: the change commits with the approval, transient
//! network failures are retried by the `apply_budgets` job with backoff until the change lands,
//! a crash between the approval and the network's answer loses nothing (the restarted service
//! applies it, once), refusals end the change with the reason on the card, and nothing reaches
//! the network before a human approves, whoever asks.

use payback_connectors::BudgetOutcome;
use payback_domain::policy::Network;
use payback_testkit::{Backend, RecordingBudgets};

use super::*;

fn transient(error: &str) -> BudgetOutcome {
    BudgetOutcome::Failed {
        error: error.to_owned(),
        transient: true,
    }
}

/// The approved cards as the owner sees them, with their `execution`.
async fn approved_cards(app: &TestApp, token: &str) -> Vec<Value> {
    app.get("/queue?status=approved", Some(token))
        .await
        .expect(200)
        .as_array()
        .unwrap()
        .clone()
}

async fn network_failing_twice_then_succeeding(backend: Backend) {
    let network = RecordingBudgets::answering_in_turn([
        transient("Google Ads answered 503"),
        transient("rate limited by the vendor"),
        RecordingBudgets::applied("cmp-1", 2_000, 5_000),
    ]);
    let app = TestApp::spawn_with_budgets(backend, Network::Google, network.clone()).await;
    let (owner, key) = founder(&app).await;
    app.connect_ad_network(&owner, "shop", Network::Google)
        .await;
    let id = propose(&app, &key, proposal(5_000)).await;
    resolve(&app, &owner.token, &id, "approve", json!({}))
        .await
        .expect(200);

    // The approving request tried once and failed: the card says it is still applying.
    assert_eq!(network.calls().len(), 1);
    let cards = approved_cards(&app, &owner.token).await;
    assert_eq!(cards.len(), 1);
    let execution = &cards[0]["execution"];
    assert_eq!(execution["state"], "applying");
    assert_eq!(execution["attempts"], 1);
    assert_eq!(execution["error"], "Google Ads answered 503");
    assert_eq!(execution["next_attempt_in_seconds"], 30);

    // Not due yet: the job leaves it alone.
    run_jobs(&app).await;
    assert_eq!(network.calls().len(), 1);
    // The job's next pass (a minute later, past the 30 s wait) tries again and fails; the
    // wait doubles.
    app.clock.advance(60_000);
    run_jobs(&app).await;
    assert_eq!(network.calls().len(), 2);
    let execution = approved_cards(&app, &owner.token).await[0]["execution"].clone();
    assert_eq!(execution["attempts"], 2);
    assert_eq!(execution["next_attempt_in_seconds"], 60);
    app.clock.advance(60_000);
    run_jobs(&app).await;
    assert_eq!(network.calls().len(), 3);
    let execution = approved_cards(&app, &owner.token).await[0]["execution"].clone();
    assert_eq!(execution["state"], "applied");
    assert_eq!(execution["applied"], true);
    assert_eq!(execution["before_cents"], 2_000);
    assert_eq!(execution["after_cents"], 5_000);
    assert_eq!(execution["attempts"], 3);

    // Applied once: later passes ask nothing.
    app.clock.advance(3_600_000);
    run_jobs(&app).await;
    assert_eq!(network.calls().len(), 3);

    let events = card_history(&app, &owner.token, &id).await;
    assert_eq!(
        actions(&events),
        vec![
            "proposal.create",
            "card.approve",
            "spend.apply_retry",
            "spend.apply_retry",
            "spend.applied",
        ]
    );
    assert!(events[2..].iter().all(|e| e["actor"] == "system"));
    let policy = app.get("/policy", Some(&key)).await.expect(200).clone();
    assert_eq!(policy["budgets"][0]["applied"], true);
}

per_backend!(network_failing_twice_then_succeeding);

async fn crash_between_approval_and_apply(backend: Backend) {
    let network = RecordingBudgets::hanging_first(RecordingBudgets::applied("cmp-1", 2_000, 5_000));
    let app = TestApp::spawn_with_budgets(backend, Network::Google, network.clone()).await;
    let (owner, key) = founder(&app).await;
    app.connect_ad_network(&owner, "shop", Network::Google)
        .await;
    let id = propose(&app, &key, proposal(5_000)).await;

    // The approval commits, then the process dies while the network is being asked.
    let in_flight = app.approve_in_background(&owner.token, &id);
    while network.calls().is_empty() {
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    in_flight.abort();
    let fake = network.clone();
    let app = app
        .restart_with(move |state| {
            let source = payback_testkit::FakeSource::new(
                payback_domain::connection::ConnectionKind::SearchAds,
            )
            .with_budgets(fake);
            state
                .sources
                .register(source.kind(), std::sync::Arc::new(source));
        })
        .await;

    // The restarted service finds the approved change; while the dead runner's heartbeat is
    // fresh nobody asks the network a second time.
    let cards = approved_cards(&app, &owner.token).await;
    assert_eq!(cards[0]["id"], id.as_str());
    assert_eq!(cards[0]["execution"]["state"], "applying");
    run_jobs(&app).await;
    assert_eq!(network.calls().len(), 1);
    // Once its heartbeat is dead (45 s, well before the 5-minute lease ends), the job applies it.
    app.clock.advance(60_000);
    run_jobs(&app).await;
    assert_eq!(network.calls().len(), 2);
    let execution = approved_cards(&app, &owner.token).await[0]["execution"].clone();
    assert_eq!(execution["state"], "applied");
    assert_eq!(execution["after_cents"], 5_000);
    let events = card_history(&app, &owner.token, &id).await;
    assert_eq!(
        actions(&events),
        vec!["proposal.create", "card.approve", "spend.applied"]
    );
}

per_backend!(crash_between_approval_and_apply);

async fn refusal_ends_the_change_with_its_reason(backend: Backend) {
    let network = RecordingBudgets::answering(BudgetOutcome::Refused {
        reason: "the budget is shared by 3 campaigns; change it in Google Ads".to_owned(),
    });
    let app = TestApp::spawn_with_budgets(backend, Network::Google, network.clone()).await;
    let (owner, key) = founder(&app).await;
    app.connect_ad_network(&owner, "shop", Network::Google)
        .await;
    let id = propose(&app, &key, proposal(5_000)).await;
    resolve(&app, &owner.token, &id, "approve", json!({}))
        .await
        .expect(200);
    let execution = approved_cards(&app, &owner.token).await[0]["execution"].clone();
    assert_eq!(execution["state"], "refused");
    assert_eq!(execution["applied"], false);
    assert_eq!(
        execution["reason"],
        "the budget is shared by 3 campaigns; change it in Google Ads"
    );
    // Final: the job never asks again, and the budget is approved but not applied.
    app.clock.advance(3_600_000);
    run_jobs(&app).await;
    assert_eq!(network.calls().len(), 1);
    let events = card_history(&app, &owner.token, &id).await;
    assert_eq!(events.last().unwrap()["action"], "spend.not_applied");
    let policy = app.get("/policy", Some(&key)).await.expect(200).clone();
    assert_eq!(policy["budgets"][0]["applied"], false);
}

per_backend!(refusal_ends_the_change_with_its_reason);

async fn nothing_reaches_the_network_before_approval(backend: Backend) {
    let network = RecordingBudgets::answering(RecordingBudgets::applied("cmp-1", 2_000, 5_000));
    let app = TestApp::spawn_with_budgets(backend, Network::Google, network.clone()).await;
    let (owner, key) = founder(&app).await;
    app.connect_ad_network(&owner, "shop", Network::Google)
        .await;
    let id = propose(&app, &key, proposal(5_000)).await;
    // The agent's key, every resolution.
    for resolution in RESOLUTIONS {
        resolve(&app, &key, &id, resolution, json!({}))
            .await
            .expect_error(403, "a human must resolve cards");
    }
    // Jobs, however late.
    for _ in 0..3 {
        app.clock.advance(3_600_000);
        run_jobs(&app).await;
    }
    // A human who snoozes or rejects does not approve.
    let other = propose(&app, &key, proposal(4_000)).await;
    resolve(&app, &owner.token, &other, "reject", json!({}))
        .await
        .expect(200);
    assert!(network.calls().is_empty());
    // The proposal expired after 72 hours without a decision: still nothing.
    app.clock.advance(72 * 3_600_000);
    run_jobs(&app).await;
    resolve(&app, &owner.token, &id, "approve", json!({}))
        .await
        .expect_error(404, "no such pending card");
    assert!(network.calls().is_empty());
    assert!(approved_cards(&app, &owner.token).await.is_empty());
}

per_backend!(nothing_reaches_the_network_before_approval);
