//! GET /products/{slug}/spend?days=N: `rows` summed from ad grain to (day, network, channel,
//! campaign) over the window, oldest first, `campaign_id` null below campaign grain, other
//! products' spend left out; `caps` per network (policy cap, approved budget, yesterday's spend
//! relative to the clock, `binding`, `walled`) and the portfolio ceiling, its currency, the
//! committed budgets and `portfolio_binding`, as owners change the policy and approve budgets;
//! and the errors (days out of range, no bearer, unknown slug, another account's product). All
//! numbers are computed here from the rows the test wrote.

use std::collections::BTreeMap;

use payback_domain::span::Span;
use payback_domain::{Clock, DAY_MS, Timestamp};
use payback_store::spend::SpendRow;
use payback_testkit::{Session, TestApp, backend_tests};
use serde_json::{Value, json};

const OWNER: &str = "owner@example.com";

/// `(day, network, channel, campaign_id)`.
type Key = (String, String, String, String);

/// Summed spend, impressions and clicks, and the largest campaign name seen.
#[derive(Default)]
struct Sums {
    spend: i64,
    impressions: i64,
    clicks: i64,
    name: Option<String>,
}

/// One ad's day of spend; impressions and clicks are distinct per row so sums are checked.
fn ad(day: &str, network: &str, campaign: &str, group: &str, ad: &str, cents: i64) -> SpendRow {
    SpendRow {
        day: day.to_owned(),
        network: network.to_owned(),
        channel: format!("paid_{network}"),
        campaign_id: campaign.to_owned(),
        campaign_name: (!campaign.is_empty()).then(|| format!("Campaign {campaign}")),
        ad_group_id: group.to_owned(),
        ad_group_name: (!group.is_empty()).then(|| format!("Group {group}")),
        ad_id: ad.to_owned(),
        ad_name: (!ad.is_empty()).then(|| format!("Ad {ad}")),
        spend_cents: cents,
        impressions: cents * 7 + 3,
        clicks: cents / 50 + 1,
        ..SpendRow::default()
    }
}

/// The product's spend rows: several ads and ad groups per campaign, google and meta (and
/// linkedin, which has no caps), several days, rows on both sides of the 7-day window's first
/// day, one far older, one below campaign grain (empty campaign id).
fn shop_rows() -> Vec<SpendRow> {
    vec![
        // Today (2026-11-21).
        ad("2026-11-21", "google", "c1", "g1", "a1", 1_000),
        ad("2026-11-21", "meta", "m1", "s1", "x1", 330),
        // Yesterday (2026-11-20).
        ad("2026-11-20", "google", "c1", "g1", "a1", 1_500),
        ad("2026-11-20", "google", "c1", "g1", "a2", 2_500),
        ad("2026-11-20", "google", "c1", "g2", "a3", 300),
        ad("2026-11-20", "google", "c2", "g3", "a4", 700),
        ad("2026-11-20", "meta", "m1", "s1", "x1", 900),
        ad("2026-11-20", "meta", "m1", "s2", "x2", 600),
        ad("2026-11-20", "meta", "", "", "", 250),
        ad("2026-11-20", "linkedin", "l1", "lg", "la", 400),
        // Earlier in the week.
        ad("2026-11-18", "google", "c2", "g3", "a4", 1_200),
        ad("2026-11-18", "google", "c2", "g3", "a5", 800),
        ad("2026-11-18", "meta", "m1", "s1", "x1", 800),
        ad("2026-11-18", "meta", "m2", "s3", "x3", 450),
        // The 7-day window's first day, and the day before it.
        ad("2026-11-15", "google", "c1", "g1", "a1", 111),
        ad("2026-11-14", "google", "c1", "g1", "a1", 99_999),
        ad("2026-11-14", "meta", "", "", "", 5_000),
        // Outside the 30-day window too.
        ad("2026-10-01", "meta", "m1", "s1", "x1", 77_777),
    ]
}

