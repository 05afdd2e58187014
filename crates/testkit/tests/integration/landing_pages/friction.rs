//! What the replay sources add to landing pages, against the loopback fakes of Clarity and
//! PostHog: each page's `friction` is the sum of what both served for its path (counted here
//! from the seed, apart from the connectors), with the sources that counted it named, null on a
//! path neither counted; the run tracks Clarity's URLs as pages (`source: replay_a`) unless a
//! filter excludes them; the page detail lists the recordings that started on its path, newest first,
//! with Clarity's dashboard filtered by the path as `recordings_url`; tracking, untracking and
//! filter changes are in the product's history.

use std::collections::BTreeMap;

use base64::Engine as _;
use payback_domain::connection::ConnectionKind;
use payback_domain::landing_path::landing_path;
use payback_domain::{Clock as _, DAY_MS, HOUR_MS, Timestamp};
use payback_server::secret::Secret;
use payback_testkit::fakes::clarity::FakeClarity;
use payback_testkit::fakes::posthog::{Event, FakePostHog, Recording};
use payback_testkit::{Backend, TEST_START, TestApp, per_backend};
use serde_json::{Value, json};

use super::{add_page, id_of, list, page_of};
use crate::shop::founder;

const POSTHOG_KEY: &str = "phx_friction_key_0123456789abcdefghijklmnop";
const POSTHOG_PROJECT: &str = "5151";
const CLARITY_TOKEN: &str = "clarity-friction-token";
const CLARITY_PROJECT: &str = "frictproj";
const SITE: &str = "https://shop.example";

/// Clarity's rows: (metric, URL, subTotal). `/checkout` only Clarity saw; `/admin/users` is
/// excluded by a filter before the first list.
const CLARITY_ROWS: [(&str, &str, i64); 6] = [
    (
        "RageClickCount",
        "https://shop.example/pricing?utm_source=x",
        4,
    ),
    ("RageClickCount", "https://shop.example/pricing/", 1),
    ("DeadClickCount", "https://shop.example/pricing", 2),
    ("ScriptErrorCount", "https://shop.example/checkout", 3),
    ("ScriptErrorCount", "https://shop.example/admin/users", 9),
    ("Traffic", "https://shop.example/pricing", 500),
];

/// PostHog's events: (event, `$pathname`, days ago).
const POSTHOG_EVENTS: [(&str, &str, i64); 6] = [
    ("$rageclick", "/pricing", 1),
    ("$rageclick", "/pricing/", 2),
    ("$exception", "/pricing", 1),
    ("$dead_click", "/blog", 2),
    ("$pageview", "/pricing", 1),
    ("signed_up", "/pricing", 1),
];

/// PostHog's recordings: (session id, start path, days ago, hour, duration, console errors).
const RECORDINGS: [(&str, &str, i64, i64, i64, i64); 3] = [
    ("r-old", "/pricing", 3, 9, 40, 0),
    ("r-new", "/pricing?ref=ad", 1, 15, 95, 2),
    ("r-blog", "/blog", 1, 10, 20, 0),
];

fn at(days_ago: i64, hour: i64) -> Timestamp {
    TEST_START
        .start_of_day()
        .minus_millis(days_ago * DAY_MS)
        .plus_millis(hour * HOUR_MS)
}

fn seed(clarity: &FakeClarity, posthog: &FakePostHog) {
    clarity.add_token(CLARITY_TOKEN, CLARITY_PROJECT);
    for (metric, url, count) in CLARITY_ROWS {
        clarity.add_insight(CLARITY_PROJECT, metric, url, count);
    }
    posthog.add_key(POSTHOG_KEY);
    posthog.add_project(POSTHOG_PROJECT, "Shop");
    for (n, (event, path, ago)) in POSTHOG_EVENTS.into_iter().enumerate() {
        posthog.add_event(Event {
            event: event.to_owned(),
            at: at(ago, 8 + n as i64),
            pathname: Some(path.to_owned()),
            session_id: Some(format!("e{n}")),
        });
    }
    for (id, path, ago, hour, duration, errors) in RECORDINGS {
        posthog.add_recording(Recording {
            id: id.to_owned(),
            start_time: at(ago, hour),
            recording_duration: duration,
            start_url: format!("{SITE}{path}"),
            console_error_count: errors,
        });
    }
}

