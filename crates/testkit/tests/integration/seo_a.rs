//! `seo_a` (Semrush) end to end against the loopback fake of Semrush's Analytics API v3
//! (`payback_testkit::fakes::semrush`), written from Semrush's documentation apart from the
//! connector: the key-based connect and each of its refusals with no Semrush request on connect
//! or test, sync now refused (a rationed source), the weekly run storing exactly what the fake
//! serves (compared with figures computed here from the fake's seed: the overview, and the top
//! 100 keywords by traffic), a refused key as the first run's `last_error` in Semrush's words,
//! a domain Semrush knows nothing of, disconnect keeping the snapshots, another account's 404,
//! and the key in no answer.

use crate::shop::{founder, listed_connection};
use std::collections::BTreeMap;

use base64::Engine as _;
use payback_domain::Clock as _;
use payback_domain::connection::ConnectionKind;
use payback_server::secret::Secret;
use payback_testkit::fakes::semrush::{FakeSemrush, OrganicKeyword, Overview};
use payback_testkit::{Backend, TestApp, per_backend};
use serde_json::{Value, json};

const KEY: &str = "0123456789abcdef0123456789abcdef";
const WRONG_KEY: &str = "fedcba9876543210fedcba9876543210";
const DOMAIN: &str = "shop.example";
const PATH: &str = "/products/shop/connections/seo-a";
/// The test app's clock is 2026-11-21 12:00 UTC: the run day.
const RUN_DAY: &str = "2026-11-21";
/// More keywords than a run reads, so the cut by traffic shows.
const SEEDED_KEYWORDS: usize = 105;
const READ_KEYWORDS: usize = 100;

/// The service wired to the fake (its `PAYBACK_SEO_A_API_URL`) with a sealing key, or without
/// one when `sealing` is false.
async fn spawn_with(backend: Backend, origin: String, sealing: bool) -> TestApp {
    TestApp::spawn_with(backend, move |config| {
        if sealing {
            config.secret_key = Some(Secret::new(
                base64::engine::general_purpose::STANDARD.encode([9_u8; 32]),
            ));
        }
        config.api_urls.insert(ConnectionKind::SeoA, origin);
    })
    .await
}

/// The domain in `us` and `uk` (different numbers, so reading the wrong database shows), with
/// keywords whose traffic shares are all different; a keyword ranking with two URLs.
fn seed(semrush: &FakeSemrush) {
    semrush.add_key(KEY);
    let overview = Overview {
        rank: 48_210,
        organic_keywords: 1_530,
        organic_traffic: 9_800,
        organic_cost: 4_100,
    };
    semrush.set_overview(DOMAIN, "us", overview);
    semrush.set_overview(
        DOMAIN,
        "uk",
        Overview {
            rank: 7_002,
            organic_keywords: 310,
            organic_traffic: 1_200,
            organic_cost: 800,
        },
    );
    for n in 0..SEEDED_KEYWORDS {
        let step = i64::try_from(n).unwrap();
        semrush.add_keyword(
            DOMAIN,
            "us",
            OrganicKeyword {
                keyword: format!("payback keyword {n:03}"),
                position: 1 + step % 40,
                volume: 100 + step * 37,
                url: format!("https://shop.example/page-{}", n % 9),
                // Shares 0.05 apart: a strict order.
                traffic_percent: 0.05 * ((step * 7) % 211) as f64 + 0.01,
            },
        );
    }
    semrush.add_keyword(
        DOMAIN,
        "uk",
        OrganicKeyword {
            keyword: "payback uk".into(),
            position: 2,
            volume: 90,
            url: "https://shop.example/uk".into(),
            traffic_percent: 50.0,
        },
    );
}

/// The `seo_a` connection as `GET /connections` lists it.
async fn connection(app: &TestApp, token: &str) -> Option<Value> {
    listed_connection(app, token, "seo_a").await
}

/// `(day, metric, dimension) -> (value, detail)`.
type Stored = BTreeMap<(String, String, String), (f64, Option<String>)>;

/// Every `seo_a` snapshot the product holds.
async fn stored(app: &TestApp) -> Stored {
    let rows: Vec<(String, String, String, f64, Option<String>)> = app
        .sql_rows(
            "SELECT s.day, s.metric, s.dimension, CAST(s.value AS DOUBLE PRECISION), s.detail \
             FROM snapshots s JOIN products p ON p.id = s.product_id \
             WHERE p.slug = $1 AND s.kind = $2",
            &["shop".into(), "seo_a".into()],
        )
        .await;
    rows.into_iter()
        .map(|(day, metric, dimension, value, detail)| ((day, metric, dimension), (value, detail)))
        .collect()
}