/// The report's `rows` for `days` days ending on the clock's day, computed from `rows`.
fn expected_rows(rows: &[SpendRow], now: Timestamp, days: i64) -> Value {
    let first = now.start_of_day().minus_millis((days - 1) * DAY_MS).day();
    let last = now.day();
    let mut sums: BTreeMap<Key, Sums> = BTreeMap::new();
    for row in rows {
        if row.day < first || row.day > last {
            continue;
        }
        let key = (
            row.day.clone(),
            row.network.clone(),
            row.channel.clone(),
            row.campaign_id.clone(),
        );
        let entry = sums.entry(key).or_default();
        entry.spend += row.spend_cents;
        entry.impressions += row.impressions;
        entry.clicks += row.clicks;
        if row.campaign_name > entry.name {
            entry.name.clone_from(&row.campaign_name);
        }
    }
    Value::Array(
        sums.into_iter()
            .map(|((day, network, channel, campaign), s)| {
                json!({
                    "day": day,
                    "network": network,
                    "channel": channel,
                    "campaign_id": (!campaign.is_empty()).then_some(campaign),
                    "campaign_name": s.name,
                    "spend_cents": s.spend,
                    "impressions": s.impressions,
                    "clicks": s.clicks,
                })
            })
            .collect(),
    )
}

/// Spend of `network` on the UTC day before the clock's day.
fn yesterday_spend(rows: &[SpendRow], now: Timestamp, network: &str) -> i64 {
    let yesterday = now.start_of_day().minus_millis(DAY_MS).day();
    rows.iter()
        .filter(|r| r.day == yesterday && r.network == network)
        .map(|r| r.spend_cents)
        .sum()
}

async fn product_id(app: &TestApp, token: &str, slug: &str) -> String {
    let product = app.get(&format!("/products/{slug}"), Some(token)).await;
    product.expect(200)["product_id"]
        .as_str()
        .unwrap()
        .to_owned()
}

async fn write_spend(app: &TestApp, token: &str, slug: &str, rows: &[SpendRow]) {
    let id = product_id(app, token, slug).await;
    let mut tx = app.state.store.begin().await.unwrap();
    payback_store::spend::upsert(&mut tx, &id, "test", rows, app.clock.now())
        .await
        .unwrap();
    tx.commit().await.unwrap();
}

/// An owner with products `shop` (spend from [`shop_rows`]) and `side` (spend of its own), and
/// an API key.
async fn founder(app: &TestApp) -> (Session, String, Vec<SpendRow>) {
    let owner = app.signup_verified(OWNER).await;
    app.create_product(&owner.token, "shop").await;
    app.create_product(&owner.token, "side").await;
    let key = app.api_key(&owner).await;
    let rows = shop_rows();
    write_spend(app, &owner.token, "shop", &rows).await;
    let side = vec![
        ad("2026-11-20", "google", "c1", "g1", "a1", 5_555),
        ad("2026-11-19", "meta", "m1", "s1", "x1", 4_444),
    ];
    write_spend(app, &owner.token, "side", &side).await;
    (owner, key, rows)
}

async fn report(app: &TestApp, token: &str, query: &str) -> Value {
    app.get(&format!("/products/shop/spend{query}"), Some(token))
        .await
        .expect(200)
        .clone()
}

#[track_caller]
fn network(report: &Value, name: &str) -> Value {
    let networks = report["caps"]["networks"].as_array().unwrap();
    assert_eq!(networks.len(), 2, "{networks:?}");
    networks
        .iter()
        .find(|n| n["network"] == name)
        .unwrap_or_else(|| panic!("no {name} in {networks:?}"))
        .clone()
}

async fn approve_budget(app: &TestApp, owner: &Session, key: &str, net: &str, cents: i64) {
    let body =
        json!({ "network": net, "to_cents": cents, "rationale": "A budget for the spend test." });
    app.propose_and_approve(key, owner, "shop", body).await;
}

async fn set_policy(app: &TestApp, owner: &Session, body: Value) {
    app.post("/products/shop/policy", Some(&owner.token), body)
        .await
        .expect(200);
}

async fn set_portfolio(app: &TestApp, owner: &Session, body: Value) {
    app.post("/policy", Some(&owner.token), body)
        .await
        .expect(200);
}