/// The friction each path must show, summed here from both seeds: path → ([rage, dead,
/// errors], the providers that counted it).
fn expected_friction() -> BTreeMap<String, ([i64; 3], Vec<&'static str>)> {
    let mut want: BTreeMap<String, ([i64; 3], Vec<&'static str>)> = BTreeMap::new();
    let mut add = |path: String, slot: usize, count: i64, provider: &'static str| {
        let entry = want.entry(path).or_default();
        entry.0[slot] += count;
        if !entry.1.contains(&provider) {
            entry.1.push(provider);
        }
    };
    for (metric, url, count) in CLARITY_ROWS {
        let slot = match metric {
            "RageClickCount" => 0,
            "DeadClickCount" => 1,
            "ScriptErrorCount" => 2,
            _ => continue,
        };
        add(landing_path(url), slot, count, "replay_a");
    }
    for (event, path, _) in POSTHOG_EVENTS {
        let slot = match event {
            "$rageclick" => 0,
            "$dead_click" => 1,
            "$exception" => 2,
            _ => continue,
        };
        add(landing_path(path), slot, 1, "product_analytics_a");
    }
    // The order `providers` lists them in: Clarity before PostHog.
    for (_, providers) in want.values_mut() {
        providers.sort_by_key(|provider| *provider != "replay_a");
    }
    want
}

async fn spawn(backend: Backend, clarity: &FakeClarity, posthog: &FakePostHog) -> TestApp {
    let (clarity_url, posthog_url) = (clarity.base_url(), posthog.base_url());
    TestApp::spawn_with(backend, move |config| {
        config.secret_key = Some(Secret::new(
            base64::engine::general_purpose::STANDARD.encode([9_u8; 32]),
        ));
        config.api_urls.insert(ConnectionKind::ReplayA, clarity_url);
        config
            .api_urls
            .insert(ConnectionKind::ProductAnalyticsA, posthog_url);
    })
    .await
}

/// Connects both replay sources to `shop` and lets the job pass run them once.
async fn connect_both(app: &TestApp, key: &str) {
    app.post(
        "/products/shop/connections/replay-a",
        Some(key),
        json!({ "api_token": CLARITY_TOKEN, "project_id": CLARITY_PROJECT }),
    )
    .await
    .expect(200);
    app.post(
        "/products/shop/connections/product-analytics-a",
        Some(key),
        json!({ "api_key": POSTHOG_KEY, "project_id": POSTHOG_PROJECT }),
    )
    .await
    .expect(200);
    payback_server::services::sync::run_due(&app.state, app.clock.now())
        .await
        .expect("the job pass runs");
}

fn friction_of(page: &Value) -> Option<([i64; 3], Vec<String>)> {
    let friction = &page["friction"];
    if friction.is_null() {
        return None;
    }
    let count = |field: &str| friction[field].as_i64().expect("a count");
    let providers = friction["providers"]
        .as_array()
        .expect("providers")
        .iter()
        .map(|p| p.as_str().expect("a kind").to_owned())
        .collect();
    Some((
        [
            count("rage_clicks"),
            count("dead_clicks"),
            count("js_errors"),
        ],
        providers,
    ))
}

