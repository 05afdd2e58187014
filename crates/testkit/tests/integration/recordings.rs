//! `GET /products/{slug}/recordings` end to end: empty without a replay source; PostHog's
//! sampled recordings as playback pointers (newest first, signals from the fake's recordings and
//! events, computed here independently), each filter and its 400 naming the value, Clarity's
//! dashboard as `recordings_url` once `replay_a` is connected, and another account's 404.

use std::collections::BTreeSet;

use crate::product_analytics_a::seed;
use crate::shop::founder;
use base64::Engine as _;
use payback_domain::Clock as _;
use payback_domain::connection::ConnectionKind;
use payback_domain::{DAY_MS, HOUR_MS, Timestamp};
use payback_server::secret::Secret;
use payback_testkit::fakes::clarity::FakeClarity;
use payback_testkit::fakes::posthog::FakePostHog;
use payback_testkit::{Backend, TEST_START, TestApp, per_backend};
use serde_json::{Value, json};

const KEY: &str = "phx_personal_key_0123456789abcdefghijklmnopqrstu";
const PROJECT: &str = "4242";
const LIST: &str = "/products/shop/recordings";

fn at(days_ago: i64, hour: i64) -> Timestamp {
    TEST_START
        .start_of_day()
        .minus_millis(days_ago * DAY_MS)
        .plus_millis(hour * HOUR_MS)
}

/// The seeded recordings `(id, started_at, duration, path, signals)`, newest first, with the
/// signals the seed's events and console errors give each session.
fn expected() -> Vec<(String, String, i64, String, BTreeSet<String>)> {
    let paths = ["/pricing", "/pricing", "/blog/post-1", "/"];
    let mut rows: Vec<_> = (0..7_i64)
        .map(|n| {
            let id = format!("s{n}");
            let mut signals = BTreeSet::new();
            if n % 2 == 1 {
                signals.insert("js_error".to_owned());
            }
            for e in 0..60_i64 {
                if format!("s{}", e % 7) != id {
                    continue;
                }
                match e % 6 {
                    2 => signals.insert("rage_click".to_owned()),
                    3 => signals.insert("dead_click".to_owned()),
                    _ => false,
                };
            }
            (
                id,
                at(1 + n % 3, n).to_rfc3339(),
                30 + n * 10,
                paths[(n % 4) as usize].to_owned(),
                signals,
            )
        })
        .collect();
    rows.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    rows
}

