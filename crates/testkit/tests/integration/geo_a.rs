//! `geo_a` (SE Ranking) end to end against the loopback fake of SE Ranking's Project API
//! (`payback_testkit::fakes::seranking`), written from SE Ranking's documentation apart from the
//! connector: the key-based connect with its company choice (one project used, several listed,
//! an unknown id refused) and refusals, the daily read landing as the timeseries'
//! `ai_visibility` compared with the engines' mean computed here from what the fake serves (a day
//! without figures stays null), the audit's health and the ranks as stored, test before and
//! after the key is regenerated, a rate limit retried, disconnect keeping the snapshots, another
//! account's 404, and the key in no answer.

use crate::shop::{founder, listed_connection};
use std::collections::BTreeMap;

use base64::Engine as _;
use payback_domain::Clock as _;
use payback_domain::connection::ConnectionKind;
use payback_server::secret::Secret;
use payback_testkit::fakes::seranking::FakeSeRanking;
use payback_testkit::{Backend, TestApp, per_backend};
use serde_json::{Value, json};

const KEY: &str = "253a73ad0123456789abcdef340aa0a939012345";
/// A key that sees one project only, and another account's key.
const ONE_KEY: &str = "0000000000111111111122222222223333333333";
const OTHER_KEY: &str = "fedcba9876543210fedcba9876543210fedcba98";
const SHOP: u64 = 77;
const BLOG: u64 = 78;
const SOLO: u64 = 90;
const PATH: &str = "/products/shop/connections/geo-a";

/// (day, engine id, mention share): the test app's clock is 2026-11-21 12:00 UTC. The 18th has
/// no figure from any engine; the 19th only ChatGPT's; a measured 0 counts.
const MENTIONS: [(&str, u64, f64); 9] = [
    ("2026-11-16", 1, 40.0),
    ("2026-11-16", 2, 10.0),
    ("2026-11-17", 1, 35.0),
    ("2026-11-17", 2, 0.0),
    ("2026-11-17", 3, 25.0),
    ("2026-11-19", 1, 42.5),
    ("2026-11-20", 1, 50.0),
    ("2026-11-20", 2, 20.0),
    ("2026-11-20", 3, 11.0),
];

async fn spawn_with(backend: Backend, origin: String, sealing: bool) -> TestApp {
    TestApp::spawn_with(backend, move |config| {
        if sealing {
            config.secret_key = Some(Secret::new(
                base64::engine::general_purpose::STANDARD.encode([9_u8; 32]),
            ));
        }
        config.api_urls.insert(ConnectionKind::GeoA, origin);
    })
    .await
}

fn seed(se: &FakeSeRanking) {
    se.add_project(KEY, SHOP, "Shop", "https://shop.example/");
    se.add_project(KEY, BLOG, "Blog", "https://blog.shop.example/");
    se.add_project(ONE_KEY, SOLO, "Solo", "https://solo.example/");
    se.add_project(OTHER_KEY, 99, "Elsewhere", "https://elsewhere.example/");
    for (id, name) in [(1, "chatgpt"), (2, "perplexity"), (3, "gemini")] {
        se.add_engine(SHOP, id, name);
    }
    se.add_engine(BLOG, 4, "chatgpt");
    for (day, engine, value) in MENTIONS {
        se.set_mention(SHOP, engine, day, value);
    }
    // The blog's figures must never land in the shop's columns.
    se.set_mention(BLOG, 4, "2026-11-18", 99.0);
    se.add_audit(KEY, 5, "Blog", "https://blog.shop.example/", Some(50.0));
    se.add_audit(KEY, 6, "Shop", "https://shop.example/", Some(81.0));
    // "payback" in two search engines (the better rank is kept), "cac" not found.
    se.set_position(
        SHOP,
        1,
        "payback",
        390,
        "2026-11-20",
        4,
        Some("https://shop.example/a"),
    );
    se.set_position(
        SHOP,
        2,
        "payback",
        390,
        "2026-11-20",
        2,
        Some("https://shop.example/b"),
    );
    se.set_position(SHOP, 1, "cac", 70, "2026-11-20", 0, None);
    se.set_position(SHOP, 1, "payback", 390, "2026-01-05", 1, None);
    // Two competitors: the better one per keyword and day is kept; "cac" is a gap the shop
    // does not rank for at all.
    se.add_competitor(SHOP, 901, "rival.example", "https://rival.example/");
    se.add_competitor(SHOP, 902, "other.example", "https://other.example/");
    se.set_competitor_position(901, 1, "payback", "2026-11-20", 3);
    se.set_competitor_position(902, 2, "payback", "2026-11-20", 1);
    se.set_competitor_position(901, 1, "cac", "2026-11-20", 8);
    se.set_competitor_position(902, 1, "cac", "2026-11-20", 0);
}

