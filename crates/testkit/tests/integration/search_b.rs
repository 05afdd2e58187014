//! `search_b` (Bing Webmaster Tools) end to end against the loopback fake of Bing
//! (`payback_testkit::fakes::bing`), written from Bing's documentation apart from the connector:
//! the key-based connect and each of its refusals, the daily read landing in the timeseries'
//! `search_*` columns compared with sums computed here from what the fake serves, test before
//! and after the key is regenerated, a throttle retried, disconnect keeping the snapshots, and
//! the key in no answer.

use crate::shop::{founder, listed_connection};
use std::collections::BTreeMap;

use base64::Engine as _;
use payback_domain::Clock as _;
use payback_domain::connection::ConnectionKind;
use payback_server::secret::Secret;
use payback_testkit::fakes::bing::FakeBing;
use payback_testkit::{Backend, TestApp, per_backend};
use serde_json::{Value, json};

const KEY: &str = "0123456789abcdef0123456789ABCDEF";
const OTHER_KEY: &str = "fedcba9876543210fedcba9876543210";
const SITE: &str = "https://shop.example/";
/// Another site of the same user, and a site of another user.
const BLOG: &str = "https://blog.shop.example/";
const STRANGERS_SITE: &str = "https://elsewhere.example/";
const PATH: &str = "/products/shop/connections/search-b";

/// The site's days as the fake serves them: (day, query, clicks, impressions). The clock of the
/// test app is 2026-11-21 12:00 UTC; the first read's window covers these days, never the
/// January one.
const DAYS: [(&str, &str, i64, i64); 7] = [
    ("2026-11-17", "payback", 4, 120),
    ("2026-11-17", "cac calculator", 1, 35),
    ("2026-11-19", "payback", 6, 150),
    ("2026-11-19", "payback app", 0, 12),
    ("2026-11-20", "payback", 9, 210),
    ("2026-11-20", "ad spend payback", 2, 44),
    ("2026-11-20", "cac calculator", 3, 61),
];
const OLD_DAY: (&str, &str, i64, i64) = ("2026-01-05", "payback", 500, 9_000);

/// The service wired to the fake (its `PAYBACK_SEARCH_B_API_URL`) with a sealing key, or
/// without one when `sealing` is false.
async fn spawn_with(backend: Backend, origin: String, sealing: bool) -> TestApp {
    TestApp::spawn_with(backend, move |config| {
        if sealing {
            config.secret_key = Some(Secret::new(
                base64::engine::general_purpose::STANDARD.encode([9_u8; 32]),
            ));
        }
        config.api_urls.insert(ConnectionKind::SearchB, origin);
    })
    .await
}

fn seed(bing: &FakeBing) {
    bing.add_key(KEY);
    bing.add_site(KEY, SITE, true);
    bing.add_site(KEY, BLOG, true);
    bing.add_key(OTHER_KEY);
    bing.add_site(OTHER_KEY, STRANGERS_SITE, true);
    for (day, query, clicks, impressions) in DAYS.into_iter().chain([OLD_DAY]) {
        bing.set_query_day(SITE, day, query, clicks, impressions);
    }
    // The blog's numbers must never land in the shop's columns.
    bing.set_query_day(BLOG, "2026-11-20", "payback", 1_000, 1_000);
}

/// The `search_b` connection as `GET /connections` lists it.
async fn connection(app: &TestApp, token: &str) -> Option<Value> {
    listed_connection(app, token, "search_b").await
}

/// (clicks, impressions) per day, summed here from what the fake serves inside `first..=last`.
fn expected(bing: &FakeBing, first: &str, last: &str) -> BTreeMap<String, (i64, i64)> {
    let mut sums = BTreeMap::new();
    for served in bing.query_days(SITE) {
        let day = served.day.to_string();
        if first <= day.as_str() && day.as_str() <= last {
            let sum: &mut (i64, i64) = sums.entry(day).or_default();
            sum.0 += served.clicks;
            sum.1 += served.impressions;
        }
    }
    sums
}

/// The search columns of the 7-day timeseries, by day.
async fn search_columns(app: &TestApp, key: &str) -> BTreeMap<String, (i64, i64)> {
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
                (
                    row["search_clicks"].as_i64().unwrap(),
                    row["search_impressions"].as_i64().unwrap(),
                ),
            )
        })
        .collect()
}

