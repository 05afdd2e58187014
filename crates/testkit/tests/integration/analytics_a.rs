//! `analytics_a` through the search-engine grant and the service account, end to end against the
//! loopback Google fake (its GA4 Admin and Data parts written from Google's documentation apart
//! from the connector): the scope asked, the properties offered across pages (the consenting
//! user's only), the choice, sessions and engaged sessions per channel and day equal to what the
//! fake served (first-party visits not added), restated days replaced, event maps, landing
//! sessions, the live test, a revoked grant, the grant revoked only with its last connection,
//! another account's 404s and no token in any answer.

use std::collections::BTreeMap;
use std::path::PathBuf;

use payback_domain::connection::ConnectionKind;
use payback_testkit::fake_google::service_account::TEST_SERVICE_ACCOUNT_EMAIL;
use payback_testkit::fake_google::{ANALYTICS_READONLY_SCOPE, WEBMASTERS_READONLY_SCOPE};
use payback_testkit::{Backend, Bind, FakeGoogle, TestApp, eventually, per_backend};
use serde_json::{Value, json};

use crate::google_grant::{
    Consented, GoogleApp, assert_no_token_in, consent, disconnect_revoking_nothing,
    disconnect_revoking_the_grant, select, service_account_key_file, status, sync, verify,
};
use crate::shop::{founder, listed_connection};

const FOUNDER: &str = "founder@shop.example";
const RIVAL: &str = "rival@elsewhere.example";
const PROPERTY: &str = "111";
const RIVAL_PROPERTY: &str = "999";
const DAYS: [&str; 3] = ["2026-11-18", "2026-11-19", "2026-11-20"];

/// The sessions seeded per day: (source, medium, the channel Payback's rules give them).
const SOURCES: [(&str, &str, Option<&str>); 6] = [
    ("google", "organic", Some("organic_search")),
    ("bing", "organic", Some("organic_search")),
    ("(direct)", "(none)", Some("direct")),
    ("google", "cpc", Some("paid_google")),
    ("l.facebook.com", "referral", Some("organic_social")),
    ("(not set)", "(not set)", None),
];

/// Sessions of source `s` on day `d`, and the engaged ones among them.
fn figures(d: usize, s: usize) -> (u64, u64) {
    let sessions = (10 * d + 3 * s + 2) as u64;
    (sessions, sessions / 2)
}

/// The service wired to the fake (search console on too, so one grant may serve two kinds),
/// with the operator's service-account key file when given.
async fn spawn(backend: Backend, google: &FakeGoogle, key_file: Option<PathBuf>) -> TestApp {
    GoogleApp::new(google)
        .api(ConnectionKind::AnalyticsA, google.analytics_base_url())
        .api(
            ConnectionKind::SearchConsole,
            google.search_console_base_url(),
        )
        .search_console(true)
        .service_account_key(key_file)
        .today("2026-11-21")
        .spawn(backend)
        .await
}

/// The founder's three properties in three accounts (one a page), a rival's property, and the
/// figures of the founder's first property and the rival's.
fn seed(google: &FakeGoogle) {
    google.add_analytics_property(FOUNDER, "1", "Shop Inc", PROPERTY, "shop.example");
    google.add_analytics_property(FOUNDER, "2", "Side Co", "112", "side.example");
    google.add_analytics_property(FOUNDER, "3", "Old Co", "113", "old.example");
    google.add_analytics_property(RIVAL, "9", "Rival", RIVAL_PROPERTY, "rival.example");
    google.set_analytics_summaries_page_cap(1);
    google.add_search_console_site(FOUNDER, "https://shop.example/", "siteOwner");
    for (d, day) in DAYS.iter().enumerate() {
        for (s, (source, medium, _)) in SOURCES.iter().enumerate() {
            let (sessions, engaged) = figures(d, s);
            google.add_analytics_sessions(PROPERTY, day, source, medium, sessions, engaged);
        }
        google.add_analytics_sessions(RIVAL_PROPERTY, day, "google", "organic", 9_999, 9_999);
        google.add_analytics_sessions("112", day, "google", "organic", 7_777, 7_777);
    }
    google.add_analytics_events(PROPERTY, "2026-11-19", "sign_up", 4);
    google.add_analytics_events(PROPERTY, "2026-11-20", "sign_up", 6);
    google.add_analytics_events(PROPERTY, "2026-11-20", "generate_lead", 3);
    google.add_analytics_events(PROPERTY, "2026-11-20", "page_view", 500);
    google.add_analytics_landing(PROPERTY, "2026-11-19", "/", 4);
    google.add_analytics_landing(PROPERTY, "2026-11-20", "/pricing/", 7);
    google.add_analytics_landing(PROPERTY, "2026-11-20", "/pricing?ref=x", 2);
    google.add_analytics_landing(PROPERTY, "2026-11-20", "(not set)", 5);
    google.sign_in_as(FOUNDER);
}

