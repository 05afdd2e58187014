//! `seo_b` (Ahrefs API v3) end to end against the loopback fake of Ahrefs
//! (`payback_testkit::fakes::ahrefs`), written from Ahrefs' documentation apart from the
//! connector: the key-based connect and each of its refusals, the first run landing as
//! snapshots dated the run day and compared with what the fake serves (the top organic keywords
//! picked here from the seeded rows, independently) and in the demand report's authority and
//! ranks, the weekly cadence and no sync now, test before and after the key is deleted, a
//! throttle retried, disconnect keeping the snapshots, and the key in no answer.

use crate::shop::{founder, listed_connection};
use std::collections::BTreeMap;

use base64::Engine as _;
use payback_domain::Clock as _;
use payback_domain::connection::ConnectionKind;
use payback_server::secret::Secret;
use payback_testkit::fakes::ahrefs::{Backlinks, FakeAhrefs, OrganicKeyword};
use payback_testkit::{Backend, TEST_START, TestApp, per_backend};
use serde_json::{Value, json};

const KEY: &str = "ahrefs0123456789abcdefghijklmnopqrstuvwx";
const LITE_KEY: &str = "ahrefs-lite-plan-key-without-api-access";
const DOMAIN: &str = "shop.example";
const PATH: &str = "/products/shop/connections/seo-b";
/// The organic keywords a run keeps (the connector's bound, stated here apart from it).
const TOP: usize = 100;

/// `(metric, dimension) -> (value, detail)`: snapshots of one day.
type Stored = BTreeMap<(String, String), (f64, Option<String>)>;

/// The service wired to the fake (its `PAYBACK_SEO_B_API_URL`) with a sealing key, or without
/// one when `sealing` is false.
async fn spawn_with(backend: Backend, origin: String, sealing: bool) -> TestApp {
    TestApp::spawn_with(backend, move |config| {
        if sealing {
            config.secret_key = Some(Secret::new(
                base64::engine::general_purpose::STANDARD.encode([9_u8; 32]),
            ));
        }
        config.api_urls.insert(ConnectionKind::SeoB, origin);
    })
    .await
}

/// 130 US keywords (some without a position or a URL) and 5 German ones with more traffic than
/// any of them, which must never land: one country is read.
fn seed(ahrefs: &FakeAhrefs) {
    ahrefs.add_key(KEY);
    ahrefs.add_key_without_api_access(LITE_KEY);
    ahrefs.set_domain_rating(DOMAIN, 47.0);
    ahrefs.set_backlinks(
        DOMAIN,
        Backlinks {
            live: 12_345,
            all_time: 40_000,
            live_refdomains: 678,
            all_time_refdomains: 1_500,
        },
    );
    for n in 0..130_i64 {
        ahrefs.add_keyword(
            DOMAIN,
            OrganicKeyword {
                keyword: format!("keyword {n}"),
                country: "us".to_owned(),
                best_position: (n % 17 != 5).then_some(1 + n % 40),
                best_position_url: (n % 11 != 3)
                    .then(|| format!("https://{DOMAIN}/page-{}", n % 9)),
                volume: Some(10 * ((n * 37) % 130) + 20),
                sum_traffic: (n * 53) % 997,
                keyword_difficulty: Some(n % 100),
            },
        );
    }
    for n in 0..5_i64 {
        ahrefs.add_keyword(
            DOMAIN,
            OrganicKeyword {
                keyword: format!("schlüsselwort {n}"),
                country: "de".to_owned(),
                best_position: Some(1),
                best_position_url: Some(format!("https://{DOMAIN}/de")),
                volume: Some(90_000),
                sum_traffic: 50_000 + n,
                keyword_difficulty: None,
            },
        );
    }
}