async fn connect_refusals_name_their_field(backend: Backend) {
    let bing = FakeBing::spawn().await;
    seed(&bing);
    let app = spawn_with(backend, bing.base_url(), true).await;
    let (owner, key) = founder(&app).await;
    let mut answers = Vec::new();
    for (body, field, words) in [
        (json!({ "site_url": SITE }), "api_key", "missing field"),
        (json!({ "api_key": KEY }), "site_url", "missing field"),
        (json!({ "api_key": "", "site_url": SITE }), "api_key", ""),
        (
            json!({ "api_key": KEY, "site_url": SITE, "database": "x" }),
            "database",
            "",
        ),
        (
            json!({ "api_key": KEY, "site_url": "shop.example/" }),
            "site_url",
            "absolute http or https URL",
        ),
        (
            json!({ "api_key": KEY, "site_url": "ftp://shop.example/" }),
            "site_url",
            "absolute http or https URL",
        ),
        (
            json!({ "api_key": KEY, "site_url": "https://shop.example" }),
            "site_url",
            "ending in /",
        ),
        (
            json!({ "api_key": KEY, "site_url": STRANGERS_SITE }),
            "site_url",
            "is not a site of this key's account",
        ),
        (
            json!({ "api_key": "not-a-bing-key", "site_url": SITE }),
            "api_key",
            "api_key: refused by Bing: ERROR!!! InvalidApiKey",
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

    // Another account's product is not found, before Bing is asked.
    let stranger = app.signup_verified("stranger@example.com").await;
    let before = bing.requests().len();
    let hidden = app
        .post(
            PATH,
            Some(&stranger.token),
            json!({ "api_key": KEY, "site_url": SITE }),
        )
        .await
        .expect(404)
        .clone();
    answers.push(hidden.to_string());
    assert_eq!(bing.requests().len(), before);
    for answer in answers {
        assert!(
            !answer.contains(KEY) && !answer.contains("not-a-bing-key"),
            "{answer}"
        );
    }
}

async fn a_site_syncs_into_the_timeseries(backend: Backend) {
    let bing = FakeBing::spawn().await;
    seed(&bing);
    let app = spawn_with(backend, bing.base_url(), true).await;
    let (owner, key) = founder(&app).await;
    let connected = app
        .post(
            PATH,
            Some(&key),
            json!({ "api_key": KEY, "site_url": SITE }),
        )
        .await
        .expect(200)
        .clone();
    assert_eq!(connected["ok"], true);
    assert!(connected["connection_id"].is_string(), "{connected}");
    let listed = connection(&app, &owner.token).await.unwrap();
    assert_eq!(listed["id"], connected["connection_id"]);
    assert_eq!(listed["config"]["site_url"], SITE);
    // The key proven with one GetUserSites; query stats are read by the sync, not the connect.
    assert_eq!(bing.requests_to("GetUserSites").len(), 1);
    assert!(bing.requests_to("GetQueryStats").is_empty());

    // One throttle first: the read is retried and lands whole.
    bing.throttle_next("GetQueryStats", 1);
    payback_server::services::sync::run_due(&app.state, app.clock.now())
        .await
        .unwrap();
    let row = connection(&app, &owner.token).await.unwrap();
    assert_eq!(row["last_error"], Value::Null, "{row}");
    let reads = bing.requests_to("GetQueryStats");
    assert_eq!(reads.len(), 2);
    for read in &reads {
        assert_eq!(read.param("siteUrl").as_deref(), Some(SITE));
        assert_eq!(read.param("apikey").as_deref(), Some(KEY));
    }
    // Page stats are never read.
    assert!(bing.requests_to("GetPageStats").is_empty());

    let columns = search_columns(&app, &key).await;
    let first = columns.keys().next().unwrap().clone();
    let last = columns.keys().last().unwrap().clone();
    let expected = expected(&bing, &first, &last);
    assert_eq!(expected.len(), 3, "{expected:?}");
    for (day, (clicks, impressions)) in &columns {
        let want = expected.get(day).copied().unwrap_or_default();
        assert_eq!((*clicks, *impressions), want, "{day}");
    }
    assert_eq!(columns["2026-11-20"], (14, 315));

    // Test proves the key live; once the user regenerates it, test says so without the key.
    let tested = app
        .post(&format!("{PATH}/test"), Some(&key), json!({}))
        .await
        .expect(200)
        .clone();
    assert_eq!(tested["ok"], true, "{tested}");
    bing.revoke(KEY);
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
            .contains("InvalidApiKey"),
        "{failing}"
    );

    // Disconnect deletes the credential, revokes nothing at Bing, keeps the snapshots.
    let gone = app
        .post(&format!("{PATH}/disconnect"), Some(&owner.token), json!({}))
        .await
        .expect(200)
        .clone();
    assert_eq!(gone["ok"], true, "{gone}");
    assert_eq!(gone["credential_deleted"], true);
    assert_eq!(gone["revoked_upstream"], false);
    assert!(connection(&app, &owner.token).await.is_none());
    assert_eq!(search_columns(&app, &key).await, columns);

    let everything = app
        .get("/connections", Some(&owner.token))
        .await
        .expect(200)
        .to_string();
    for answer in [connected, row, tested, failing, gone, json!(everything)] {
        assert!(!answer.to_string().contains(KEY), "{answer}");
    }
}

async fn without_bing_or_a_sealing_key(backend: Backend) {
    // A port nothing answers on: Bing is unreachable, 502 (and the key is in no answer).
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let dead = format!("http://{}", listener.local_addr().unwrap());
    drop(listener);
    let app = spawn_with(backend, dead.clone(), true).await;
    let (_, key) = founder(&app).await;
    let unreachable = app
        .post(
            PATH,
            Some(&key),
            json!({ "api_key": KEY, "site_url": SITE }),
        )
        .await
        .expect(502)
        .clone();
    assert!(!unreachable.to_string().contains(KEY), "{unreachable}");

    // No PAYBACK_SECRET_KEY: nothing could be stored, 503.
    let app = spawn_with(backend, dead, false).await;
    let (_, key) = founder(&app).await;
    app.post(
        PATH,
        Some(&key),
        json!({ "api_key": KEY, "site_url": SITE }),
    )
    .await
    .expect(503);
}

per_backend!(
    connect_refusals_name_their_field,
    a_site_syncs_into_the_timeseries,
    without_bing_or_a_sealing_key,
);
