//! `GET /products/{slug}/demand` end to end. Bing's query stats (with positions) come from the
//! loopback Bing fake through a real `search_b` connect and sync; what the other demand sources
//! store (Search Console's queries, the SEO tools' ranks and authority, AI visibility) is written
//! through the store as their runs would have, so every part is covered on its own numbers; a
//! few ingested events feed the funnel's visits, leads and customers. Every expected value is
//! computed here from the constants alone. Also: a product without sources answers zeros,
//! empty lists and nulls with every source unconnected, `days` is checked, and another
//! account's product is 404.

use std::collections::BTreeMap;

use base64::Engine as _;
use payback_domain::Clock as _;
use payback_domain::connection::ConnectionKind;
use payback_domain::snapshot_metric::{
    AI_VISIBILITY, BACKLINKS, COMPETITOR_POSITION, DOMAIN_RANK, DOMAIN_RATING, KEYWORD_POSITION,
    KEYWORD_VOLUME, ORGANIC_KEYWORDS, ORGANIC_TRAFFIC, REFERRING_DOMAINS, SEARCH_CLICKS,
    SEARCH_IMPRESSIONS, SEARCH_POSITION, SITE_HEALTH,
};
use payback_server::secret::Secret;
use payback_store::snapshots::{self, SnapshotRow};
use payback_testkit::fakes::bing::FakeBing;
use payback_testkit::{Backend, TestApp, per_backend};
use serde_json::{Value, json};

const KEY: &str = "0123456789abcdef0123456789ABCDEF";
const SITE: &str = "https://shop.example/";
/// The app's clock is 2026-11-21 12:00 UTC: a 7-day window is 11-15..=11-21.
const FIRST_DAY: &str = "2026-11-15";
const LAST_DAY: &str = "2026-11-21";

/// A query's day: (day, query, clicks, impressions, position; 0 = none given).
type QueryDay = (&'static str, &'static str, i64, i64, f64);

/// What Bing serves; the 11-10 day is read by the first sync (30 days) but is outside the
/// report's 7-day window.
const BING_DAYS: [QueryDay; 5] = [
    ("2026-11-10", "payback", 50, 900, 9.0),
    ("2026-11-17", "payback", 4, 120, 2.0),
    ("2026-11-19", "payback", 6, 150, 3.0),
    ("2026-11-20", "payback", 9, 210, 1.5),
    ("2026-11-20", "cac calculator", 3, 61, 7.0),
];

/// What Search Console's runs stored; "roas tool" came with no position.
const CONSOLE_DAYS: [QueryDay; 4] = [
    ("2026-11-18", "payback", 10, 300, 2.5),
    ("2026-11-20", "payback", 5, 100, 4.0),
    ("2026-11-19", "roas tool", 2, 40, 0.0),
    ("2026-11-01", "payback", 70, 700, 5.0),
];

/// One keyword reading: (source, day, keyword, position, volume, url).
type Rank = (
    &'static str,
    &'static str,
    &'static str,
    f64,
    i64,
    Option<&'static str>,
);

/// Keyword readings. seo_a's 11-14 run is older
/// than its 11-21 run, so its keyword is not in the report.
const RANKS: [Rank; 6] = [
    ("geo_a", "2026-11-20", "payback", 5.0, 1_300, None),
    ("geo_a", "2026-11-20", "ltv", 2.0, 400, None),
    ("seo_a", "2026-11-14", "old keyword", 3.0, 90, None),
    (
        "seo_a",
        "2026-11-21",
        "payback",
        4.0,
        1_300,
        Some("https://shop.example/"),
    ),
    ("seo_a", "2026-11-21", "cac", 12.0, 800, None),
    (
        "seo_b",
        "2026-11-16",
        "payback app",
        2.0,
        500,
        Some("https://shop.example/app"),
    ),
];

/// geo_a's competitors' best positions: (day, keyword, position, competitor). The 11-19 reading
/// is older than the 11-20 one, so it is not in the report.
const COMPETITORS: [(&str, &str, f64, &str); 4] = [
    ("2026-11-19", "payback", 1.0, "old.example"),
    ("2026-11-20", "payback", 3.0, "rival.example"),
    ("2026-11-20", "ltv", 4.0, "rival.example"),
    ("2026-11-20", "roi", 7.0, "other.example"),
];

