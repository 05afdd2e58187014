//! Spend: LTV:CAC and the CAC trend in each band, click ids on paid visits against the clicks
//! the network reports, daily caps on networks with spend, and spend recorded without a
//! connection.

use payback_store::spend::SpendRow;

use super::*;

const DAY_MS: i64 = 24 * 3_600_000;

/// 3 or more pass, 1-3 warn, under 1 fail.
fn ltv_cac_band(ltv: i64, cac: i64) -> &'static str {
    let ratio = ltv as f64 / cac as f64;
    if ratio >= 3.0 {
        "pass"
    } else if ratio >= 1.0 {
        "warn"
    } else {
        "fail"
    }
}

/// Up to 10% higher pass, up to 50% higher warn, more fail.
fn trend_band(cac: i64, previous: i64) -> &'static str {
    let change = (cac - previous) as f64 / previous as f64 * 100.0;
    if change <= 10.0 {
        "pass"
    } else if change <= 50.0 {
        "warn"
    } else {
        "fail"
    }
}

/// Tagged visits per reported click: at least half pass, fewer warn, none fail.
fn click_band(visits: i64, clicks: i64) -> &'static str {
    if visits == 0 {
        "fail"
    } else if visits * 2 >= clicks {
        "pass"
    } else {
        "warn"
    }
}

/// One window's paid traffic: `customers` buyers arriving on a Google ad click, each paying
/// `each` cents, `days_ago` days before now; and that day's Google spend and clicks.
struct Window {
    days_ago: i64,
    customers: i64,
    each: i64,
    spend: i64,
    clicks: i64,
}

async fn run(app: &TestApp, key: &str, slug: &str, product_id: &str, window: &Window) {
    let at = app.clock.now().minus_millis(window.days_ago * DAY_MS);
    let when = |hours: i64| at.minus_millis(hours * 3_600_000).to_rfc3339();
    let mut events = Vec::new();
    for n in 0..window.customers {
        let user = format!("d{}-{n}", window.days_ago);
        events.push(json!({"dedupe_id": format!("v-{user}"), "stage": "visit", "user_id": user,
            "occurred_at": when(6), "attribution": {"gclid": format!("g-{user}"), "utm_campaign": "brand"}}));
        events.push(
            json!({"dedupe_id": format!("p-{user}"), "stage": "payment", "user_id": user,
            "value": window.each, "occurred_at": when(5)}),
        );
    }
    if !events.is_empty() {
        app.send_events(key, slug, json!(events)).await;
    }
    let row = SpendRow {
        day: at.day(),
        network: "google".into(),
        channel: "paid_google".into(),
        campaign_id: "brand".into(),
        campaign_name: Some("brand".into()),
        spend_cents: window.spend,
        impressions: window.clicks * 20,
        clicks: window.clicks,
        ..SpendRow::default()
    };
    let mut tx = app.state.store.begin().await.unwrap();
    payback_store::spend::upsert(&mut tx, product_id, "test", &[row], app.clock.now())
        .await
        .unwrap();
    tx.commit().await.unwrap();
}

/// The statuses every product of this file shares: tracked paid buyers, no funnel of its own,
/// no primary conversion, spend without a connection.
fn paid_base() -> Vec<(&'static str, &'static str)> {
    vec![
        ("tracking.events", "pass"),
        ("tracking.payments", "warn"),
        ("tracking.identity_stitching", "pass"),
        ("tracking.unattributed", "pass"),
        ("funnel.empty_steps", "fail"),
        ("funnel.single_source", "pass"),
        ("advertising.ad_spend", "warn"),
        ("advertising.policy_caps", "warn"),
    ]
}

