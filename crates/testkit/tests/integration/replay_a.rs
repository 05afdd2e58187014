//! `replay_a` (Microsoft Clarity's Data Export API) end to end against the loopback fake of
//! Clarity (`payback_testkit::fakes::clarity`), written from Clarity's documentation apart from
//! the connector: the connect and its refusals, Clarity's 10 requests per project per day kept
//! (the connect and every test included, across a restart, nothing sent once spent), no sync
//! now, the daily run's friction snapshots equal to what the fake served (summed per path
//! here, independently), a revoked token testing `{ok:false}`, and the token in no answer.

use crate::shop::{founder, listed_connection};
use std::collections::BTreeMap;

use base64::Engine as _;
use payback_domain::Clock as _;
use payback_domain::connection::ConnectionKind;
use payback_server::secret::Secret;
use payback_testkit::fakes::clarity::FakeClarity;
use payback_testkit::{Backend, TEST_START, TestApp, per_backend};
use serde_json::{Value, json};

const TOKEN: &str = "eyJhbGciOiJSUzI1NiJ9.clarity-token-payload.signature";
const PROJECT: &str = "k3x9p2q7ab";
const PATH: &str = "/products/shop/connections/replay-a";

async fn spawn_with(backend: Backend, origin: String) -> TestApp {
    TestApp::spawn_with(backend, move |config| {
        config.secret_key = Some(Secret::new(
            base64::engine::general_purpose::STANDARD.encode([9_u8; 32]),
        ));
        config.api_urls.insert(ConnectionKind::ReplayA, origin);
    })
    .await
}

/// Friction on three paths (queries and a trailing `/` of one path among them) and traffic,
/// which must not land.
fn seed(clarity: &FakeClarity) -> Vec<(&'static str, &'static str, i64)> {
    clarity.add_token(TOKEN, PROJECT);
    let rows = vec![
        (
            "RageClickCount",
            "https://shop.example/pricing?utm_source=x",
            4,
        ),
        ("RageClickCount", "https://shop.example/pricing/", 3),
        ("RageClickCount", "https://shop.example/", 2),
        ("DeadClickCount", "https://shop.example/blog/post-1#top", 5),
        ("ScriptErrorCount", "https://shop.example/pricing", 7),
        ("Traffic", "https://shop.example/pricing", 900),
    ];
    for (metric, url, count) in &rows {
        clarity.add_insight(PROJECT, metric, url, *count);
    }
    rows
}

/// What a run must store, summed here per (word, path) from the seeded rows.
fn expected(rows: &[(&str, &str, i64)]) -> BTreeMap<(String, String), f64> {
    let mut want = BTreeMap::new();
    for (metric, url, count) in rows {
        let word = match *metric {
            "RageClickCount" => "rage_clicks",
            "DeadClickCount" => "dead_clicks",
            "ScriptErrorCount" => "js_errors",
            _ => continue,
        };
        let path = payback_domain::landing_path::landing_path(url);
        *want.entry((word.to_owned(), path)).or_insert(0.0) += *count as f64;
    }
    want
}

async fn stored(app: &TestApp) -> Vec<(String, String, String, f64)> {
    app.sql_rows(
        "SELECT day, metric, dimension, value FROM snapshots WHERE kind = 'replay_a' \
         ORDER BY day, metric, dimension",
        &[],
    )
    .await
}

