//! The analysis of a live page: fetched from the local website, reduced to its text, scored by
//! the gateway fake against the rubric; the overall score is the weighted mean of the scores
//! the model returned, computed here. Every failure is a 200 `error` analysis; no gateway is 503.

use axum::http::StatusCode;
use payback_testkit::fake_gateway::MODEL;
use payback_testkit::{Backend, FakeGateway, TestApp, per_backend};
use serde_json::{Value, json};

use super::site::{FakeSite, PRICING_TEXT};
use super::{add_page, founder_with_product, id_of, list, page_of, spawn, spawn_with_gateway};

const WEIGHTS: [(&str, &str, i64); 6] = [
    ("headline_clarity", "Headline clarity", 20),
    ("value_proposition", "Value proposition", 20),
    ("call_to_action", "Call to action", 20),
    ("social_proof", "Social proof", 15),
    ("readability", "Readability", 15),
    ("objection_handling", "Objection handling", 10),
];

fn weight_of(key: &str) -> i64 {
    WEIGHTS
        .iter()
        .find(|(k, _, _)| *k == key)
        .map(|(_, _, weight)| *weight)
        .unwrap_or_else(|| panic!("no weight for {key}"))
}

/// round(Σ w·s / Σ w) over `scores`.
fn weighted_mean(scores: &[(&str, i64)]) -> i64 {
    let weights: i64 = scores.iter().map(|(key, _)| weight_of(key)).sum();
    let total: i64 = scores
        .iter()
        .map(|(key, score)| weight_of(key) * score)
        .sum();
    (total as f64 / weights as f64).round() as i64
}

fn answer(scores: &[(&str, i64)], summary: &str) -> String {
    let items: Vec<Value> = scores
        .iter()
        .map(|(key, score)| json!({"key": key, "score": score, "note": format!("{key} note")}))
        .collect();
    json!({"scores": items, "summary": summary}).to_string()
}

async fn analyze(app: &TestApp, token: &str, page: &Value) -> Value {
    app.post(
        &format!("/products/shop/landing-pages/{}/analyze", id_of(page)),
        Some(token),
        json!({}),
    )
    .await
    .expect(200)
    .clone()
}

fn assert_error(analysis: &Value, needle: &str) {
    assert_eq!(analysis["status"], "error", "{analysis}");
    assert_eq!(analysis["overall_score"], Value::Null);
    assert_eq!(analysis["scores"], json!([]));
    assert_eq!(analysis["summary"], Value::Null);
    let error = analysis["error"].as_str().expect("an error");
    assert!(
        error.contains(needle),
        "{error:?} does not mention {needle:?}"
    );
}

async fn the_live_page_is_scored(backend: Backend) {
    let site = FakeSite::spawn().await;
    let gateway = FakeGateway::spawn().await;
    let app = spawn_with_gateway(backend, &gateway).await;
    let founder = founder_with_product(&app, "shop", Some("127.0.0.1")).await;
    let token = founder.token.as_str();
    let page = add_page(&app, token, "shop", &site.url("/pricing")).await;

    let first: Vec<(&str, i64)> = vec![
        ("headline_clarity", 80),
        ("value_proposition", 65),
        ("call_to_action", 90),
        ("social_proof", 20),
        ("readability", 75),
        ("objection_handling", 40),
    ];
    let mut with_unknown: Vec<(&str, i64)> = first.clone();
    with_unknown.push(("made_up_key", 100));
    gateway.script_text(&answer(&with_unknown, "Clear headline; add proof."));
    let scored = analyze(&app, token, &page).await;
    assert_eq!(scored["status"], "ok", "{scored}");
    assert_eq!(scored["error"], Value::Null);
    assert_eq!(scored["model"], MODEL);
    assert_eq!(scored["summary"], "Clear headline; add proof.");
    assert_eq!(scored["analyzed_at"], "2026-11-21T12:00:00.000Z");
    assert_eq!(scored["overall_score"], weighted_mean(&first));
    let expected_scores: Vec<Value> = first
        .iter()
        .map(|(key, score)| {
            let (_, label, weight) = WEIGHTS
                .iter()
                .find(|(k, _, _)| k == key)
                .expect("rubric key");
            json!({"key": key, "label": label, "weight": weight, "score": score,
                   "note": format!("{key} note")})
        })
        .collect();
    assert_eq!(scored["scores"], json!(expected_scores));

    // What the model was sent: the rubric in the system message, the page's URL and text (no
    // markup, no script) alone in the user message, the configured key.
    let requests = gateway.requests();
    assert_eq!(requests.len(), 1);
    let request = &requests[0];
    assert_eq!(
        request.authorization.as_deref(),
        Some(format!("Bearer {}", FakeGateway::KEY).as_str())
    );
    let messages = request.messages();
    assert_eq!(messages.len(), 2);
    assert_eq!(messages[0]["role"], "system");
    let system = messages[0]["content"].as_str().expect("system text");
    for (key, _, weight) in WEIGHTS {
        assert!(
            system.contains(&format!("{key} (weight {weight})")),
            "{system}"
        );
    }
    assert!(!system.contains(PRICING_TEXT));
    assert_eq!(messages[1]["role"], "user");
    let user: Value = serde_json::from_str(messages[1]["content"].as_str().expect("user text"))
        .expect("the user message is JSON");
    assert_eq!(
        user,
        json!({"url": site.url("/pricing"), "text": PRICING_TEXT})
    );

    // A later, partial answer: the mean of what came back.
    app.clock.advance(3_600_000);
    let second: Vec<(&str, i64)> = vec![("call_to_action", 55), ("readability", 100)];
    gateway.script_text(&answer(&second, "Better."));
    let newer = analyze(&app, token, &page).await;
    assert_eq!(newer["overall_score"], weighted_mean(&second));
    assert_eq!(newer["scores"].as_array().map(Vec::len), Some(2));

    let detail = app
        .get(
            &format!("/products/shop/landing-pages/{}", id_of(&page)),
            Some(token),
        )
        .await
        .expect(200)
        .clone();
    assert_eq!(detail["analyses"], json!([newer.clone(), scored]));
    assert_eq!(detail["latest_analysis"], newer);
    let listed = list(&app, token, "shop", "").await;
    assert_eq!(page_of(&listed, "/pricing")["latest_analysis"], newer);
}