/// Whole-domain readings: (source, day, metric, value).
const WHOLES: [(&str, &str, &str, f64); 11] = [
    ("seo_b", "2026-11-16", DOMAIN_RATING, 41.5),
    ("seo_b", "2026-11-16", BACKLINKS, 1_200.0),
    ("seo_b", "2026-11-16", REFERRING_DOMAINS, 85.0),
    ("seo_a", "2026-11-14", DOMAIN_RANK, 99_000.0),
    ("seo_a", "2026-11-14", ORGANIC_KEYWORDS, 310.0),
    ("seo_a", "2026-11-14", ORGANIC_TRAFFIC, 2_400.0),
    ("seo_a", "2026-11-21", DOMAIN_RANK, 95_000.0),
    ("seo_a", "2026-11-21", ORGANIC_KEYWORDS, 330.0),
    ("seo_a", "2026-11-21", ORGANIC_TRAFFIC, 2_600.0),
    ("geo_a", "2026-11-18", SITE_HEALTH, 82.5),
    ("geo_a", "2026-11-12", SITE_HEALTH, 60.0),
];

/// AI visibility per engine: (day, engine, visibility); the day's whole score is the engines'
/// mean, as geo_a writes it.
const ENGINES: [(&str, &str, f64); 4] = [
    ("2026-11-19", "chatgpt", 40.0),
    ("2026-11-19", "perplexity", 60.0),
    ("2026-11-20", "chatgpt", 30.0),
    ("2026-11-20", "gemini", 75.0),
];

async fn spawn(backend: Backend, origin: String) -> TestApp {
    TestApp::spawn_with(backend, move |config| {
        config.secret_key = Some(Secret::new(
            base64::engine::general_purpose::STANDARD.encode([5_u8; 32]),
        ));
        config.api_urls.insert(ConnectionKind::SearchB, origin);
    })
    .await
}

/// The founder's product `shop` and an API key.
async fn founder(app: &TestApp) -> String {
    let owner = app.signup_verified("founder@example.com").await;
    app.create_product(&owner.token, "shop").await;
    app.api_key(&owner).await
}

fn snapshot(day: &str, metric: &str, dimension: &str, value: f64) -> SnapshotRow {
    SnapshotRow {
        day: day.to_owned(),
        metric: metric.to_owned(),
        dimension: dimension.to_owned(),
        value,
        detail: None,
    }
}

/// Search Console's queries, the SEO tools' readings and AI visibility, as their runs store
/// them, each under its own kind.
async fn seed_stored_runs(app: &TestApp, product_id: &str) {
    let mut by_kind: BTreeMap<&str, Vec<SnapshotRow>> = BTreeMap::new();
    for (day, query, clicks, impressions, position) in CONSOLE_DAYS {
        let rows = by_kind.entry("search_console").or_default();
        rows.push(snapshot(day, SEARCH_CLICKS, query, clicks as f64));
        rows.push(snapshot(day, SEARCH_IMPRESSIONS, query, impressions as f64));
        if position > 0.0 {
            rows.push(snapshot(day, SEARCH_POSITION, query, position));
        }
    }
    for (source, day, keyword, position, volume, url) in RANKS {
        let rows = by_kind.entry(source).or_default();
        rows.push(SnapshotRow {
            detail: url.map(str::to_owned),
            ..snapshot(day, KEYWORD_POSITION, keyword, position)
        });
        rows.push(snapshot(day, KEYWORD_VOLUME, keyword, volume as f64));
    }
    for (day, keyword, position, competitor) in COMPETITORS {
        by_kind.entry("geo_a").or_default().push(SnapshotRow {
            detail: Some(competitor.to_owned()),
            ..snapshot(day, COMPETITOR_POSITION, keyword, position)
        });
    }
    for (source, day, metric, value) in WHOLES {
        by_kind
            .entry(source)
            .or_default()
            .push(snapshot(day, metric, "", value));
    }
    let mut days: BTreeMap<&str, Vec<f64>> = BTreeMap::new();
    for (day, engine, visibility) in ENGINES {
        by_kind
            .entry("geo_a")
            .or_default()
            .push(snapshot(day, AI_VISIBILITY, engine, visibility));
        days.entry(day).or_default().push(visibility);
    }
    for (day, values) in days {
        let mean = values.iter().sum::<f64>() / values.len() as f64;
        by_kind
            .entry("geo_a")
            .or_default()
            .push(snapshot(day, AI_VISIBILITY, "", mean));
    }
    let mut tx = app.state.store.begin().await.unwrap();
    for (kind, rows) in by_kind {
        snapshots::upsert(&mut tx, product_id, kind, &rows, app.clock.now())
            .await
            .unwrap();
    }
    tx.commit().await.unwrap();
}