async fn spend_that_does_not_pay_back(app: TestApp) {
    let owner = founder(&app, "founder@example.com").await;
    let id = product(&app, &owner, "burn").await;
    let now = Window {
        days_ago: 0,
        customers: 2,
        each: 5_000,
        spend: 100_000,
        clicks: 10,
    };
    let before = Window {
        days_ago: 40,
        customers: 2,
        each: 5_000,
        spend: 10_000,
        clicks: 5,
    };
    run(&app, &owner.key, "burn", &id, &now).await;
    run(&app, &owner.key, "burn", &id, &before).await;
    // LTV: every customer ever, 4 x 5,000 over 4; CAC: this window's spend over its customers.
    let (ltv, cac, previous_cac) = (5_000, 100_000 / 2, 10_000 / 2);
    let burn = report(&app, &owner.key, "burn").await;
    let mut changed = paid_base();
    changed.extend([
        ("advertising.ltv_cac", ltv_cac_band(ltv, cac)),
        ("advertising.cac_trend", trend_band(cac, previous_cac)),
        ("advertising.click_ids", click_band(2, 10)),
    ]);
    assert_eq!(statuses(&burn), expect(&nothing_yet(&app), &changed));
    assert_eq!(check(&burn, "advertising.ltv_cac")["status"], "fail");
    assert_eq!(
        evidence(&burn, "advertising.ltv_cac"),
        "LTV 50.00 USD / CAC 500.00 USD = 0.10 (1000.00 USD spend, 2 customers in 30 days)"
    );
    assert_eq!(check(&burn, "advertising.cac_trend")["status"], "fail");
    assert_eq!(
        evidence(&burn, "advertising.cac_trend"),
        "CAC 500.00 USD in the last 30 days vs 50.00 USD in the 30 days before (+900.0%)"
    );
    assert_eq!(check(&burn, "advertising.click_ids")["status"], "warn");
    assert_eq!(
        evidence(&burn, "advertising.click_ids"),
        "paid_google: 2 tagged visits for 10 ad clicks (20.0%) in 30 days"
    );
    assert_eq!(
        evidence(&burn, "advertising.ad_spend"),
        "No ad network connected; 1000.00 USD of spend in 30 days was recorded by hand"
    );
    assert_eq!(
        evidence(&burn, "advertising.policy_caps"),
        "No daily cap: Google Ads spent 1000.00 USD in 30 days"
    );
    let move_budget = check(&burn, "advertising.ltv_cac")["action"]
        .as_str()
        .unwrap();
    assert!(
        move_budget.contains("/products/burn/attribution"),
        "{move_budget}"
    );

    // An owner caps Google: the check passes and names the cap.
    app.post(
        "/products/burn/policy",
        Some(&owner.session.token),
        json!({"daily_caps": {"google": 5_000}}),
    )
    .await
    .expect(200);
    let capped = report(&app, &owner.key, "burn").await;
    assert_eq!(check(&capped, "advertising.policy_caps")["status"], "pass");
    assert_eq!(
        evidence(&capped, "advertising.policy_caps"),
        "Capped: Google Ads 50.00 USD a day"
    );
    assert_eq!(
        check(&capped, "advertising.policy_caps")["action"],
        Value::Null
    );

    // A seven-day window holds this week's spend and customers; the week before has neither.
    let week = app
        .get("/products/burn/health-report?days=7", Some(&owner.key))
        .await
        .expect(200)
        .clone();
    assert_consistent(&week);
    assert_eq!(week["window_days"], 7);
    assert_eq!(check(&week, "advertising.cac_trend")["status"], "skip");
    assert_eq!(
        evidence(&week, "advertising.cac_trend"),
        "No CAC in the 7 days before to compare with (0.00 USD spend, 0 customers)"
    );
}

