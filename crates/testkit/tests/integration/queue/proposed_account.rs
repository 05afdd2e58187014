//! The `apply_budgets` job's retry checks the ad account too (issue 35): a change approved for
//! one Google Ads customer whose first try failed transiently is not written once the product's
//! connection points at another customer; the retry finishes it as refused (no network call,
//! the card still approved, history says why) instead of retrying it forever.

use payback_connectors::BudgetOutcome;
use payback_domain::policy::Network;
use payback_testkit::{Backend, Bind, RecordingBudgets};

use super::*;

/// Points the connection at `customer`, as a new account choice stores it.
async fn point_at(app: &TestApp, connection_id: &str, customer: &str) {
    let config = json!({ "customer_id": customer }).to_string();
    let changed = app
        .sql_execute(
            "UPDATE connections SET config = $1 WHERE id = $2",
            &[Bind::from(config.as_str()), Bind::from(connection_id)],
        )
        .await;
    assert_eq!(changed, 1);
}

async fn a_retry_refuses_once_the_account_moved(backend: Backend) {
    let network = RecordingBudgets::answering_in_turn([
        BudgetOutcome::Failed {
            error: "Google Ads answered 503".to_owned(),
            transient: true,
        },
        RecordingBudgets::applied("cmp-1", 2_000, 5_000),
    ]);
    let app = TestApp::spawn_with_budgets(backend, Network::Google, network.clone()).await;
    let (owner, key) = founder(&app).await;
    let connection = app
        .connect_ad_network(&owner, "shop", Network::Google)
        .await;
    point_at(&app, &connection, "1111111111").await;

    let id = propose(&app, &key, proposal(5_000)).await;
    resolve(&app, &owner.token, &id, "approve", json!({}))
        .await
        .expect(200);
    // The approving request tried once and failed transiently: still applying.
    assert_eq!(network.calls().len(), 1);
    assert_eq!(
        app.approved_execution(&owner.token, &id).await["state"],
        "applying"
    );

    // Before the retry, the connection is pointed at another customer.
    point_at(&app, &connection, "2222222222").await;
    app.clock.advance(60_000);
    run_jobs(&app).await;
    assert_eq!(
        network.calls().len(),
        1,
        "the retry asked the network nothing"
    );
    let shown = app.approved_execution(&owner.token, &id).await;
    let reason = "the product's Google Ads connection now points at account 2222222222, not 1111111111, which this change was proposed for; propose the change again for the account now connected";
    assert_eq!(shown["state"], "refused", "{shown}");
    assert_eq!(shown["reason"], reason);

    // Finished: later passes leave it alone.
    for _ in 0..3 {
        app.clock.advance(3_600_000);
        run_jobs(&app).await;
    }
    assert_eq!(network.calls().len(), 1);
    let events = card_history(&app, &owner.token, &id).await;
    assert_eq!(
        actions(&events),
        [
            "proposal.create",
            "card.approve",
            "spend.apply_retry",
            "spend.not_applied"
        ]
    );
    assert_eq!(events[3]["payload"]["reason"], reason);
    assert_eq!(events[3]["actor"], "system");
    // The approved budget is recorded, never as applied.
    let budgets = app.get("/policy", Some(&key)).await.expect(200)["budgets"].clone();
    assert_eq!(budgets.as_array().map(Vec::len), Some(1), "{budgets}");
    assert_eq!(budgets[0]["applied"], false, "{budgets}");

    // Proposed for the customer connected now: applied, once.
    let honest = propose(&app, &key, proposal(5_000)).await;
    resolve(&app, &owner.token, &honest, "approve", json!({}))
        .await
        .expect(200);
    assert_eq!(network.calls().len(), 2);
    assert_eq!(
        app.approved_execution(&owner.token, &honest).await["state"],
        "applied"
    );
}

per_backend!(a_retry_refuses_once_the_account_moved);