fn ids(answer: &Value) -> Vec<String> {
    answer["recordings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row["id"].as_str().unwrap().to_owned())
        .collect()
}

async fn recordings_are_listed_filtered_and_linked(backend: Backend) {
    let posthog = FakePostHog::spawn().await;
    seed(&posthog);
    let clarity = FakeClarity::spawn().await;
    clarity.add_token("clarity-token", "clarityproj");
    let (posthog_url, clarity_url) = (posthog.base_url(), clarity.base_url());
    let app = TestApp::spawn_with(backend, move |config| {
        config.secret_key = Some(Secret::new(
            base64::engine::general_purpose::STANDARD.encode([9_u8; 32]),
        ));
        config
            .api_urls
            .insert(ConnectionKind::ProductAnalyticsA, posthog_url);
        config.api_urls.insert(ConnectionKind::ReplayA, clarity_url);
    })
    .await;
    let (_, key) = founder(&app).await;

    // No replay source: empty, no link.
    let empty = app.get(LIST, Some(&key)).await.expect(200).clone();
    assert_eq!(
        empty,
        json!({ "window_days": 30, "recordings_url": null, "sources": [], "recordings": [] })
    );

    app.post(
        "/products/shop/connections/product-analytics-a",
        Some(&key),
        json!({ "api_key": KEY, "project_id": PROJECT }),
    )
    .await
    .expect(200);
    payback_server::services::sync::run_due(&app.state, app.clock.now())
        .await
        .unwrap();

    let want = expected();
    let listed = app.get(LIST, Some(&key)).await.expect(200).clone();
    assert_eq!(listed["sources"], json!(["product_analytics_a"]));
    assert_eq!(
        listed["recordings_url"],
        format!("{}/project/{PROJECT}/replay", posthog.base_url())
    );
    let rows = listed["recordings"].as_array().unwrap();
    assert_eq!(rows.len(), want.len());
    for (row, (id, started, duration, path, signals)) in rows.iter().zip(&want) {
        assert_eq!(row["provider"], "product_analytics_a");
        assert_eq!(row["id"], *id);
        assert_eq!(row["started_at"], *started);
        assert_eq!(row["duration_s"], *duration);
        assert_eq!(row["path"], *path);
        assert_eq!(
            row["url"],
            format!("{}/project/{PROJECT}/replay/{id}", posthog.base_url())
        );
        let got: BTreeSet<String> = row["signals"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().to_owned())
            .collect();
        assert_eq!(&got, signals, "{row}");
    }

    // Filters.
    let by_path = app
        .get(&format!("{LIST}?path=/pricing/"), Some(&key))
        .await
        .expect(200)
        .clone();
    let want_path: Vec<String> = want
        .iter()
        .filter(|r| r.3 == "/pricing")
        .map(|r| r.0.clone())
        .collect();
    assert_eq!(ids(&by_path), want_path);
    for signal in ["rage_click", "dead_click", "js_error"] {
        let answer = app
            .get(&format!("{LIST}?signal={signal}"), Some(&key))
            .await
            .expect(200)
            .clone();
        let want_signal: Vec<String> = want
            .iter()
            .filter(|r| r.4.contains(signal))
            .map(|r| r.0.clone())
            .collect();
        assert_eq!(ids(&answer), want_signal, "{signal}");
    }
    let limited = app
        .get(&format!("{LIST}?limit=2"), Some(&key))
        .await
        .expect(200)
        .clone();
    assert_eq!(
        ids(&limited),
        want.iter().take(2).map(|r| r.0.clone()).collect::<Vec<_>>()
    );
    let none = app
        .get(&format!("{LIST}?provider=replay_a"), Some(&key))
        .await
        .expect(200)
        .clone();
    assert_eq!(ids(&none), Vec::<String>::new());
    let one_day = app
        .get(&format!("{LIST}?days=1"), Some(&key))
        .await
        .expect(200)
        .clone();
    assert_eq!(one_day["window_days"], 1);
    assert!(ids(&one_day).is_empty(), "{one_day}");
    for (query, field) in [
        ("days=0", "days"),
        ("limit=0", "limit"),
        ("limit=5000", "limit"),
        ("path=pricing", "path"),
        ("signal=scroll", "signal"),
        ("provider=hotjar", "provider"),
    ] {
        let refused = app
            .get(&format!("{LIST}?{query}"), Some(&key))
            .await
            .expect(400)
            .clone();
        assert!(
            refused["error"].as_str().unwrap().starts_with(field),
            "{query} -> {refused}"
        );
    }

    // With Clarity too: both sources, and Clarity's dashboard (filtered by path) as the link.
    app.post(
        "/products/shop/connections/replay-a",
        Some(&key),
        json!({ "api_token": "clarity-token", "project_id": "clarityproj" }),
    )
    .await
    .expect(200);
    let both = app
        .get(&format!("{LIST}?path=/pricing"), Some(&key))
        .await
        .expect(200)
        .clone();
    assert_eq!(both["sources"], json!(["replay_a", "product_analytics_a"]));
    assert_eq!(
        both["recordings_url"],
        "https://clarity.microsoft.com/projects/view/clarityproj/impressions?URL=%2Fpricing"
    );

    // Another account's product is not found.
    let stranger = app.signup_verified("stranger@example.com").await;
    let stranger_key = app.api_key(&stranger).await;
    app.get(LIST, Some(&stranger_key)).await.expect(404);
}

per_backend!(recordings_are_listed_filtered_and_linked);