/// Figures a test restated: (day index, source index) to (sessions, engaged sessions).
type Restated = ((usize, usize), (u64, u64));

/// `(stage, channel)` to volume of what the fake serves for `PROPERTY`, as the funnel shows it,
/// after `restated` replaced (day index, source index) figures.
fn expected_funnel(restated: &[Restated]) -> BTreeMap<(String, Option<String>), i64> {
    let mut out: BTreeMap<(String, Option<String>), i64> = BTreeMap::new();
    for d in 0..DAYS.len() {
        for (s, (_, _, channel)) in SOURCES.iter().enumerate() {
            let (sessions, engaged) = restated
                .iter()
                .find(|(at, _)| *at == (d, s))
                .map_or_else(|| figures(d, s), |(_, values)| *values);
            let channel = channel.map(str::to_owned);
            *out.entry(("visit".into(), channel.clone())).or_default() += sessions as i64;
            *out.entry(("engaged".into(), channel)).or_default() += engaged as i64;
        }
    }
    // Mapped events: sign_up as signup, generate_lead as lead (channel-less).
    out.insert(("signup".into(), None), 4 + 6);
    out.insert(("lead".into(), None), 3);
    out.retain(|_, volume| *volume != 0);
    out
}

/// The 7-day funnel as `(stage, channel)` to volume.
async fn funnel(app: &TestApp, key: &str) -> BTreeMap<(String, Option<String>), i64> {
    let rows = app
        .get("/products/shop/funnel?days=7", Some(key))
        .await
        .expect(200)
        .clone();
    rows.as_array()
        .unwrap()
        .iter()
        .map(|row| {
            (
                (
                    row["stage"].as_str().unwrap().to_owned(),
                    row["channel"].as_str().map(str::to_owned),
                ),
                row["volume"].as_i64().unwrap(),
            )
        })
        .collect()
}

async fn product_id(app: &TestApp) -> String {
    app.sql_value(
        "SELECT id FROM products WHERE slug = $1",
        &[Bind::Text("shop")],
    )
    .await
}

const MAPS: &str = "/products/shop/connections/analytics-a/event-maps";