async fn connect_refusals_name_their_field(backend: Backend) {
    let clarity = FakeClarity::spawn().await;
    seed(&clarity);
    let app = spawn_with(backend, clarity.base_url()).await;
    let (owner, key) = founder(&app).await;
    let mut answers = Vec::new();
    for (body, field) in [
        (json!({ "project_id": PROJECT }), "api_token"),
        (json!({ "api_token": TOKEN }), "project_id"),
        (
            json!({ "api_token": "", "project_id": PROJECT }),
            "api_token",
        ),
        (
            json!({ "api_token": TOKEN, "project_id": "" }),
            "project_id",
        ),
        (
            json!({ "api_token": TOKEN, "project_id": "has space" }),
            "project_id",
        ),
        (
            json!({ "api_token": TOKEN, "project_id": PROJECT, "extra": 1 }),
            "extra",
        ),
        (
            json!({ "api_token": "not-a-clarity-token", "project_id": PROJECT }),
            "api_token",
        ),
    ] {
        let refused = app
            .post(PATH, Some(&key), body.clone())
            .await
            .expect(400)
            .clone();
        let error = refused["error"].as_str().unwrap();
        assert!(error.contains(field), "{body} -> {refused}");
        answers.push(refused.to_string());
    }
    assert!(
        listed_connection(&app, &owner.token, "replay_a")
            .await
            .is_none()
    );
    // Only the refused token reached Clarity.
    assert_eq!(clarity.requests().len(), 1);

    let stranger = app.signup_verified("stranger@example.com").await;
    let stranger_key = app.api_key(&stranger).await;
    let hidden = app
        .post(
            PATH,
            Some(&stranger_key),
            json!({ "api_token": TOKEN, "project_id": PROJECT }),
        )
        .await
        .expect(404)
        .clone();
    answers.push(hidden.to_string());
    assert_eq!(clarity.requests().len(), 1);
    // The key connect proves the token only once the product is found: the shape refusals
    // and the 404 took nothing from the project's day, the refused token its one request.
    let taken: Vec<(i64,)> = app
        .sql_rows(
            &format!("SELECT requests FROM replay_requests WHERE project_id = '{PROJECT}'"),
            &[],
        )
        .await;
    assert_eq!(taken, vec![(1,)]);
    for answer in answers {
        assert!(!answer.contains(TOKEN), "{answer}");
    }
}

async fn the_daily_budget_is_kept_and_a_run_stores_friction(backend: Backend) {
    let clarity = FakeClarity::spawn().await;
    let rows = seed(&clarity);
    let app = spawn_with(backend, clarity.base_url()).await;
    let (owner, key) = founder(&app).await;
    let connected = app
        .post(
            PATH,
            Some(&key),
            json!({ "api_token": TOKEN, "project_id": PROJECT }),
        )
        .await
        .expect(200)
        .clone();
    assert_eq!(connected["ok"], true);
    assert!(!connected.to_string().contains(TOKEN));
    let listed = listed_connection(&app, &owner.token, "replay_a")
        .await
        .unwrap();
    assert_eq!(listed["config"], json!({ "project_id": PROJECT }));
    assert!(!listed.to_string().contains(TOKEN));
    let proof = &clarity.requests()[0];
    assert!(
        proof
            .path
            .ends_with("/export-data/api/v1/project-live-insights")
    );
    assert_eq!(proof.param("numOfDays").as_deref(), Some("1"));
    assert_eq!(proof.param("dimension1").as_deref(), Some("URL"));
    assert_eq!(
        proof.header("authorization"),
        Some(format!("Bearer {TOKEN}").as_str())
    );

    // Never on demand: a quota-bound kind.
    let refused = app
        .post(&format!("{PATH}/sync"), Some(&key), json!({}))
        .await
        .expect(400)
        .clone();
    assert!(
        refused["error"].as_str().unwrap().contains("kind"),
        "{refused}"
    );
    assert_eq!(clarity.requests().len(), 1);

    // The daily run: one request, friction per path as the fake served it.
    payback_server::services::sync::run_due(&app.state, app.clock.now())
        .await
        .unwrap();
    let row = listed_connection(&app, &owner.token, "replay_a")
        .await
        .unwrap();
    assert_eq!(row["last_error"], Value::Null, "{row}");
    assert_eq!(clarity.requests().len(), 2);
    let run_day = TEST_START.day();
    let got: BTreeMap<(String, String), f64> = stored(&app)
        .await
        .into_iter()
        .map(|(day, metric, dimension, value)| {
            assert_eq!(day, run_day);
            ((metric, dimension), value)
        })
        .collect();
    assert_eq!(got, expected(&rows));

    // Tests spend the rest of the day's ten (connect 1 + run 1 + 8 tests)...
    let test_path = &format!("{PATH}/test");
    for _ in 0..8 {
        let tested = app
            .post(test_path, Some(&key), json!({}))
            .await
            .expect(200)
            .clone();
        assert_eq!(tested["ok"], true, "{tested}");
    }
    assert_eq!(clarity.requests().len(), 10);
    // ...and the eleventh asks nothing of Clarity: ok false, naming the budget.
    let spent = app
        .post(test_path, Some(&key), json!({}))
        .await
        .expect(200)
        .clone();
    assert_eq!(spent["ok"], false, "{spent}");
    assert!(spent["detail"].as_str().unwrap().contains("10"), "{spent}");
    assert_eq!(clarity.requests().len(), 10);
    assert_eq!(clarity.requests_today(PROJECT), 10);

    // The count survives a restart; a reconnect is refused with 429 before anything is sent.
    let app = app.restart_with(|_| {}).await;
    let again = app
        .post(test_path, Some(&key), json!({}))
        .await
        .expect(200)
        .clone();
    assert_eq!(again["ok"], false, "{again}");
    let reconnect = app
        .post(
            PATH,
            Some(&key),
            json!({ "api_token": TOKEN, "project_id": PROJECT }),
        )
        .await
        .expect(429)
        .clone();
    assert!(
        reconnect["error"]
            .as_str()
            .unwrap()
            .starts_with("project_id:"),
        "{reconnect}"
    );
    assert!(!reconnect.to_string().contains(TOKEN));
    assert_eq!(clarity.requests().len(), 10);
}