/// Two visitors, one lead and one customer on 11-20.
async fn ingest_funnel(app: &TestApp, key: &str) {
    let events = json!([
        {"dedupe_id": "v1", "stage": "visit", "user_id": "u-1", "occurred_at": "2026-11-20T08:00:00Z"},
        {"dedupe_id": "v2", "stage": "visit", "user_id": "u-2", "occurred_at": "2026-11-20T09:00:00Z"},
        {"dedupe_id": "l1", "stage": "lead", "user_id": "u-1", "occurred_at": "2026-11-20T09:10:00Z"},
        {"dedupe_id": "c1", "stage": "converted", "user_id": "u-1", "value": 4900, "occurred_at": "2026-11-20T10:00:00Z"},
    ]);
    app.post(
        "/products/shop/events",
        Some(key),
        json!({ "events": events }),
    )
    .await
    .expect(200);
}

fn in_window(day: &str) -> bool {
    (FIRST_DAY..=LAST_DAY).contains(&day)
}

/// The expected `queries`: window sums per (source, query), position weighted by impressions
/// over the days that gave one, most clicked first.
fn expected_queries() -> Vec<Value> {
    // (clicks, impressions, Σ position × impressions, impressions with a position)
    let mut sums: BTreeMap<(&str, &str), (i64, i64, f64, i64)> = BTreeMap::new();
    let sources = [
        ("search_b", &BING_DAYS[..]),
        ("search_console", &CONSOLE_DAYS[..]),
    ];
    for (source, days) in sources {
        for &(day, query, clicks, impressions, position) in days {
            if !in_window(day) {
                continue;
            }
            let sum = sums.entry((source, query)).or_default();
            sum.0 += clicks;
            sum.1 += impressions;
            if position > 0.0 {
                sum.2 += position * impressions as f64;
                sum.3 += impressions;
            }
        }
    }
    let mut rows: Vec<_> = sums.into_iter().collect();
    rows.sort_by_key(|(_, (clicks, impressions, ..))| std::cmp::Reverse((*clicks, *impressions)));
    rows.into_iter()
        .map(
            |((source, query), (clicks, impressions, weighted, positioned))| {
                let position = (positioned > 0).then(|| weighted / positioned as f64);
                json!({"query": query, "clicks": clicks, "impressions": impressions,
                   "position": position, "source": source})
            },
        )
        .collect()
}

/// The expected trend: per day of the window, both engines' clicks and impressions, and the
/// day's AI-visibility mean.
fn expected_trend() -> Vec<Value> {
    let mut days: BTreeMap<String, (i64, i64, Vec<f64>)> = (15..=21)
        .map(|day| (format!("2026-11-{day}"), (0, 0, Vec::new())))
        .collect();
    for (day, _, clicks, impressions, _) in BING_DAYS.into_iter().chain(CONSOLE_DAYS) {
        if let Some(sum) = days.get_mut(day) {
            sum.0 += clicks;
            sum.1 += impressions;
        }
    }
    for (day, _, visibility) in ENGINES {
        days.get_mut(day).unwrap().2.push(visibility);
    }
    days.into_iter()
        .map(|(day, (clicks, impressions, engines))| {
            let visibility =
                (!engines.is_empty()).then(|| engines.iter().sum::<f64>() / engines.len() as f64);
            json!({"day": day, "search_clicks": clicks, "search_impressions": impressions,
                   "ai_visibility": visibility})
        })
        .collect()
}

