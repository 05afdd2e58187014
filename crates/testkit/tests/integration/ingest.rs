//! Event ingestion: the schema, all-or-nothing batches, dedupe, write keys, identity stitching
//! and the maintained per-identity tables, on both backends.

use payback_domain::Clock;
use payback_testkit::{TestApp, backend_tests};
use serde_json::{Value, json};

// A crate root's modules sit beside it; this one lives in a folder of the binary's name so
// cargo does not take it for a test binary of its own.
#[path = "ingest/backlog.rs"]
mod backlog;
#[path = "ingest/browser_limits.rs"]
mod browser_limits;
#[path = "ingest/report_days.rs"]
mod report_days;

/// Rows of a query as `(text, optional text, optional number)` tuples, read straight from the store.
async fn scalar_rows(app: &TestApp, sql: &str) -> Vec<(String, Option<String>, Option<i64>)> {
    app.sql_rows(sql, &[]).await
}

async fn count(app: &TestApp, table: &str) -> i64 {
    app.sql_value(&format!("SELECT COUNT(*) FROM {table}"), &[])
        .await
}

async fn setup(app: &TestApp) -> (String, String) {
    let session = app.signup_verified("founder@example.com").await;
    let key = app.api_key(&session).await;
    app.create_product(&key, "shop").await;
    app.post("/products/shop", Some(&key), json!({"domain": "shop.test"}))
        .await
        .expect(200);
    (session.token, key)
}

async fn send(app: &TestApp, key: &str, events: Value) -> payback_testkit::Reply {
    app.post(
        "/products/shop/events",
        Some(key),
        json!({ "events": events }),
    )
    .await
}

async fn batch_is_stored_and_retries_are_idempotent(app: TestApp) {
    let (_, key) = setup(&app).await;
    let events = json!([
        {"dedupe_id": "v1", "stage": "visit", "anonymous_id": "anon-1", "occurred_at": "2026-11-20T10:00:00Z",
         "attribution": {"utm_source": "google", "utm_medium": "cpc", "utm_campaign": "spring"}},
        {"dedupe_id": "s1", "stage": "signup", "anonymous_id": "anon-1", "user_id": "u1", "occurred_at": "2026-11-20T10:05:00Z"},
        {"dedupe_id": "p1", "stage": "payment", "user_id": "u1", "value": 4900, "occurred_at": "2026-11-20T11:00:00Z"},
    ]);
    let first = send(&app, &key, events.clone()).await;
    assert_eq!(first.expect(200), &json!({"ok": true, "received": 3}));
    let retry = send(&app, &key, events).await;
    assert_eq!(
        retry.body, first.body,
        "a retry answers exactly like the first try"
    );
    assert_eq!(count(&app, "events").await, 3);
    assert_eq!(count(&app, "transactions").await, 1);

    // The visit was anonymous; the signup linked anon-1 to u1, so everything is u1's.
    let rows = scalar_rows(
        &app,
        "SELECT dedupe_id, identity, NULL FROM events ORDER BY occurred_at",
    )
    .await;
    assert!(
        rows.iter()
            .all(|(_, identity, _)| identity.as_deref() == Some("u:u1")),
        "{rows:?}"
    );
    let profiles = scalar_rows(
        &app,
        "SELECT identity, first_channel, revenue_cents FROM identity_profiles",
    )
    .await;
    assert_eq!(
        profiles,
        vec![(
            "u:u1".to_owned(),
            Some("paid_google".to_owned()),
            Some(4900)
        )]
    );
    let revenue = scalar_rows(
        &app,
        "SELECT identity, last_channel, amount_cents FROM transactions",
    )
    .await;
    assert_eq!(
        revenue,
        vec![(
            "u:u1".to_owned(),
            Some("paid_google".to_owned()),
            Some(4900)
        )]
    );
}

