//! Traffic: first-party `visit` events by `attribution.landing_url`, or `analytics_a`'s
//! landing sessions when the product has them; the series; discovery of top session paths.
//! Every expected number is computed here from the data the test sent.

use std::collections::BTreeMap;

use payback_testkit::{Backend, TestApp, per_backend};
use serde_json::{Value, json};

use super::{add_page, create_product, founder_with_product, id_of, list, page_of, spawn};

/// The window of a 30-day read at the test's start (2026-11-21), and the one before it.
const CURRENT: (&str, &str) = ("2026-10-23", "2026-11-21");
const PREVIOUS: (&str, &str) = ("2026-09-23", "2026-10-22");

/// `(dedupe_id, stage, day, landing_url)`.
const EVENTS: [(&str, &str, &str, Option<&str>); 12] = [
    (
        "v1",
        "visit",
        "2026-11-20",
        Some("https://shop.test/pricing"),
    ),
    (
        "v2",
        "visit",
        "2026-11-20",
        Some("https://shop.test/pricing/?utm_source=news"),
    ),
    (
        "v3",
        "visit",
        "2026-11-20",
        Some("https://www.shop.test/pricing#plans"),
    ),
    (
        "v4",
        "visit",
        "2026-10-23",
        Some("https://shop.test/pricing"),
    ),
    (
        "v5",
        "visit",
        "2026-10-23",
        Some("https://shop.test/pricing"),
    ),
    (
        "v6",
        "visit",
        "2026-10-22",
        Some("https://shop.test/pricing"),
    ),
    (
        "v7",
        "visit",
        "2026-09-23",
        Some("https://shop.test/pricing"),
    ),
    (
        "v8",
        "visit",
        "2026-09-22",
        Some("https://shop.test/pricing"),
    ),
    ("v9", "visit", "2026-11-21", Some("https://shop.test/")),
    ("v10", "visit", "2026-11-21", None),
    (
        "l1",
        "lead",
        "2026-11-21",
        Some("https://shop.test/pricing"),
    ),
    (
        "v11",
        "visit",
        "2026-11-21",
        Some("https://shop.test/pricing-old"),
    ),
];

/// The landing path of one of the URLs above (they are all plain `https://host/path...`).
fn path_of(url: &str) -> String {
    let after_host = &url["https://".len()..];
    let path = after_host.find('/').map_or("", |at| &after_host[at..]);
    let path = path.split(['?', '#']).next().unwrap_or_default();
    let path = path.trim_end_matches('/');
    if path.is_empty() {
        "/".to_owned()
    } else {
        path.to_owned()
    }
}

/// Visits per path and day, as the spec counts them: visit events with a landing URL.
fn expected_days() -> BTreeMap<(String, String), i64> {
    let mut days = BTreeMap::new();
    for (_, stage, day, url) in EVENTS {
        if let (Some(url), "visit") = (url, stage) {
            *days.entry((path_of(url), day.to_owned())).or_default() += 1;
        }
    }
    days
}

fn visits_between(days: &BTreeMap<(String, String), i64>, path: &str, span: (&str, &str)) -> i64 {
    days.iter()
        .filter(|((p, day), _)| p == path && day.as_str() >= span.0 && day.as_str() <= span.1)
        .map(|(_, visits)| visits)
        .sum()
}

fn traffic(visits: i64, previous: i64) -> Value {
    let change = (previous != 0).then(|| (visits - previous) as f64 / previous as f64 * 100.0);
    json!({"visits": visits, "previous_visits": previous, "change_pct": change})
}

async fn send_dataset(app: &TestApp, token: &str) {
    let events: Vec<Value> = EVENTS
        .iter()
        .map(|(id, stage, day, url)| {
            let mut event = json!({"dedupe_id": id, "stage": stage, "anonymous_id": format!("a-{id}"),
                                   "occurred_at": format!("{day}T09:30:00.000Z")});
            if let Some(url) = url {
                event["attribution"] = json!({"landing_url": url});
            }
            event
        })
        .collect();
    app.send_events(token, "shop", Value::Array(events.clone()))
        .await;
    // A resent batch stores nothing new, so it counts nothing new.
    app.send_events(token, "shop", Value::Array(events)).await;
}

