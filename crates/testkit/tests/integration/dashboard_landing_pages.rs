//! The dashboard's Pages area in headless Chromium (`e2e/dashboard-landing-pages.mjs`). The test
//! seeds first-party visits landing on a page of a local website (today and in the window
//! before), scripts one answer of the model gateway fake, and hands the script the page's URL
//! and every figure it must show, computed here: the visits of the last 30 days and of the 30
//! before, the change, and the analysis's weighted overall score. The script adds the page
//! through the form, reads its traffic and series, analyzes it, excludes it with a filter,
//! switches the filter off, deletes the filter and stops tracking the page.

use payback_domain::{Clock as _, DAY_MS};
use payback_testkit::browser::{run_browser_script_with_env, spawn_on_wall_clock};
use payback_testkit::{Backend, FakeGateway, TestApp, per_backend};
use serde_json::{Value, json};

use crate::landing_pages::site::FakeSite;

const EMAIL: &str = "pages@example.com";
const SLUG: &str = "pages-shop";
/// Visits landing on the page: (days ago, how many). 40 days ago is in the 30 days before.
const VISITS: [(i64, i64); 3] = [(0, 3), (1, 1), (40, 2)];
/// The model's scores: (key, weight, score).
const SCORES: [(&str, i64, i64); 3] = [
    ("headline_clarity", 20, 70),
    ("call_to_action", 20, 90),
    ("objection_handling", 10, 35),
];

async fn seed(app: &TestApp, page_url: &str) {
    let session = app.signup_verified(EMAIL).await;
    let key = app.api_key(&session).await;
    app.create_product(&key, SLUG).await;
    let now = app.clock.now();
    let mut events = Vec::new();
    for (ago, count) in VISITS {
        for n in 0..count {
            let at = now.minus_millis(ago * DAY_MS + 60_000 * (n + 1));
            events.push(
                json!({"dedupe_id": format!("v-{ago}-{n}"), "stage": "visit",
                "anonymous_id": format!("a-{ago}-{n}"), "occurred_at": at.to_rfc3339(),
                "attribution": {"landing_url": format!("{page_url}?utm_source=news")}}),
            );
        }
    }
    app.send_events(&key, SLUG, Value::Array(events)).await;
}

async fn pages_area(backend: Backend) {
    let site = FakeSite::spawn().await;
    let gateway = FakeGateway::spawn().await;
    let gateway_url = gateway.base_url();
    let app = spawn_on_wall_clock(
        backend,
        move |config| {
            config.allow_private_fetch_hosts = true;
            config.model_gateway_url = gateway_url;
            config.model_gateway_key = Some(FakeGateway::KEY.to_owned().into());
        },
        |_| {},
    )
    .await;
    let page_url = site.url("/pricing");
    seed(&app, &page_url).await;
    let items: Vec<Value> = SCORES
        .iter()
        .map(
            |(key, _, score)| json!({"key": key, "score": score, "note": format!("{key}: fix it")}),
        )
        .collect();
    gateway.script_text(&json!({"scores": items, "summary": "Strong call to action."}).to_string());

    // Visits in the last 30 UTC days (today included) and the 30 before. The seed's instants
    // are minutes before now, so a visit "0 days ago" may fall yesterday just after midnight:
    // the window counts by UTC day, as here.
    let today = app.clock.now().start_of_day();
    let window_start = today.millis() - 29 * DAY_MS;
    let previous_start = window_start - 30 * DAY_MS;
    let mut visits = 0;
    let mut previous = 0;
    for (ago, count) in VISITS {
        for n in 0..count {
            let at = app
                .clock
                .now()
                .minus_millis(ago * DAY_MS + 60_000 * (n + 1));
            let day = at.start_of_day().millis();
            if day >= window_start {
                visits += 1;
            } else if day >= previous_start {
                previous += 1;
            }
        }
    }
    let change = ((visits - previous) as f64 / previous as f64 * 100.0).round() as i64;
    let weights: i64 = SCORES.iter().map(|(_, weight, _)| weight).sum();
    let total: i64 = SCORES.iter().map(|(_, weight, score)| weight * score).sum();
    let overall = (total as f64 / weights as f64).round() as i64;

    let env = [
        ("PAYBACK_E2E_EMAIL", EMAIL.to_owned()),
        ("PAYBACK_E2E_SLUG", SLUG.to_owned()),
        ("PAYBACK_E2E_PAGE_URL", page_url),
        ("PAYBACK_E2E_VISITS", visits.to_string()),
        ("PAYBACK_E2E_PREVIOUS", previous.to_string()),
        ("PAYBACK_E2E_CHANGE", change.to_string()),
        ("PAYBACK_E2E_OVERALL", overall.to_string()),
    ];
    run_browser_script_with_env(&app, "dashboard-landing-pages", &env).await;
    assert_eq!(gateway.requests().len(), 1, "one analysis asked the model");
    assert!(site.hits() >= 1, "the page was fetched");
}

per_backend!(pages_area);
