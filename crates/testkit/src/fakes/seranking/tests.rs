//! The fake against its documentation, over HTTP.

use serde_json::Value;

use super::*;

async fn get(se: &FakeSeRanking, path_and_query: &str, key: Option<&str>) -> (u16, Value) {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let mut request = reqwest::Client::new().get(format!("{}{path_and_query}", se.base_url()));
    if let Some(key) = key {
        request = request.header("Authorization", format!("Token {key}"));
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let body = response.json().await.unwrap_or(Value::Null);
    (status, body)
}

fn seeded(se: &FakeSeRanking) {
    se.add_project("K", 77, "Shop", "https://shop.example/");
    se.add_engine(77, 1, "chatgpt");
    se.set_mention(77, 1, "2026-11-19", 40.0);
    se.set_mention(77, 1, "2026-11-20", 20.0);
    se.add_audit("K", 5, "Shop", "https://shop.example/", Some(81.0));
    se.set_position(
        77,
        3,
        "payback",
        390,
        "2026-11-20",
        4,
        Some("https://shop.example/"),
    );
}

#[tokio::test]
async fn the_documented_requests_answer_the_documented_shapes() {
    let se = FakeSeRanking::spawn().await;
    seeded(&se);
    let (status, sites) = get(&se, "/sites", Some("K")).await;
    assert_eq!(status, 200);
    assert_eq!(
        (sites[0]["id"].as_u64(), sites[0]["title"].as_str()),
        (Some(77), Some("Shop"))
    );
    assert_eq!(sites[0]["name"], "https://shop.example/");
    let (_, engines) = get(&se, "/sites/77/airt/llm", Some("K")).await;
    assert_eq!(engines[0]["base_name"], "chatgpt");
    let (_, day) = get(
        &se,
        "/sites/77/airt/llm/1/statistics?from=2026-11-19&to=2026-11-19",
        Some("K"),
    )
    .await;
    assert_eq!(day["presence"]["mention_percent_in_top"], 40.0);
    let (_, both) = get(
        &se,
        "/sites/77/airt/llm/1/statistics?from=2026-11-19&to=2026-11-20",
        Some("K"),
    )
    .await;
    assert_eq!(both["presence"]["mention_percent_in_top"], 30.0);
    let (_, none) = get(
        &se,
        "/sites/77/airt/llm/1/statistics?from=2026-11-21&to=2026-11-21",
        Some("K"),
    )
    .await;
    assert_eq!(none["presence"]["mention_percent_in_top"], Value::Null);
    let (_, audits) = get(&se, "/audit/list", Some("K")).await;
    assert_eq!(audits["items"][0]["title"], "Shop");
    let (_, report) = get(&se, "/audit/5/report", Some("K")).await;
    assert_eq!(
        (
            report["is_finished"].as_bool(),
            report["score_percent"].as_f64()
        ),
        (Some(true), Some(81.0))
    );
    let (_, positions) = get(
        &se,
        "/sites/77/positions?date_from=2026-11-19&date_to=2026-11-20&with_landing_pages=1",
        Some("K"),
    )
    .await;
    let keyword = &positions[0]["keywords"][0];
    assert_eq!(
        (keyword["name"].as_str(), keyword["volume"].as_u64()),
        (Some("payback"), Some(390))
    );
    assert_eq!(keyword["positions"][0]["pos"], 4);
    assert_eq!(keyword["landing_pages"][0]["url"], "https://shop.example/");
    assert_eq!(se.requests_to("/statistics").len(), 3);
    assert_eq!(
        se.mentions_on(77, "2026-11-20"),
        [("chatgpt".to_owned(), 20.0)]
    );
}

#[tokio::test]
async fn refusals_and_scheduled_failures_use_se_rankings_bodies() {
    let se = FakeSeRanking::spawn().await;
    seeded(&se);
    se.add_project("OTHER", 88, "Elsewhere", "https://elsewhere.example/");
    let (status, body) = get(&se, "/sites", None).await;
    assert_eq!((status, body["message"].as_str()), (403, Some("No token")));
    let (status, body) = get(&se, "/sites", Some("nope")).await;
    assert_eq!(
        (status, body["message"].as_str()),
        (403, Some("Incorrect token"))
    );
    let (status, _) = get(&se, "/sites/88/airt/llm", Some("K")).await;
    assert_eq!(status, 404);
    se.throttle_next("/sites", 1);
    let (status, body) = get(&se, "/sites", Some("K")).await;
    assert_eq!((status, body["error"]["code"].as_u64()), (429, Some(429)));
    let (status, _) = get(&se, "/sites", Some("K")).await;
    assert_eq!(status, 200);
    se.revoke("K");
    let (status, _) = get(&se, "/sites", Some("K")).await;
    assert_eq!(status, 403);
}
