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

async fn approvals_change_the_budget_where_it_lives(backend: Backend) {
    let (meta, linkedin) = (FakeMeta::spawn().await, FakeLinkedIn::spawn().await);
    seed_meta(&meta);
    let app = spawn(backend, &meta, &linkedin).await;
    let (owner, key) = founder(&app).await;
    connect_meta_ads(&app, &key).await;
    let before = meta.requests().len();

    let brand = app
        .raise_proposal(&key, "shop", proposal(Some(BRAND), 3_550))
        .await;
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

    app.approve_card(&owner.token, &brand).await;
    // USD's minor unit is the cent: the exact amount, on the campaign's own budget.
    assert_eq!(
        meta.campaign_daily_budget(BRAND),
        Some(3_550),
        "{}",
        app.approved_execution(&owner.token, &brand).await
    );
    assert_eq!(meta.budget_changes().len(), 1);
    let execution = app.approved_execution(&owner.token, &brand).await;
    assert_eq!(execution["state"], "applied", "{execution}");
    assert_eq!(execution["before_cents"], 2_000);
    assert_eq!(execution["after_cents"], 3_550);
    assert_eq!(execution["campaign_id"], BRAND.to_string());

    // Prospecting's budget lives on its only ad set.
    let prospecting = app
        .raise_proposal(&key, "shop", proposal(Some(PROSPECTING), 2_200))
        .await;
    app.approve_card(&owner.token, &prospecting).await;
    assert_eq!(meta.adset_daily_budget(3_003), Some(2_200));
    assert_eq!(meta.campaign_daily_budget(PROSPECTING), None);
    let execution = app.approved_execution(&owner.token, &prospecting).await;
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
        let id = app.raise_proposal(&key, "shop", body).await;
        app.approve_card(&owner.token, &id).await;
        let execution = app.approved_execution(&owner.token, &id).await;
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

/// Every door an agent has (the API, MCP, chat) only queues a `meta` change: Meta hears nothing
/// until a human approves, through the dashboard door here, and then the budget changes once.
async fn no_door_reaches_meta_before_a_human(backend: Backend) {
    use payback_domain::Via;
    use payback_domain::card::Resolution;
    use payback_domain::policy::Network;
    use payback_server::services::acting::caller_for_token;
    use payback_server::services::proposals::{self, ProposalInput};
    use payback_server::services::queue::{self, ResolveOptions};

    let (meta, linkedin) = (FakeMeta::spawn().await, FakeLinkedIn::spawn().await);
    seed_meta(&meta);
    let app = spawn(backend, &meta, &linkedin).await;
    let (owner, key) = founder(&app).await;
    connect_meta_ads(&app, &key).await;
    let seen = meta.requests().len();

    let raise = |to_cents| ProposalInput {
        network: Network::Meta,
        campaign_id: Some(BRAND.to_string()),
        from_cents: Some(2_000),
        to_cents,
        rationale: "Retargeting pays back in four days; room to grow.".to_owned(),
        rollback_if: None,
        headline: None,
    };
    let mut cards = vec![
        app.raise_proposal(&key, "shop", proposal(Some(BRAND), 2_500))
            .await,
    ];
    for via in [Via::Mcp, Via::Chat] {
        let agent = caller_for_token(&app.state, &key, via).await.unwrap();
        let accepted = proposals::propose(&app.state, &agent, "shop", raise(2_600))
            .await
            .unwrap();
        assert_eq!(accepted.status, "pending_human");
        let refused = queue::resolve(
            &app.state,
            &agent,
            &accepted.proposal_id,
            Resolution::Approve,
            ResolveOptions::default(),
        )
        .await
        .unwrap_err();
        assert_eq!(refused.status().as_u16(), 403);
        cards.push(accepted.proposal_id);
    }
    payback_server::jobs::run_due(&app.state, "test-runner")
        .await
        .unwrap();
    // The job pass syncs spend (insights); nothing asks for or about the campaign's budget.
    assert!(meta.budget_changes().is_empty());
    assert!(
        meta.requests()[seen..]
            .iter()
            .all(|r| !r.path.contains(&BRAND.to_string()) && !r.path.contains("adsets")),
        "no read or write of the campaign before a human approves"
    );

    let human = caller_for_token(&app.state, &owner.token, Via::Dashboard)
        .await
        .unwrap();
    queue::resolve(
        &app.state,
        &human,
        &cards[2],
        Resolution::Approve,
        ResolveOptions::default(),
    )
    .await
    .unwrap();
    // The approving request tries at once; the job picks up what is still due.
    payback_server::jobs::run_due(&app.state, "test-runner")
        .await
        .unwrap();
    assert_eq!(meta.campaign_daily_budget(BRAND), Some(2_600));
    assert_eq!(meta.budget_changes().len(), 1);
}

per_backend!(
    approvals_change_the_budget_where_it_lives,
    no_door_reaches_meta_before_a_human,
);