async fn an_invalid_event_refuses_the_whole_batch(app: TestApp) {
    let (_, key) = setup(&app).await;
    let reply = send(
        &app,
        &key,
        json!([
            {"dedupe_id": "ok-1", "stage": "visit"},
            {"dedupe_id": "ok-2", "stage": "lead"},
            {"dedupe_id": "bad", "stage": "purchase"},
        ]),
    )
    .await;
    reply.expect_error(400, "events[2].stage");
    for (body, needle) in [
        (
            json!([{"stage": "visit"}]),
            "events[0]: missing field `dedupe_id`",
        ),
        (
            json!([{"dedupe_id": "a", "stage": "visit", "userid": "x"}]),
            "events[0].userid: unknown field `userid`",
        ),
        (
            json!([{"dedupe_id": "a", "stage": "payment", "value": 10, "currency": "EUR"}]),
            "events[0].currency",
        ),
        (
            json!([{"dedupe_id": "a", "stage": "visit", "value": "12"}]),
            "events[0].value",
        ),
        (
            json!([{"dedupe_id": "a", "stage": "visit", "attribution": {"utm_source": 5}}]),
            "events[0].attribution.utm_source",
        ),
        // PostgreSQL cannot store U+0000: it used to fail there as a 500.
        (
            json!([{"dedupe_id": "a", "stage": "visit"}, {"dedupe_id": "b", "stage": "visit", "name": "sign\u{0}up"}]),
            "events[1].name: must not contain the NUL character",
        ),
        (
            json!([{"dedupe_id": "a\u{0}", "stage": "visit"}]),
            "events[0].dedupe_id: must not contain the NUL character",
        ),
    ] {
        send(&app, &key, body).await.expect_error(400, needle);
    }
    assert_eq!(count(&app, "events").await, 0, "nothing half-written");
    assert_eq!(count(&app, "event_days").await, 0);
}

async fn batch_caps_hold(app: TestApp) {
    let (token, key) = setup(&app).await;
    let events: Vec<Value> = (0..1001)
        .map(|i| json!({"dedupe_id": format!("e{i}"), "stage": "visit"}))
        .collect();
    send(&app, &key, json!(events))
        .await
        .expect_error(400, "at most 1000");
    send(&app, &key, json!(events[..1000])).await.expect(200);
    let write_key = app
        .get("/products/shop/tracking-key", Some(&token))
        .await
        .body["key"]
        .as_str()
        .unwrap()
        .to_owned();
    let browser: Vec<Value> = (0..26)
        .map(|i| json!({"dedupe_id": format!("b{i}"), "stage": "visit"}))
        .collect();
    app.post(
        "/t/events",
        None,
        json!({"key": write_key, "events": browser}),
    )
    .await
    .expect_error(400, "at most 25");
    assert_eq!(count(&app, "events").await, 1000);
}

