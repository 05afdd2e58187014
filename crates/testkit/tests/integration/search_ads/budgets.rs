//! Approved budgets applied on the fake network: the exact micros, read back, before and after
//! on the card; the refusals (shared budget, removed campaign, no campaign named among
//! several) change nothing; no request reaches the network before a human approves.

use payback_testkit::fake_google::Status;
use payback_testkit::{Backend, FakeGoogle, per_backend};
use serde_json::{Value, json};

use super::*;

fn proposal(campaign_id: Option<&str>, to_cents: i64) -> Value {
    let mut body = json!({
        "network": "google",
        "from_cents": 2_000,
        "to_cents": to_cents,
        "rationale": "CAC on search is well under target; room to grow.",
    });
    if let Some(id) = campaign_id {
        body["campaign_id"] = json!(id);
    }
    body
}

async fn an_approval_changes_the_budget(backend: Backend) {
    let google = FakeGoogle::spawn().await;
    seed(&google);
    let app = spawn(backend, &google).await;
    let (owner, key) = founder(&app).await;
    connect(&app, &google, &owner.token).await;

    let id = app
        .raise_proposal(&key, "shop", proposal(Some("111"), 4_250))
        .await;
    // A human's session proposing is a proposal too: it waits like the agent's.
    let by_session = app
        .raise_proposal(&owner.token, "shop", proposal(Some("111"), 3_000))
        .await;
    app.post(
        &format!("/queue/{by_session}/reject"),
        Some(&owner.token),
        json!({}),
    )
    .await
    .expect(200);
    // Proposing (key or session), the agent's refused approval and every job pass reach
    // nothing at Google.
    app.post(&format!("/queue/{id}/approve"), Some(&key), json!({}))
        .await
        .expect(403);
    for _ in 0..2 {
        app.clock.advance(3_600_000);
        payback_server::jobs::run_due(&app.state, "test-runner")
            .await
            .unwrap();
    }
    assert!(google.requests_to("campaignBudgets:mutate").is_empty());
    assert_eq!(google.budget_micros(CUSTOMER, SEARCH), Some(20_000_000));

    app.approve_card(&owner.token, &id).await;
    // The exact micros, on the campaign's own budget.
    assert_eq!(google.budget_micros(CUSTOMER, SEARCH), Some(42_500_000));
    assert_eq!(google.budget_micros(CUSTOMER, PMAX), Some(30_000_000));
    let mutates = google.requests_to("campaignBudgets:mutate");
    assert_eq!(mutates.len(), 1);
    assert_eq!(
        mutates[0].header("developer-token"),
        Some(google.developer_token())
    );
    let execution = app.approved_execution(&owner.token, &id).await;
    assert_eq!(execution["state"], "applied", "{execution}");
    assert_eq!(execution["before_cents"], 2_000);
    assert_eq!(execution["after_cents"], 4_250);
    assert_eq!(execution["campaign_id"], "111");
    let history = app.history(&owner.token, "?limit=20").await;
    let applied = history
        .iter()
        .find(|e| e["action"] == "spend.applied")
        .expect("spend.applied");
    assert_eq!(applied["actor"], "system");
    assert_eq!(applied["payload"]["after_cents"], 4_250);

    // The same target again is applied with nothing sent.
    let again = app
        .raise_proposal(&key, "shop", proposal(Some("111"), 4_250))
        .await;
    app.approve_card(&owner.token, &again).await;
    assert_eq!(google.requests_to("campaignBudgets:mutate").len(), 1);
    assert_eq!(
        app.approved_execution(&owner.token, &again).await["state"],
        "applied"
    );
}

per_backend!(an_approval_changes_the_budget);

async fn refusals_change_nothing(backend: Backend) {
    let google = FakeGoogle::spawn().await;
    seed(&google);
    google.add_campaign(
        CUSTOMER,
        CampaignSeed::new(333, "Shared one", 10_000_000).shared_budget(77),
    );
    google.add_campaign(
        CUSTOMER,
        CampaignSeed::new(334, "Shared two", 10_000_000).shared_budget(77),
    );
    google.add_campaign(
        CUSTOMER,
        CampaignSeed::new(444, "Old", 5_000_000).status(Status::Removed),
    );
    let app = spawn(backend, &google).await;
    let (owner, key) = founder(&app).await;
    connect(&app, &google, &owner.token).await;

    for (campaign, needle) in [
        (Some("333"), "shared"),
        (Some("444"), "removed"),
        (None, "campaign"),
    ] {
        let id = app
            .raise_proposal(&key, "shop", proposal(campaign, 3_000))
            .await;
        app.approve_card(&owner.token, &id).await;
        let execution = app.approved_execution(&owner.token, &id).await;
        assert_eq!(execution["state"], "refused", "{execution}");
        let reason = execution["reason"].as_str().unwrap().to_lowercase();
        assert!(reason.contains(needle), "{reason}");
    }
    assert!(google.requests_to("campaignBudgets:mutate").is_empty());
    assert_eq!(google.budget_micros(CUSTOMER, 333), Some(10_000_000));
    assert_eq!(google.budget_micros(CUSTOMER, 444), Some(5_000_000));
}

per_backend!(refusals_change_nothing);