/// What the run day's snapshots must be, from the fake's seeded rows: the wholes, and the US
/// keywords' top [`TOP`] by traffic with their position (and URL) and volume.
fn expected(ahrefs: &FakeAhrefs) -> Stored {
    let mut stored = Stored::new();
    let whole = |metric: &str| (metric.to_owned(), String::new());
    stored.insert(whole("domain_rating"), (47.0, None));
    stored.insert(whole("backlinks"), (12_345.0, None));
    stored.insert(whole("referring_domains"), (678.0, None));
    let mut us: Vec<OrganicKeyword> = ahrefs
        .keywords(DOMAIN)
        .into_iter()
        .filter(|row| row.country == "us")
        .collect();
    us.sort_by_key(|row| std::cmp::Reverse(row.sum_traffic));
    assert!(us.len() > TOP, "the seed must go past the bound");
    for row in us.into_iter().take(TOP) {
        if let Some(position) = row.best_position {
            stored.insert(
                ("keyword_position".to_owned(), row.keyword.clone()),
                (position as f64, row.best_position_url.clone()),
            );
        }
        if let Some(volume) = row.volume {
            stored.insert(
                ("keyword_volume".to_owned(), row.keyword.clone()),
                (volume as f64, None),
            );
        }
    }
    stored
}

/// The `seo_b` snapshots stored, by day.
async fn stored(app: &TestApp) -> BTreeMap<String, Stored> {
    let rows: Vec<(String, String, String, f64, Option<String>)> = app
        .sql_rows(
            "SELECT day, metric, dimension, value, detail FROM snapshots WHERE kind = 'seo_b'",
            &[],
        )
        .await;
    let mut days: BTreeMap<String, Stored> = BTreeMap::new();
    for (day, metric, dimension, value, detail) in rows {
        days.entry(day)
            .or_default()
            .insert((metric, dimension), (value, detail));
    }
    days
}

/// The `seo_b` connection as `GET /connections` lists it.
async fn connection(app: &TestApp, token: &str) -> Option<Value> {
    listed_connection(app, token, "seo_b").await
}

