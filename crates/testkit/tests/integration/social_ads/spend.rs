//! Spend read from the fakes into the reports, compared with sums computed here from the seeded
//! rows: Meta per campaign, ad set (`ad_group`) and ad, LinkedIn per campaign and creative, and
//! each channel's CAC and ROAS; the campaign filter dropping exactly the non-matching stored
//! spend; an expired token and throttling.

use std::collections::BTreeMap;

use payback_testkit::fake_meta::Fail;
use payback_testkit::{Backend, FakeLinkedIn, FakeMeta, per_backend};
use serde_json::{Value, json};

use super::*;

/// Meta's expected spend per id at a level of the ads report, from `META_DAYS`.
fn meta_expected(level: &str, keep: impl Fn(i64) -> bool) -> BTreeMap<String, i64> {
    let mut spend = BTreeMap::new();
    for (_, rows) in META_DAYS {
        for (ad, campaign, adset, amount, _, _) in rows {
            if !keep(campaign) {
                continue;
            }
            let id = match level {
                "campaign" => campaign,
                "ad_group" => adset,
                _ => ad,
            };
            *spend.entry(id.to_string()).or_insert(0) += meta_cents(amount);
        }
    }
    spend
}

/// LinkedIn's expected spend per id: campaigns, and creatives with '' for the campaign spend no
/// creative covers.
fn linkedin_expected(level: &str) -> BTreeMap<String, i64> {
    let mut spend = BTreeMap::new();
    for (creative, campaign, _, cost) in LINKEDIN_DAYS {
        let id = match (level, creative) {
            ("campaign", _) => campaign.to_string(),
            (_, Some(creative)) => creative.to_string(),
            (_, None) => String::new(),
        };
        *spend.entry(id).or_insert(0) += meta_cents(cost);
    }
    spend
}

/// The ads report's spend per id at `level` of the network's channel. The `no_dimension` row
/// (spend of no id at that level, every network's together) counts as '' for `linkedin`, the
/// only network seeded with such spend.
async fn reported(app: &TestApp, token: &str, level: &str, network: &str) -> BTreeMap<String, i64> {
    let channel = format!("paid_{network}");
    let report = app
        .get(
            &format!("/products/shop/attribution/ads?days=30&level={level}"),
            Some(token),
        )
        .await
        .expect(200)
        .clone();
    let mut spend = BTreeMap::new();
    for row in report["rows"].as_array().unwrap() {
        let id = match row["id"].as_str().unwrap() {
            "no_dimension" if network == "linkedin" => String::new(),
            _ if row["channel"] != channel.as_str() => continue,
            id => id.to_owned(),
        };
        if row["spend_cents"] == 0 {
            continue;
        }
        *spend.entry(id).or_insert(0) += row["spend_cents"].as_i64().unwrap();
    }
    spend
}

fn channel<'a>(report: &'a Value, name: &str) -> &'a Value {
    report["channels"]
        .as_array()
        .unwrap()
        .iter()
        .find(|row| row["channel"] == name)
        .unwrap_or_else(|| panic!("no {name} row in {report}"))
}

/// One paid click from each network, each bought once: CAC is the channel's spend per
/// customer, ROAS its revenue over spend.
async fn buyers(app: &TestApp, key: &str) {
    let events = json!({ "events": [
        { "dedupe_id": "v-m", "stage": "visit", "user_id": "u-meta",
          "attribution": { "utm_source": "facebook", "utm_medium": "paid_social", "utm_campaign": "2001" } },
        { "dedupe_id": "c-m", "stage": "converted", "user_id": "u-meta", "value": 9_000 },
        { "dedupe_id": "v-l", "stage": "visit", "user_id": "u-li",
          "attribution": { "utm_source": "linkedin", "utm_medium": "paid_social", "utm_campaign": "11" } },
        { "dedupe_id": "c-l", "stage": "converted", "user_id": "u-li", "value": 25_000 },
    ]});
    app.post("/products/shop/events", Some(key), events)
        .await
        .expect(200);
}

