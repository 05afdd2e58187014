//! `product_analytics_a` (PostHog) end to end against the loopback fake of PostHog's API
//! (`payback_testkit::fakes::posthog`), written from PostHog's documentation apart from the
//! connector: the connect and its refusals (a tenant's `host` on a private address refused
//! with nothing sent), the event maps route, a run whose stage rows, `landing_sessions` and
//! friction snapshots equal what the fake holds (counted here, independently), sync now, the
//! stage rows kept after a disconnect, a refused key testing `{ok:false}`, a tenant host when
//! private hosts are allowed, and the key in no answer.

use crate::shop::{founder, listed_connection};
use std::collections::BTreeMap;

use base64::Engine as _;
use payback_domain::connection::ConnectionKind;
use payback_domain::landing_path::landing_path;
use payback_domain::{Clock as _, DAY_MS, HOUR_MS, Timestamp};
use payback_server::secret::Secret;
use payback_testkit::fakes::posthog::{Event, FakePostHog, Recording, Session};
use payback_testkit::{Backend, TEST_START, TestApp, per_backend};
use serde_json::{Value, json};

const KEY: &str = "phx_personal_key_0123456789abcdefghijklmnopqrstu";
const NO_ACCESS_KEY: &str = "phx_key_without_access_to_the_project_00000";
const PROJECT: &str = "4242";
const PATH: &str = "/products/shop/connections/product-analytics-a";

async fn spawn_with(backend: Backend, origin: String, allow_private: bool) -> TestApp {
    TestApp::spawn_with(backend, move |config| {
        config.secret_key = Some(Secret::new(
            base64::engine::general_purpose::STANDARD.encode([9_u8; 32]),
        ));
        config
            .api_urls
            .insert(ConnectionKind::ProductAnalyticsA, origin);
        config.allow_private_fetch_hosts = allow_private;
    })
    .await
}

fn at(days_ago: i64, hour: i64) -> Timestamp {
    TEST_START
        .start_of_day()
        .minus_millis(days_ago * DAY_MS)
        .plus_millis(hour * HOUR_MS)
}

/// Sessions, events and recordings over the last days; one old session outside every window.
pub fn seed(posthog: &FakePostHog) {
    posthog.add_key(KEY);
    posthog.add_key_without_access(NO_ACCESS_KEY);
    posthog.add_project(PROJECT, "Shop");
    let paths = ["/pricing", "/pricing/", "/blog/post-1", "/"];
    for n in 0..40_i64 {
        posthog.add_session(Session {
            id: format!("s{n}"),
            started_at: at(1 + n % 5, n % 20),
            entry_path: paths[(n % 4) as usize].to_owned(),
        });
    }
    posthog.add_session(Session {
        id: "ancient".to_owned(),
        started_at: at(4000, 1),
        entry_path: "/old".to_owned(),
    });
    for n in 0..60_i64 {
        let event = [
            "signed_up",
            "trial_started",
            "$rageclick",
            "$dead_click",
            "$exception",
            "$pageview",
        ][(n % 6) as usize];
        posthog.add_event(Event {
            event: event.to_owned(),
            at: at(1 + n % 4, n % 22),
            pathname: Some(paths[(n % 3) as usize].to_owned()),
            session_id: Some(format!("s{}", n % 7)),
        });
    }
    for n in 0..7_i64 {
        posthog.add_recording(Recording {
            id: format!("s{n}"),
            start_time: at(1 + n % 3, n),
            recording_duration: 30 + n * 10,
            start_url: format!("https://shop.example{}?utm=x", paths[(n % 4) as usize]),
            console_error_count: n % 2,
        });
    }
}

/// Stage rows per (day, stage) as the fake's events give them under `maps`.
fn expected_stage_rows(
    posthog_events: &[(String, Timestamp)],
    maps: &[(&str, &str)],
) -> BTreeMap<(String, String), i64> {
    let mut want = BTreeMap::new();
    for (event, at) in posthog_events {
        if let Some((_, stage)) = maps.iter().find(|(name, _)| name == event) {
            *want.entry((at.day(), (*stage).to_owned())).or_insert(0) += 1;
        }
    }
    want
}

