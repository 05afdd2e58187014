//! The stored dashboards and the health audit in headless Chromium
//! (`e2e/dashboard-dashboards.mjs`, `e2e/dashboard-health.mjs`). Each test seeds one product
//! here (a founder with paid Google visitors who buy, and Google spend recorded without a
//! connection, so CAC, revenue by channel and a failing health check all have numbers), then
//! hands the script the founder's email and the product's slug; the script logs in and checks
//! what the pages show against what the API answers.

use payback_domain::Clock;
use payback_store::spend::SpendRow;
use payback_testkit::browser::{run_browser_script_with_env, spawn_on_wall_clock};
use payback_testkit::{Backend, TestApp, per_backend};
use serde_json::{Value, json};

const DAY_MS: i64 = 24 * 3_600_000;

/// Buyers arriving on a Google ad click (`gclid`), each paying this many cents.
const PAID_BUYERS: i64 = 3;
const PAID_EACH_CENTS: i64 = 4_900;
/// A newsletter buyer, so revenue by channel has two rows.
const NEWSLETTER_CENTS: i64 = 2_500;
/// Google spend on each of the two days the buyers came.
const SPEND_PER_DAY_CENTS: i64 = 6_000;

/// What the script needs: who logs in and which product it opens.
struct Seeded {
    email: String,
    slug: String,
}

/// Events for the buyers, two and three days ago: visits from a Google ad or the newsletter,
/// then a payment each.
fn buyer_events(app: &TestApp) -> Vec<Value> {
    let mut events = Vec::new();
    for n in 0..PAID_BUYERS {
        let at = app.clock.now().minus_millis((2 + n % 2) * DAY_MS);
        let user = format!("paid-{n}");
        events.push(json!({"dedupe_id": format!("v-{user}"), "stage": "visit", "user_id": user,
            "occurred_at": at.minus_millis(3_600_000).to_rfc3339(),
            "attribution": {"gclid": format!("g-{user}"), "utm_source": "google", "utm_medium": "cpc",
                "utm_campaign": "brand"}}));
        events.push(
            json!({"dedupe_id": format!("p-{user}"), "stage": "payment", "user_id": user,
            "value": PAID_EACH_CENTS, "occurred_at": at.to_rfc3339()}),
        );
    }
    let at = app.clock.now().minus_millis(DAY_MS);
    events.push(
        json!({"dedupe_id": "v-news", "stage": "visit", "user_id": "news-1",
        "occurred_at": at.minus_millis(3_600_000).to_rfc3339(),
        "attribution": {"utm_source": "newsletter", "utm_medium": "email"}}),
    );
    events.push(
        json!({"dedupe_id": "p-news", "stage": "payment", "user_id": "news-1",
        "value": NEWSLETTER_CENTS, "occurred_at": at.to_rfc3339()}),
    );
    events
}

/// A verified founder with an API key, one product, its buyers' events and two days of Google
/// spend (stored as a sync would store it; no connection, so the health audit has something
/// to say about it).
async fn seed(app: &TestApp, name: &str) -> Seeded {
    let email = format!("{name}@example.com");
    let slug = format!("{name}-shop");
    let session = app.signup_verified(&email).await;
    let key = app.api_key(&session).await;
    let product = app.create_product(&key, &slug).await;
    let product_id = product["id"].as_str().unwrap().to_owned();
    app.post(
        &format!("/products/{slug}/events"),
        Some(&key),
        json!({ "events": buyer_events(app) }),
    )
    .await
    .expect(200);
    let rows: Vec<SpendRow> = [2, 3]
        .into_iter()
        .map(|days_ago| SpendRow {
            day: app.clock.now().minus_millis(days_ago * DAY_MS).day(),
            network: "google".into(),
            channel: "paid_google".into(),
            campaign_id: "brand".into(),
            campaign_name: Some("brand".into()),
            spend_cents: SPEND_PER_DAY_CENTS,
            impressions: 400,
            clicks: 20,
            ..SpendRow::default()
        })
        .collect();
    let mut tx = app.state.store.begin().await.unwrap();
    payback_store::spend::upsert(&mut tx, &product_id, "test", &rows, app.clock.now())
        .await
        .unwrap();
    tx.commit().await.unwrap();
    Seeded { email, slug }
}

async fn run(backend: Backend, script: &str, name: &str) {
    // The browser stamps times with the wall clock: the app and its seed run on it too.
    let app = spawn_on_wall_clock(backend, |_| {}, |_| {}).await;
    let seeded = seed(&app, name).await;
    let env = [
        ("PAYBACK_E2E_EMAIL", seeded.email),
        ("PAYBACK_E2E_SLUG", seeded.slug),
    ];
    run_browser_script_with_env(&app, script, &env).await;
}

/// Create a dashboard from a prompt (preview first), its widgets' numbers against the API, a
/// resize that survives a reload, and deletion after the question.
async fn dashboards_page(backend: Backend) {
    run(backend, "dashboard-dashboards", "boards").await;
}

/// The audit's score and grade, and a failing check's evidence and action, as the API answers.
async fn health_page(backend: Backend) {
    run(backend, "dashboard-health", "health").await;
}

per_backend!(dashboards_page, health_page);
