//! The fake against its documentation, over HTTP.

use serde_json::Value;

use super::*;

async fn get(x: &FakeX, token: &str, path_and_query: &str) -> (u16, Option<String>, Value) {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let response = reqwest::Client::new()
        .get(format!("{}{path_and_query}", x.base_url()))
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    let reset = response
        .headers()
        .get("x-rate-limit-reset")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let body = response.json().await.unwrap_or(Value::Null);
    (status, reset, body)
}

async fn seeded() -> FakeX {
    let x = FakeX::spawn().await;
    x.add_token("T");
    x.add_account("2244994945", "Shop", 1234);
    for n in 0..7 {
        x.add_post(
            "shop",
            &format!("10{n}"),
            &format!("2026-11-1{n}T12:00:00.000Z"),
            "post",
            PostMetrics {
                impressions: 100 * (n + 1),
                likes: n,
                ..PostMetrics::default()
            },
        );
    }
    x
}

#[tokio::test]
async fn the_lookup_and_the_timeline_answer_the_documented_shapes() {
    let x = seeded().await;
    let (status, _, user) = get(
        &x,
        "T",
        "/2/users/by/username/shop?user.fields=public_metrics",
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(user["data"]["id"], "2244994945");
    assert_eq!(user["data"]["username"], "Shop");
    assert_eq!(user["data"]["public_metrics"]["followers_count"], 1234);
    let (_, _, bare) = get(&x, "T", "/2/users/by/username/shop").await;
    assert!(bare["data"].get("public_metrics").is_none());

    let first = "/2/users/2244994945/tweets?tweet.fields=public_metrics,created_at&max_results=5\
                 &start_time=2026-11-11T00:00:00Z";
    let (status, _, page) = get(&x, "T", first).await;
    assert_eq!(status, 200);
    let ids: Vec<&str> = page["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["106", "105", "104", "103", "102"]);
    assert_eq!(page["data"][0]["created_at"], "2026-11-16T12:00:00.000Z");
    assert_eq!(page["data"][0]["public_metrics"]["impression_count"], 700);
    assert_eq!(page["meta"]["result_count"], 5);
    let next = page["meta"]["next_token"].as_str().unwrap().to_owned();
    let (_, _, rest) = get(&x, "T", &format!("{first}&pagination_token={next}")).await;
    assert_eq!(rest["data"].as_array().unwrap().len(), 1);
    assert_eq!(rest["data"][0]["id"], "101");
    assert!(rest["meta"].get("next_token").is_none());
    assert_eq!(x.requests_to("/tweets").len(), 2);
}

#[tokio::test]
async fn refusals_and_scheduled_failures_use_xs_bodies() {
    let x = seeded().await;
    let (status, _, body) = get(&x, "nope", "/2/users/by/username/shop").await;
    assert_eq!(
        (status, body["detail"].as_str()),
        (401, Some("Unauthorized"))
    );
    let (status, _, body) = get(&x, "T", "/2/users/by/username/nobody").await;
    assert_eq!(status, 200);
    assert!(body.get("data").is_none());
    assert_eq!(
        body["errors"][0]["detail"],
        "Could not find user with username: [nobody]."
    );
    let (status, _, body) = get(&x, "T", "/2/users/by/username/not.a.handle").await;
    assert_eq!(
        (status, body["title"].as_str()),
        (400, Some("Invalid Request"))
    );
    let (status, _, body) = get(&x, "T", "/2/users/2244994945/tweets?max_results=1000").await;
    assert_eq!(status, 400, "{body}");
    let (status, _, _) = get(&x, "T", "/2/users/2244994945/tweets?colour=red").await;
    assert_eq!(status, 400);

    x.rate_limit_next("/2/users/by/username", 1, 30);
    let (status, reset, body) = get(&x, "T", "/2/users/by/username/shop").await;
    assert_eq!(
        (status, body["title"].as_str()),
        (429, Some("Too Many Requests"))
    );
    let reset: i64 = reset.unwrap().parse().unwrap();
    assert!(reset > 1_700_000_000, "{reset}");
    let (status, _, _) = get(&x, "T", "/2/users/by/username/shop").await;
    assert_eq!(status, 200);
    x.revoke("T");
    let (status, _, _) = get(&x, "T", "/2/users/by/username/shop").await;
    assert_eq!(status, 401);
}