/// The seeded events again (the fake's rows, listed here apart from it).
fn seeded_events() -> Vec<(String, Timestamp, String)> {
    let paths = ["/pricing", "/pricing/", "/blog/post-1"];
    (0..60_i64)
        .map(|n| {
            let event = [
                "signed_up",
                "trial_started",
                "$rageclick",
                "$dead_click",
                "$exception",
                "$pageview",
            ][(n % 6) as usize];
            (
                event.to_owned(),
                at(1 + n % 4, n % 22),
                paths[(n % 3) as usize].to_owned(),
            )
        })
        .collect()
}

async fn connect_refusals_name_their_field(backend: Backend) {
    let posthog = FakePostHog::spawn().await;
    seed(&posthog);
    let app = spawn_with(backend, posthog.base_url(), false).await;
    let (owner, key) = founder(&app).await;
    let mut answers = Vec::new();
    for (body, field) in [
        (json!({ "project_id": PROJECT }), "api_key"),
        (json!({ "api_key": KEY }), "project_id"),
        (json!({ "api_key": KEY, "project_id": "abc" }), "project_id"),
        (
            json!({ "api_key": KEY, "project_id": PROJECT, "host": "eu.posthog.com" }),
            "host",
        ),
        (
            json!({ "api_key": KEY, "project_id": PROJECT, "host": "https://eu.posthog.com/api" }),
            "host",
        ),
        // The fake itself under another name than the operator's origin: a tenant's host on
        // loopback, refused before anything is sent.
        (
            json!({ "api_key": KEY, "project_id": PROJECT, "host": posthog.base_url().replace("127.0.0.1", "localhost") }),
            "host",
        ),
        (
            json!({ "api_key": KEY, "project_id": PROJECT, "host": "http://169.254.169.254" }),
            "host",
        ),
        (
            json!({ "api_key": KEY, "project_id": PROJECT, "host": "http://10.0.0.8:8000" }),
            "host",
        ),
        (
            json!({ "api_key": KEY, "project_id": PROJECT, "host": "http://[::ffff:127.0.0.1]" }),
            "host",
        ),
    ] {
        let refused = app
            .post(PATH, Some(&key), body.clone())
            .await
            .expect(400)
            .clone();
        assert!(
            refused["error"].as_str().unwrap().contains(field),
            "{body} -> {refused}"
        );
        answers.push(refused.to_string());
    }
    // The fetch guard's one rule for tenant origins, in its words: the host as given.
    app.post(
        PATH,
        Some(&key),
        json!({ "api_key": KEY, "project_id": PROJECT, "host": "http://169.254.169.254" }),
    )
    .await
    .expect_error(
        400,
        "host: host `169.254.169.254` is a loopback, private or link-local address",
    );
    assert!(posthog.requests().is_empty(), "{:?}", posthog.requests());
    for (body, words) in [
        (
            json!({ "api_key": "phx_unknown", "project_id": PROJECT }),
            "Personal API key is invalid",
        ),
        (
            json!({ "api_key": NO_ACCESS_KEY, "project_id": PROJECT }),
            "permission",
        ),
    ] {
        let refused = app
            .post(PATH, Some(&key), body.clone())
            .await
            .expect(400)
            .clone();
        let error = refused["error"].as_str().unwrap();
        assert!(
            error.starts_with("api_key:") && error.contains(words),
            "{body} -> {refused}"
        );
        answers.push(refused.to_string());
    }
    assert_eq!(posthog.requests().len(), 2);
    assert!(
        listed_connection(&app, &owner.token, "product_analytics_a")
            .await
            .is_none()
    );

    let stranger = app.signup_verified("stranger@example.com").await;
    let stranger_key = app.api_key(&stranger).await;
    let hidden = app
        .post(
            PATH,
            Some(&stranger_key),
            json!({ "api_key": KEY, "project_id": PROJECT }),
        )
        .await
        .expect(404)
        .clone();
    answers.push(hidden.to_string());
    // No maps without a connection.
    app.post(
        &format!("{PATH}/event-maps"),
        Some(&key),
        json!({ "event_maps": [] }),
    )
    .await
    .expect(404);
    for answer in answers {
        assert!(
            !answer.contains(KEY) && !answer.contains(NO_ACCESS_KEY),
            "{answer}"
        );
    }
}