async fn connect_refusals_name_their_field(backend: Backend) {
    let ahrefs = FakeAhrefs::spawn().await;
    seed(&ahrefs);
    let app = spawn_with(backend, ahrefs.base_url(), true).await;
    let (owner, key) = founder(&app).await;
    let mut answers = Vec::new();
    for (body, field, words) in [
        (json!({ "domain": DOMAIN }), "api_key", "missing field"),
        (json!({ "api_key": KEY }), "domain", "missing field"),
        (json!({ "api_key": "", "domain": DOMAIN }), "api_key", ""),
        (json!({ "api_key": KEY, "domain": "" }), "domain", ""),
        (
            json!({ "api_key": KEY, "domain": DOMAIN, "country": "de" }),
            "country",
            "",
        ),
        (
            json!({ "api_key": KEY, "domain": "https://shop.example" }),
            "domain",
            "without a scheme",
        ),
        (
            json!({ "api_key": KEY, "domain": "shop.example/blog" }),
            "domain",
            "domain name",
        ),
        (
            json!({ "api_key": KEY, "domain": "shop" }),
            "domain",
            "domain name",
        ),
        (
            json!({ "api_key": "not-an-ahrefs-key", "domain": DOMAIN }),
            "api_key",
            "Unauthorized: the API key is invalid",
        ),
        (
            json!({ "api_key": LITE_KEY, "domain": DOMAIN }),
            "api_key",
            "API access is not included in your plan",
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
    // Only the two well-formed bodies reached Ahrefs, each with one domain-rating read.
    assert_eq!(ahrefs.requests().len(), 2);
    assert_eq!(ahrefs.requests_to("domain-rating").len(), 2);

    // Another account's product is not found, before Ahrefs is asked.
    let stranger = app.signup_verified("stranger@example.com").await;
    let stranger_key = app.api_key(&stranger).await;
    let hidden = app
        .post(
            PATH,
            Some(&stranger_key),
            json!({ "api_key": KEY, "domain": DOMAIN }),
        )
        .await
        .expect(404)
        .clone();
    answers.push(hidden.to_string());
    assert_eq!(ahrefs.requests().len(), 2);
    for answer in answers {
        assert!(
            !answer.contains(KEY)
                && !answer.contains(LITE_KEY)
                && !answer.contains("not-an-ahrefs-key"),
            "{answer}"
        );
    }
}

async fn a_domain_lands_as_snapshots_of_the_run_day(backend: Backend) {
    let ahrefs = FakeAhrefs::spawn().await;
    seed(&ahrefs);
    let app = spawn_with(backend, ahrefs.base_url(), true).await;
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
    let listed = connection(&app, &owner.token).await.unwrap();
    assert_eq!(listed["id"], connected["connection_id"]);
    assert_eq!(listed["config"], json!({ "domain": DOMAIN }));
    // The key proven with one domain-rating read, with the bearer key; nothing else yet.
    let proofs = ahrefs.requests();
    assert_eq!(proofs.len(), 1, "{proofs:?}");
    assert!(proofs[0].path.ends_with("/v3/site-explorer/domain-rating"));
    assert_eq!(proofs[0].param("target").as_deref(), Some(DOMAIN));
    assert_eq!(
        proofs[0].header("authorization"),
        Some(format!("Bearer {KEY}").as_str())
    );

    // Not available as sync now: every read costs the customer units.
    let refused = app
        .post(&format!("{PATH}/sync"), Some(&key), json!({}))
        .await
        .expect(400)
        .clone();
    assert!(
        refused["error"].as_str().unwrap().contains("kind"),
        "{refused}"
    );
    assert_eq!(ahrefs.requests().len(), 1);

    // The first run is due at once; one throttle on the keyword list is retried.
    ahrefs.throttle_next("organic-keywords", 1);
    payback_server::services::sync::run_due(&app.state, app.clock.now())
        .await
        .unwrap();
    let row = connection(&app, &owner.token).await.unwrap();
    assert_eq!(row["last_error"], Value::Null, "{row}");
    assert_eq!(ahrefs.requests_to("domain-rating").len(), 2);
    assert_eq!(ahrefs.requests_to("backlinks-stats").len(), 1);
    assert_eq!(ahrefs.requests_to("organic-keywords").len(), 2);
    let run_day = TEST_START.day();
    for read in ahrefs.requests().iter().skip(1) {
        assert_eq!(read.param("target").as_deref(), Some(DOMAIN), "{read:?}");
        assert_eq!(
            read.param("date").as_deref(),
            Some(run_day.as_str()),
            "{read:?}"
        );
        assert_eq!(
            read.header("authorization"),
            Some(format!("Bearer {KEY}").as_str())
        );
    }

    let days = stored(&app).await;
    assert_eq!(days.keys().collect::<Vec<_>>(), [&run_day]);
    let want = expected(&ahrefs);
    assert_eq!(days[&run_day], want);
    assert!(
        !days[&run_day]
            .keys()
            .any(|(_, dimension)| dimension.starts_with("schlüsselwort"))
    );

    // The demand report shows what Ahrefs served: the authority, and the ranks of the kept
    // keywords with their volumes and ranking URLs, as of the run day.
    let report = app
        .get("/products/shop/demand?days=7", Some(&key))
        .await
        .expect(200)
        .clone();
    assert_eq!(
        report["authority"]["domain_rating"], 47.0,
        "{}",
        report["authority"]
    );
    assert_eq!(report["authority"]["backlinks"], 12_345);
    assert_eq!(report["authority"]["referring_domains"], 678);
    let ranked: BTreeMap<String, &Value> = report["ranks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|rank| rank["source"] == "seo_b")
        .map(|rank| (rank["keyword"].as_str().unwrap().to_owned(), rank))
        .collect();
    let positioned: Vec<&(String, String)> = want
        .keys()
        .filter(|(metric, _)| metric == "keyword_position")
        .collect();
    assert_eq!(ranked.len(), positioned.len());
    for (_, keyword) in positioned {
        let rank = ranked[keyword];
        let (position, url) = &want[&("keyword_position".to_owned(), keyword.clone())];
        assert_eq!(rank["position"].as_f64(), Some(*position), "{rank}");
        assert_eq!(rank["url"].as_str(), url.as_deref(), "{rank}");
        let volume = want
            .get(&("keyword_volume".to_owned(), keyword.clone()))
            .map(|(volume, _)| *volume);
        assert_eq!(rank["volume"].as_f64(), volume, "{rank}");
        assert_eq!(rank["as_of"], run_day.as_str());
    }

    // A metered kind has no backfill ladder: the next pass runs nothing (each run costs the
    // customer API units), and what the run stored stays as it was.
    let first_run = ahrefs.requests().len();
    app.clock
        .advance(payback_domain::connection::NEXT_RUNG_AFTER_MS);
    payback_server::services::sync::run_due(&app.state, app.clock.now())
        .await
        .unwrap();
    assert_eq!(ahrefs.requests().len(), first_run);
    assert_eq!(stored(&app).await, days);

    // Then weekly: nothing is due six days on; on the seventh a run reads that day.
    let settled = ahrefs.requests().len();
    app.clock.advance(6 * payback_domain::DAY_MS);
    payback_server::services::sync::run_due(&app.state, app.clock.now())
        .await
        .unwrap();
    assert_eq!(ahrefs.requests().len(), settled);
    app.clock.advance(payback_domain::DAY_MS);
    payback_server::services::sync::run_due(&app.state, app.clock.now())
        .await
        .unwrap();
    let week_later = app.clock.now().day();
    let reads = ahrefs.requests();
    assert_eq!(reads.len(), settled + 3);
    for read in &reads[settled..] {
        assert_eq!(
            read.param("date").as_deref(),
            Some(week_later.as_str()),
            "{read:?}"
        );
    }
    let weeks = stored(&app).await;
    assert_eq!(weeks.len(), 2);
    assert_eq!(weeks[&run_day], want);
    assert_eq!(weeks[&week_later], want);
    let days = weeks;
    // A week idle ended the browser session; the founder logs in again.
    let owner = app.login("founder@example.com").await;

    // Test proves the key live; once its owner deletes it, test says so in Ahrefs' words.
    let tested = app
        .post(&format!("{PATH}/test"), Some(&key), json!({}))
        .await
        .expect(200)
        .clone();
    assert_eq!(tested["ok"], true, "{tested}");
    ahrefs.revoke(KEY);
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
            .contains("Unauthorized: the API key is invalid"),
        "{failing}"
    );

    // Disconnect deletes the credential, revokes nothing at Ahrefs, keeps the snapshots.
    let gone = app
        .post(&format!("{PATH}/disconnect"), Some(&owner.token), json!({}))
        .await
        .expect(200)
        .clone();
    assert_eq!(gone["ok"], true, "{gone}");
    assert_eq!(gone["credential_deleted"], true);
    assert_eq!(gone["revoked_upstream"], false);
    assert!(connection(&app, &owner.token).await.is_none());
    assert_eq!(stored(&app).await, days);

    let everything = app
        .get("/connections", Some(&owner.token))
        .await
        .expect(200)
        .to_string();
    for answer in [
        connected,
        listed,
        refused,
        row,
        tested,
        failing,
        gone,
        json!(everything),
    ] {
        assert!(!answer.to_string().contains(KEY), "{answer}");
    }
}

async fn without_ahrefs_or_a_sealing_key(backend: Backend) {
    // A port nothing answers on: Ahrefs is unreachable, 502 (and the key is in no answer).
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let dead = format!("http://{}", listener.local_addr().unwrap());
    drop(listener);
    let app = spawn_with(backend, dead.clone(), true).await;
    let (owner, key) = founder(&app).await;
    let unreachable = app
        .post(
            PATH,
            Some(&key),
            json!({ "api_key": KEY, "domain": DOMAIN }),
        )
        .await
        .expect(502)
        .clone();
    assert!(!unreachable.to_string().contains(KEY), "{unreachable}");
    assert!(connection(&app, &owner.token).await.is_none());

    // No PAYBACK_SECRET_KEY: nothing could be stored, 503.
    let app = spawn_with(backend, dead, false).await;
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
    a_domain_lands_as_snapshots_of_the_run_day,
    without_ahrefs_or_a_sealing_key,
);