/// geo_a's latest competitor reading against the product's own position that day: the
/// keywords the product ranks nowhere for first, then the widest gaps.
fn expected_gaps() -> Vec<Value> {
    let latest = COMPETITORS.iter().map(|c| c.0).max().unwrap();
    let ours = |keyword: &str| {
        RANKS
            .iter()
            .find(|r| r.0 == "geo_a" && r.1 == latest && r.2 == keyword)
            .map(|r| (r.3, r.4))
    };
    let volume = |keyword: &str| {
        RANKS
            .iter()
            .find(|r| r.0 == "geo_a" && r.2 == keyword)
            .map(|r| r.4)
    };
    let mut gaps: Vec<(f64, Value)> = COMPETITORS
        .iter()
        .filter(|c| c.0 == latest)
        .filter(|c| ours(c.1).is_none_or(|(position, _)| position > c.2))
        .map(|(day, keyword, theirs, competitor)| {
            let position = ours(keyword).map(|(position, _)| position);
            (
                position.unwrap_or(f64::INFINITY) - theirs,
                json!({"keyword": keyword, "position": position, "competitor": competitor,
                       "competitor_position": theirs, "source": "geo_a",
                       "volume": volume(keyword), "as_of": day}),
            )
        })
        .collect();
    gaps.sort_by(|a, b| b.0.total_cmp(&a.0));
    let gaps: Vec<Value> = gaps.into_iter().map(|(_, gap)| gap).collect();
    assert_eq!(gaps.len(), 2, "roi (unranked) and payback (5 against 3)");
    gaps
}

async fn demand(app: &TestApp, key: &str, days: i64) -> Value {
    app.get(&format!("/products/shop/demand?days={days}"), Some(key))
        .await
        .expect(200)
        .clone()
}