async fn a_run_lands_sessions_stages_and_friction(backend: Backend) {
    let posthog = FakePostHog::spawn().await;
    seed(&posthog);
    let app = spawn_with(backend, posthog.base_url(), false).await;
    let (owner, key) = founder(&app).await;
    let connected = app
        .post(
            PATH,
            Some(&key),
            json!({ "api_key": KEY, "project_id": PROJECT }),
        )
        .await
        .expect(200)
        .clone();
    assert_eq!(connected["ok"], true);
    let listed = listed_connection(&app, &owner.token, "product_analytics_a")
        .await
        .unwrap();
    assert_eq!(listed["config"]["project_id"], PROJECT);
    assert!(!listed.to_string().contains(KEY));
    let proof = &posthog.requests()[0];
    assert_eq!(proof.path, format!("/api/projects/{PROJECT}/"));
    assert_eq!(
        proof.header("authorization"),
        Some(format!("Bearer {KEY}").as_str())
    );

    // Event maps: refusals by field, another account's 404, then the maps saved.
    let maps_path = format!("{PATH}/event-maps");
    for (body, field) in [
        (
            json!({ "event_maps": [{ "event": "", "stage": "signup" }] }),
            "event_maps[0].event",
        ),
        (
            json!({ "event_maps": [{ "event": "a", "stage": "nope" }] }),
            "event_maps[0].stage",
        ),
        (
            json!({ "event_maps": [{ "event": "a", "stage": "lead" }, { "event": "a", "stage": "signup" }] }),
            "event_maps[1].event",
        ),
    ] {
        let refused = app
            .post(&maps_path, Some(&key), body.clone())
            .await
            .expect(400)
            .clone();
        assert!(
            refused["error"].as_str().unwrap().starts_with(field),
            "{body} -> {refused}"
        );
    }
    // The event-map check shared with analytics_a, with PostHog's field and free-text names.
    app.post(
        &maps_path,
        Some(&key),
        json!({ "event_maps": [{ "event": "signed\u{7}up", "stage": "signup" }] }),
    )
    .await
    .expect_error(
        400,
        "event_maps[0].event: `signed\u{7}up` is not a PostHog event name (no control characters",
    );
    let stranger = app.signup_verified("stranger@example.com").await;
    let stranger_key = app.api_key(&stranger).await;
    app.post(&maps_path, Some(&stranger_key), json!({ "event_maps": [] }))
        .await
        .expect(404);
    let maps = [("signed_up", "signup"), ("trial_started", "signup")];
    let saved = app
        .post(
            &maps_path,
            Some(&key),
            json!({ "event_maps": maps.iter().map(|(event, stage)| json!({ "event": event, "stage": stage })).collect::<Vec<_>>() }),
        )
        .await
        .expect(200)
        .clone();
    assert_eq!(saved["ok"], true);
    assert_eq!(
        saved["event_maps"][0],
        json!({ "event": "signed_up", "stage": "signup" })
    );

    payback_server::services::sync::run_due(&app.state, app.clock.now())
        .await
        .unwrap();
    let row = listed_connection(&app, &owner.token, "product_analytics_a")
        .await
        .unwrap();
    assert_eq!(row["last_error"], Value::Null, "{row}");
    for query in posthog.requests_to("/query/") {
        assert_eq!(query.json()["query"]["kind"], "HogQLQuery");
        assert_eq!(
            query.header("authorization"),
            Some(format!("Bearer {KEY}").as_str())
        );
    }

    // Stage rows: the mapped events per day, counted here from the seed.
    let events = seeded_events();
    let pairs: Vec<(String, Timestamp)> =
        events.iter().map(|(e, at, _)| (e.clone(), *at)).collect();
    let want = expected_stage_rows(&pairs, &maps);
    let got: Vec<(String, String, i64)> = app
        .sql_rows(
            "SELECT day, stage, volume FROM aggregate_stage_days WHERE source = 'product_analytics_a' ORDER BY day, stage",
            &[],
        )
        .await;
    let got: BTreeMap<(String, String), i64> = got
        .into_iter()
        .map(|(day, stage, volume)| ((day, stage), volume))
        .collect();
    assert_eq!(got, want);
    assert!(!want.is_empty());

    // Sessions per entry path and day, and friction per path and day.
    let mut want_snapshots: BTreeMap<(String, String, String), f64> = BTreeMap::new();
    let paths = ["/pricing", "/pricing/", "/blog/post-1", "/"];
    for n in 0..40_i64 {
        let key = (
            at(1 + n % 5, n % 20).day(),
            "landing_sessions".to_owned(),
            landing_path(paths[(n % 4) as usize]),
        );
        *want_snapshots.entry(key).or_default() += 1.0;
    }
    for (event, at, path) in &events {
        let word = match event.as_str() {
            "$rageclick" => "rage_clicks",
            "$dead_click" => "dead_clicks",
            "$exception" => "js_errors",
            _ => continue,
        };
        *want_snapshots
            .entry((at.day(), word.to_owned(), landing_path(path)))
            .or_default() += 1.0;
    }
    let got: Vec<(String, String, String, f64)> = app
        .sql_rows(
            "SELECT day, metric, dimension, value FROM snapshots WHERE kind = 'product_analytics_a' \
             AND metric <> 'recording'",
            &[],
        )
        .await;
    let got: BTreeMap<(String, String, String), f64> =
        got.into_iter().map(|(d, m, p, v)| ((d, m, p), v)).collect();
    assert_eq!(got, want_snapshots);

    // Sync now is allowed for this kind.
    let started = app
        .post(&format!("{PATH}/sync"), Some(&key), json!({}))
        .await
        .expect(200)
        .clone();
    assert_eq!(started["ok"], true, "{started}");

    // A refused key tests false; the stage rows stay after a disconnect.
    posthog.revoke(KEY);
    let tested = app
        .post(&format!("{PATH}/test"), Some(&key), json!({}))
        .await
        .expect(200)
        .clone();
    assert_eq!(tested["ok"], false, "{tested}");
    assert!(!tested.to_string().contains(KEY));
    app.post(&format!("{PATH}/disconnect"), Some(&key), json!({}))
        .await
        .expect(200);
    let kept: Vec<(String, String, i64)> = app
        .sql_rows(
            "SELECT day, stage, volume FROM aggregate_stage_days WHERE source = 'product_analytics_a'",
            &[],
        )
        .await;
    assert_eq!(kept.len(), want.len());
}