async fn first_party_visits_count_by_landing_path(backend: Backend) {
    let app = spawn(backend).await;
    let founder = founder_with_product(&app, "shop", None).await;
    let token = founder.token.as_str();
    send_dataset(&app, token).await;
    let pricing = add_page(&app, token, "shop", "https://shop.test/pricing").await;
    add_page(&app, token, "shop", "https://shop.test/").await;
    add_page(&app, token, "shop", "https://shop.test/never").await;
    let days = expected_days();
    let pricing_traffic = traffic(
        visits_between(&days, "/pricing", CURRENT),
        visits_between(&days, "/pricing", PREVIOUS),
    );
    // 5 against 2: +150%.
    assert_eq!(
        pricing_traffic,
        json!({"visits": 5, "previous_visits": 2, "change_pct": 150.0})
    );
    assert_eq!(pricing["traffic"], pricing_traffic);
    let listed = list(&app, token, "shop", "").await;
    assert_eq!(page_of(&listed, "/pricing")["traffic"], pricing_traffic);
    assert_eq!(
        page_of(&listed, "/")["traffic"],
        traffic(
            visits_between(&days, "/", CURRENT),
            visits_between(&days, "/", PREVIOUS)
        )
    );
    assert_eq!(page_of(&listed, "/never")["traffic"], traffic(0, 0));
    // A one-day window: today against yesterday.
    let today = list(&app, token, "shop", "?days=1").await;
    assert_eq!(
        page_of(&today, "/pricing")["traffic"],
        traffic(
            visits_between(&days, "/pricing", ("2026-11-21", "2026-11-21")),
            visits_between(&days, "/pricing", ("2026-11-20", "2026-11-20"))
        )
    );

    let id = id_of(&pricing);
    let detail = app
        .get(&format!("/products/shop/landing-pages/{id}"), Some(token))
        .await
        .expect(200)
        .clone();
    assert_eq!(detail["traffic"], pricing_traffic);
    let series = detail["traffic_series"].as_array().expect("series");
    assert_eq!(series.len(), 30);
    assert_eq!(series[0]["day"], CURRENT.0);
    assert_eq!(series[29]["day"], CURRENT.1);
    for row in series {
        let day = row["day"].as_str().expect("day");
        let expected = days
            .get(&("/pricing".to_owned(), day.to_owned()))
            .copied()
            .unwrap_or_default();
        assert_eq!(row["visits"], expected, "{day}");
    }
}

/// Adds `value` landing sessions of `kind` for `path` on `day`, as a sync would store them.
async fn sessions(app: &TestApp, product_id: &str, kind: &str, day: &str, path: &str, value: f64) {
    app.sql_execute(
        &format!(
            "INSERT INTO snapshots (product_id, kind, day, metric, dimension, value, detail, updated_at) \
             VALUES ($1, $2, $3, 'landing_sessions', $4, {value}, NULL, 0)"
        ),
        &[product_id.into(), kind.into(), day.into(), path.into()],
    )
    .await;
}

async fn product_id(app: &TestApp, slug: &str) -> String {
    app.sql_value("SELECT id FROM products WHERE slug = $1", &[slug.into()])
        .await
}