async fn a_founder_connects_a_property_and_its_sessions_land_per_channel(backend: Backend) {
    let google = FakeGoogle::spawn().await;
    seed(&google);
    google.set_analytics_report_page_cap(4);
    let app = spawn(backend, &google, None).await;
    let (owner, key) = founder(&app).await;
    let mut answers: Vec<String> = Vec::new();

    // First-party visits before the property is connected: the snippet's count.
    app.send_events(
        &key,
        "shop",
        json!([
            {"dedupe_id": "v1", "stage": "visit", "anonymous_id": "a-1", "occurred_at": "2026-11-20T08:00:00Z",
             "attribution": {"utm_source": "google", "utm_medium": "organic"}},
            {"dedupe_id": "v2", "stage": "visit", "anonymous_id": "a-2", "occurred_at": "2026-11-20T09:00:00Z",
             "attribution": {"utm_source": "google", "utm_medium": "organic"}},
            {"dedupe_id": "v3", "stage": "visit", "occurred_at": "2026-11-19T09:00:00Z",
             "attribution": {"referrer": "https://l.facebook.com/"}},
        ]),
    )
    .await;
    let before = funnel(&app, &key).await;
    assert_eq!(
        before.get(&("visit".into(), Some("organic_search".into()))),
        Some(&2)
    );

    // Event maps need a connection.
    app.post(MAPS, Some(&key), json!({ "event_maps": [] }))
        .await
        .expect_error(404, "no analytics-a connection for this product");

    let Consented { state, scopes } =
        consent(&app, &google, &owner.token, json!(["analytics_a"])).await;
    assert_eq!(scopes, [ANALYTICS_READONLY_SCOPE]);
    let granted = status(&app, &owner.token, &state).await;
    assert_eq!(granted["status"], "complete", "{granted}");
    // Three pages of one account each; the rival's property is not among them.
    assert_eq!(
        granted["options"],
        json!({ "analytics_a_properties": [
            { "property_id": "111", "display_name": "shop.example", "account": "Shop Inc" },
            { "property_id": "112", "display_name": "side.example", "account": "Side Co" },
            { "property_id": "113", "display_name": "old.example", "account": "Old Co" },
        ] })
    );
    let pages = google.requests_to("/v1beta/accountSummaries");
    assert_eq!(pages.len(), 3, "{pages:?}");
    answers.push(granted.to_string());

    for (body, words) in [
        (
            json!({ "state": state, "analytics_a_property_id": RIVAL_PROPERTY }),
            "analytics_a_property_id: 999 is not a property this grant reaches",
        ),
        (
            json!({ "state": state }),
            "analytics_a_property_id: choose one of 111, 112, 113",
        ),
    ] {
        let reply = select(&app, &owner.token, body).await;
        reply.expect_error(400, words);
        answers.push(reply.text.clone());
    }
    let selected = select(
        &app,
        &owner.token,
        json!({ "state": state, "analytics_a_property_id": PROPERTY }),
    )
    .await
    .expect(200)
    .clone();
    assert_eq!(
        selected,
        json!({ "ok": true, "activated": ["analytics_a"] })
    );
    let connection = listed_connection(&app, &key, "analytics_a")
        .await
        .expect("an analytics_a connection");
    assert_eq!(connection["status"], "active", "{connection}");
    assert_eq!(
        connection["config"]["property_id"], PROPERTY,
        "{connection}"
    );
    answers.push(connection.to_string());

    // Event maps: each field refused by name, another account's product not found.
    for (body, words) in [
        (json!({}), "event_maps"),
        (
            json!({ "event_maps": [{ "event_name": "sign up", "stage": "signup" }] }),
            "event_maps[0].event_name: `sign up` is not a GA4 event name",
        ),
        (
            json!({ "event_maps": [{ "event_name": "sign_up", "stage": "paying" }] }),
            "event_maps[0].stage: `paying` is not a funnel stage",
        ),
        (
            json!({ "event_maps": [{ "event_name": "sign_up", "stage": "signup" }, { "event_name": "page_view", "stage": "visit" }] }),
            "event_maps[1].stage: `visit` is counted from the property's sessions",
        ),
    ] {
        app.post(MAPS, Some(&key), body)
            .await
            .expect_error(400, words);
    }
    let other = app.signup_verified("other@example.com").await;
    app.post(
        MAPS,
        Some(&other.token),
        json!({ "event_maps": [{ "event_name": "sign_up", "stage": "signup" }] }),
    )
    .await
    .expect(404);
    app.post(
        "/products/shop/connections/analytics-a/test",
        Some(&other.token),
        json!({}),
    )
    .await
    .expect(404);
    let maps = json!([
        { "event_name": "sign_up", "stage": "signup" },
        { "event_name": "generate_lead", "stage": "lead" },
    ]);
    let saved = app
        .post(MAPS, Some(&key), json!({ "event_maps": maps }))
        .await
        .expect(200)
        .clone();
    assert_eq!(saved, json!({ "ok": true, "event_maps": maps }));
    let connection = listed_connection(&app, &key, "analytics_a").await.unwrap();
    assert_eq!(connection["event_maps"], maps, "{connection}");

    // The first run: sessions per channel and day, paged by `offset` up to `rowCount`.
    sync(&app).await;
    let reports = google.requests_to(":runReport");
    assert!(
        reports[0]
            .path
            .ends_with("/v1beta/properties/111:runReport"),
        "{}",
        reports[0].path
    );
    let sessions_pages: Vec<Value> = reports
        .iter()
        .map(|request| request.json())
        .filter(|body| {
            body["dimensions"]
                == json!([{"name": "date"}, {"name": "sessionSource"}, {"name": "sessionMedium"}])
        })
        .collect();
    // 18 rows (3 days x 6 sources), 4 a page.
    let offsets: Vec<Value> = sessions_pages.iter().map(|b| b["offset"].clone()).collect();
    assert_eq!(
        offsets,
        [json!("0"), json!("4"), json!("8"), json!("12"), json!("16")]
    );
    assert_eq!(
        sessions_pages[0]["dateRanges"],
        json!([{ "startDate": "2026-10-22", "endDate": "2026-11-21" }])
    );
    let events = reports
        .iter()
        .map(|request| request.json())
        .find(|body| body["dimensions"] == json!([{"name": "date"}, {"name": "eventName"}]))
        .expect("an events report");
    assert_eq!(
        events["dimensionFilter"]["filter"]["inListFilter"]["values"],
        json!(["sign_up", "generate_lead"])
    );
    // The first-party visits no longer add: the property owns visit and engaged.
    assert_eq!(funnel(&app, &key).await, expected_funnel(&[]));
    let last = listed_connection(&app, &key, "analytics_a").await.unwrap();
    assert!(last["last_error"].is_null(), "{last}");

    // Landing sessions: paths without query or trailing `/`, `(not set)` skipped.
    let product = product_id(&app).await;
    let landing: Vec<(String, String, f64)> = app
        .sql_rows(
            "SELECT day, dimension, value FROM snapshots WHERE product_id = $1 \
             AND kind = 'analytics_a' AND metric = 'landing_sessions' ORDER BY day, dimension",
            &[Bind::Text(&product)],
        )
        .await;
    assert_eq!(
        landing,
        vec![
            ("2026-11-19".to_owned(), "/".to_owned(), 4.0),
            ("2026-11-20".to_owned(), "/pricing".to_owned(), 7.0 + 2.0),
        ]
    );

    // A restated day replaces what was read of it; a source gone from a day is gone.
    google.add_analytics_sessions(PROPERTY, DAYS[2], "google", "organic", 1_000, 900);
    google.add_analytics_sessions(PROPERTY, DAYS[1], "bing", "organic", 0, 0);
    app.post(
        "/products/shop/connections/analytics-a/sync",
        Some(&key),
        json!({}),
    )
    .await
    .expect(200);
    let restated = expected_funnel(&[((2, 0), (1_000, 900)), ((1, 1), (0, 0))]);
    let read = eventually(|| funnel(&app, &key), |read| *read == restated).await;
    assert_eq!(read, restated);

    // The live test reads the property; a property the login lost fails with Google's words.
    let tested = app
        .post(
            "/products/shop/connections/analytics-a/test",
            Some(&key),
            json!({}),
        )
        .await
        .expect(200)
        .clone();
    assert_eq!(tested["ok"], true, "{tested}");
    assert!(
        tested["detail"].as_str().unwrap().contains("property 111"),
        "{tested}"
    );
    answers.push(tested.to_string());
    google.remove_analytics_property(FOUNDER, PROPERTY);
    let failed = app
        .post(
            "/products/shop/connections/analytics-a/test",
            Some(&key),
            json!({}),
        )
        .await
        .expect(200)
        .clone();
    assert_eq!(failed["ok"], false, "{failed}");
    assert!(
        failed["detail"]
            .as_str()
            .unwrap()
            .contains("sufficient permissions for this property"),
        "{failed}"
    );
    answers.push(failed.to_string());

    // A grant the person revoked: the run fails and says so.
    google.add_analytics_property(FOUNDER, "1", "Shop Inc", PROPERTY, "shop.example");
    google.revoke_all();
    app.post(
        "/products/shop/connections/analytics-a/sync",
        Some(&key),
        json!({}),
    )
    .await
    .expect(200);
    let errored = eventually(
        || async { listed_connection(&app, &key, "analytics_a").await.unwrap() },
        |errored| !errored["last_error"].is_null(),
    )
    .await;
    assert!(errored["last_error"].is_string(), "{errored}");
    answers.push(errored.to_string());

    assert_no_token_in(&answers, &google);
}