/// The `geo_a` connection as `GET /connections` lists it.
async fn connection(app: &TestApp, token: &str) -> Option<Value> {
    listed_connection(app, token, "geo_a").await
}

/// The 7-day timeseries' `ai_visibility`, by day.
async fn visibility(app: &TestApp, key: &str) -> BTreeMap<String, Option<f64>> {
    let rows = app
        .get("/products/shop/timeseries?days=7", Some(key))
        .await
        .expect(200)
        .clone();
    rows.as_array()
        .unwrap()
        .iter()
        .map(|row| {
            (
                row["day"].as_str().unwrap().to_owned(),
                row["ai_visibility"].as_f64(),
            )
        })
        .collect()
}

/// The engines' mean of `day` as the fake serves it; none without a figure.
fn expected_mean(se: &FakeSeRanking, day: &str) -> Option<f64> {
    let figures = se.mentions_on(SHOP, day);
    if figures.is_empty() {
        return None;
    }
    let sum: f64 = figures.iter().map(|(_, value)| value).sum();
    Some(sum / figures.len() as f64)
}

type Stored = (String, String, String, f64, Option<String>);

/// Every snapshot `geo_a` stored, in order.
async fn stored(app: &TestApp) -> Vec<Stored> {
    app.sql_rows(
        "SELECT day, metric, dimension, value, detail FROM snapshots WHERE kind = 'geo_a' \
         ORDER BY day, metric, dimension",
        &[],
    )
    .await
}

