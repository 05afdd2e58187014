//! The fake against its documentation, over HTTP.

use serde_json::Value;

use super::*;

const DOMAIN: &str = "shop.example";

async fn get(ahrefs: &FakeAhrefs, key: Option<&str>, path_and_query: &str) -> (u16, Value) {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let mut request = reqwest::Client::new().get(format!("{}{path_and_query}", ahrefs.base_url()));
    if let Some(key) = key {
        request = request.bearer_auth(key);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let body = response.json().await.unwrap_or(Value::Null);
    (status, body)
}

fn keyword(keyword: &str, country: &str, position: i64, traffic: i64) -> OrganicKeyword {
    OrganicKeyword {
        keyword: keyword.to_owned(),
        country: country.to_owned(),
        best_position: Some(position),
        best_position_url: Some(format!("https://{DOMAIN}/{position}")),
        volume: Some(traffic * 10),
        sum_traffic: traffic,
        keyword_difficulty: None,
    }
}

async fn seeded() -> FakeAhrefs {
    {
        let ahrefs = FakeAhrefs::spawn().await;
        ahrefs.add_key("K");
        ahrefs.set_domain_rating(DOMAIN, 47.0);
        ahrefs.set_backlinks(
            DOMAIN,
            Backlinks {
                live: 1_234,
                all_time: 5_000,
                live_refdomains: 56,
                all_time_refdomains: 90,
            },
        );
        ahrefs.add_keyword(DOMAIN, keyword("payback", "us", 3, 40));
        ahrefs.add_keyword(DOMAIN, keyword("cac", "us", 8, 90));
        ahrefs.add_keyword(DOMAIN, keyword("ltv", "us", 20, 5));
        ahrefs.add_keyword(DOMAIN, keyword("payback", "de", 1, 500));
        ahrefs
    }
}

#[tokio::test]
async fn the_three_endpoints_answer_the_documented_shapes() {
    let ahrefs = seeded().await;
    let (status, rating) = get(
        &ahrefs,
        Some("K"),
        "/v3/site-explorer/domain-rating?target=shop.example&date=2026-11-21",
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(rating["domain_rating"]["domain_rating"], 47.0);
    let (status, stats) = get(
        &ahrefs,
        Some("K"),
        "/v3/site-explorer/backlinks-stats?target=shop.example&date=2026-11-21&mode=subdomains",
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(stats["metrics"]["live"], 1_234);
    assert_eq!(stats["metrics"]["live_refdomains"], 56);
    let (status, listed) = get(
        &ahrefs,
        Some("K"),
        "/v3/site-explorer/organic-keywords?target=shop.example&date=2026-11-21&country=us\
         &select=keyword,best_position&order_by=sum_traffic%3Adesc&limit=2",
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(
        listed,
        serde_json::json!({ "keywords": [
            { "keyword": "cac", "best_position": 8 },
            { "keyword": "payback", "best_position": 3 },
        ]})
    );
    // Without a country, every country's rows (default order by traffic).
    let (_, every) = get(
        &ahrefs,
        Some("K"),
        "/v3/site-explorer/organic-keywords?target=shop.example&date=2026-11-21&select=keyword,keyword_country",
    )
    .await;
    assert_eq!(every["keywords"].as_array().unwrap().len(), 4);
    assert_eq!(every["keywords"][0]["keyword_country"], "de");
    assert_eq!(ahrefs.requests_to("organic-keywords").len(), 2);
}

#[tokio::test]
async fn refusals_and_scheduled_failures_use_ahrefs_bodies() {
    let ahrefs = seeded().await;
    let path = "/v3/site-explorer/domain-rating?target=shop.example&date=2026-11-21";
    let (status, body) = get(&ahrefs, Some("nope"), path).await;
    assert_eq!(status, 401);
    assert!(body["error"].is_string(), "{body}");
    let (status, body) = get(&ahrefs, None, path).await;
    assert_eq!(status, 403, "{body}");
    ahrefs.add_key_without_api_access("LITE");
    let (status, _) = get(&ahrefs, Some("LITE"), path).await;
    assert_eq!(status, 403);
    for bad in [
        "/v3/site-explorer/domain-rating?date=2026-11-21",
        "/v3/site-explorer/domain-rating?target=shop.example",
        "/v3/site-explorer/domain-rating?target=shop.example&date=21-11-2026",
        "/v3/site-explorer/organic-keywords?target=shop.example&date=2026-11-21",
        "/v3/site-explorer/organic-keywords?target=shop.example&date=2026-11-21&select=nope",
        "/v3/site-explorer/organic-keywords?target=shop.example&date=2026-11-21&select=keyword&country=US",
        "/v3/site-explorer/backlinks-stats?target=shop.example&date=2026-11-21&mode=all",
    ] {
        let (status, body) = get(&ahrefs, Some("K"), bad).await;
        assert_eq!(status, 400, "{bad}");
        assert!(body["error"].is_string(), "{bad}: {body}");
    }
    ahrefs.throttle_next("domain-rating", 1);
    let (status, body) = get(&ahrefs, Some("K"), path).await;
    assert_eq!(status, 429);
    assert!(body["error"].is_string());
    let (status, _) = get(&ahrefs, Some("K"), path).await;
    assert_eq!(status, 200);
    ahrefs.revoke("K");
    let (status, _) = get(&ahrefs, Some("K"), path).await;
    assert_eq!(status, 401);
}
