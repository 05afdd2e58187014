//! Hand-built edge cases: identities counted once per window and once per day, and daily
//! aggregates from source connectors counted alongside browser events.

use super::*;

async fn product_id(app: &TestApp, key: &str, slug: &str) -> String {
    let reply = app.get(&format!("/products/{slug}"), Some(key)).await;
    reply.expect(200)["product_id"].as_str().unwrap().to_owned()
}

/// Writes a daily aggregate stage volume straight into the store, as a source connector will.
async fn aggregate(
    app: &TestApp,
    product_id: &str,
    day: &str,
    stage: &str,
    source: &str,
    volume: i64,
) {
    app.insert_aggregate_stage_day(product_id, day, stage, source, volume)
        .await;
}

async fn identities_count_once_per_window_and_once_per_day(app: TestApp) {
    let (_, key) = setup(&app).await;
    app.send_events(&key,
        "shop",
        json!([
            // a-1 arrives from an ad, returns by email the next day, then signs up as u-1: every
            // event is u-1's, first touch paid_google.
            {"dedupe_id": "v1", "stage": "visit", "anonymous_id": "a-1", "occurred_at": "2026-11-19T08:00:00Z",
             "attribution": {"gclid": "g-1"}},
            {"dedupe_id": "v2", "stage": "visit", "anonymous_id": "a-1", "occurred_at": "2026-11-20T08:00:00Z",
             "attribution": {"utm_medium": "email", "utm_source": "weekly"}},
            {"dedupe_id": "v3", "stage": "visit", "anonymous_id": "a-1", "occurred_at": "2026-11-20T09:00:00Z"},
            {"dedupe_id": "s1", "stage": "signup", "anonymous_id": "a-1", "user_id": "u-1", "occurred_at": "2026-11-20T10:00:00Z"},
            // u-2 never had a channel; two identity-less visits, one from search, one bare.
            {"dedupe_id": "v4", "stage": "visit", "user_id": "u-2", "occurred_at": "2026-11-21T08:00:00Z"},
            {"dedupe_id": "v5", "stage": "visit", "occurred_at": "2026-11-21T09:00:00Z",
             "attribution": {"referrer": "https://www.bing.com/"}},
            {"dedupe_id": "v6", "stage": "visit", "occurred_at": "2026-11-21T09:30:00Z"},
            // Outside a 7-day window.
            {"dedupe_id": "old", "stage": "visit", "user_id": "u-3", "occurred_at": "2026-11-01T09:30:00Z"},
        ]),
    )
    .await;
    let rows = array(&app.get("/products/shop/funnel?days=7", Some(&key)).await);
    assert_eq!(
        rows,
        vec![
            json!({"stage": "visit", "channel": null, "events": 2, "volume": 2}),
            json!({"stage": "visit", "channel": "organic_search", "events": 1, "volume": 1}),
            json!({"stage": "visit", "channel": "paid_google", "events": 3, "volume": 1}),
            json!({"stage": "signup", "channel": "paid_google", "events": 1, "volume": 1}),
        ],
        "u-2 and the bare identity-less visit share the null row"
    );
    let series = array(
        &app.get("/products/shop/funnel/series?days=7", Some(&key))
            .await,
    );
    assert_eq!(
        series,
        vec![
            json!({"day": "2026-11-19", "stage": "visit", "volume": 1}),
            json!({"day": "2026-11-20", "stage": "visit", "volume": 1}),
            json!({"day": "2026-11-20", "stage": "signup", "volume": 1}),
            json!({"day": "2026-11-21", "stage": "visit", "volume": 3}),
        ],
        "u-1 counts on each day; days without events are absent"
    );
    let one_day = array(&app.get("/products/shop/funnel?days=1", Some(&key)).await);
    assert_eq!(
        one_day,
        vec![
            json!({"stage": "visit", "channel": null, "events": 2, "volume": 2}),
            json!({"stage": "visit", "channel": "organic_search", "events": 1, "volume": 1}),
        ]
    );
    let year = array(&app.get("/products/shop/funnel?days=365", Some(&key)).await);
    assert_eq!(
        year[0],
        json!({"stage": "visit", "channel": null, "events": 3, "volume": 3})
    );
}

async fn aggregates_and_browser_events_count(app: TestApp) {
    let (token, key) = setup(&app).await;
    let id = product_id(&app, &key, "shop").await;
    app.send_events(&key,
        "shop",
        json!([{"dedupe_id": "l1", "stage": "lead", "user_id": "u-1", "occurred_at": "2026-11-21T08:00:00Z"}]),
    )
    .await;
    aggregate(&app, &id, "2026-11-20", "visit", "analytics_a", 40).await;
    aggregate(&app, &id, "2026-11-21", "visit", "analytics_a", 2).await;
    // 40 days ago: outside the definition's 30 days.
    aggregate(&app, &id, "2026-10-12", "engaged", "analytics_a", 9).await;
    let write_key = app
        .get("/products/shop/tracking-key", Some(&token))
        .await
        .expect(200)["key"]
        .as_str()
        .unwrap()
        .to_owned();
    app.post(
        "/t/events",
        None,
        json!({"key": write_key, "events": [
            {"dedupe_id": "w1", "stage": "visit"},
            {"dedupe_id": "w2", "stage": "visit", "anonymous_id": "b-1"},
        ]}),
    )
    .await
    .expect(200);

    let rows = array(&app.get("/products/shop/funnel?days=7", Some(&key)).await);
    assert_eq!(
        rows,
        vec![
            json!({"stage": "visit", "channel": null, "events": 42, "volume": 42}),
            json!({"stage": "lead", "channel": null, "events": 1, "volume": 1}),
        ],
        "aggregates of no channel count under a null channel; web analytics owns visits, so \
         the browser's bare visits do not add"
    );
    let series = array(
        &app.get("/products/shop/funnel/series?days=60", Some(&key))
            .await,
    );
    assert_eq!(
        series,
        vec![
            json!({"day": "2026-10-12", "stage": "engaged", "volume": 9}),
            json!({"day": "2026-11-20", "stage": "visit", "volume": 40}),
            json!({"day": "2026-11-21", "stage": "visit", "volume": 2}),
            json!({"day": "2026-11-21", "stage": "lead", "volume": 1}),
        ]
    );
    let definition = app
        .get("/products/shop/funnel/definition", Some(&key))
        .await;
    let available = definition.expect(200)["available"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(available.len(), Stage::ALL.len());
    let by_stage: HashMap<&str, &Value> = available
        .iter()
        .map(|a| (a["stage"].as_str().unwrap(), a))
        .collect();
    assert_eq!(
        by_stage["visit"],
        &json!({"stage": "visit", "volume_30d": 42, "events_30d": 42, "sources": ["analytics_a", "web"]})
    );
    assert_eq!(
        by_stage["lead"],
        &json!({"stage": "lead", "volume_30d": 1, "events_30d": 1, "sources": ["api"]})
    );
    assert_eq!(
        by_stage["engaged"],
        &json!({"stage": "engaged", "volume_30d": 0, "events_30d": 0, "sources": []})
    );
}

backend_tests!(
    identities_count_once_per_window_and_once_per_day,
    aggregates_and_browser_events_count
);
