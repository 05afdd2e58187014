//! Approved `meta` budgets applied on the fake network where the budget lives (the campaign's
//! own, or its only ad set's), in the currency's minor units, read back, before and after on
//! the card; refusals change nothing; nothing reaches Meta before a human approves.

use payback_testkit::{Backend, FakeLinkedIn, FakeMeta, per_backend};
use serde_json::{Value, json};

use super::*;

fn proposal(campaign_id: Option<i64>, to_cents: i64) -> Value {
    let mut body = json!({
        "network": "meta",
        "to_cents": to_cents,
        "rationale": "Retargeting pays back in four days; it runs out of budget by noon.",
    });
    if let Some(id) = campaign_id {
        body["campaign_id"] = json!(id.to_string());
    }
    body
}

async fn propose(app: &TestApp, key: &str, body: Value) -> String {
    app.post("/products/shop/proposals", Some(key), body)
        .await
        .expect(202)["proposal_id"]
        .as_str()
        .unwrap()
        .to_owned()
}

async fn approve(app: &TestApp, token: &str, id: &str) {
    app.post(&format!("/queue/{id}/approve"), Some(token), json!({}))
        .await
        .expect(200);
}

async fn execution_of(app: &TestApp, token: &str, id: &str) -> Value {
    let approved = app
        .get("/queue?status=approved", Some(token))
        .await
        .expect(200)
        .clone();
    approved
        .as_array()
        .unwrap()
        .iter()
        .find(|card| card["id"] == id)
        .map(|card| card["execution"].clone())
        .expect("the approved card")
}

async fn approvals_change_the_budget_where_it_lives(backend: Backend) {
    let (meta, linkedin) = (FakeMeta::spawn().await, FakeLinkedIn::spawn().await);
    seed_meta(&meta);
    let app = spawn(backend, &meta, &linkedin).await;
    let (owner, key) = founder(&app).await;
    connect_meta_ads(&app, &key).await;
    let before = meta.requests().len();

    let brand = propose(&app, &key, proposal(Some(BRAND), 3_550)).await;
    // The agent's own approval is refused, and job passes reach nothing at Meta.
    app.post(&format!("/queue/{brand}/approve"), Some(&key), json!({}))
        .await
        .expect(403);
    for _ in 0..2 {
        app.clock.advance(3_600_000);
        payback_server::jobs::run_due(&app.state, "test-runner")
            .await
            .unwrap();
    }
    assert!(meta.budget_changes().is_empty());
    assert!(
        meta.requests()[before..]
            .iter()
            .all(|r| !r.path.contains(&BRAND.to_string())),
        "no read or write of the campaign before a human approves"
    );
    assert_eq!(meta.campaign_daily_budget(BRAND), Some(2_000));

    approve(&app, &owner.token, &brand).await;
    // USD's minor unit is the cent: the exact amount, on the campaign's own budget.
    assert_eq!(
        meta.campaign_daily_budget(BRAND),
        Some(3_550),
        "{}",
        execution_of(&app, &owner.token, &brand).await
    );
    assert_eq!(meta.budget_changes().len(), 1);
    let execution = execution_of(&app, &owner.token, &brand).await;
    assert_eq!(execution["state"], "applied", "{execution}");
    assert_eq!(execution["before_cents"], 2_000);
    assert_eq!(execution["after_cents"], 3_550);
    assert_eq!(execution["campaign_id"], BRAND.to_string());

    // Prospecting's budget lives on its only ad set.
    let prospecting = propose(&app, &key, proposal(Some(PROSPECTING), 2_200)).await;
    approve(&app, &owner.token, &prospecting).await;
    assert_eq!(meta.adset_daily_budget(3_003), Some(2_200));
    assert_eq!(meta.campaign_daily_budget(PROSPECTING), None);
    let execution = execution_of(&app, &owner.token, &prospecting).await;
    assert_eq!(
        (
            execution["state"].clone(),
            execution["before_cents"].clone()
        ),
        (json!("applied"), json!(1_500))
    );

    // Two ad-set budgets, or no campaign named among several: refused, nothing written.
    let changes = meta.budget_changes().len();
    for body in [proposal(Some(SPLIT), 2_000), proposal(None, 2_000)] {
        let id = propose(&app, &key, body).await;
        approve(&app, &owner.token, &id).await;
        let execution = execution_of(&app, &owner.token, &id).await;
        assert_eq!(execution["state"], "refused", "{execution}");
        assert!(
            execution["reason"].as_str().unwrap_or_default().len() > 10,
            "{execution}"
        );
    }
    assert_eq!(meta.budget_changes().len(), changes);
    assert_eq!(meta.adset_daily_budget(3_004), Some(700));
    assert_eq!(meta.adset_daily_budget(3_005), Some(800));

    let history = app.history(&owner.token, "?limit=50").await;
    let applied: Vec<&Value> = history
        .iter()
        .filter(|e| e["action"] == "spend.applied")
        .collect();
    assert_eq!(applied.len(), 2);
    assert!(applied.iter().all(|e| e["actor"] == "system"));
}

per_backend!(approvals_change_the_budget_where_it_lives);
