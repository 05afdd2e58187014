//! Spend read from the fake into the reports, compared with an independent sum of the fake's
//! rows; restated days; the network's quota errors and a revoked grant.

use std::collections::BTreeMap;

use payback_testkit::fake_google::Fail;
use payback_testkit::{Backend, FakeGoogle, per_backend};
use serde_json::Value;

use super::*;

/// The seeded days and their scale, as `spend_day` writes them.
const DAYS: [(&str, i64); 2] = [("2026-11-19", 1), ("2026-11-20", 2)];

/// Cents per stored row of one day: the three ads, and the Performance Max campaign's own
/// spend (the search campaign's spend is all in its ads, so it has no remainder row).
fn day_rows(scale: i64) -> Vec<(&'static str, &'static str, &'static str, i64)> {
    // (campaign, ad group, ad, cents)
    vec![
        ("111", "11", "1001", cents(4_000_000 * scale)),
        ("111", "11", "1002", cents(1_500_000 * scale)),
        ("111", "12", "1003", cents(2_250_000 * scale)),
        ("222", "", "", cents(3_333_333 * scale)),
    ]
}

/// Keyword cents per day: the second view of the search campaign's ad-group spend.
fn keyword_rows(scale: i64) -> Vec<(&'static str, i64)> {
    vec![
        ("501", cents(5_000_000 * scale)),
        ("502", cents(2_000_000 * scale)),
    ]
}

/// The independent expectation at one level: spend per id, '' for `no_dimension`.
fn expected(level: &str, days: &[(&str, i64)]) -> BTreeMap<String, i64> {
    let mut spend = BTreeMap::new();
    let total: i64 = days
        .iter()
        .flat_map(|(_, scale)| day_rows(*scale))
        .map(|row| row.3)
        .sum();
    if level == "keyword" {
        let mut covered = 0;
        for (_, scale) in days {
            for (keyword, cents) in keyword_rows(*scale) {
                *spend.entry(keyword.to_owned()).or_insert(0) += cents;
                covered += cents;
            }
        }
        spend.insert(String::new(), total - covered);
        return spend;
    }
    for (_, scale) in days {
        for (campaign, ad_group, ad, cents) in day_rows(*scale) {
            let id = match level {
                "campaign" => campaign,
                "ad_group" => ad_group,
                _ => ad,
            };
            *spend.entry(id.to_owned()).or_insert(0) += cents;
        }
    }
    spend
}

/// The ads report's spend per id ('' for `no_dimension`), without the unattributed sentinel
/// (which carries no spend).
async fn reported(app: &TestApp, token: &str, level: &str) -> (BTreeMap<String, i64>, i64) {
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
            "no_dimension" => "",
            "unattributed" => continue,
            id => id,
        };
        let cents = row["spend_cents"].as_i64().unwrap();
        if cents != 0 || !id.is_empty() {
            spend.insert(id.to_owned(), cents);
        }
    }
    (spend, report["totals"]["spend_cents"].as_i64().unwrap())
}

fn attribution_spend(report: &Value, channel: &str) -> i64 {
    report["channels"]
        .as_array()
        .unwrap()
        .iter()
        .find(|row| row["channel"] == channel)
        .map_or(0, |row| row["spend_cents"].as_i64().unwrap())
}