async fn a_tenant_host_is_used_when_private_hosts_are_allowed(backend: Backend) {
    let posthog = FakePostHog::spawn().await;
    seed(&posthog);
    // The operator's origin points elsewhere: the tenant's host is what answers.
    let app = spawn_with(backend, "http://127.0.0.1:9".to_owned(), true).await;
    let (owner, key) = founder(&app).await;
    let host = posthog.base_url();
    app.post(
        PATH,
        Some(&key),
        json!({ "api_key": KEY, "project_id": PROJECT, "host": format!("{host}/") }),
    )
    .await
    .expect(200);
    let listed = listed_connection(&app, &owner.token, "product_analytics_a")
        .await
        .unwrap();
    assert_eq!(listed["config"]["host"], host);
    payback_server::services::sync::run_due(&app.state, app.clock.now())
        .await
        .unwrap();
    let row = listed_connection(&app, &owner.token, "product_analytics_a")
        .await
        .unwrap();
    assert_eq!(row["last_error"], Value::Null, "{row}");
    let recordings = app
        .get("/products/shop/recordings", Some(&key))
        .await
        .expect(200)
        .clone();
    assert_eq!(
        recordings["recordings_url"],
        format!("{host}/project/{PROJECT}/replay")
    );
    assert_eq!(
        recordings["recordings"][0]["url"]
            .as_str()
            .unwrap()
            .split("/replay/")
            .next()
            .unwrap(),
        format!("{host}/project/{PROJECT}")
    );
}

/// Connects with [`KEY`] to the fake and runs the due syncs once; answers the app, the
/// connection's row after the run and the founder's API key.
async fn connect_and_run(backend: Backend, posthog: &FakePostHog) -> (TestApp, Value, String) {
    let app = spawn_with(backend, posthog.base_url(), false).await;
    let (owner, key) = founder(&app).await;
    app.post(
        PATH,
        Some(&key),
        json!({ "api_key": KEY, "project_id": PROJECT }),
    )
    .await
    .expect(200);
    payback_server::services::sync::run_due(&app.state, app.clock.now())
        .await
        .unwrap();
    let row = listed_connection(&app, &owner.token, "product_analytics_a")
        .await
        .unwrap();
    (app, row, key)
}