async fn every_failure_is_an_error_analysis(backend: Backend) {
    let site = FakeSite::spawn().await;
    let gateway = FakeGateway::spawn().await;
    let app = spawn_with_gateway(backend, &gateway).await;
    let founder = founder_with_product(&app, "shop", None).await;
    let token = founder.token.as_str();

    // Pages that do not load: the model is not asked.
    let missing = add_page(&app, token, "shop", &site.url("/missing")).await;
    assert_error(&analyze(&app, token, &missing).await, "answered 404");
    let blank = add_page(&app, token, "shop", &site.url("/blank")).await;
    assert_error(&analyze(&app, token, &blank).await, "no text");
    let closed = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().expect("address").port();
        drop(listener);
        add_page(
            &app,
            token,
            "shop",
            &format!("http://127.0.0.1:{port}/gone"),
        )
        .await
    };
    assert_error(
        &analyze(&app, token, &closed).await,
        "url: host `127.0.0.1` could not be reached",
    );
    let nowhere = add_page(&app, token, "shop", "http://site.invalid/x").await;
    assert_error(&analyze(&app, token, &nowhere).await, "does not resolve");
    assert!(gateway.requests().is_empty());

    // The model fails or answers what the rubric cannot read.
    let page = add_page(&app, token, "shop", &site.url("/pricing")).await;
    gateway.script_failure(StatusCode::INTERNAL_SERVER_ERROR);
    assert_error(
        &analyze(&app, token, &page).await,
        "model gateway answered 500",
    );
    gateway.script_text(&answer(&[("not_in_rubric", 70)], "?"));
    assert_error(&analyze(&app, token, &page).await, "no rubric key");
    gateway.script_text(&answer(&[("readability", 70), ("social_proof", 120)], "?"));
    assert_error(
        &analyze(&app, token, &page).await,
        "`social_proof` outside 0-100",
    );
    gateway.script_text(&answer(&[("readability", -5)], "?"));
    assert_error(&analyze(&app, token, &page).await, "outside 0-100");
    gateway.script_text("not json at all");
    assert_error(&analyze(&app, token, &page).await, "JSON");
    assert_eq!(gateway.requests().len(), 5);
    assert_eq!(gateway.unused(), 0);

    // Each was stored, newest first.
    let detail = app
        .get(
            &format!("/products/shop/landing-pages/{}", id_of(&page)),
            Some(token),
        )
        .await
        .expect(200)
        .clone();
    let analyses = detail["analyses"].as_array().expect("analyses");
    assert_eq!(analyses.len(), 5);
    assert!(
        analyses
            .iter()
            .all(|analysis| analysis["status"] == "error")
    );
    assert_eq!(
        analyses[0]["error"].as_str().map(|e| e.contains("JSON")),
        Some(true)
    );
    assert!(site.hits() >= 7);
}

async fn redirects_are_followed_five_times(backend: Backend) {
    let site = FakeSite::spawn().await;
    let gateway = FakeGateway::spawn().await;
    let app = spawn_with_gateway(backend, &gateway).await;
    let founder = founder_with_product(&app, "shop", None).await;
    let token = founder.token.as_str();
    let five = add_page(&app, token, "shop", &site.url("/hop/4")).await;
    gateway.script_text(&answer(&[("readability", 61)], "ok"));
    let scored = analyze(&app, token, &five).await;
    assert_eq!(scored["status"], "ok", "{scored}");
    assert_eq!(scored["overall_score"], 61);
    let user: Value = serde_json::from_str(
        gateway.requests()[0].messages()[1]["content"]
            .as_str()
            .expect("user text"),
    )
    .expect("JSON");
    assert_eq!(user["url"], site.url("/pricing"));
    // /hop/4 .. /hop/0 and /pricing.
    assert_eq!(site.hits(), 6);

    let six = add_page(&app, token, "shop", &site.url("/hop/5")).await;
    assert_error(
        &analyze(&app, token, &six).await,
        "url: more than 5 redirects",
    );
    assert_eq!(gateway.requests().len(), 1);
}

async fn without_a_gateway_analyze_is_503(backend: Backend) {
    let site = FakeSite::spawn().await;
    let app = spawn(backend).await;
    let founder = founder_with_product(&app, "shop", None).await;
    let token = founder.token.as_str();
    let page = add_page(&app, token, "shop", &site.url("/pricing")).await;
    app.post(
        &format!("/products/shop/landing-pages/{}/analyze", id_of(&page)),
        Some(token),
        json!({}),
    )
    .await
    .expect_error(503, "model gateway is not configured");
    assert_eq!(site.hits(), 0);
    let stored: i64 = app
        .sql_value(
            "SELECT CAST(COUNT(*) AS BIGINT) FROM landing_page_analyses",
            &[],
        )
        .await;
    assert_eq!(stored, 0);
}

per_backend!(
    the_live_page_is_scored,
    every_failure_is_an_error_analysis,
    redirects_are_followed_five_times,
    without_a_gateway_analyze_is_503
);