/// What a run on `RUN_DAY` must store, computed here from what the fake holds for `database`:
/// the overview's three figures, and each of the top keywords by traffic share.
fn expected(semrush: &FakeSemrush, database: &str) -> Stored {
    let mut want = Stored::new();
    let mut put = |metric: &str, dimension: &str, value: f64, detail: Option<String>| {
        want.insert(
            (RUN_DAY.to_owned(), metric.to_owned(), dimension.to_owned()),
            (value, detail),
        );
    };
    if let Some(overview) = semrush.overview(DOMAIN, database) {
        put("domain_rank", "", overview.rank as f64, None);
        put(
            "organic_keywords",
            "",
            overview.organic_keywords as f64,
            None,
        );
        put("organic_traffic", "", overview.organic_traffic as f64, None);
    }
    let mut keywords = semrush.keywords(DOMAIN, database);
    keywords.sort_by(|a, b| b.traffic_percent.total_cmp(&a.traffic_percent));
    for keyword in keywords.into_iter().take(READ_KEYWORDS) {
        put(
            "keyword_position",
            &keyword.keyword,
            keyword.position as f64,
            Some(keyword.url.clone()),
        );
        put(
            "keyword_volume",
            &keyword.keyword,
            keyword.volume as f64,
            None,
        );
    }
    want
}

async fn run_due(app: &TestApp) {
    payback_server::services::sync::run_due(&app.state, app.clock.now())
        .await
        .unwrap();
}

async fn connect_refusals_name_their_field(backend: Backend) {
    let semrush = FakeSemrush::spawn().await;
    seed(&semrush);
    let app = spawn_with(backend, semrush.base_url(), true).await;
    let (owner, key) = founder(&app).await;
    let mut answers = Vec::new();
    for (body, field, words) in [
        (json!({ "domain": DOMAIN }), "api_key", "missing field"),
        (json!({ "api_key": KEY }), "domain", "missing field"),
        (json!({ "api_key": "  ", "domain": DOMAIN }), "api_key", ""),
        (json!({ "api_key": KEY, "domain": "" }), "domain", ""),
        (
            json!({ "api_key": KEY, "domain": DOMAIN, "site_url": "https://shop.example/" }),
            "site_url",
            "",
        ),
        (
            json!({ "api_key": KEY, "domain": "https://shop.example" }),
            "domain",
            "without http://",
        ),
        (
            json!({ "api_key": KEY, "domain": "shop.example/blog" }),
            "domain",
            "bare domain",
        ),
        (
            json!({ "api_key": KEY, "domain": DOMAIN, "database": "USA" }),
            "database",
            "Semrush database code",
        ),
        (
            json!({ "api_key": KEY, "domain": DOMAIN, "database": 7 }),
            "database",
            "",
        ),
    ] {
        let refused = app
            .post(PATH, Some(&key), body.clone())
            .await
            .expect(400)
            .clone();
        let error = refused["error"].as_str().unwrap();
        assert!(error.contains(field), "{body} -> {refused}");
        assert!(error.contains(words), "{body} -> {refused}");
        answers.push(refused.to_string());
    }
    assert!(connection(&app, &owner.token).await.is_none());

    // Another account's product is not found.
    let stranger = app.signup_verified("stranger@example.com").await;
    let hidden = app
        .post(
            PATH,
            Some(&stranger.token),
            json!({ "api_key": KEY, "domain": DOMAIN }),
        )
        .await
        .expect(404)
        .clone();
    answers.push(hidden.to_string());
    // Nothing above reached Semrush.
    assert!(semrush.requests().is_empty());
    for answer in answers {
        assert!(!answer.contains(KEY), "{answer}");
    }
}