async fn spend_that_pays_back_and_spend_in_between(app: TestApp) {
    let owner = founder(&app, "founder@example.com").await;

    // CAC 2,000 now and before; LTV 10,000: 5.0, flat, 4 visits for 6 clicks.
    let id = product(&app, &owner, "earner").await;
    let now = Window {
        days_ago: 0,
        customers: 4,
        each: 10_000,
        spend: 8_000,
        clicks: 6,
    };
    let before = Window {
        days_ago: 40,
        customers: 2,
        each: 10_000,
        spend: 4_000,
        clicks: 3,
    };
    run(&app, &owner.key, "earner", &id, &now).await;
    run(&app, &owner.key, "earner", &id, &before).await;
    let earner = report(&app, &owner.key, "earner").await;
    let mut changed = paid_base();
    changed.extend([
        ("advertising.ltv_cac", ltv_cac_band(10_000, 2_000)),
        ("advertising.cac_trend", trend_band(2_000, 2_000)),
        ("advertising.click_ids", click_band(4, 6)),
    ]);
    assert_eq!(statuses(&earner), expect(&nothing_yet(&app), &changed));
    assert_eq!(check(&earner, "advertising.ltv_cac")["status"], "pass");
    assert_eq!(
        evidence(&earner, "advertising.ltv_cac"),
        "LTV 100.00 USD / CAC 20.00 USD = 5.00 (80.00 USD spend, 4 customers in 30 days)"
    );
    assert_eq!(
        evidence(&earner, "advertising.cac_trend"),
        "CAC 20.00 USD in the last 30 days vs 20.00 USD in the 30 days before (+0.0%)"
    );
    assert_eq!(
        evidence(&earner, "advertising.click_ids"),
        "paid_google: 4 tagged visits for 6 ad clicks (66.7%) in 30 days"
    );

    // CAC 2,000 now against 1,500 before (+33.3%); LTV 3,000: 1.5; 2 visits for 4 clicks.
    let id = product(&app, &owner, "middling").await;
    let now = Window {
        days_ago: 0,
        customers: 2,
        each: 3_000,
        spend: 4_000,
        clicks: 4,
    };
    let before = Window {
        days_ago: 40,
        customers: 2,
        each: 3_000,
        spend: 3_000,
        clicks: 3,
    };
    run(&app, &owner.key, "middling", &id, &now).await;
    run(&app, &owner.key, "middling", &id, &before).await;
    let middling = report(&app, &owner.key, "middling").await;
    let mut changed = paid_base();
    changed.extend([
        ("advertising.ltv_cac", ltv_cac_band(3_000, 2_000)),
        ("advertising.cac_trend", trend_band(2_000, 1_500)),
        ("advertising.click_ids", click_band(2, 4)),
    ]);
    assert_eq!(statuses(&middling), expect(&nothing_yet(&app), &changed));
    assert_eq!(check(&middling, "advertising.ltv_cac")["status"], "warn");
    assert_eq!(check(&middling, "advertising.cac_trend")["status"], "warn");
    assert!(
        evidence(&middling, "advertising.ltv_cac")
            .starts_with("LTV 30.00 USD / CAC 20.00 USD = 1.50")
    );
    assert!(evidence(&middling, "advertising.cac_trend").ends_with("(+33.3%)"));

    // Spend with no customer at all.
    let id = product(&app, &owner, "nobody").await;
    let now = Window {
        days_ago: 0,
        customers: 0,
        each: 0,
        spend: 2_500,
        clicks: 7,
    };
    run(&app, &owner.key, "nobody", &id, &now).await;
    let nobody = report(&app, &owner.key, "nobody").await;
    assert_eq!(check(&nobody, "advertising.ltv_cac")["status"], "fail");
    assert_eq!(
        evidence(&nobody, "advertising.ltv_cac"),
        "25.00 USD of spend in 30 days acquired no customer"
    );
    assert_eq!(
        check(&nobody, "advertising.click_ids")["status"],
        click_band(0, 7)
    );
    assert_eq!(
        evidence(&nobody, "advertising.click_ids"),
        "paid_google: 0 tagged visits for 7 ad clicks (0.0%) in 30 days"
    );
    assert_eq!(check(&nobody, "advertising.cac_trend")["status"], "skip");
    // Spend is data: the product has a score though it has no event.
    assert!(nobody["score"].is_i64());
}

backend_tests!(
    spend_that_does_not_pay_back,
    spend_that_pays_back_and_spend_in_between
);
