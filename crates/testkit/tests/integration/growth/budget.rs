//! Budget: channels whose CAC exceeds LTV (or whose spend acquired nobody) against the channel
//! paying back best, ranked by the estimate in docs/health-and-growth.md computed here; spend recorded by hand asks
//! for the networks; listing and prompting raise nothing.

use payback_store::spend::SpendRow;

use super::*;

backend_tests!(budget_moves_from_channels_that_do_not_pay_back);

/// A day of spend on one channel, recorded by hand (no ad network connected).
async fn spend(app: &TestApp, product_id: &str, network: &str, channel: &str, cents: i64) {
    let row = SpendRow {
        day: app.clock.now().day(),
        network: network.into(),
        channel: channel.into(),
        campaign_id: format!("{network}-main"),
        campaign_name: Some("main".into()),
        spend_cents: cents,
        ..SpendRow::default()
    };
    let mut tx = app.state.store.begin().await.unwrap();
    payback_store::spend::upsert(&mut tx, product_id, "test", &[row], app.clock.now())
        .await
        .unwrap();
    tx.commit().await.unwrap();
}

/// Buyers arriving with `attribution`, each paying `each`.
async fn buyers(
    app: &TestApp,
    key: &str,
    prefix: &str,
    count: usize,
    each: i64,
    attribution: Value,
) {
    let mut events = Vec::new();
    for n in 0..count {
        let user = format!("{prefix}-{n}");
        events.push(
            json!({"dedupe_id": format!("v-{user}"), "stage": "visit", "user_id": user,
            "occurred_at": hours_ago(app, 4), "attribution": attribution}),
        );
        events.push(
            json!({"dedupe_id": format!("p-{user}"), "stage": "payment", "user_id": user,
            "value": each, "occurred_at": hours_ago(app, 3)}),
        );
    }
    app.send_events(key, "ads", json!(events)).await;
}

/// The estimate in docs/health-and-growth.md: the losing channel's spend at the best CAC, in customers worth LTV,
/// minus the customers it brought.
fn estimate(spend: i64, customers: i64, ltv: i64, best_cac: i64) -> i64 {
    let gained = (spend as f64 * ltv as f64 / best_cac as f64).round() as i64;
    gained - customers * ltv
}

async fn budget_moves_from_channels_that_do_not_pay_back(app: TestApp) {
    let owner = founder(&app, "founder@example.com").await;
    let each = 20_000;
    tracked(&app, &owner, "ads", 2, each).await;
    let id = app.get("/products/ads", Some(&owner.key)).await.expect(200)["product_id"]
        .as_str()
        .unwrap()
        .to_owned();
    // Google: 2 buyers for 100.00 (CAC 50.00); Meta: 1 buyer for 600.00; LinkedIn: 300.00 for
    // nobody.
    buyers(
        &app,
        &owner.key,
        "g",
        2,
        each,
        json!({"gclid": "g", "utm_campaign": "main"}),
    )
    .await;
    buyers(
        &app,
        &owner.key,
        "m",
        1,
        each,
        json!({"fbclid": "f", "utm_source": "facebook", "utm_medium": "paid_social"}),
    )
    .await;
    spend(&app, &id, "google", "paid_google", 10_000).await;
    spend(&app, &id, "meta", "paid_meta", 60_000).await;
    spend(&app, &id, "linkedin", "paid_linkedin", 30_000).await;

    // Every customer ever paid `each`: LTV is `each`. Google's CAC is under it, Meta's above,
    // LinkedIn has none.
    let ltv = each;
    let (google_cac, meta_cac) = (10_000 / 2, 60_000);
    assert!(google_cac < ltv && meta_cac > ltv);
    let meta = estimate(60_000, 1, ltv, google_cac);
    let linkedin = estimate(30_000, 0, ltv, google_cac);
    assert_eq!((meta, linkedin), (220_000, 120_000));

    let ads = list(&app, &owner.key, "ads", "").await;
    // Both moves fail (CAC above LTV), the larger estimate first; the networks' connection is
    // a warning (spend recorded by hand).
    assert_eq!(
        ids(&ads),
        [
            "move_budget:paid_meta->paid_google",
            "move_budget:paid_linkedin->paid_google",
            "connect_ad_networks:spend",
        ]
    );
    let from_meta = action(&ads, "move_budget:paid_meta->paid_google");
    assert_eq!(from_meta["severity"], "fail");
    assert_eq!(from_meta["category"], "advertising");
    assert_eq!(from_meta["estimated_impact_cents"], meta);
    assert_eq!(
        from_meta["headline"],
        "Move budget from paid_meta to paid_google"
    );
    assert_eq!(
        from_meta["why"],
        "paid_meta: 600.00 USD spend, 1 customers, CAC 600.00 USD against an LTV of 200.00 USD; \
         paid_google: 100.00 USD spend, 2 customers, CAC 50.00 USD (last 30 days)"
    );
    assert_eq!(
        from_meta["links"],
        json!([
            {"label": "CAC per channel", "method": "GET", "path": "/products/ads/attribution?days=30"},
            {"label": "Raise a spend proposal (a human approves it)", "method": "POST", "path": "/products/ads/proposals"}
        ])
    );
    let from_linkedin = action(&ads, "move_budget:paid_linkedin->paid_google");
    assert_eq!(from_linkedin["estimated_impact_cents"], linkedin);
    assert!(
        from_linkedin["why"]
            .as_str()
            .unwrap()
            .starts_with("paid_linkedin: 300.00 USD spend, 0 customers, no customer"),
        "{from_linkedin:#}"
    );
    // Proposals change Google and Meta budgets only: no proposal link for LinkedIn.
    assert_eq!(from_linkedin["links"].as_array().unwrap().len(), 1);
    let networks = action(&ads, "connect_ad_networks:spend");
    assert_eq!(networks["severity"], "warn");
    assert_eq!(networks["estimated_impact_cents"], Value::Null);

    // The prompt drafts a proposal for a human to approve; nothing is raised.
    let answer = prompt(
        &app,
        &owner.key,
        "ads",
        "move_budget:paid_meta->paid_google",
        json!({"tool": "agent_b"}),
    )
    .await
    .expect(200)
    .clone();
    assert_eq!(answer["revenue_impact_cents"], meta);
    assert_eq!(answer["currency"], "USD");
    let text = answer["prompt"].as_str().unwrap();
    for needle in [
        "`ads`",
        "POST /products/ads/proposals",
        "\"network\":\"meta\"",
        "GET /queue",
        "GET /products/ads/attribution?days=30",
        "Stripe for payments",
    ] {
        assert!(text.contains(needle), "{needle} in {text}");
    }
    let linkedin_prompt = prompt(
        &app,
        &owner.key,
        "ads",
        "move_budget:paid_linkedin->paid_google",
        json!({"tool": "agent_a"}),
    )
    .await
    .expect(200)
    .clone();
    let text = linkedin_prompt["prompt"].as_str().unwrap();
    assert!(text.contains("by hand"), "{text}");
    assert!(!text.contains("\"network\""), "{text}");
    let queue = app
        .get("/queue", Some(&owner.key))
        .await
        .expect(200)
        .clone();
    assert_eq!(queue, json!([]), "listing and prompting raise no proposal");
}
