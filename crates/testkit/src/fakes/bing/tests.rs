//! The fake against its documentation, over HTTP.

use serde_json::Value;

use super::*;

async fn get(bing: &FakeBing, path_and_query: &str) -> (u16, Value) {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let response = reqwest::Client::new()
        .get(format!("{}{path_and_query}", bing.base_url()))
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    let body = response.json().await.unwrap_or(Value::Null);
    (status, body)
}

#[tokio::test]
async fn the_two_methods_answer_the_documented_shapes() {
    let bing = FakeBing::spawn().await;
    bing.add_site("K", "https://shop.example/", true);
    bing.set_query_day("https://shop.example/", "2011-09-16", "payback", 3, 40);
    let (status, sites) = get(&bing, "/webmaster/api.svc/json/GetUserSites?apikey=K").await;
    assert_eq!(status, 200);
    assert_eq!(sites["d"][0]["Url"], "https://shop.example/");
    assert_eq!(sites["d"][0]["IsVerified"], true);
    let (status, stats) = get(
        &bing,
        "/webmaster/api.svc/json/GetQueryStats?siteUrl=https%3A%2F%2Fshop.example%2F&apikey=K",
    )
    .await;
    assert_eq!(status, 200);
    // The documented sample's instant: 2011-09-16 at midnight Pacific (PST here).
    assert_eq!(stats["d"][0]["Date"], "/Date(1316160000000-0800)/");
    assert_eq!(stats["d"][0]["Clicks"], 3);
    assert_eq!(stats["d"][0]["Impressions"], 40);
    assert_eq!(stats["d"][0]["Query"], "payback");
    assert_eq!(bing.requests_to("GetQueryStats").len(), 1);
}

#[tokio::test]
async fn refusals_and_scheduled_failures_use_bings_bodies() {
    let bing = FakeBing::spawn().await;
    bing.add_site("K", "https://shop.example/", true);
    let (status, body) = get(&bing, "/webmaster/api.svc/json/GetUserSites?apikey=nope").await;
    assert_eq!((status, body["ErrorCode"].as_i64()), (400, Some(3)));
    assert_eq!(body["Message"], "ERROR!!! InvalidApiKey");
    let (status, body) = get(
        &bing,
        "/webmaster/api.svc/json/GetQueryStats?siteUrl=https%3A%2F%2Fother.example%2F&apikey=K",
    )
    .await;
    assert_eq!((status, body["ErrorCode"].as_i64()), (400, Some(14)));
    bing.throttle_next("GetUserSites", 1);
    let (status, _) = get(&bing, "/webmaster/api.svc/json/GetUserSites?apikey=K").await;
    assert_eq!(status, 429);
    let (status, _) = get(&bing, "/webmaster/api.svc/json/GetUserSites?apikey=K").await;
    assert_eq!(status, 200);
    bing.revoke("K");
    let (status, body) = get(&bing, "/webmaster/api.svc/json/GetUserSites?apikey=K").await;
    assert_eq!((status, body["ErrorCode"].as_i64()), (400, Some(3)));
}