async fn analytics_sessions_count_when_the_product_has_them(backend: Backend) {
    let app = spawn(backend).await;
    let founder = founder_with_product(&app, "shop", None).await;
    let token = founder.token.as_str();
    send_dataset(&app, token).await;
    let id = product_id(&app, "shop").await;
    let rows = [
        ("2026-11-21", "/pricing", 7.0),
        ("2026-11-01", "/pricing", 5.0),
        ("2026-10-10", "/pricing", 3.0),
        ("2026-08-01", "/pricing", 100.0),
        ("2026-11-21", "/", 2.0),
    ];
    for (day, path, value) in rows {
        sessions(&app, &id, "analytics_a", day, path, value).await;
    }
    // Another kind's sessions are not this product's visit source.
    sessions(
        &app,
        &id,
        "product_analytics_a",
        "2026-11-21",
        "/pricing",
        1000.0,
    )
    .await;
    let pricing = add_page(&app, token, "shop", "https://shop.test/pricing").await;
    let sum = |path: &str, span: (&str, &str)| -> i64 {
        rows.iter()
            .filter(|(day, p, _)| *p == path && *day >= span.0 && *day <= span.1)
            .map(|(_, _, value)| *value as i64)
            .sum()
    };
    let expected = traffic(sum("/pricing", CURRENT), sum("/pricing", PREVIOUS));
    assert_eq!(
        expected,
        json!({"visits": 12, "previous_visits": 3, "change_pct": 300.0})
    );
    assert_eq!(pricing["traffic"], expected);
    let detail = app
        .get(
            &format!("/products/shop/landing-pages/{}?days=30", id_of(&pricing)),
            Some(token),
        )
        .await
        .expect(200)
        .clone();
    let series = detail["traffic_series"].as_array().expect("series");
    assert_eq!(series[29], json!({"day": "2026-11-21", "visits": 7}));
    assert_eq!(series[9], json!({"day": "2026-11-01", "visits": 5}));
    let total: i64 = series
        .iter()
        .map(|row| row["visits"].as_i64().unwrap_or_default())
        .sum();
    assert_eq!(total, sum("/pricing", CURRENT));
}

async fn top_session_paths_are_discovered(backend: Backend) {
    let app = spawn(backend).await;
    let founder = founder_with_product(&app, "shop", Some("shop.example.com")).await;
    let token = founder.token.as_str();
    let id = product_id(&app, "shop").await;
    for (day, path, value) in [
        ("2026-11-20", "/features", 5.0),
        ("2026-11-21", "/features", 7.0),
        ("2026-11-21", "/tiny", 9.0),
        ("2026-11-21", "(not set)", 100.0),
        ("2026-11-21", "/blog/launch", 50.0),
        ("2026-11-21", "/pricing", 40.0),
        ("2026-10-01", "/old", 30.0),
    ] {
        sessions(&app, &id, "analytics_a", day, path, value).await;
    }
    add_page(&app, token, "shop", "https://shop.example.com/pricing").await;
    app.post(
        "/products/shop/landing-pages/filters",
        Some(token),
        json!({"pattern": "/blog"}),
    )
    .await
    .expect(200);
    let listed = list(&app, token, "shop", "").await;
    let pages: Vec<(&str, &str, &str)> = listed["pages"]
        .as_array()
        .expect("pages")
        .iter()
        .map(|page| {
            (
                page["path"].as_str().expect("path"),
                page["source"].as_str().expect("source"),
                page["url"].as_str().expect("url"),
            )
        })
        .collect();
    assert_eq!(
        pages,
        [
            ("/pricing", "manual", "https://shop.example.com/pricing"),
            (
                "/features",
                "analytics_a",
                "https://shop.example.com/features"
            ),
        ]
    );
    assert_eq!(page_of(&listed, "/features")["traffic"], traffic(12, 0));
    // Discovery is idempotent.
    let again = list(&app, token, "shop", "").await;
    assert_eq!(again["pages"], listed["pages"]);
    // A longer window reaches `/old`.
    let wide = list(&app, token, "shop", "?days=90").await;
    assert_eq!(page_of(&wide, "/old")["source"], "analytics_a");
    // Another product's sessions stay its own.
    create_product(&app, token, "other", None).await;
    assert_eq!(list(&app, token, "other", "").await["pages"], json!([]));
}

per_backend!(
    first_party_visits_count_by_landing_path,
    analytics_sessions_count_when_the_product_has_them,
    top_session_paths_are_discovered
);
