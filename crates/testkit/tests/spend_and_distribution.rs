#![allow(clippy::unwrap_used)]
//! GET /products/{slug}/spend (rows summed to campaign grain, caps and whether they bind) and the
//! distribution log (POST /distribution, GET /products/{slug}/distribution joined to what each
//! campaign brought), against numbers computed here from the rows and events the test wrote.

use std::collections::BTreeMap;

use payback_domain::Clock;
use payback_store::spend::SpendRow;
use payback_testkit::{Session, TestApp, backend_tests};
use serde_json::{Value, json};

const OWNER: &str = "owner@example.com";

/// `(day, network, channel, campaign_id)` and its `(spend, impressions, clicks)`.
type CampaignDay = (String, String, String, String);
type Sums = (i64, i64, i64);

async fn founder(app: &TestApp) -> (Session, String) {
    let owner = app.signup_verified(OWNER).await;
    app.create_product(&owner.token, "shop").await;
    let key = app.api_key(&owner).await;
    (owner, key)
}

fn ad(day: &str, network: &str, campaign: &str, ad: &str, cents: i64) -> SpendRow {
    SpendRow {
        day: day.to_owned(),
        network: network.to_owned(),
        channel: format!("paid_{network}"),
        campaign_id: campaign.to_owned(),
        campaign_name: (!campaign.is_empty()).then(|| format!("Campaign {campaign}")),
        ad_group_id: format!("{campaign}-g"),
        ad_id: ad.to_owned(),
        spend_cents: cents,
        impressions: cents * 10,
        clicks: cents / 100,
        ..SpendRow::default()
    }
}

async fn write_spend(app: &TestApp, token: &str, rows: &[SpendRow]) {
    let product = app.get("/products/shop", Some(token)).await;
    let product_id = product.body["product_id"].as_str().unwrap().to_owned();
    let mut tx = app.state.store.begin().await.unwrap();
    payback_store::spend::upsert(&mut tx, &product_id, "test", rows, app.clock.now())
        .await
        .unwrap();
    tx.commit().await.unwrap();
}