async fn connect_chooses_a_company_and_refusals_name_their_field(backend: Backend) {
    let se = FakeSeRanking::spawn().await;
    seed(&se);
    let app = spawn_with(backend, se.base_url(), true).await;
    let (owner, key) = founder(&app).await;
    let mut answers = Vec::new();

    // Several projects and no company_id: the 400 lists them.
    let several = app
        .post(PATH, Some(&key), json!({ "api_key": KEY }))
        .await
        .expect(400)
        .clone();
    assert!(
        several["error"].as_str().unwrap().contains("company_id"),
        "{several}"
    );
    assert_eq!(
        several["companies"],
        json!([
            { "id": "77", "name": "Shop", "domain": "https://shop.example/" },
            { "id": "78", "name": "Blog", "domain": "https://blog.shop.example/" },
        ])
    );
    answers.push(several.to_string());

    for (body, field, words) in [
        (json!({ "company_id": "77" }), "api_key", "missing field"),
        (json!({ "api_key": "", "company_id": "77" }), "api_key", ""),
        (
            json!({ "api_key": KEY, "company_id": "" }),
            "company_id",
            "",
        ),
        (json!({ "api_key": KEY, "site": "x" }), "site", ""),
        (
            json!({ "api_key": KEY, "company_id": "99" }),
            "company_id",
            "99 is not a project of this key's SE Ranking account",
        ),
        (
            json!({ "api_key": "not-a-key", "company_id": "77" }),
            "api_key",
            "api_key: refused by SE Ranking: Incorrect token",
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

    // One project: used without a company_id.
    let solo = app
        .post(PATH, Some(&key), json!({ "api_key": ONE_KEY }))
        .await
        .expect(200)
        .clone();
    answers.push(solo.to_string());
    let listed = connection(&app, &owner.token).await.unwrap();
    assert_eq!(listed["config"], json!({ "company_id": "90" }));

    // Another account's product is not found, before SE Ranking is asked.
    let stranger = app.signup_verified("stranger@example.com").await;
    let before = se.requests().len();
    let hidden = app
        .post(
            PATH,
            Some(&stranger.token),
            json!({ "api_key": KEY, "company_id": "77" }),
        )
        .await
        .expect(404)
        .clone();
    answers.push(hidden.to_string());
    assert_eq!(se.requests().len(), before);
    // The key went as the documented header, never in a URL.
    for request in se.requests() {
        assert!(
            request
                .header("authorization")
                .is_some_and(|h| h.starts_with("Token "))
        );
        assert!(!request.query.unwrap_or_default().contains("token"));
    }
    for answer in answers {
        for secret in [KEY, ONE_KEY, "not-a-key"] {
            assert!(!answer.contains(secret), "{answer}");
        }
    }
}

async fn a_project_syncs_visibility_health_and_ranks(backend: Backend) {
    let se = FakeSeRanking::spawn().await;
    seed(&se);
    let app = spawn_with(backend, se.base_url(), true).await;
    let (owner, key) = founder(&app).await;
    let connected = app
        .post(
            PATH,
            Some(&key),
            json!({ "api_key": KEY, "company_id": "77" }),
        )
        .await
        .expect(200)
        .clone();
    assert_eq!(connected["ok"], true);
    let listed = connection(&app, &owner.token).await.unwrap();
    assert_eq!(listed["id"], connected["connection_id"]);
    assert_eq!(listed["config"], json!({ "company_id": "77" }));
    assert!(se.requests_to("/statistics").is_empty());

    // One rate limit first: the read is retried and lands whole.
    se.throttle_next("/statistics", 1);
    payback_server::services::sync::run_due(&app.state, app.clock.now())
        .await
        .unwrap();
    let row = connection(&app, &owner.token).await.unwrap();
    assert_eq!(row["last_error"], Value::Null, "{row}");
    // One statistics read per engine and day, each for that one day.
    for read in se.requests_to("/statistics") {
        assert_eq!(read.param("from"), read.param("to"), "{read:?}");
        assert!(read.path.starts_with("/sites/77/"), "{read:?}");
    }

    let columns = visibility(&app, &key).await;
    assert_eq!(columns.len(), 7);
    for (day, value) in &columns {
        let want = expected_mean(&se, day);
        match (value, want) {
            (Some(got), Some(want)) => assert!((got - want).abs() < 1e-9, "{day}: {got} {want}"),
            (got, want) => assert_eq!(*got, want, "{day}"),
        }
    }
    assert_eq!(columns["2026-11-18"], None);
    assert_eq!(columns["2026-11-19"], Some(42.5));
    assert_eq!(columns["2026-11-17"], Some(20.0));

    let snapshots = stored(&app).await;
    let find = |day: &str, metric: &str, dimension: &str| {
        snapshots
            .iter()
            .find(|(d, m, dim, _, _)| d == day && m == metric && dim == dimension)
            .cloned()
    };
    let last_day = columns.keys().last().unwrap().clone();
    let health = find(&last_day, "site_health", "").expect("the audit's health");
    assert_eq!(health.3, 81.0);
    assert_eq!(
        find("2026-11-20", "ai_visibility", "perplexity").map(|s| s.3),
        Some(20.0)
    );
    let rank = find("2026-11-20", "keyword_position", "payback").unwrap();
    assert_eq!(
        (rank.3, rank.4.as_deref()),
        (2.0, Some("https://shop.example/b"))
    );
    assert_eq!(find("2026-11-20", "keyword_position", "cac"), None);
    assert_eq!(
        find("2026-11-20", "keyword_volume", "cac").map(|s| s.3),
        Some(70.0)
    );
    assert!(
        snapshots.iter().all(|s| s.0.as_str() >= "2026-11-14"),
        "{snapshots:?}"
    );
    let best_rival = find("2026-11-20", "competitor_position", "payback").unwrap();
    assert_eq!(
        (best_rival.3, best_rival.4.as_deref()),
        (1.0, Some("other.example"))
    );
    let cac_rival = find("2026-11-20", "competitor_position", "cac").unwrap();
    assert_eq!(
        (cac_rival.3, cac_rival.4.as_deref()),
        (8.0, Some("rival.example"))
    );
    // The demand report's gaps: both keywords, "cac" (unranked) first.
    let demand = app
        .get("/products/shop/demand?days=7", Some(&key))
        .await
        .expect(200)
        .clone();
    assert_eq!(
        demand["gaps"],
        json!([
            {"keyword": "cac", "position": null, "competitor": "rival.example",
             "competitor_position": 8.0, "source": "geo_a", "volume": 70, "as_of": "2026-11-20"},
            {"keyword": "payback", "position": 2.0, "competitor": "other.example",
             "competitor_position": 1.0, "source": "geo_a", "volume": 390, "as_of": "2026-11-20"},
        ])
    );
    let geo_source = demand["sources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|source| source["kind"] == "geo_a")
        .cloned()
        .unwrap();
    assert_eq!(
        geo_source["parts"],
        json!(["ai_visibility", "ranks", "gaps"])
    );

    // Test proves the key live; once it is regenerated, test says so without the key.
    let tested = app
        .post(&format!("{PATH}/test"), Some(&key), json!({}))
        .await
        .expect(200)
        .clone();
    assert_eq!(tested["ok"], true, "{tested}");
    se.revoke(KEY);
    let failing = app
        .post(&format!("{PATH}/test"), Some(&key), json!({}))
        .await
        .expect(200)
        .clone();
    assert_eq!(failing["ok"], false, "{failing}");
    assert!(
        failing["detail"]
            .as_str()
            .unwrap()
            .contains("Incorrect token"),
        "{failing}"
    );

    // Disconnect deletes the credential, revokes nothing upstream, keeps the snapshots.
    let gone = app
        .post(&format!("{PATH}/disconnect"), Some(&owner.token), json!({}))
        .await
        .expect(200)
        .clone();
    assert_eq!(gone["ok"], true, "{gone}");
    assert_eq!(gone["credential_deleted"], true);
    assert_eq!(gone["revoked_upstream"], false);
    assert!(connection(&app, &owner.token).await.is_none());
    assert_eq!(visibility(&app, &key).await, columns);
    assert_eq!(stored(&app).await, snapshots);

    let everything = app
        .get("/connections", Some(&owner.token))
        .await
        .expect(200)
        .to_string();
    for answer in [connected, row, tested, failing, gone, json!(everything)] {
        assert!(!answer.to_string().contains(KEY), "{answer}");
    }
}

async fn without_se_ranking_or_a_sealing_key(backend: Backend) {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let dead = format!("http://{}", listener.local_addr().unwrap());
    drop(listener);
    let app = spawn_with(backend, dead.clone(), true).await;
    let (_, key) = founder(&app).await;
    let unreachable = app
        .post(PATH, Some(&key), json!({ "api_key": KEY }))
        .await
        .expect(502)
        .clone();
    assert!(!unreachable.to_string().contains(KEY), "{unreachable}");

    let app = spawn_with(backend, dead, false).await;
    let (_, key) = founder(&app).await;
    app.post(PATH, Some(&key), json!({ "api_key": KEY }))
        .await
        .expect(503);
}

per_backend!(
    connect_chooses_a_company_and_refusals_name_their_field,
    a_project_syncs_visibility_health_and_ranks,
    without_se_ranking_or_a_sealing_key,
);