async fn friction_sums_both_sources_and_clarity_urls_become_pages(backend: Backend) {
    let (clarity, posthog) = (FakeClarity::spawn().await, FakePostHog::spawn().await);
    seed(&clarity, &posthog);
    let app = spawn(backend, &clarity, &posthog).await;
    let (_, key) = founder(&app).await;
    // Pages tracked by hand before the runs: two with friction, one without.
    for path in ["/pricing", "/blog", "/about"] {
        add_page(&app, &key, "shop", &format!("{SITE}{path}")).await;
    }
    app.post(
        "/products/shop/landing-pages/filters",
        Some(&key),
        json!({ "pattern": "/admin" }),
    )
    .await
    .expect(200);
    connect_both(&app, &key).await;
    // The run itself tracked Clarity's new URL (before anyone listed the pages).
    let tracked: Vec<(String, String)> = app
        .sql_rows(
            "SELECT path, source FROM landing_pages WHERE source <> 'manual' ORDER BY path",
            &[],
        )
        .await;
    assert_eq!(tracked, [("/checkout".to_owned(), "replay_a".to_owned())]);

    let listed = list(&app, &key, "shop", "").await;
    let want = expected_friction();
    for (path, (counts, providers)) in &want {
        if path.starts_with("/admin") {
            continue;
        }
        let page = page_of(&listed, path);
        let (got_counts, got_providers) = friction_of(page).unwrap_or_else(|| panic!("{page}"));
        assert_eq!(&got_counts, counts, "{path}: {page}");
        assert_eq!(got_providers, *providers, "{path}: {page}");
    }
    assert_eq!(page_of(&listed, "/about")["friction"], Value::Null);
    // Both sources counted /pricing: the sum, not either one alone.
    assert_eq!(want["/pricing"].1, ["replay_a", "product_analytics_a"]);

    // Clarity's URL no page tracked is discovered; the excluded one is not.
    let checkout = page_of(&listed, "/checkout");
    assert_eq!(checkout["source"], "replay_a");
    let paths: Vec<&str> = listed["pages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|page| page["path"].as_str().unwrap())
        .collect();
    assert!(
        !paths.iter().any(|path| path.starts_with("/admin")),
        "{paths:?}"
    );

    // Only the window's rows count: PostHog's /blog rows are two days old.
    let narrow = list(&app, &key, "shop", "?days=1").await;
    let blog = page_of(&narrow, "/blog");
    assert_eq!(blog["friction"], Value::Null, "{blog}");

    // Another account sees none of it.
    let stranger = app.signup_verified("stranger@example.com").await;
    app.get("/products/shop/landing-pages", Some(&stranger.token))
        .await
        .expect(404);
}

async fn the_detail_lists_its_path_recordings_and_the_filtered_dashboard(backend: Backend) {
    let (clarity, posthog) = (FakeClarity::spawn().await, FakePostHog::spawn().await);
    seed(&clarity, &posthog);
    let app = spawn(backend, &clarity, &posthog).await;
    let (_, key) = founder(&app).await;
    let pricing = add_page(&app, &key, "shop", &format!("{SITE}/pricing")).await;
    let about = add_page(&app, &key, "shop", &format!("{SITE}/about")).await;

    // No replay source yet: no recordings, no link.
    let detail_path = format!("/products/shop/landing-pages/{}", id_of(&pricing));
    let before = app.get(&detail_path, Some(&key)).await.expect(200).clone();
    assert_eq!(before["recordings"], json!([]));
    assert_eq!(before["recordings_url"], Value::Null);
    assert_eq!(before["friction"], Value::Null);

    connect_both(&app, &key).await;
    let detail = app.get(&detail_path, Some(&key)).await.expect(200).clone();
    let mut want: Vec<_> = RECORDINGS
        .iter()
        .filter(|row| landing_path(row.1) == "/pricing")
        .collect();
    want.sort_by_key(|row| std::cmp::Reverse(at(row.2, row.3)));
    let rows = detail["recordings"].as_array().unwrap();
    assert_eq!(rows.len(), want.len(), "{detail}");
    for (row, (id, _, ago, hour, duration, errors)) in rows.iter().zip(&want) {
        assert_eq!(row["provider"], "product_analytics_a");
        assert_eq!(row["id"], *id);
        assert_eq!(row["path"], "/pricing");
        assert_eq!(row["started_at"], at(*ago, *hour).to_rfc3339());
        assert_eq!(row["duration_s"], *duration);
        assert_eq!(
            row["url"],
            format!(
                "{}/project/{POSTHOG_PROJECT}/replay/{id}",
                posthog.base_url()
            )
        );
        let has_error = row["signals"]
            .as_array()
            .unwrap()
            .iter()
            .any(|signal| signal == "js_error");
        assert_eq!(has_error, *errors > 0, "{row}");
    }
    // Clarity's dashboard, filtered by the page's path, comes first.
    let link = detail["recordings_url"].as_str().unwrap();
    assert!(
        link.starts_with(&format!(
            "https://clarity.microsoft.com/projects/view/{CLARITY_PROJECT}/impressions?"
        )),
        "{link}"
    );
    assert!(link.contains("%2Fpricing"), "{link}");
    assert_eq!(
        friction_of(&detail).map(|(counts, _)| counts),
        Some(expected_friction()["/pricing"].0)
    );
    let quiet = app
        .get(
            &format!("/products/shop/landing-pages/{}", id_of(&about)),
            Some(&key),
        )
        .await
        .expect(200)
        .clone();
    assert_eq!(quiet["recordings"], json!([]));

    let stranger = app.signup_verified("stranger@example.com").await;
    let stranger_key = app.api_key(&stranger).await;
    app.get(&detail_path, Some(&stranger_key)).await.expect(404);
}

async fn page_and_filter_changes_are_in_the_history(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, key) = founder(&app).await;
    let page = add_page(&app, &key, "shop", &format!("{SITE}/pricing")).await;
    let filter = app
        .post(
            "/products/shop/landing-pages/filters",
            Some(&key),
            json!({ "pattern": "/blog" }),
        )
        .await
        .expect(200)
        .clone();
    let filter_path = format!("/products/shop/landing-pages/filters/{}", id_of(&filter));
    app.post(&filter_path, Some(&key), json!({ "enabled": false }))
        .await
        .expect(200);
    let delete = reqwest::Method::DELETE;
    app.request(delete.clone(), &filter_path, Some(&key))
        .await
        .expect(200);
    let page_path = format!("/products/shop/landing-pages/{}", id_of(&page));
    app.request(delete.clone(), &page_path, Some(&key))
        .await
        .expect(200);
    // A refused change writes nothing.
    app.request(delete, &filter_path, Some(&key))
        .await
        .expect(404);

    let events = app.history(&owner.token, "?product=shop").await;
    let landing: Vec<&Value> = events
        .iter()
        .filter(|event| {
            let action = event["action"].as_str().unwrap();
            action.starts_with("landing_page.") || action.starts_with("landing_filter.")
        })
        .collect();
    let actions: Vec<&str> = landing
        .iter()
        .map(|event| event["action"].as_str().unwrap())
        .collect();
    assert_eq!(
        actions,
        [
            "landing_page.delete",
            "landing_filter.delete",
            "landing_filter.update",
            "landing_filter.create",
            "landing_page.create",
        ]
    );
    assert_eq!(landing[0]["payload"]["path"], "/pricing");
    assert_eq!(landing[0]["payload"]["page_id"], page["id"]);
    assert_eq!(landing[2]["payload"]["enabled"], false);
    assert_eq!(landing[3]["payload"]["pattern"], "/blog");
    assert!(landing.iter().all(|event| event["product_slug"] == "shop"));

    let stranger = app.signup_verified("stranger@example.com").await;
    let theirs = app.history(&stranger.token, "").await;
    assert!(
        theirs
            .iter()
            .all(|event| !event["action"].as_str().unwrap().starts_with("landing_")),
        "{theirs:?}"
    );
}

per_backend!(friction_sums_both_sources_and_clarity_urls_become_pages);
per_backend!(the_detail_lists_its_path_recordings_and_the_filtered_dashboard);
per_backend!(page_and_filter_changes_are_in_the_history);