async fn rows_sum_ads_to_campaign_days_in_the_window(app: TestApp) {
    let (owner, key, rows) = founder(&app).await;
    let now = app.clock.now();

    let week = report(&app, &key, "?days=7").await;
    assert_eq!(week["window_days"], 7);
    assert_eq!(week["currency"], "USD");
    assert_eq!(week["rows"], expected_rows(&rows, now, 7));
    // The oracle itself: the window starts on 2026-11-15 and the empty id is a null campaign.
    let days: Vec<&str> = week["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["day"].as_str().unwrap())
        .collect();
    assert_eq!(days.first(), Some(&"2026-11-15"));
    assert_eq!(days.last(), Some(&"2026-11-21"));
    let below_grain = week["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["campaign_id"].is_null())
        .unwrap()
        .clone();
    assert_eq!(below_grain["day"], "2026-11-20");
    assert_eq!(below_grain["network"], "meta");
    assert_eq!(below_grain["spend_cents"], 250);
    let c1_yesterday = week["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["day"] == "2026-11-20" && r["campaign_id"] == "c1")
        .unwrap()
        .clone();
    assert_eq!(c1_yesterday["spend_cents"], 1_500 + 2_500 + 300);
    assert_eq!(c1_yesterday["channel"], "paid_google");

    // The default window is 30 days: 2026-11-14 is in, 2026-10-01 is not.
    let month = report(&app, &key, "").await;
    assert_eq!(month["window_days"], 30);
    assert_eq!(month["rows"], expected_rows(&rows, now, 30));
    assert!(
        month["rows"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["day"] == "2026-11-14")
    );
    assert!(
        !month["rows"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["day"] == "2026-10-01")
    );

    // One day is today so far.
    let today = report(&app, &owner.token, "?days=1").await;
    assert_eq!(today["window_days"], 1);
    assert_eq!(today["rows"], expected_rows(&rows, now, 1));
    assert_eq!(today["rows"].as_array().unwrap().len(), 2);

    // 3650 days reach back to 2026-10-01.
    let all = report(&app, &key, "?days=3650").await;
    assert_eq!(all["window_days"], 3650);
    assert_eq!(all["rows"], expected_rows(&rows, now, 3650));
    let total: i64 = all["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["spend_cents"].as_i64().unwrap())
        .sum();
    assert_eq!(total, rows.iter().map(|r| r.spend_cents).sum::<i64>());

    // A member of the account reads the same report.
    let member = app.add_member(&owner, "member@example.com", "member").await;
    assert_eq!(report(&app, &member.token, "?days=7").await, week);

    // A product without spend has no rows and zero spend yesterday.
    app.create_product(&owner.token, "empty").await;
    let empty = app
        .get("/products/empty/spend", Some(&key))
        .await
        .expect(200)
        .clone();
    assert_eq!(empty["rows"], json!([]));
    for name in ["google", "meta"] {
        assert_eq!(network(&empty, name)["spend_last_day_cents"], 0);
        assert_eq!(network(&empty, name)["binding"], false);
    }
}

async fn caps_follow_the_policy_and_approved_budgets(app: TestApp) {
    let (owner, key, rows) = founder(&app).await;
    let now = app.clock.now();
    let google_yesterday = yesterday_spend(&rows, now, "google");
    let meta_yesterday = yesterday_spend(&rows, now, "meta");
    assert_eq!(
        (google_yesterday, meta_yesterday),
        (5_000, 1_750),
        "the oracle"
    );

    // No limits: nothing binds, nothing is walled, no ceiling.
    let open = report(&app, &key, "?days=7").await;
    for (name, spent) in [("google", google_yesterday), ("meta", meta_yesterday)] {
        assert_eq!(
            network(&open, name),
            json!({
                "network": name, "daily_cap_cents": null, "approved_budget_cents": null,
                "spend_last_day_cents": spent, "binding": false, "walled": false,
            })
        );
    }
    assert_eq!(open["caps"]["portfolio_ceiling_cents"], Value::Null);
    assert_eq!(open["caps"]["portfolio_currency"], "USD");
    assert_eq!(open["caps"]["portfolio_committed_cents"], 0);
    assert_eq!(open["caps"]["portfolio_binding"], false);

    // A google cap equal to yesterday's google spend binds; a meta cap one cent above does not.
    set_policy(
        &app,
        &owner,
        json!({ "daily_caps": { "google": google_yesterday, "meta": meta_yesterday + 1 } }),
    )
    .await;
    let capped = report(&app, &key, "").await;
    let google = network(&capped, "google");
    assert_eq!(google["daily_cap_cents"], google_yesterday);
    assert_eq!(google["binding"], true);
    let meta = network(&capped, "meta");
    assert_eq!(meta["daily_cap_cents"], meta_yesterday + 1);
    assert_eq!(meta["binding"], false);
    // A cap below yesterday's spend binds too; one above it does not.
    set_policy(
        &app,
        &owner,
        json!({ "daily_caps": { "google": google_yesterday - 1 } }),
    )
    .await;
    assert_eq!(
        network(&report(&app, &key, "").await, "google")["binding"],
        true
    );
    set_policy(
        &app,
        &owner,
        json!({ "daily_caps": { "google": google_yesterday + 1 } }),
    )
    .await;
    assert_eq!(
        network(&report(&app, &key, "").await, "google")["binding"],
        false
    );

    // An approved meta budget below yesterday's meta spend binds, being the lower limit.
    let meta_budget = 1_000;
    approve_budget(&app, &owner, &key, "meta", meta_budget).await;
    let budgeted = report(&app, &key, "").await;
    let meta = network(&budgeted, "meta");
    assert_eq!(meta["approved_budget_cents"], meta_budget);
    assert_eq!(meta["daily_cap_cents"], meta_yesterday + 1);
    assert_eq!(meta["binding"], true);
    assert_eq!(
        network(&budgeted, "google")["approved_budget_cents"],
        Value::Null
    );
    assert_eq!(budgeted["caps"]["portfolio_committed_cents"], meta_budget);
    // A google budget above yesterday's spend, under the cap: the lower limit is not reached.
    let google_budget = google_yesterday + 1;
    approve_budget(&app, &owner, &key, "google", google_budget).await;
    let both = report(&app, &key, "").await;
    assert_eq!(
        network(&both, "google")["approved_budget_cents"],
        google_budget
    );
    assert_eq!(network(&both, "google")["binding"], false);
    assert_eq!(
        both["caps"]["portfolio_committed_cents"],
        meta_budget + google_budget
    );

    // Walls: adult-adjacent walls meta off, blocking walls google off.
    set_policy(&app, &owner, json!({ "adult_adjacent": true })).await;
    let adult = report(&app, &key, "").await;
    assert_eq!(network(&adult, "meta")["walled"], true);
    assert_eq!(network(&adult, "google")["walled"], false);
    set_policy(&app, &owner, json!({ "blocked_networks": ["google"] })).await;
    let blocked = report(&app, &key, "").await;
    assert_eq!(network(&blocked, "meta")["walled"], true);
    assert_eq!(network(&blocked, "google")["walled"], true);
    set_policy(
        &app,
        &owner,
        json!({ "adult_adjacent": false, "blocked_networks": [] }),
    )
    .await;
    let unwalled = report(&app, &key, "").await;
    assert_eq!(network(&unwalled, "meta")["walled"], false);
    assert_eq!(network(&unwalled, "google")["walled"], false);

    // The portfolio ceiling: binding once the committed budgets reach it.
    let committed = meta_budget + google_budget;
    set_portfolio(
        &app,
        &owner,
        json!({ "portfolio_ceiling_cents": committed + 1 }),
    )
    .await;
    let caps = report(&app, &key, "").await["caps"].clone();
    assert_eq!(caps["portfolio_ceiling_cents"], committed + 1);
    assert_eq!(caps["portfolio_currency"], "USD");
    assert_eq!(caps["portfolio_committed_cents"], committed);
    assert_eq!(caps["portfolio_binding"], false);
    set_portfolio(
        &app,
        &owner,
        json!({ "portfolio_ceiling_cents": committed }),
    )
    .await;
    let caps = report(&app, &key, "").await["caps"].clone();
    assert_eq!(caps["portfolio_ceiling_cents"], committed);
    assert_eq!(caps["portfolio_binding"], true);
    // Budgets of another product in the ceiling's currency count too.
    let side =
        json!({ "network": "google", "to_cents": 1, "rationale": "A budget for the spend test." });
    set_portfolio(&app, &owner, json!({ "portfolio_ceiling_cents": null })).await;
    app.propose_and_approve(&key, &owner, "side", side).await;
    let caps = report(&app, &key, "").await["caps"].clone();
    assert_eq!(caps["portfolio_ceiling_cents"], Value::Null);
    assert_eq!(caps["portfolio_committed_cents"], committed + 1);
    assert_eq!(caps["portfolio_binding"], false);
    // A ceiling in another currency counts none of the USD budgets.
    set_portfolio(
        &app,
        &owner,
        json!({ "portfolio_ceiling_cents": 500, "currency": "eur" }),
    )
    .await;
    let caps = report(&app, &key, "").await["caps"].clone();
    assert_eq!(caps["portfolio_currency"], "EUR");
    assert_eq!(caps["portfolio_ceiling_cents"], 500);
    assert_eq!(caps["portfolio_committed_cents"], 0);
    assert_eq!(caps["portfolio_binding"], false);

    // A day later, yesterday is 2026-11-21: its spend, not the 20th's, is compared.
    app.clock.advance(DAY_MS);
    let later = app.clock.now();
    assert_eq!(later.day(), "2026-11-22");
    let tomorrow = report(&app, &key, "?days=7").await;
    let google = network(&tomorrow, "google");
    assert_eq!(
        google["spend_last_day_cents"],
        yesterday_spend(&rows, later, "google")
    );
    assert_eq!(google["spend_last_day_cents"], 1_000);
    assert_eq!(google["binding"], false);
    let meta = network(&tomorrow, "meta");
    assert_eq!(
        meta["spend_last_day_cents"],
        yesterday_spend(&rows, later, "meta")
    );
    assert_eq!(meta["spend_last_day_cents"], 330);
    // 330 is under the meta budget of 1000: no longer binding.
    assert_eq!(meta["binding"], false);
    assert_eq!(tomorrow["rows"], expected_rows(&rows, later, 7));
}

async fn spend_errors(app: TestApp) {
    let (owner, key, _) = founder(&app).await;
    for days in ["0", "3651", "-1"] {
        app.get(&format!("/products/shop/spend?days={days}"), Some(&key))
            .await
            .expect_error(400, "days");
    }
    app.get("/products/shop/spend?days=week", Some(&key))
        .await
        .expect_error(400, "days");
    app.get("/products/shop/spend", None)
        .await
        .expect_error(401, "bearer");
    app.get("/products/shop/spend", Some("svc_live_nothing"))
        .await
        .expect_error(401, "API key");
    app.get("/products/nope/spend", Some(&key))
        .await
        .expect_error(404, "product");

    // Another account: neither its session nor its key sees `shop`; its own product, with the
    // same kind of spend, is not visible to the first account either.
    let stranger = app.signup_verified("stranger@example.com").await;
    let stranger_key = app.api_key(&stranger).await;
    app.create_product(&stranger.token, "theirs").await;
    write_spend(
        &app,
        &stranger.token,
        "theirs",
        &[ad("2026-11-20", "google", "c1", "g1", "a1", 42)],
    )
    .await;
    for token in [&stranger.token, &stranger_key] {
        app.get("/products/shop/spend", Some(token))
            .await
            .expect_error(404, "product");
    }
    for token in [&owner.token, &key] {
        app.get("/products/theirs/spend", Some(token))
            .await
            .expect_error(404, "product");
    }
    let theirs = app
        .get("/products/theirs/spend", Some(&stranger_key))
        .await
        .expect(200)
        .clone();
    assert_eq!(
        theirs["rows"],
        expected_rows(
            &[ad("2026-11-20", "google", "c1", "g1", "a1", 42)],
            app.clock.now(),
            30
        )
    );
    assert_eq!(network(&theirs, "google")["spend_last_day_cents"], 42);
}

/// The window is computed against the injected clock, whatever day that is: the report's first
/// and last day match a [`Span`] of the same length.
async fn window_follows_the_clock(app: TestApp) {
    let (_, key, rows) = founder(&app).await;
    for advance in [0, 3, 40] {
        if advance > 0 {
            app.clock.advance(advance * DAY_MS);
        }
        let now = app.clock.now();
        let span = Span::days_ending(now, 7);
        let got = report(&app, &key, "?days=7").await;
        assert_eq!(got["rows"], expected_rows(&rows, now, 7));
        for row in got["rows"].as_array().unwrap() {
            let day = row["day"].as_str().unwrap();
            assert!(
                day >= span.first_day().as_str() && day <= span.last_day().as_str(),
                "{day} outside {}..{}",
                span.first_day(),
                span.last_day()
            );
        }
    }
    // 43 days later no row of the fixture is in a 7-day window.
    assert_eq!(report(&app, &key, "?days=7").await["rows"], json!([]));
}

backend_tests!(
    rows_sum_ads_to_campaign_days_in_the_window,
    caps_follow_the_policy_and_approved_budgets,
    spend_errors,
    window_follows_the_clock,
);

#[path = "spend/ledger.rs"]
mod ledger;
#[path = "spend/store_reads.rs"]
mod store_reads;
#[path = "spend/sync.rs"]
mod sync;
