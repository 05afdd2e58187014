//! A `meta` budget change lands on the ad account it was proposed for (issue 35): the card
//! records the Meta connection and its ad account; when the connection is pointed at another
//! ad account before the human approves (here by the agent's own key, which may connect), the
//! approval writes nothing at Meta, the card stays approved and history says why.

use payback_testkit::{Backend, FakeLinkedIn, FakeMeta, per_backend};
use serde_json::json;

use super::*;

/// A second USD account the pasted token reaches, with a campaign of its own.
const SECOND_ACCOUNT: i64 = 1_004;
const SECOND_BRAND: i64 = 2_009;

async fn propose(app: &TestApp, key: &str, campaign: i64, to_cents: i64) -> String {
    let body = json!({
        "network": "meta",
        "campaign_id": campaign.to_string(),
        "to_cents": to_cents,
        "rationale": "Retargeting pays back in four days; it runs out of budget by noon.",
    });
    app.raise_proposal(key, "shop", body).await
}

async fn a_meta_change_lands_only_on_its_ad_account(backend: Backend) {
    let (meta, linkedin) = (FakeMeta::spawn().await, FakeLinkedIn::spawn().await);
    seed_meta(&meta);
    meta.add_ad_account(AdAccountSeed::new(SECOND_ACCOUNT, "Second shop", "USD"));
    meta.add_campaign(
        SECOND_ACCOUNT,
        CampaignSeed::new(SECOND_BRAND, "Second brand").daily_budget(2_000),
    );
    let app = spawn(backend, &meta, &linkedin).await;
    let (owner, key) = founder(&app).await;
    connect_meta_ads(&app, &key).await;
    let connection_id = connection(&app, &key, "social_ads_a").await.unwrap()["id"].clone();

    let id = propose(&app, &key, BRAND, 3_550).await;
    let spec = app.queue_card(&owner.token, "pending", &id).await["action_spec"].clone();
    assert_eq!(spec["connection_id"], connection_id);
    assert_eq!(spec["ad_account_id"], ACCOUNT.to_string());

    // The agent's key points the connection at another ad account, then the human approves
    // the card, which still names the first.
    app.post(
        "/products/shop/connections/social-ads-a",
        Some(&key),
        json!({ "access_token": META_TOKEN, "ad_account_id": SECOND_ACCOUNT.to_string() }),
    )
    .await
    .expect(200);
    app.approve_card(&owner.token, &id).await;

    assert!(
        meta.budget_changes().is_empty(),
        "{:?}",
        meta.budget_changes()
    );
    assert_eq!(meta.campaign_daily_budget(BRAND), Some(2_000));
    assert_eq!(meta.campaign_daily_budget(SECOND_BRAND), Some(2_000));
    let reason = format!(
        "the product's Meta connection now points at account {SECOND_ACCOUNT}, not {ACCOUNT}, which this change was proposed for; propose the change again for the account now connected"
    );
    let shown = app.queue_card(&owner.token, "approved", &id).await;
    assert_eq!(shown["execution"]["state"], "refused", "{shown}");
    assert_eq!(shown["execution"]["reason"], reason.as_str());
    let events = app
        .history_where(&owner.token, |e| {
            e["subject_ref"] == id.as_str() && e["action"] == "spend.not_applied"
        })
        .await;
    assert_eq!(events.len(), 1);
    assert_eq!(events[0]["payload"]["reason"], reason.as_str());

    // Proposed for the account connected now: applied there, once.
    let honest = propose(&app, &key, SECOND_BRAND, 2_600).await;
    app.approve_card(&owner.token, &honest).await;
    assert_eq!(meta.campaign_daily_budget(SECOND_BRAND), Some(2_600));
    assert_eq!(meta.budget_changes().len(), 1);
    assert_eq!(meta.campaign_daily_budget(BRAND), Some(2_000));
}

per_backend!(a_meta_change_lands_only_on_its_ad_account);