async fn demand_reads_what_every_source_stored(backend: Backend) {
    let bing = FakeBing::spawn().await;
    bing.add_key(KEY);
    bing.add_site(KEY, SITE, true);
    for (day, query, clicks, impressions, position) in BING_DAYS {
        bing.set_query_day(SITE, day, query, clicks, impressions);
        bing.set_query_position(SITE, day, query, position);
    }
    let app = spawn(backend, bing.base_url()).await;
    let key = founder(&app).await;
    app.post(
        "/products/shop/connections/search-b",
        Some(&key),
        json!({ "api_key": KEY, "site_url": SITE }),
    )
    .await
    .expect(200);
    payback_server::services::sync::run_due(&app.state, app.clock.now())
        .await
        .unwrap();
    // Connected after the run: a source never read yet says so.
    app.post(
        "/products/shop/connections/seo-a",
        Some(&key),
        json!({ "api_key": "semrush-key", "domain": "shop.example" }),
    )
    .await
    .expect(200);
    let product = app.get("/products/shop", Some(&key)).await;
    let product_id = product.expect(200)["product_id"]
        .as_str()
        .unwrap()
        .to_owned();
    seed_stored_runs(&app, &product_id).await;
    ingest_funnel(&app, &key).await;

    let report = demand(&app, &key, 7).await;
    assert_eq!(report["product_slug"], "shop");
    assert_eq!(report["window_days"], 7);
    assert_eq!(
        report["queries"],
        Value::Array(expected_queries()),
        "{report:#}"
    );
    let trend = expected_trend();
    assert_eq!(report["trend"], Value::Array(trend.clone()));
    let total = |field: &str| {
        trend
            .iter()
            .map(|day| day[field].as_i64().unwrap())
            .sum::<i64>()
    };
    assert_eq!(
        report["funnel"],
        json!({"impressions": total("search_impressions"), "clicks": total("search_clicks"),
               "visits": 2, "leads": 1, "customers": 1})
    );
    // The trend is the timeseries' own columns.
    let series = app
        .get("/products/shop/timeseries?days=7", Some(&key))
        .await
        .expect(200)
        .clone();
    for (row, day) in series.as_array().unwrap().iter().zip(&trend) {
        assert_eq!(row["search_clicks"], day["search_clicks"]);
        assert_eq!(row["ai_visibility"], day["ai_visibility"]);
    }

    // Each source's latest reading, best position first.
    let mut ranks: Vec<_> = RANKS
        .iter()
        .filter(|(source, day, ..)| !(*source == "seo_a" && *day == "2026-11-14"))
        .collect();
    // Best position first; ties: the larger volume.
    ranks.sort_by(|a, b| a.3.total_cmp(&b.3).then(b.4.cmp(&a.4)));
    let ranks: Vec<Value> = ranks
        .into_iter()
        .map(|(source, day, keyword, position, volume, url)| {
            json!({"keyword": keyword, "position": position, "source": source,
                   "volume": volume, "url": url, "as_of": day})
        })
        .collect();
    assert_eq!(report["ranks"], Value::Array(ranks));
    assert_eq!(report["gaps"], Value::Array(expected_gaps()));
    assert_eq!(
        report["authority"],
        json!({"domain_rating": 41.5, "backlinks": 1_200, "referring_domains": 85,
               "rank": 95_000, "organic_keywords": 330, "organic_traffic": 2_600})
    );
    assert_eq!(
        report["ai_visibility"],
        json!({"score": (30.0 + 75.0) / 2.0, "site_health": 82.5, "engines": [
            {"engine": "chatgpt", "visibility": 30.0, "as_of": "2026-11-20"},
            {"engine": "gemini", "visibility": 75.0, "as_of": "2026-11-20"},
        ]})
    );

    let sources = report["sources"].as_array().unwrap();
    let kinds: Vec<&str> = sources
        .iter()
        .map(|s| s["kind"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        ["search_console", "search_b", "seo_a", "seo_b", "geo_a"]
    );
    let search_b = &sources[1];
    assert_eq!(search_b["connected"], true);
    assert!(
        search_b["last_sync_at"]
            .as_str()
            .unwrap()
            .starts_with("2026-11-21T")
    );
    assert_eq!(search_b["parts"], json!(["queries", "trend"]));
    assert_eq!(
        sources[2],
        json!({"kind": "seo_a", "connected": true, "last_sync_at": null,
               "parts": ["ranks", "authority"]})
    );
    for unconnected in [&sources[0], &sources[3], &sources[4]] {
        assert_eq!(unconnected["connected"], false);
        assert_eq!(unconnected["parts"], json!([]));
    }
    let text = report.to_string();
    assert!(!text.contains(KEY) && !text.contains("semrush-key"));
}

async fn demand_without_sources_is_empty_and_the_accounts_own(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let key = founder(&app).await;
    let report = demand(&app, &key, 3).await;
    assert_eq!(
        report["funnel"],
        json!({"impressions": 0, "clicks": 0, "visits": 0, "leads": 0, "customers": 0})
    );
    let trend = report["trend"].as_array().unwrap();
    assert_eq!(trend.len(), 3);
    assert_eq!(
        trend[2],
        json!({"day": LAST_DAY, "search_clicks": 0, "search_impressions": 0, "ai_visibility": null})
    );
    assert_eq!(report["queries"], json!([]));
    assert_eq!(report["ranks"], json!([]));
    assert_eq!(report["gaps"], json!([]));
    assert_eq!(
        report["ai_visibility"],
        json!({"score": null, "engines": [], "site_health": null})
    );
    assert_eq!(
        report["authority"],
        json!({"domain_rating": null, "backlinks": null, "referring_domains": null,
               "rank": null, "organic_keywords": null, "organic_traffic": null})
    );
    let sources = report["sources"].as_array().unwrap();
    assert_eq!(sources.len(), 5);
    assert!(sources.iter().all(|source| source["connected"] == false
        && source["parts"] == json!([])
        && source["last_sync_at"].is_null()));

    for days in ["0", "3651", "week"] {
        app.get(&format!("/products/shop/demand?days={days}"), Some(&key))
            .await
            .expect_error(400, "days");
    }
    let stranger = app.signup_verified("stranger@example.com").await;
    app.get("/products/shop/demand", Some(&stranger.token))
        .await
        .expect(404);
    app.get("/products/shop/demand", None).await.expect(401);
}

per_backend!(
    demand_reads_what_every_source_stored,
    demand_without_sources_is_empty_and_the_accounts_own,
);