async fn spend_cac_and_roas_equal_independent_sums(backend: Backend) {
    let (meta, linkedin) = (FakeMeta::spawn().await, FakeLinkedIn::spawn().await);
    seed_meta(&meta);
    seed_meta_spend(&meta);
    seed_linkedin(&linkedin);
    seed_linkedin_spend(&linkedin);
    let app = spawn(backend, &meta, &linkedin).await;
    let (owner, key) = founder(&app).await;
    buyers(&app, &key).await;
    connect_meta_ads(&app, &key).await;
    connect_linkedin(&app, &key).await;
    sync(&app).await;

    let meta_row = connection(&app, &owner.token, "social_ads_a")
        .await
        .unwrap();
    assert_eq!(meta_row["last_error"], Value::Null, "{meta_row}");
    assert_eq!(meta_row["backfill_days"], 30);
    let linkedin_row = connection(&app, &owner.token, "social_ads_b")
        .await
        .unwrap();
    assert_eq!(linkedin_row["last_error"], Value::Null, "{linkedin_row}");

    for level in ["campaign", "ad_group", "ad"] {
        assert_eq!(
            reported(&app, &owner.token, level, "meta").await,
            meta_expected(level, |_| true),
            "meta at {level}"
        );
    }
    assert_eq!(
        reported(&app, &owner.token, "campaign", "linkedin").await,
        linkedin_expected("campaign")
    );
    assert_eq!(
        reported(&app, &owner.token, "ad", "linkedin").await,
        linkedin_expected("ad")
    );

    // Per channel: spend, CAC and ROAS from the same sums.
    let meta_spend: i64 = meta_expected("campaign", |_| true).values().sum();
    let linkedin_spend: i64 = linkedin_expected("campaign").values().sum();
    let report = app
        .get("/products/shop/attribution?days=30", Some(&owner.token))
        .await
        .expect(200)
        .clone();
    let paid_meta = channel(&report, "paid_meta");
    assert_eq!(paid_meta["spend_cents"], meta_spend);
    assert_eq!(paid_meta["customers_first"], 1);
    assert_eq!(paid_meta["cac_cents"], meta_spend);
    let roas = paid_meta["roas"].as_f64().unwrap();
    assert!((roas - 9_000.0 / meta_spend as f64).abs() < 1e-9, "{roas}");
    let paid_linkedin = channel(&report, "paid_linkedin");
    assert_eq!(paid_linkedin["spend_cents"], linkedin_spend);
    assert_eq!(paid_linkedin["cac_cents"], linkedin_spend);
    let roas = paid_linkedin["roas"].as_f64().unwrap();
    assert!(
        (roas - 25_000.0 / linkedin_spend as f64).abs() < 1e-9,
        "{roas}"
    );

    // A restated day replaces what was stored; a second run stores nothing twice.
    meta.set_day(4_001, "2026-11-20", Metrics::new("8.00", 900, 22));
    app.post(
        "/products/shop/connections/social-ads-a/sync",
        Some(&key),
        json!({}),
    )
    .await
    .expect(200);
    wait_for_run(&app, &owner.token, "social_ads_a").await;
    let mut expected = meta_expected("campaign", |_| true);
    *expected.get_mut(&BRAND.to_string()).unwrap() += meta_cents("8.00") - meta_cents("7.10");
    assert_eq!(
        reported(&app, &owner.token, "campaign", "meta").await,
        expected
    );
}