async fn browser_ingestion_uses_the_write_key(app: TestApp) {
    let (token, _) = setup(&app).await;
    let info = app.get("/products/shop/tracking-key", Some(&token)).await;
    let body = info.expect(200).clone();
    let write_key = body["key"].as_str().unwrap().to_owned();
    assert!(write_key.starts_with("svc_pub_"));
    assert_eq!(body["ingest_url"], format!("{}/t/events", app.base_url));
    assert_eq!(body["gtm_connected"], false);
    assert_eq!(body["gtm_deploy"], Value::Null);
    assert!(
        body["snippet"]
            .as_str()
            .unwrap()
            .contains(&format!(r#"data-key="{write_key}""#))
    );
    assert!(
        body["curl_example"]
            .as_str()
            .unwrap()
            .contains("/products/shop/events")
    );
    // Reading again does not mint another key.
    assert_eq!(
        app.get("/products/shop/tracking-key", Some(&token))
            .await
            .body["key"],
        body["key"]
    );

    let beacon = json!({"key": write_key, "events": [{"dedupe_id": "w1", "stage": "visit", "anonymous_id": "b-1"}]}).to_string();
    let reply = app
        .post_raw(
            "/t/events",
            None,
            "text/plain;charset=UTF-8",
            beacon.clone(),
        )
        .await;
    assert_eq!(reply.expect(200)["received"], 1);
    assert_eq!(reply.header("access-control-allow-origin"), Some("*"));
    let rows = scalar_rows(&app, "SELECT namespace, channel, NULL FROM events").await;
    assert_eq!(
        rows,
        vec![("web:shop".to_owned(), Some("direct".to_owned()), None)],
        "a bare browser visit is direct"
    );

    app.post("/t/events", None, json!({"events": []}))
        .await
        .expect_error(401, "missing");
    app.post(
        "/t/events",
        None,
        json!({"key": "svc_pub_nope", "events": []}),
    )
    .await
    .expect_error(401, "revoked");
    let rotated = app
        .post("/products/shop/tracking-key", Some(&token), json!({}))
        .await;
    let rotated = rotated.expect(200).clone();
    assert_eq!(rotated["rotated"], true);
    assert_ne!(rotated["key"], json!(write_key));
    app.post_raw("/t/events", None, "text/plain", beacon)
        .await
        .expect_error(401, "revoked");
    let fresh = json!({"key": rotated["key"], "events": [{"dedupe_id": "w2", "stage": "visit"}]});
    app.post("/t/events", None, fresh).await.expect(200);
}

async fn other_accounts_products_answer_404(app: TestApp) {
    let (_, key) = setup(&app).await;
    let stranger = app.signup_verified("stranger@example.com").await;
    let stranger_key = app.api_key(&stranger).await;
    send(
        &app,
        &stranger_key,
        json!([{"dedupe_id": "x", "stage": "visit"}]),
    )
    .await
    .expect_error(404, "product");
    app.get("/products/shop/tracking-key", Some(&stranger_key))
        .await
        .expect_error(404, "product");
    app.post("/products/shop/events", None, json!({"events": []}))
        .await
        .expect_error(401, "bearer");
    send(&app, &key, json!([])).await.expect(200);
}

async fn out_of_order_touches_and_late_links_keep_last_touch_right(app: TestApp) {
    let (_, key) = setup(&app).await;
    // Revenue first, with no touch yet: its last touch falls back to nothing stored.
    send(
        &app,
        &key,
        json!([{"dedupe_id": "pay", "stage": "payment", "user_id": "u9", "value": 1000,
        "occurred_at": "2026-11-20T12:00:00Z"}]),
    )
    .await
    .expect(200);
    // An earlier anonymous email click, then the link that says it was u9.
    send(&app, &key, json!([{"dedupe_id": "mail", "stage": "visit", "anonymous_id": "a9",
        "occurred_at": "2026-11-20T09:00:00Z", "attribution": {"utm_medium": "email", "utm_source": "weekly"}}])).await.expect(200);
    let before = scalar_rows(
        &app,
        "SELECT identity, last_channel, amount_cents FROM transactions",
    )
    .await;
    assert_eq!(before[0].1, None, "not linked yet");
    send(
        &app,
        &key,
        json!([{"dedupe_id": "login", "stage": "engaged", "anonymous_id": "a9", "user_id": "u9",
        "occurred_at": "2026-11-20T13:00:00Z"}]),
    )
    .await
    .expect(200);
    let after = scalar_rows(
        &app,
        "SELECT identity, last_channel, amount_cents FROM transactions",
    )
    .await;
    assert_eq!(
        after,
        vec![("u:u9".to_owned(), Some("email".to_owned()), Some(1000))]
    );
    // A later paid click does not change revenue that happened before it.
    send(
        &app,
        &key,
        json!([{"dedupe_id": "ad", "stage": "visit", "user_id": "u9",
        "occurred_at": "2026-11-20T14:00:00Z", "attribution": {"gclid": "g"}}]),
    )
    .await
    .expect(200);
    let profiles = scalar_rows(
        &app,
        "SELECT identity, first_channel, revenue_cents FROM identity_profiles",
    )
    .await;
    assert_eq!(
        profiles,
        vec![("u:u9".to_owned(), Some("email".to_owned()), Some(1000))]
    );
    let still = scalar_rows(
        &app,
        "SELECT identity, last_channel, amount_cents FROM transactions",
    )
    .await;
    assert_eq!(still[0].1.as_deref(), Some("email"));
}

backend_tests!(
    batch_is_stored_and_retries_are_idempotent,
    an_invalid_event_refuses_the_whole_batch,
    batch_caps_hold,
    browser_ingestion_uses_the_write_key,
    other_accounts_products_answer_404,
    out_of_order_touches_and_late_links_keep_last_touch_right,
    refunds_acquire_no_customer,
);

/// A refund whose sale was never received (a negative `payment`, as the payments connector
/// writes refunds) is a revenue row but makes nobody a customer; the sale, when it comes,
/// does, at the sale's time.
async fn refunds_acquire_no_customer(app: TestApp) {
    let (_, key) = setup(&app).await;
    let refund = json!([
        {"dedupe_id": "r1", "stage": "payment", "user_id": "u1", "value": -2500, "occurred_at": "2026-11-20T12:00:00Z"},
    ]);
    send(&app, &key, refund).await.expect(200);
    let profile = scalar_rows(
        &app,
        "SELECT identity, acquired_day, revenue_cents FROM identity_profiles",
    )
    .await;
    assert_eq!(profile, vec![("u:u1".to_owned(), None, Some(-2500))]);
    assert_eq!(count(&app, "transactions").await, 1);
    let report = app
        .get("/products/shop/attribution?days=7", Some(&key))
        .await;
    let report = report.expect(200);
    assert_eq!(report["totals"]["revenue_cents"], -2500);
    let customers: i64 = report["channels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row["customers_first"].as_i64().unwrap())
        .sum();
    assert_eq!(customers, 0, "{report}");

    let sale = json!([
        {"dedupe_id": "s1", "stage": "payment", "user_id": "u1", "value": 2500, "occurred_at": "2026-11-19T09:00:00Z"},
    ]);
    send(&app, &key, sale).await.expect(200);
    let profile = scalar_rows(
        &app,
        "SELECT identity, acquired_day, revenue_cents FROM identity_profiles",
    )
    .await;
    assert_eq!(
        profile,
        vec![("u:u1".to_owned(), Some("2026-11-19".to_owned()), Some(0))]
    );
}

async fn the_synthetic_dataset_loads_completely(app: TestApp) {
    let (_, key) = setup(&app).await;
    let data = payback_testkit::synthetic::generate(Default::default(), app.clock.now());
    data.load(&app, &key, "shop").await;
    assert_eq!(count(&app, "events").await, data.events.len() as i64);
    let revenue_events = data.events.iter().filter(|e| e.value.is_some()).count() as i64;
    assert_eq!(count(&app, "transactions").await, revenue_events);
    assert_eq!(count(&app, "spend_rows").await, data.spend.len() as i64);
    // Loading again changes nothing: every dedupe id is known.
    data.load(&app, &key, "shop").await;
    assert_eq!(count(&app, "events").await, data.events.len() as i64);
}

backend_tests!(the_synthetic_dataset_loads_completely);

async fn browser_timestamps_from_fast_clocks_take_the_receipt_time(app: TestApp) {
    let (token, key) = setup(&app).await;
    let write_key = app
        .get("/products/shop/tracking-key", Some(&token))
        .await
        .body["key"]
        .as_str()
        .unwrap()
        .to_owned();
    let ahead = app.clock.now().plus_millis(10 * 60_000).to_rfc3339();
    let body = json!({"key": write_key, "events": [{"dedupe_id": "fast", "stage": "visit", "occurred_at": ahead}]});
    app.post("/t/events", None, body).await.expect(200);
    let stored = scalar_rows(&app, "SELECT dedupe_id, NULL, occurred_at FROM events").await;
    assert_eq!(
        stored,
        vec![("fast".to_owned(), None, Some(app.clock.now().millis()))]
    );
    // The server-side API keeps the strict rule.
    let server = json!([{"dedupe_id": "fast", "stage": "visit", "occurred_at": ahead}]);
    send(&app, &key, server).await.expect_error(
        400,
        "events[0].occurred_at: must be at most 5 minutes in the future",
    );
}

backend_tests!(browser_timestamps_from_fast_clocks_take_the_receipt_time);

async fn two_devices_linked_in_one_batch_merge_into_one_person(app: TestApp) {
    let (_, key) = setup(&app).await;
    send(&app, &key, json!([
        {"dedupe_id": "phone", "stage": "visit", "anonymous_id": "phone", "occurred_at": "2026-11-20T08:00:00Z",
         "attribution": {"referrer": "https://www.bing.com/"}},
        {"dedupe_id": "laptop", "stage": "visit", "anonymous_id": "laptop", "occurred_at": "2026-11-20T09:00:00Z",
         "attribution": {"gclid": "g1"}},
    ])).await.expect(200);
    send(&app, &key, json!([
        {"dedupe_id": "login-phone", "stage": "engaged", "anonymous_id": "phone", "user_id": "ann", "occurred_at": "2026-11-20T10:00:00Z"},
        {"dedupe_id": "login-laptop", "stage": "engaged", "anonymous_id": "laptop", "user_id": "ann", "occurred_at": "2026-11-20T10:01:00Z"},
        {"dedupe_id": "buy", "stage": "payment", "user_id": "ann", "value": 700, "occurred_at": "2026-11-20T11:00:00Z"},
    ])).await.expect(200);
    let days = scalar_rows(
        &app,
        "SELECT stage || ':' || identity, day, events FROM stage_identity_days ORDER BY stage",
    )
    .await;
    assert_eq!(
        days,
        vec![
            (
                "engaged:u:ann".to_owned(),
                Some("2026-11-20".to_owned()),
                Some(2)
            ),
            (
                "payment:u:ann".to_owned(),
                Some("2026-11-20".to_owned()),
                Some(1)
            ),
            (
                "visit:u:ann".to_owned(),
                Some("2026-11-20".to_owned()),
                Some(2)
            ),
        ]
    );
    // First touch is the phone's organic search (earliest), last touch before the payment the laptop's ad.
    let profiles = scalar_rows(
        &app,
        "SELECT identity, first_channel, revenue_cents FROM identity_profiles",
    )
    .await;
    assert_eq!(
        profiles,
        vec![(
            "u:ann".to_owned(),
            Some("organic_search".to_owned()),
            Some(700)
        )]
    );
    let revenue = scalar_rows(
        &app,
        "SELECT identity, last_channel, amount_cents FROM transactions",
    )
    .await;
    assert_eq!(
        revenue,
        vec![(
            "u:ann".to_owned(),
            Some("paid_google".to_owned()),
            Some(700)
        )]
    );
}

backend_tests!(two_devices_linked_in_one_batch_merge_into_one_person);

/// Batches arriving at once upsert the same daily rollup rows; on PostgreSQL some of them
/// deadlock and are run again. Every batch is accepted and every event counted exactly once.
async fn concurrent_batches_all_land(app: TestApp) {
    let (_, key) = setup(&app).await;
    let (tasks, batches, size) = (8, 4, 100);
    let mut senders = tokio::task::JoinSet::new();
    for task in 0..tasks {
        let client = app.client.clone();
        let url = app.url("/products/shop/events");
        let key = key.clone();
        senders.spawn(async move {
            let mut statuses = Vec::new();
            for batch in 0..batches {
                let events: Vec<Value> = (0..size)
                    .map(|n| {
                        // Shared visitors, some of them signing in: batches link and
                        // merge the same identities while others write their rollups.
                        let mut event = json!({
                            "dedupe_id": format!("c-{task}-{batch}-{n}"),
                            "stage": if n % 10 == 0 { "lead" } else { "visit" },
                            "anonymous_id": format!("v{}", (task * 13 + batch * 7 + n) % 61),
                            "attribution": { "utm_source": "google", "utm_medium": "cpc" },
                        });
                        if n % 5 == 0 {
                            event["user_id"] = json!(format!("u{}", (n + task) % 17));
                        }
                        event
                    })
                    .collect();
                let response = client
                    .post(&url)
                    .bearer_auth(&key)
                    .json(&json!({ "events": events }))
                    .send()
                    .await
                    .unwrap();
                statuses.push(response.status().as_u16());
            }
            statuses
        });
    }
    let statuses: Vec<u16> = senders.join_all().await.into_iter().flatten().collect();
    assert_eq!(statuses, vec![200; tasks * batches]);
    assert_eq!(count(&app, "events").await, (tasks * batches * size) as i64);
    let rolled_up: Vec<(String, Option<String>, Option<i64>)> = scalar_rows(
        &app,
        "SELECT stage, channel, CAST(SUM(events) AS BIGINT) FROM event_days GROUP BY stage, channel ORDER BY stage",
    )
    .await;
    let leads = (tasks * batches * size / 10) as i64;
    assert_eq!(
        rolled_up,
        vec![
            (
                "lead".to_owned(),
                Some("paid_google".to_owned()),
                Some(leads)
            ),
            (
                "visit".to_owned(),
                Some("paid_google".to_owned()),
                Some((tasks * batches * size) as i64 - leads)
            ),
        ]
    );
}

backend_tests!(concurrent_batches_all_land);

/// Two first reads of a product's write key at once agree on one key, and it works.
async fn concurrent_first_reads_share_one_write_key(app: TestApp) {
    let (token, _) = setup(&app).await;
    let mut readers = tokio::task::JoinSet::new();
    for _ in 0..6 {
        let request = app
            .client
            .get(app.url("/products/shop/tracking-key"))
            .bearer_auth(&token);
        readers.spawn(async move {
            let body: Value = request.send().await.unwrap().json().await.unwrap();
            body["key"].as_str().unwrap().to_owned()
        });
    }
    let keys = readers.join_all().await;
    assert!(keys.iter().all(|k| k == &keys[0]), "{keys:?}");
    let browser = json!({ "key": keys[0], "events": [{ "dedupe_id": "b1", "stage": "visit" }] });
    app.post("/t/events", None, browser).await.expect(200);
    let created = app
        .history(&token, "?limit=100")
        .await
        .into_iter()
        .filter(|e| e["action"] == "tracking_key.create")
        .count();
    assert_eq!(created, 1);
}

backend_tests!(concurrent_first_reads_share_one_write_key);