per_backend!(a_founder_connects_a_property_and_its_sessions_land_per_channel);

async fn one_grant_serves_analytics_and_search_console_until_its_last_connection(backend: Backend) {
    let google = FakeGoogle::spawn().await;
    seed(&google);
    let app = spawn(backend, &google, None).await;
    let (owner, key) = founder(&app).await;
    let Consented { state, scopes } = consent(
        &app,
        &google,
        &owner.token,
        json!(["analytics_a", "search_console"]),
    )
    .await;
    assert_eq!(
        scopes,
        [ANALYTICS_READONLY_SCOPE, WEBMASTERS_READONLY_SCOPE]
    );
    let granted = status(&app, &owner.token, &state).await;
    assert_eq!(
        granted["options"]["analytics_a_properties"]
            .as_array()
            .map(Vec::len),
        Some(3),
        "{granted}"
    );
    select(
        &app,
        &owner.token,
        json!({ "state": state, "analytics_a_property_id": "properties/112",
                "search_console_site_url": "https://shop.example/" }),
    )
    .await
    .expect(200);
    let connection = listed_connection(&app, &key, "analytics_a").await.unwrap();
    assert_eq!(connection["config"]["property_id"], "112", "{connection}");

    disconnect_revoking_nothing(&app, &google, &key, "analytics-a").await;
    disconnect_revoking_the_grant(&app, &google, &key, "search-console").await;
}

