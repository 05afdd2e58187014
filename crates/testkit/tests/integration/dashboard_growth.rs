//! The growth actions page in headless Chromium (`e2e/dashboard-growth.mjs`). The test seeds a
//! product whose numbers raise several actions: Google buyers cheap to acquire and a Meta buyer
//! costing more than a customer is worth (so budget should move from Meta to Google, with an
//! estimate), spend recorded by hand and no payments connection (so the sources want
//! connecting, without an estimate). The script logs in as the founder and checks the list, a
//! prompt and its Copy button against what the API answers.

use payback_domain::Clock;
use payback_store::spend::SpendRow;
use payback_testkit::browser::{run_browser_script_with_env, spawn_on_wall_clock};
use payback_testkit::{Backend, TestApp, per_backend};
use serde_json::{Value, json};

const HOUR_MS: i64 = 3_600_000;

/// What every buyer pays, in cents: the product's LTV.
const EACH_CENTS: i64 = 20_000;
/// Google: two buyers for this spend (CAC 50.00, under LTV).
const GOOGLE_BUYERS: i64 = 2;
const GOOGLE_SPEND_CENTS: i64 = 10_000;
/// Meta: one buyer for this spend (CAC 600.00, over LTV).
const META_SPEND_CENTS: i64 = 60_000;

/// A visit arriving with `attribution` (none when null), then a payment, for each buyer.
fn buyer_events(app: &TestApp, prefix: &str, count: i64, attribution: &Value) -> Vec<Value> {
    let mut events = Vec::new();
    for n in 0..count {
        let user = format!("{prefix}-{n}");
        let mut visit = json!({"dedupe_id": format!("v-{user}"), "stage": "visit", "user_id": user,
            "occurred_at": app.clock.now().minus_millis(4 * HOUR_MS).to_rfc3339()});
        if !attribution.is_null() {
            visit["attribution"] = attribution.clone();
        }
        events.push(visit);
        events.push(json!({"dedupe_id": format!("p-{user}"), "stage": "payment", "user_id": user,
            "value": EACH_CENTS, "occurred_at": app.clock.now().minus_millis(3 * HOUR_MS).to_rfc3339()}));
    }
    events
}

/// Today's spend on one network's channel, stored as a sync would store it (no connection).
fn spend_row(app: &TestApp, network: &str, channel: &str, cents: i64) -> SpendRow {
    SpendRow {
        day: app.clock.now().day(),
        network: network.into(),
        channel: channel.into(),
        campaign_id: format!("{network}-main"),
        campaign_name: Some("main".into()),
        spend_cents: cents,
        impressions: 500,
        clicks: 25,
        ..SpendRow::default()
    }
}

/// A verified founder with an API key and one product with the buyers and spend above;
/// answers the founder's email and the product's slug.
async fn seed(app: &TestApp) -> (String, String) {
    let email = "growth@example.com".to_owned();
    let slug = "growth-shop".to_owned();
    let session = app.signup_verified(&email).await;
    let key = app.api_key(&session).await;
    let product = app.create_product(&key, &slug).await;
    let product_id = product["id"].as_str().unwrap().to_owned();
    let mut events = buyer_events(
        app,
        "g",
        GOOGLE_BUYERS,
        &json!({"gclid": "g", "utm_campaign": "main"}),
    );
    events.extend(buyer_events(
        app,
        "m",
        1,
        &json!({"fbclid": "f", "utm_source": "facebook", "utm_medium": "paid_social"}),
    ));
    app.post(
        &format!("/products/{slug}/events"),
        Some(&key),
        json!({ "events": events }),
    )
    .await
    .expect(200);
    let rows = [
        spend_row(app, "google", "paid_google", GOOGLE_SPEND_CENTS),
        spend_row(app, "meta", "paid_meta", META_SPEND_CENTS),
    ];
    let mut tx = app.state.store.begin().await.unwrap();
    payback_store::spend::upsert(&mut tx, &product_id, "test", &rows, app.clock.now())
        .await
        .unwrap();
    tx.commit().await.unwrap();
    (email, slug)
}

/// The ranked list, its impacts and links (budget to a proposal, never raised), a prompt for
/// a picked agent and its Copy button, and the window selector, as the API answers them.
async fn growth_page(backend: Backend) {
    // The browser stamps times with the wall clock: the app and its seed run on it too.
    let app = spawn_on_wall_clock(backend, |_| {}, |_| {}).await;
    let (email, slug) = seed(&app).await;
    let env = [("PAYBACK_E2E_EMAIL", email), ("PAYBACK_E2E_SLUG", slug)];
    run_browser_script_with_env(&app, "dashboard-growth", &env).await;
}

per_backend!(growth_page);