async fn spend_rows_and_caps(app: TestApp) {
    let (owner, key) = founder(&app).await;
    // Today is 2026-11-21; yesterday 2026-11-20.
    let rows = vec![
        ad("2026-11-20", "google", "c1", "a1", 1_500),
        ad("2026-11-20", "google", "c1", "a2", 2_500),
        ad("2026-11-20", "google", "c2", "a3", 700),
        ad("2026-11-20", "meta", "m1", "x1", 900),
        ad("2026-11-19", "google", "c1", "a1", 300),
        ad("2026-11-19", "meta", "", "", 50),
        ad("2026-10-01", "google", "c1", "a1", 99_999),
    ];
    write_spend(&app, &owner.token, &rows).await;

    // The oracle: sum to (day, network, channel, campaign) over the 7-day window.
    let mut expected: BTreeMap<CampaignDay, Sums> = BTreeMap::new();
    for row in rows.iter().filter(|r| r.day.as_str() >= "2026-11-15") {
        let key = (
            row.day.clone(),
            row.network.clone(),
            row.channel.clone(),
            row.campaign_id.clone(),
        );
        let sums = expected.entry(key).or_default();
        sums.0 += row.spend_cents;
        sums.1 += row.impressions;
        sums.2 += row.clicks;
    }
    let report = app
        .get("/products/shop/spend?days=7", Some(&key))
        .await
        .expect(200)
        .clone();
    assert_eq!(report["window_days"], 7);
    assert_eq!(report["currency"], "USD");
    let got: Vec<Value> = report["rows"].as_array().unwrap().clone();
    let want: Vec<Value> = expected
        .iter()
        .map(|((day, network, channel, campaign), (spend, impressions, clicks))| {
            json!({
                "day": day, "network": network, "channel": channel,
                "campaign_id": if campaign.is_empty() { Value::Null } else { json!(campaign) },
                "campaign_name": if campaign.is_empty() { Value::Null } else { json!(format!("Campaign {campaign}")) },
                "spend_cents": spend, "impressions": impressions, "clicks": clicks,
            })
        })
        .collect();
    assert_eq!(got, want);

    let caps = &report["caps"];
    let network = |caps: &Value, name: &str| {
        caps["networks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|n| n["network"] == name)
            .unwrap()
            .clone()
    };
    let google = network(caps, "google");
    assert_eq!(google["daily_cap_cents"], Value::Null);
    assert_eq!(google["approved_budget_cents"], Value::Null);
    assert_eq!(google["spend_last_day_cents"], 1_500 + 2_500 + 700);
    assert_eq!(google["binding"], false);
    assert_eq!(network(caps, "meta")["spend_last_day_cents"], 900);
    assert_eq!(caps["portfolio_ceiling_cents"], Value::Null);
    assert_eq!(caps["portfolio_binding"], false);

    // A google cap at yesterday's spend binds; adult-adjacent walls meta off.
    let policy = json!({ "daily_caps": { "google": 4_700 }, "adult_adjacent": true });
    app.post("/products/shop/policy", Some(&owner.token), policy)
        .await
        .expect(200);
    let ceiling = json!({ "portfolio_ceiling_cents": 10_000 });
    app.post("/policy", Some(&owner.token), ceiling)
        .await
        .expect(200);
    let report = app
        .get("/products/shop/spend", Some(&key))
        .await
        .expect(200)
        .clone();
    let caps = &report["caps"];
    assert_eq!(report["window_days"], 30);
    assert_eq!(network(caps, "google")["daily_cap_cents"], 4_700);
    assert_eq!(network(caps, "google")["binding"], true);
    assert_eq!(network(caps, "meta")["walled"], true);
    assert_eq!(network(caps, "google")["walled"], false);
    assert_eq!(caps["portfolio_ceiling_cents"], 10_000);
    assert_eq!(caps["portfolio_currency"], "USD");
    assert_eq!(caps["portfolio_committed_cents"], 0);

    // An approved budget counts against the ceiling.
    let proposal = json!({ "network": "google", "to_cents": 4_000, "rationale": "Keep search at forty a day." });
    let accepted = app
        .post("/products/shop/proposals", Some(&key), proposal)
        .await;
    let id = accepted.expect(202)["proposal_id"]
        .as_str()
        .unwrap()
        .to_owned();
    app.post(
        &format!("/queue/{id}/approve"),
        Some(&owner.token),
        json!({}),
    )
    .await
    .expect(200);
    let caps = app
        .get("/products/shop/spend", Some(&key))
        .await
        .expect(200)["caps"]
        .clone();
    assert_eq!(network(&caps, "google")["approved_budget_cents"], 4_000);
    assert_eq!(caps["portfolio_committed_cents"], 4_000);

    // Errors.
    for days in ["0", "3651", "x"] {
        app.get(&format!("/products/shop/spend?days={days}"), Some(&key))
            .await
            .expect_error(400, "days");
    }
    app.get("/products/shop/spend", None)
        .await
        .expect_error(401, "bearer");
    app.get("/products/nope/spend", Some(&key))
        .await
        .expect_error(404, "product");
    let stranger = app.signup_verified("stranger@example.com").await;
    app.get("/products/shop/spend", Some(&stranger.token))
        .await
        .expect_error(404, "product");
}

async fn ingest(app: &TestApp, key: &str, events: Value) {
    let reply = app
        .post(
            "/products/shop/events",
            Some(key),
            json!({ "events": events }),
        )
        .await;
    reply.expect(200);
}

async fn distribution_joins_its_campaign(app: TestApp) {
    let (owner, key) = founder(&app).await;
    let launch = json!({ "utm_campaign": "hn-launch", "utm_source": "hackernews" });
    ingest(&app, &key, json!([
        // a1 arrives with the campaign, signs up as u1, becomes a lead and pays 49.00 then 10.00.
        { "dedupe_id": "1", "stage": "visit", "anonymous_id": "a1", "attribution": launch },
        { "dedupe_id": "2", "stage": "signup", "anonymous_id": "a1", "user_id": "u1" },
        { "dedupe_id": "3", "stage": "lead", "user_id": "u1" },
        { "dedupe_id": "4", "stage": "payment", "user_id": "u1", "value": 4_900 },
        { "dedupe_id": "5", "stage": "payment", "user_id": "u1", "value": 1_000 },
        // a2 visits twice with the campaign, no lead.
        { "dedupe_id": "6", "stage": "visit", "anonymous_id": "a2", "attribution": launch },
        { "dedupe_id": "7", "stage": "visit", "anonymous_id": "a2", "attribution": launch },
        // an identity-less visit with the campaign counts as one visit.
        { "dedupe_id": "8", "stage": "visit", "attribution": launch },
        // a3 came another way and pays: not the campaign's.
        { "dedupe_id": "9", "stage": "visit", "anonymous_id": "a3", "attribution": { "utm_campaign": "other" } },
        { "dedupe_id": "10", "stage": "payment", "anonymous_id": "a3", "value": 9_900 },
    ])).await;

    let entry = json!({
        "productSlug": "shop", "channel": "hacker_news", "kind": "post",
        "url": "https://news.ycombinator.com/item?id=1", "utmCampaign": "hn-launch", "note": "Show HN",
    });
    let first = app
        .post("/distribution", Some(&owner.token), entry)
        .await
        .expect(200)
        .clone();
    assert_eq!(first["ok"], true);
    app.clock.advance(1_000);
    let bare = json!({ "productSlug": "shop", "channel": "newsletter", "kind": "email" });
    let second = app
        .post("/distribution", Some(&key), bare)
        .await
        .expect(200)
        .clone();

    let list = app
        .get("/products/shop/distribution", Some(&key))
        .await
        .expect(200)
        .clone();
    assert_eq!(list["product_slug"], "shop");
    assert_eq!(list["window_days"], 30);
    let entries = list["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 2);
    // Newest first; the bare entry brought nothing it can be credited with.
    assert_eq!(entries[0]["id"], second["id"]);
    assert_eq!(entries[0]["created_by"], "keeper");
    assert_eq!(entries[0]["utm_campaign"], Value::Null);
    assert_eq!(
        (
            entries[0]["visits"].clone(),
            entries[0]["revenue_cents"].clone()
        ),
        (json!(0), json!(0))
    );
    let hn = &entries[1];
    assert_eq!(hn["id"], first["id"]);
    assert_eq!(hn["created_by"], OWNER);
    assert_eq!(hn["url"], "https://news.ycombinator.com/item?id=1");
    assert_eq!(hn["note"], "Show HN");
    // Visitors u1 (was a1) and a2, plus one identity-less visit; u1 became a lead and a customer.
    assert_eq!(hn["visits"], 3);
    assert_eq!(hn["leads"], 1);
    assert_eq!(hn["customers"], 1);
    assert_eq!(hn["revenue_cents"], 5_900);

    let limited = app
        .get("/products/shop/distribution?limit=1", Some(&key))
        .await
        .expect(200)
        .clone();
    assert_eq!(limited["entries"].as_array().unwrap().len(), 1);
    let recorded = app.history(&owner.token, "?product=shop").await;
    assert_eq!(
        recorded
            .iter()
            .filter(|e| e["action"] == "distribution.create")
            .count(),
        2
    );

    // Errors name the field; nothing is written.
    let bad = [
        (json!({ "channel": "x", "kind": "post" }), "productSlug"),
        (
            json!({ "productSlug": "s".repeat(61), "channel": "x", "kind": "post" }),
            "productSlug",
        ),
        (
            json!({ "productSlug": "shop", "channel": "", "kind": "post" }),
            "channel",
        ),
        (
            json!({ "productSlug": "shop", "channel": "x", "kind": "k".repeat(81) }),
            "kind",
        ),
        (
            json!({ "productSlug": "shop", "channel": "x", "kind": "post", "url": "not a url" }),
            "url",
        ),
        (
            json!({ "productSlug": "shop", "channel": "x", "kind": "post", "utmCampaign": "c".repeat(201) }),
            "utmCampaign",
        ),
        (
            json!({ "productSlug": "shop", "channel": "x", "kind": "post", "note": "n".repeat(2001) }),
            "note",
        ),
    ];
    for (body, field) in bad {
        app.post("/distribution", Some(&key), body)
            .await
            .expect_error(400, field);
    }
    app.post("/distribution", None, json!({}))
        .await
        .expect_error(401, "bearer");
    let nowhere = json!({ "productSlug": "nope", "channel": "x", "kind": "post" });
    app.post("/distribution", Some(&key), nowhere)
        .await
        .expect_error(404, "product");
    let stranger = app.signup_verified("stranger@example.com").await;
    let theirs = json!({ "productSlug": "shop", "channel": "x", "kind": "post" });
    app.post("/distribution", Some(&stranger.token), theirs)
        .await
        .expect_error(404, "product");
    app.get("/products/shop/distribution", Some(&stranger.token))
        .await
        .expect_error(404, "product");
    app.get("/products/shop/distribution?limit=0", Some(&key))
        .await
        .expect_error(400, "limit");
    let after = app
        .get("/products/shop/distribution", Some(&key))
        .await
        .expect(200)
        .clone();
    assert_eq!(after["entries"].as_array().unwrap().len(), 2);
}

backend_tests!(spend_rows_and_caps, distribution_joins_its_campaign);