per_backend!(one_grant_serves_analytics_and_search_console_until_its_last_connection);

async fn the_service_account_connects_a_property_it_can_read(backend: Backend) {
    let google = FakeGoogle::spawn().await;
    seed(&google);
    google.add_analytics_property(
        TEST_SERVICE_ACCOUNT_EMAIL,
        "5",
        "Shop Inc",
        "555",
        "shop.example",
    );
    google.add_analytics_sessions("555", DAYS[2], "google", "organic", 12, 5);
    let dir = tempfile::tempdir().unwrap();
    let key_file = service_account_key_file(&dir, &google.service_account_key_json());
    let app = spawn(backend, &google, Some(key_file)).await;
    let (owner, key) = founder(&app).await;
    let listed = verify(&app, &owner.token, json!({ "product_slug": "shop" }))
        .await
        .expect(200)
        .clone();
    assert_eq!(
        listed["options"]["analytics_a_properties"],
        json!([{ "property_id": "555", "display_name": "shop.example", "account": "Shop Inc" }]),
        "{listed}"
    );
    assert!(listed_connection(&app, &key, "analytics_a").await.is_none());
    verify(
        &app,
        &owner.token,
        json!({ "product_slug": "shop", "analytics_a_property_id": PROPERTY }),
    )
    .await
    .expect_error(
        400,
        "analytics_a_property_id: 111 is not a property this grant reaches",
    );
    let done = verify(
        &app,
        &owner.token,
        json!({ "product_slug": "shop", "analytics_a_property_id": "555" }),
    )
    .await
    .expect(200)
    .clone();
    assert_eq!(done["activated"], json!(["analytics_a"]), "{done}");
    let connection = listed_connection(&app, &key, "analytics_a").await.unwrap();
    assert_eq!(
        connection["config"]["auth"], "service_account",
        "{connection}"
    );
    sync(&app).await;
    let rows = funnel(&app, &key).await;
    assert_eq!(
        rows.get(&("visit".into(), Some("organic_search".into()))),
        Some(&12)
    );
    assert_eq!(
        rows.get(&("engaged".into(), Some("organic_search".into()))),
        Some(&5)
    );
}

per_backend!(the_service_account_connects_a_property_it_can_read);
