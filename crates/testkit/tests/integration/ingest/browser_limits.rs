//! Limits of the public browser endpoint `POST /t/events` (security review, issue 19): a small
//! body limit, and rate limits per client address and per write key, each answered with the
//! CORS header so the page can read the refusal.

use payback_testkit::{Backend, Reply, TestApp, backend_tests, per_backend};
use serde_json::{Value, json};

use super::{count, send, setup};

/// A POST of `body` to `/t/events` as a client behind `forwarded_for` (`X-Forwarded-For`),
/// from a page on another origin.
async fn beacon_via(app: &TestApp, forwarded_for: &str, body: Value) -> Reply {
    let response = app
        .client
        .post(app.url("/t/events"))
        .header("x-forwarded-for", forwarded_for)
        .header("origin", "https://shop.test")
        .json(&body)
        .send()
        .await
        .unwrap();
    Reply::read(response).await
}

async fn write_key(app: &TestApp, token: &str, slug: &str) -> String {
    app.get(&format!("/products/{slug}/tracking-key"), Some(token))
        .await
        .expect(200)["key"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// `n` browser visits whose properties pad each event to about `pad` bytes.
fn padded_visits(prefix: &str, n: usize, pad: usize) -> Value {
    json!(
        (0..n)
            .map(|i| json!({
                "dedupe_id": format!("{prefix}{i}"),
                "stage": "visit",
                "properties": { "pad": "x".repeat(pad) },
            }))
            .collect::<Vec<_>>()
    )
}

/// `/t/events` reads at most 64 KiB: a larger batch answers 413 naming the limit (and saying to
/// split it) before the body is parsed or the key looked up, with CORS so the page can read it;
/// a full batch of 25 ordinary events fits.
async fn browser_bodies_over_64_kib_are_refused(app: TestApp) {
    let (token, api_key) = setup(&app).await;
    let key = write_key(&app, &token, "shop").await;
    let too_big = json!({ "key": key, "events": padded_visits("big", 25, 3000) });
    assert!(too_big.to_string().len() > 64 * 1024);
    let reply = beacon_via(&app, "203.0.113.1", too_big.clone()).await;
    reply.expect_error(413, "/t/events takes at most 65536 bytes");
    reply.expect_error(413, "smaller batches");
    assert_eq!(reply.header("access-control-allow-origin"), Some("*"));
    app.post_raw("/t/events", None, "text/plain", too_big.to_string())
        .await
        .expect_error(413, "at most 65536 bytes");
    // Megabytes with a made-up key: refused for the size, not the key.
    let huge = json!({ "key": "svc_pub_nope", "events": padded_visits("huge", 25, 160 * 1024) });
    app.post_raw("/t/events", None, "text/plain", huge.to_string())
        .await
        .expect_error(413, "at most 65536 bytes");
    assert_eq!(count(&app, "events").await, 0, "nothing stored");

    // The same events as two batches are accepted.
    let honest = json!({ "key": key, "events": padded_visits("ok", 25, 2000) });
    assert!(honest.to_string().len() < 64 * 1024);
    let reply = beacon_via(&app, "203.0.113.1", honest).await;
    assert_eq!(reply.expect(200)["received"], 25);
    let rest = json!({ "key": key, "events": padded_visits("ok2-", 25, 2000) });
    assert_eq!(
        beacon_via(&app, "203.0.113.1", rest).await.expect(200)["received"],
        25
    );
    // Server-side batches keep the global limit.
    send(&app, &api_key, padded_visits("api", 100, 3000))
        .await
        .expect(200);
    assert_eq!(count(&app, "events").await, 150);
}

backend_tests!(browser_bodies_over_64_kib_are_refused);

/// Per client address: the fourth batch in the minute answers 429 (with CORS), whatever
/// `X-Forwarded-For` the client sends (the test client is not a trusted proxy).
async fn browser_events_are_limited_per_address(backend: Backend) {
    let app = TestApp::spawn_with(backend, |config| {
        config.tracking_rate_limit_per_minute = 3;
    })
    .await;
    let (token, api_key) = setup(&app).await;
    let key = write_key(&app, &token, "shop").await;
    for n in 1..=3 {
        let body =
            json!({ "key": key, "events": [{ "dedupe_id": format!("v{n}"), "stage": "visit" }] });
        let reply = beacon_via(&app, &format!("198.51.100.{n}"), body).await;
        assert_eq!(reply.expect(200)["received"], 1);
    }
    let body = json!({ "key": key, "events": [{ "dedupe_id": "v4", "stage": "visit" }] });
    let limited = beacon_via(&app, "198.51.100.4", body).await;
    limited.expect_error(
        429,
        "too many requests from this address: at most 3 per minute",
    );
    limited.expect_retry_after(60);
    assert_eq!(limited.header("access-control-allow-origin"), Some("*"));
    // A page may read when to retry: the header is exposed to it.
    assert!(
        limited
            .header("access-control-expose-headers")
            .is_some_and(|exposed| exposed.to_lowercase().contains("retry-after")),
        "{:?}",
        limited.headers
    );
    assert_eq!(count(&app, "events").await, 3);
    // Server-side ingestion has no such limit.
    send(
        &app,
        &api_key,
        json!([{ "dedupe_id": "s1", "stage": "visit" }]),
    )
    .await
    .expect(200);
}

/// Per write key: many addresses (behind a trusted proxy, 127.0.0.1 here) share one key's
/// budget; padding the key does not make a new one; another product's key is not affected.
async fn browser_events_are_limited_per_write_key(backend: Backend) {
    let app = TestApp::spawn_with(backend, |config| {
        config.tracking_key_rate_limit_per_minute = 3;
        config.trusted_proxies =
            payback_server::rate_limit::TrustedProxies::parse("127.0.0.1").unwrap();
    })
    .await;
    let (token, _) = setup(&app).await;
    let key = write_key(&app, &token, "shop").await;
    app.create_product(&token, "blog").await;
    let other_key = write_key(&app, &token, "blog").await;
    for n in 1..=3 {
        let body =
            json!({ "key": key, "events": [{ "dedupe_id": format!("v{n}"), "stage": "visit" }] });
        let reply = beacon_via(&app, &format!("198.51.100.{n}"), body).await;
        assert_eq!(reply.expect(200)["received"], 1);
    }
    let body = json!({ "key": key, "events": [{ "dedupe_id": "v4", "stage": "visit" }] });
    let limited = beacon_via(&app, "198.51.100.4", body).await;
    limited.expect_error(
        429,
        "too many requests for this write key: at most 3 per minute",
    );
    limited.expect_retry_after(60);
    assert_eq!(limited.header("access-control-allow-origin"), Some("*"));
    let padded =
        json!({ "key": format!(" {key} "), "events": [{ "dedupe_id": "v5", "stage": "visit" }] });
    beacon_via(&app, "198.51.100.5", padded)
        .await
        .expect_error(429, "write key");
    assert_eq!(count(&app, "events").await, 3);
    let other = json!({ "key": other_key, "events": [{ "dedupe_id": "b1", "stage": "visit" }] });
    assert_eq!(
        beacon_via(&app, "198.51.100.4", other).await.expect(200)["received"],
        1
    );
}

per_backend!(
    browser_events_are_limited_per_address,
    browser_events_are_limited_per_write_key,
);