async fn a_revoked_token_tests_false(backend: Backend) {
    let clarity = FakeClarity::spawn().await;
    seed(&clarity);
    let app = spawn_with(backend, clarity.base_url()).await;
    let (_, key) = founder(&app).await;
    app.post(
        PATH,
        Some(&key),
        json!({ "api_token": TOKEN, "project_id": PROJECT }),
    )
    .await
    .expect(200);
    clarity.revoke(TOKEN);
    let tested = app
        .post(&format!("{PATH}/test"), Some(&key), json!({}))
        .await
        .expect(200)
        .clone();
    assert_eq!(tested["ok"], false, "{tested}");
    assert!(!tested.to_string().contains(TOKEN), "{tested}");
}

/// Clarity's documentation spells the metrics with spaces ("Rage Click Count") and its
/// answers without (`RageClickCount`), and the answers key the URL `Url` where the
/// documentation's example has the dimension's name: a run reads every spelling.
async fn a_run_reads_the_documented_and_the_answered_spellings(backend: Backend) {
    let clarity = FakeClarity::spawn().await;
    clarity.add_token(TOKEN, PROJECT);
    clarity.key_urls_as_answered();
    for (metric, url, count) in [
        ("Rage Click Count", "https://shop.example/pricing?x=1", 4),
        ("RageClickCount", "https://shop.example/pricing/", 3),
        ("Dead Click Count", "https://shop.example/blog/post-1", 5),
        ("Script Error Count", "https://shop.example/", 2),
        ("Popular Pages", "https://shop.example/pricing", 800),
    ] {
        clarity.add_insight(PROJECT, metric, url, count);
    }
    let app = spawn_with(backend, clarity.base_url()).await;
    let (owner, key) = founder(&app).await;
    app.post(
        PATH,
        Some(&key),
        json!({ "api_token": TOKEN, "project_id": PROJECT }),
    )
    .await
    .expect(200);
    payback_server::services::sync::run_due(&app.state, app.clock.now())
        .await
        .unwrap();
    let row = listed_connection(&app, &owner.token, "replay_a")
        .await
        .unwrap();
    assert_eq!(row["last_error"], Value::Null, "{row}");
    assert_eq!(clarity.requests().len(), 2, "the connect and the run");
    let got: BTreeMap<(String, String), f64> = stored(&app)
        .await
        .into_iter()
        .map(|(_, metric, dimension, value)| ((metric, dimension), value))
        .collect();
    let want: BTreeMap<(String, String), f64> = [
        (("dead_clicks", "/blog/post-1"), 5.0),
        (("js_errors", "/"), 2.0),
        (("rage_clicks", "/pricing"), 7.0),
    ]
    .into_iter()
    .map(|((metric, path), value)| ((metric.to_owned(), path.to_owned()), value))
    .collect();
    assert_eq!(got, want);
}

per_backend!(
    connect_refusals_name_their_field,
    the_daily_budget_is_kept_and_a_run_stores_friction,
    a_revoked_token_tests_false,
    a_run_reads_the_documented_and_the_answered_spellings,
);