/// PostHog answers 100 rows to a statement without `LIMIT` and clamps a larger `LIMIT`
/// (posthog.com/docs/api/queries): every statement sets its own and the run pages on
/// `hasMore`, so the sessions land whole; a throttle's short `Retry-After` is waited out.
async fn a_run_pages_its_queries_and_waits_out_a_short_throttle(backend: Backend) {
    let posthog = FakePostHog::spawn().await;
    seed(&posthog);
    posthog.cap_query_rows(3);
    posthog.throttle_next("/query/", 1, 1);
    let (app, row, _) = connect_and_run(backend, &posthog).await;
    assert_eq!(row["last_error"], Value::Null, "{row}");

    let queries = posthog.requests_to("/query/");
    // The throttled request, then its retry: the same statement twice.
    assert_eq!(queries[0].json(), queries[1].json());
    let mut offsets = Vec::new();
    for query in &queries {
        let statement = query.json()["query"]["query"].as_str().unwrap().to_owned();
        let (_, tail) = statement.rsplit_once(" LIMIT ").expect("an explicit LIMIT");
        let (limit, offset) = tail.split_once(" OFFSET ").expect("an OFFSET");
        assert_eq!(limit, "10000", "{statement}");
        offsets.push(offset.parse::<usize>().unwrap());
    }
    assert!(offsets.contains(&3) && offsets.contains(&6), "{offsets:?}");

    let mut want: BTreeMap<(String, String), f64> = BTreeMap::new();
    let paths = ["/pricing", "/pricing/", "/blog/post-1", "/"];
    for n in 0..40_i64 {
        *want
            .entry((
                at(1 + n % 5, n % 20).day(),
                landing_path(paths[(n % 4) as usize]),
            ))
            .or_default() += 1.0;
    }
    let got: Vec<(String, String, f64)> = app
        .sql_rows(
            "SELECT day, dimension, value FROM snapshots WHERE kind = 'product_analytics_a' \
             AND metric = 'landing_sessions'",
            &[],
        )
        .await;
    let got: BTreeMap<(String, String), f64> =
        got.into_iter().map(|(d, p, v)| ((d, p), v)).collect();
    assert!(want.len() > 3, "more rows than one page");
    assert_eq!(got, want);
}

/// A throttle asking for longer than a run waits (the HogQL API's hourly quota) fails the call
/// at once, saying how long, with no retry spent on it.
async fn a_long_retry_after_fails_at_once(backend: Backend) {
    let posthog = FakePostHog::spawn().await;
    seed(&posthog);
    let (app, _, key) = connect_and_run(backend, &posthog).await;
    let before = posthog.requests().len();
    posthog.throttle_next(&format!("/api/projects/{PROJECT}/"), 1, 3600);
    let tested = app
        .post(&format!("{PATH}/test"), Some(&key), json!({}))
        .await
        .expect(200)
        .clone();
    assert_eq!(tested["ok"], false, "{tested}");
    assert!(
        tested["detail"].as_str().unwrap().contains("3600"),
        "{tested}"
    );
    assert_eq!(posthog.requests().len(), before + 1, "no retry");
}

/// PostHog's server lists recordings as `{results, has_next}` with no `next` URL (its API
/// reference shows `{count, next, previous, results}`): the run asks the next `offset`.
async fn recordings_page_by_offset_when_the_server_answers_has_next(backend: Backend) {
    let posthog = FakePostHog::spawn().await;
    seed(&posthog);
    posthog.list_recordings_as_the_server_does();
    for n in 0..130_i64 {
        posthog.add_recording(Recording {
            id: format!("r{n}"),
            start_time: at(2, 1).plus_millis(n * 60_000),
            recording_duration: 10,
            start_url: "https://shop.example/pricing".to_owned(),
            console_error_count: 0,
        });
    }
    let (app, row, _) = connect_and_run(backend, &posthog).await;
    assert_eq!(row["last_error"], Value::Null, "{row}");
    let pages = posthog.requests_to("/session_recordings");
    let offsets: Vec<Option<String>> = pages.iter().map(|page| page.param("offset")).collect();
    assert_eq!(offsets, vec![None, Some("100".to_owned())]);
    let stored: Vec<(String,)> = app
        .sql_rows(
            "SELECT dimension FROM snapshots WHERE kind = 'product_analytics_a' \
             AND metric = 'recording'",
            &[],
        )
        .await;
    // The seed's 7 and these 130, each once.
    assert_eq!(stored.len(), 137);
}

per_backend!(
    connect_refusals_name_their_field,
    a_run_lands_sessions_stages_and_friction,
    a_tenant_host_is_used_when_private_hosts_are_allowed,
    a_run_pages_its_queries_and_waits_out_a_short_throttle,
    a_long_retry_after_fails_at_once,
    recordings_page_by_offset_when_the_server_answers_has_next,
);