/// Waits until the connection's run started by `sync now` is over.
async fn wait_for_run(app: &TestApp, token: &str, kind: &str) {
    for _ in 0..200 {
        let row = connection(app, token, kind).await.unwrap();
        if row["syncing"] == false && row["last_sync_at"].is_string() {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("the {kind} run never ended");
}

/// The filter drops the stored spend of exactly the campaigns it no longer takes (all days),
/// and the next sync reads only matching campaigns.
async fn the_campaign_filter_drops_exactly_the_non_matching_spend(backend: Backend) {
    let (meta, linkedin) = (FakeMeta::spawn().await, FakeLinkedIn::spawn().await);
    seed_meta(&meta);
    seed_meta_spend(&meta);
    let app = spawn(backend, &meta, &linkedin).await;
    let (owner, key) = founder(&app).await;

    app.post(
        "/products/shop/connections/social-ads-a/campaign-filter",
        Some(&key),
        json!({ "campaign_name_prefixes": ["brand"] }),
    )
    .await
    .expect(404);
    connect_meta_ads(&app, &key).await;
    sync(&app).await;
    assert_eq!(
        reported(&app, &owner.token, "campaign", "meta").await,
        meta_expected("campaign", |_| true)
    );

    // "brand" (any case) keeps both Brand campaigns; Prospecting's two days go.
    let set = app
        .post(
            "/products/shop/connections/social-ads-a/campaign-filter",
            Some(&key),
            json!({ "campaign_name_prefixes": ["brand", " "] }),
        )
        .await
        .expect(200)
        .clone();
    assert_eq!(set["ok"], true);
    assert_eq!(set["campaign_name_prefixes"], json!(["brand"]));
    assert_eq!(set["dropped_rows"], 2, "{set}");
    let brand = |campaign: i64| campaign != PROSPECTING;
    assert_eq!(
        reported(&app, &owner.token, "ad", "meta").await,
        meta_expected("ad", brand)
    );
    let history = app.history(&owner.token, "?limit=20").await;
    let filtered = history
        .iter()
        .find(|e| e["action"] == "connection.campaign_filter")
        .expect("the filter in history");
    assert_eq!(filtered["payload"]["dropped_campaigns"], json!(["2002"]));

    // The next run reads only the matching campaigns, even for days it re-reads.
    app.clock.advance(2 * 3_600_000);
    sync(&app).await;
    assert_eq!(
        reported(&app, &owner.token, "campaign", "meta").await,
        meta_expected("campaign", brand)
    );

    // Empty clears the filter: the next run reads every campaign again.
    let cleared = app
        .post(
            "/products/shop/connections/social-ads-a/campaign-filter",
            Some(&key),
            json!({ "campaign_name_prefixes": [] }),
        )
        .await
        .expect(200)
        .clone();
    assert_eq!(cleared["dropped_rows"], 0);
    app.post(
        "/products/shop/connections/social-ads-a/sync",
        Some(&key),
        json!({}),
    )
    .await
    .expect(200);
    wait_for_run(&app, &owner.token, "social_ads_a").await;
    assert_eq!(
        reported(&app, &owner.token, "campaign", "meta").await,
        meta_expected("campaign", |_| true)
    );

    // Limits, and another account's product.
    let refused = app
        .post(
            "/products/shop/connections/social-ads-a/campaign-filter",
            Some(&key),
            json!({ "campaign_name_prefixes": vec!["p"; 51] }),
        )
        .await
        .expect(400)
        .clone();
    assert!(
        refused["error"]
            .as_str()
            .unwrap()
            .contains("campaign_name_prefixes")
    );
    app.post(
        "/products/shop/connections/social-ads-a/campaign-filter",
        Some(&key),
        json!({}),
    )
    .await
    .expect(400);
    let stranger = app.signup_verified("stranger@example.com").await;
    app.post(
        "/products/shop/connections/social-ads-a/campaign-filter",
        Some(&stranger.token),
        json!({ "campaign_name_prefixes": [] }),
    )
    .await
    .expect(404);
}

/// An expired token puts the connection in error with the reconnect sentence; Meta's throttling
/// is waited out when it asks for little, and fails the run with the reason when it asks for
/// long.
async fn expired_tokens_and_throttling(backend: Backend) {
    let (meta, linkedin) = (FakeMeta::spawn().await, FakeLinkedIn::spawn().await);
    seed_meta(&meta);
    seed_meta_spend(&meta);
    seed_linkedin(&linkedin);
    let app = spawn(backend, &meta, &linkedin).await;
    let (owner, key) = founder(&app).await;
    connect_meta_ads(&app, &key).await;

    meta.fail_next("insights", 1, Fail::InsightsThrottled { minutes: 0 });
    sync(&app).await;
    let row = connection(&app, &owner.token, "social_ads_a")
        .await
        .unwrap();
    assert_eq!(
        row["last_error"],
        Value::Null,
        "a short wait is waited out: {row}"
    );
    assert_eq!(
        reported(&app, &owner.token, "campaign", "meta").await,
        meta_expected("campaign", |_| true)
    );

    meta.fail_next("insights", 1, Fail::InsightsThrottled { minutes: 45 });
    app.post(
        "/products/shop/connections/social-ads-a/sync",
        Some(&key),
        json!({}),
    )
    .await
    .expect(200);
    wait_for_run(&app, &owner.token, "social_ads_a").await;
    let row = connection(&app, &owner.token, "social_ads_a")
        .await
        .unwrap();
    let error = row["last_error"].as_str().unwrap_or_default();
    assert!(error.contains("rate limited"), "{row}");
    // What was stored stays.
    assert_eq!(
        reported(&app, &owner.token, "campaign", "meta").await,
        meta_expected("campaign", |_| true)
    );

    meta.expire_token(META_TOKEN);
    app.post(
        "/products/shop/connections/social-ads-a/sync",
        Some(&key),
        json!({}),
    )
    .await
    .expect(200);
    wait_for_run(&app, &owner.token, "social_ads_a").await;
    let row = connection(&app, &owner.token, "social_ads_a")
        .await
        .unwrap();
    assert!(
        row["last_error"]
            .as_str()
            .unwrap_or_default()
            .contains("reconnect"),
        "{row}"
    );
    let tested = app
        .post(
            "/products/shop/connections/social-ads-a/test",
            Some(&key),
            json!({}),
        )
        .await
        .expect(200)
        .clone();
    assert_eq!(tested["ok"], false);

    // LinkedIn: a revoked token says so too.
    connect_linkedin(&app, &key).await;
    linkedin.revoke(LINKEDIN_TOKEN);
    sync(&app).await;
    let row = connection(&app, &owner.token, "social_ads_b")
        .await
        .unwrap();
    assert!(
        row["last_error"]
            .as_str()
            .unwrap_or_default()
            .contains("reconnect"),
        "{row}"
    );
}

/// The ladder's deeper rungs: a year and then everything are read through asynchronous report
/// runs (polled until done), the deepest clamped to the 37 months Meta serves; the sums stay the
/// seeded ones and `GET /health` shows the sources fresh.
async fn deep_rungs_read_through_async_reports(backend: Backend) {
    let (meta, linkedin) = (FakeMeta::spawn().await, FakeLinkedIn::spawn().await);
    seed_meta(&meta);
    seed_meta_spend(&meta);
    seed_linkedin(&linkedin);
    seed_linkedin_spend(&linkedin);
    let app = spawn(backend, &meta, &linkedin).await;
    let (owner, key) = founder(&app).await;
    connect_meta_ads(&app, &key).await;
    connect_linkedin(&app, &key).await;
    let health = app
        .get("/health", Some(&owner.token))
        .await
        .expect(200)
        .clone();
    let status = |health: &Value, name: &str| {
        health["sources"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["source"] == name)
            .map(|s| s["status"].clone())
            .unwrap_or_else(|| panic!("no {name} in {health}"))
    };
    assert_eq!(status(&health, "social_ads_a"), "never");

    for (rung, asynchronous) in [(30, false), (365, true), (3_650, true)] {
        let runs_before = meta
            .requests_to("insights")
            .iter()
            .filter(|r| r.method == "POST")
            .count();
        sync(&app).await;
        let row = connection(&app, &owner.token, "social_ads_a")
            .await
            .unwrap();
        assert_eq!(row["last_error"], Value::Null, "rung {rung}: {row}");
        assert_eq!(row["backfill_days"], rung, "{row}");
        let runs = meta
            .requests_to("insights")
            .iter()
            .filter(|r| r.method == "POST")
            .count();
        assert_eq!(runs > runs_before, asynchronous, "rung {rung}");
        assert_eq!(
            reported(&app, &owner.token, "ad", "meta").await,
            meta_expected("ad", |_| true),
            "rung {rung}"
        );
        assert_eq!(
            reported(&app, &owner.token, "campaign", "linkedin").await,
            linkedin_expected("campaign"),
            "rung {rung}"
        );
        app.clock.advance(2 * 3_600_000);
    }
    // Every report run was polled to completion before its rows were read.
    let polls = meta
        .requests()
        .into_iter()
        .filter(|r| r.method == "GET" && !r.path.contains("insights") && !r.path.contains("act_"))
        .count();
    assert!(polls >= 2, "report runs polled");
    // No request asked for more than Meta serves (the fake refuses beyond 37 months).
    let health = app
        .get("/health", Some(&owner.token))
        .await
        .expect(200)
        .clone();
    assert_eq!(status(&health, "social_ads_a"), "fresh", "{health}");
    assert_eq!(status(&health, "social_ads_b"), "fresh", "{health}");
}

per_backend!(
    deep_rungs_read_through_async_reports,
    spend_cac_and_roas_equal_independent_sums,
    the_campaign_filter_drops_exactly_the_non_matching_spend,
    expired_tokens_and_throttling,
);