async fn a_domain_runs_weekly_into_snapshots(backend: Backend) {
    let semrush = FakeSemrush::spawn().await;
    seed(&semrush);
    let app = spawn_with(backend, semrush.base_url(), true).await;
    let (owner, key) = founder(&app).await;
    let connected = app
        .post(
            PATH,
            Some(&key),
            json!({ "api_key": KEY, "domain": "Shop.Example" }),
        )
        .await
        .expect(200)
        .clone();
    assert_eq!(connected["ok"], true);
    assert!(connected["connection_id"].is_string(), "{connected}");
    let listed = connection(&app, &owner.token).await.unwrap();
    assert_eq!(listed["id"], connected["connection_id"]);
    assert_eq!(
        listed["config"],
        json!({ "domain": DOMAIN, "database": "us" })
    );

    // Test answers without calling Semrush; sync now is refused (every read spends units).
    let tested = app
        .post(&format!("{PATH}/test"), Some(&key), json!({}))
        .await
        .expect(200)
        .clone();
    assert_eq!(tested["ok"], true, "{tested}");
    assert!(
        tested["detail"].as_str().unwrap().contains("not called"),
        "{tested}"
    );
    let refused = app
        .post(&format!("{PATH}/sync"), Some(&key), json!({}))
        .await
        .expect(400)
        .clone();
    assert!(
        refused["error"]
            .as_str()
            .unwrap()
            .contains("cannot be synced on demand"),
        "{refused}"
    );
    assert!(semrush.requests().is_empty(), "{:?}", semrush.requests());

    // One rate limit first: the read is retried and lands whole.
    semrush.fail_next(1, payback_testkit::fakes::semrush::Fail::TooManyRequests);
    run_due(&app).await;
    let row = connection(&app, &owner.token).await.unwrap();
    assert_eq!(row["last_error"], Value::Null, "{row}");
    assert!(row["last_sync_at"].is_string(), "{row}");
    let overview_reads = semrush.requests_of("domain_rank");
    let organic_reads = semrush.requests_of("domain_organic");
    assert_eq!((overview_reads.len(), organic_reads.len()), (2, 1));
    for read in overview_reads.iter().chain(&organic_reads) {
        assert_eq!(read.param("key").as_deref(), Some(KEY));
        assert_eq!(read.param("domain").as_deref(), Some(DOMAIN));
        assert_eq!(read.param("database").as_deref(), Some("us"));
    }
    // 1 overview line and 100 keyword lines, 10 units each.
    assert_eq!(semrush.units_spent(KEY), 10 * (1 + 100));

    let want = expected(&semrush, "us");
    assert_eq!(want.len(), 3 + 2 * READ_KEYWORDS);
    let have = stored(&app).await;
    assert_eq!(have, want);
    // The keyword with the least traffic was not read.
    assert!(
        !have
            .keys()
            .any(|(_, _, dimension)| dimension == "payback keyword 000")
    );

    // Not due again within the week.
    run_due(&app).await;
    assert_eq!(semrush.requests().len(), 3);

    // Another account sees none of it.
    let stranger = app.signup_verified("stranger@example.com").await;
    assert!(connection(&app, &stranger.token).await.is_none());
    for verb in ["test", "disconnect"] {
        app.post(&format!("{PATH}/{verb}"), Some(&stranger.token), json!({}))
            .await
            .expect(404);
    }

    // Disconnect deletes the credential, revokes nothing at Semrush, keeps the snapshots.
    let gone = app
        .post(&format!("{PATH}/disconnect"), Some(&owner.token), json!({}))
        .await
        .expect(200)
        .clone();
    assert_eq!(gone["ok"], true, "{gone}");
    assert_eq!(gone["credential_deleted"], true);
    assert_eq!(gone["revoked_upstream"], false);
    assert!(connection(&app, &owner.token).await.is_none());
    assert_eq!(stored(&app).await, want);

    let everything = app
        .get("/connections", Some(&owner.token))
        .await
        .expect(200)
        .to_string();
    for answer in [
        connected,
        listed,
        tested,
        refused,
        row,
        gone,
        json!(everything),
    ] {
        assert!(!answer.to_string().contains(KEY), "{answer}");
    }
}

async fn a_refused_key_is_the_first_runs_error(backend: Backend) {
    let semrush = FakeSemrush::spawn().await;
    seed(&semrush);
    let app = spawn_with(backend, semrush.base_url(), true).await;
    let (owner, key) = founder(&app).await;
    // Connect takes any key: Semrush is not asked.
    app.post(
        PATH,
        Some(&key),
        json!({ "api_key": WRONG_KEY, "domain": DOMAIN, "database": "uk" }),
    )
    .await
    .expect(200);
    assert!(semrush.requests().is_empty());
    run_due(&app).await;
    let row = connection(&app, &owner.token).await.unwrap();
    let error = row["last_error"].as_str().unwrap_or_default();
    assert!(error.contains("ERROR 120 :: WRONG KEY - ID PAIR"), "{row}");
    assert!(!row.to_string().contains(WRONG_KEY), "{row}");
    assert!(stored(&app).await.is_empty());
    assert_eq!(semrush.requests().len(), 1);

    // Re-connecting with the right key replaces it; the uk database is read.
    app.post(
        PATH,
        Some(&key),
        json!({ "api_key": KEY, "domain": DOMAIN, "database": "uk" }),
    )
    .await
    .expect(200);
    run_due(&app).await;
    let row = connection(&app, &owner.token).await.unwrap();
    assert_eq!(row["last_error"], Value::Null, "{row}");
    assert_eq!(row["config"]["database"], "uk");
    assert_eq!(stored(&app).await, expected(&semrush, "uk"));
}

async fn a_domain_semrush_does_not_know_stores_nothing(backend: Backend) {
    let semrush = FakeSemrush::spawn().await;
    seed(&semrush);
    let app = spawn_with(backend, semrush.base_url(), true).await;
    let (owner, key) = founder(&app).await;
    app.post(
        PATH,
        Some(&key),
        json!({ "api_key": KEY, "domain": "new-shop.example" }),
    )
    .await
    .expect(200);
    run_due(&app).await;
    let row = connection(&app, &owner.token).await.unwrap();
    // ERROR 50 :: NOTHING FOUND is no rows, not a failure (and no figure is not 0).
    assert_eq!(row["last_error"], Value::Null, "{row}");
    assert!(stored(&app).await.is_empty());
    assert_eq!(semrush.requests().len(), 2);

    // No PAYBACK_SECRET_KEY: nothing could be stored, 503.
    let app = spawn_with(backend, semrush.base_url(), false).await;
    let (_, key) = founder(&app).await;
    app.post(
        PATH,
        Some(&key),
        json!({ "api_key": KEY, "domain": DOMAIN }),
    )
    .await
    .expect(503);
}

per_backend!(
    connect_refusals_name_their_field,
    a_domain_runs_weekly_into_snapshots,
    a_refused_key_is_the_first_runs_error,
    a_domain_semrush_does_not_know_stores_nothing,
);