async fn spend_lands_at_every_level(backend: Backend) {
    let google = FakeGoogle::spawn().await;
    seed(&google);
    for (day, scale) in DAYS {
        spend_day(&google, day, scale);
    }
    let app = spawn(backend, &google).await;
    let (owner, _) = founder(&app).await;
    connect(&app, &google, &owner.token).await;
    sync(&app).await;

    let connection = search_ads_connection(&app, &owner.token).await;
    assert_eq!(connection["status"], "active", "{connection}");
    assert!(connection["last_error"].is_null(), "{connection}");
    let total: i64 = expected("campaign", &DAYS).values().sum();
    for level in ["campaign", "ad_group", "keyword", "ad"] {
        let (spend, reported_total) = reported(&app, &owner.token, level).await;
        assert_eq!(spend, expected(level, &DAYS), "level {level}");
        assert_eq!(reported_total, total, "level {level}");
    }
    // The attribution report, CAC and the spend page read the same spend as paid_google.
    let attribution = app
        .get("/products/shop/attribution?days=30", Some(&owner.token))
        .await
        .expect(200)
        .clone();
    assert_eq!(attribution_spend(&attribution, "paid_google"), total);
    let page = app
        .get("/products/shop/spend?days=30", Some(&owner.token))
        .await
        .expect(200)
        .clone();
    let google_rows: i64 = page["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|row| row["network"] == "google")
        .map(|row| row["spend_cents"].as_i64().unwrap())
        .sum();
    assert_eq!(google_rows, total);

    // Every call carried the developer token; the run read the connected account (discovery
    // at connect time looked at the others).
    let searches = google.requests_to(":search");
    for request in &searches {
        assert_eq!(
            request.header("developer-token"),
            Some(google.developer_token())
        );
    }
    assert!(
        searches
            .iter()
            .any(|request| request.path.contains("/customers/1234567890/"))
    );

    // Google restates the 20th (less spend on one ad) and the Performance Max campaign's
    // spend on the 19th is gone: the next run replaces what it read.
    google.add_daily(
        CUSTOMER,
        "2026-11-20",
        Breakdown::Ad {
            ad_group: 11,
            ad: 1_001,
        },
        Metrics::new(1_000_000, 20, 2),
    );
    google.add_daily(
        CUSTOMER,
        "2026-11-19",
        Breakdown::CampaignOnly { campaign: PMAX },
        Metrics::new(0, 0, 0),
    );
    app.clock.advance(2 * 3_600_000);
    sync(&app).await;
    let mut campaigns = expected("campaign", &DAYS);
    *campaigns.get_mut("111").unwrap() += cents(1_000_000) - cents(8_000_000);
    *campaigns.get_mut("222").unwrap() -= cents(3_333_333);
    let (spend, _) = reported(&app, &owner.token, "campaign").await;
    assert_eq!(spend, campaigns);
}

per_backend!(spend_lands_at_every_level);

/// The search_ads source as `GET /health` shows it.
async fn health_of_search_ads(app: &TestApp, token: &str) -> Value {
    let health = app.get("/health", Some(token)).await.expect(200).clone();
    health["sources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|source| source["source"] == "search_ads")
        .cloned()
        .expect("search_ads in /health")
}

async fn quota_errors_and_a_revoked_grant(backend: Backend) {
    let google = FakeGoogle::spawn().await;
    seed(&google);
    spend_day(&google, "2026-11-20", 1);
    let app = spawn(backend, &google).await;
    let (owner, _) = founder(&app).await;
    connect(&app, &google, &owner.token).await;

    // The daily developer quota is spent (Google asks to wait a day, so the connector does not
    // retry): the run fails, says so, and backs off.
    google.fail_next("googleAds:search", 1, Fail::Quota);
    sync(&app).await;
    let connection = search_ads_connection(&app, &owner.token).await;
    assert_eq!(connection["status"], "error");
    let error = connection["last_error"].as_str().unwrap().to_lowercase();
    assert!(
        error.contains("rate limited") || error.contains("quota"),
        "{error}"
    );
    let (spend, _) = reported(&app, &owner.token, "campaign").await;
    assert!(spend.is_empty(), "{spend:?}");
    let health = health_of_search_ads(&app, &owner.token).await;
    assert_eq!(health["status"], "failing", "{health}");
    assert_eq!(health["consecutive_failures"], 1);

    // Past the backoff, with quota again, the run succeeds and the connection is active.
    app.clock.advance(3 * 3_600_000);
    sync(&app).await;
    let connection = search_ads_connection(&app, &owner.token).await;
    assert_eq!(connection["status"], "active", "{connection}");
    let (_, total) = reported(&app, &owner.token, "campaign").await;
    assert_eq!(
        total,
        expected("campaign", &[("2026-11-20", 1)])
            .values()
            .sum::<i64>()
    );
    let health = health_of_search_ads(&app, &owner.token).await;
    assert_eq!(health["status"], "fresh", "{health}");
    assert_eq!(health["product_slug"], "shop");

    // The founder revokes Payback's access at Google: the connection says to reconnect.
    google.revoke_all();
    app.clock.advance(2 * 3_600_000);
    sync(&app).await;
    let connection = search_ads_connection(&app, &owner.token).await;
    assert_eq!(connection["status"], "error");
    let error = connection["last_error"].as_str().unwrap();
    assert!(error.contains("reconnect"), "{error}");
}

per_backend!(quota_errors_and_a_revoked_grant);
