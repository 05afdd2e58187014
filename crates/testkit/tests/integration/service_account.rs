//! The search-engine grant's service-account path (`/connect/searchco/service-account/start`
//! and `/verify`), end to end against the loopback Google fake: the operator's key file, the
//! JWT bearer grant checked by signature at the fake's token endpoint, what the account was
//! given access to (and nothing else), a site proven by a live read and connected without any
//! sealed credential, its searches synced as the grant's are, a foreign key refused, and
//! nothing to revoke at disconnect.

use std::collections::BTreeMap;

use payback_domain::connection::ConnectionKind;
use payback_testkit::fake_google::QueryFigures;
use payback_testkit::fake_google::service_account::{
    TEST_SERVICE_ACCOUNT_EMAIL, untrusted_key_json,
};
use payback_testkit::{Backend, FakeGoogle, TestApp, per_backend};
use serde_json::{Value, json};

use crate::google_grant::{
    GoogleApp, disconnect_revoking_nothing, service_account_key_file, sync, verify,
};
use crate::shop::{founder, listed_connection};

const SITE: &str = "https://shop.example/";
const FOUNDERS_OTHER_SITE: &str = "https://private.example/";
const DAY: &str = "2026-11-20";
const JWT_BEARER: &str = "urn:ietf:params:oauth:grant-type:jwt-bearer";

/// How the operator configured the key file.
enum KeyFile {
    Unset,
    Trusted,
    Untrusted,
}

/// The service wired to the fake with the operator's key file written to `dir`.
async fn spawn(
    backend: Backend,
    google: &FakeGoogle,
    key: KeyFile,
    dir: &tempfile::TempDir,
) -> TestApp {
    let key_json = match key {
        KeyFile::Unset => None,
        KeyFile::Trusted => Some(google.service_account_key_json()),
        KeyFile::Untrusted => Some(untrusted_key_json(&google.token_url())),
    };
    let key_file = key_json.map(|json| service_account_key_file(dir, &json));
    // One origin serves every Google API the path connects.
    let origin = google.search_console_base_url();
    GoogleApp::new(google)
        .api(ConnectionKind::SearchConsole, origin.clone())
        .api(ConnectionKind::AnalyticsA, origin.clone())
        .api(ConnectionKind::Tagmgr, origin)
        .search_console(true)
        .service_account_key(key_file)
        .today("2026-11-21")
        .spawn(backend)
        .await
}

/// The account may read `SITE`; the founder's own login has another site the account was
/// never given.
fn seed(google: &FakeGoogle) {
    google.add_search_console_site(TEST_SERVICE_ACCOUNT_EMAIL, SITE, "siteRestrictedUser");
    google.add_search_console_site("founder@gmail.example", FOUNDERS_OTHER_SITE, "siteOwner");
    google.add_search_console_site(
        TEST_SERVICE_ACCOUNT_EMAIL,
        "https://old.example/",
        "siteUnverifiedUser",
    );
    google.add_search_console_row(
        SITE,
        DAY,
        "running shoes",
        QueryFigures::new(4.0, 120.0, 3.5),
    );
    google.add_search_console_row(SITE, DAY, "trail shoes", QueryFigures::new(2.0, 30.0, 8.0));
    google.add_search_console_row(
        FOUNDERS_OTHER_SITE,
        DAY,
        "secret",
        QueryFigures::new(99.0, 999.0, 1.0),
    );
}

async fn start(app: &TestApp, token: &str, body: Value) -> payback_testkit::Reply {
    app.post("/connect/searchco/service-account/start", Some(token), body)
        .await
}

/// The search columns of the 7-day timeseries, on days with any.
async fn search_columns(app: &TestApp, key: &str) -> BTreeMap<String, (f64, f64)> {
    let series = app
        .get("/products/shop/timeseries?days=7", Some(key))
        .await
        .expect(200)
        .clone();
    series["rows"]
        .as_array()
        .or_else(|| series.as_array())
        .expect("timeseries rows")
        .iter()
        .map(|row| {
            (
                row["day"].as_str().unwrap().to_owned(),
                (
                    row["search_clicks"].as_f64().unwrap_or(0.0),
                    row["search_impressions"].as_f64().unwrap_or(0.0),
                ),
            )
        })
        .filter(|(_, (clicks, impressions))| *clicks != 0.0 || *impressions != 0.0)
        .collect()
}

async fn not_configured_answers_503(backend: Backend) {
    let google = FakeGoogle::spawn().await;
    let dir = tempfile::tempdir().unwrap();
    let app = spawn(backend, &google, KeyFile::Unset, &dir).await;
    let (owner, _) = founder(&app).await;
    start(
        &app,
        &owner.token,
        json!({"product_slug": "shop", "kinds": ["search_console"]}),
    )
    .await
    .expect_error(503, "PAYBACK_SEARCHCO_SERVICE_ACCOUNT_KEY_FILE");
    verify(&app, &owner.token, json!({"product_slug": "shop"}))
        .await
        .expect_error(503, "PAYBACK_SEARCHCO_SERVICE_ACCOUNT_KEY_FILE");
}

per_backend!(not_configured_answers_503);

async fn start_names_the_account_and_refuses_what_is_not_on_the_path(backend: Backend) {
    let google = FakeGoogle::spawn().await;
    let dir = tempfile::tempdir().unwrap();
    let app = spawn(backend, &google, KeyFile::Trusted, &dir).await;
    let (owner, key) = founder(&app).await;
    let started = start(
        &app,
        &key,
        json!({"product_slug": "shop", "kinds": ["search_console"]}),
    )
    .await
    .expect(200)
    .clone();
    assert_eq!(started["sa_email"], TEST_SERVICE_ACCOUNT_EMAIL);
    assert_eq!(started["kinds"], json!(["search_console"]));
    let steps = started["instructions"]["search_console"]
        .as_array()
        .expect("steps");
    assert!(
        steps
            .iter()
            .any(|step| step.as_str().unwrap().contains(TEST_SERVICE_ACCOUNT_EMAIL)),
        "{started}"
    );
    for (body, words) in [
        (
            json!({"product_slug": "shop", "kinds": ["search_ads"]}),
            "kinds: search_ads cannot be connected by a service account",
        ),
        (json!({"product_slug": "shop", "kinds": []}), "kinds"),
        (
            json!({"product_slug": "shop", "kinds": ["payments"]}),
            "kinds: `payments` is not a kind of the search-engine grant",
        ),
        (
            json!({"product_slug": "", "kinds": ["search_console"]}),
            "product_slug",
        ),
        (json!({"kinds": ["search_console"]}), "product_slug"),
    ] {
        start(&app, &owner.token, body)
            .await
            .expect_error(400, words);
    }
    let rival = app.signup_verified("rival@elsewhere.example").await;
    start(
        &app,
        &rival.token,
        json!({"product_slug": "shop", "kinds": ["search_console"]}),
    )
    .await
    .expect_error(404, "product");
    verify(
        &app,
        &rival.token,
        json!({"product_slug": "shop", "search_console_site_url": SITE}),
    )
    .await
    .expect_error(404, "product");
    // Nothing is stored by a start.
    assert!(
        listed_connection(&app, &key, "search_console")
            .await
            .is_none()
    );
}

per_backend!(start_names_the_account_and_refuses_what_is_not_on_the_path);

async fn a_site_given_to_the_account_is_proven_connected_and_synced(backend: Backend) {
    let google = FakeGoogle::spawn().await;
    seed(&google);
    let dir = tempfile::tempdir().unwrap();
    let app = spawn(backend, &google, KeyFile::Trusted, &dir).await;
    let (owner, key) = founder(&app).await;
    let mut answers: Vec<String> = Vec::new();

    // Without ids: what the account reaches, nothing else, and nothing connected.
    let listed = verify(&app, &key, json!({"product_slug": "shop"}))
        .await
        .expect(200)
        .clone();
    // The account was given one site and nothing in the other Google products.
    assert_eq!(
        listed,
        json!({
            "sa_email": TEST_SERVICE_ACCOUNT_EMAIL,
            "options": {
                "analytics_a_properties": [],
                "tagmgr_containers": [],
                "search_console_sites": [
                    { "site_url": SITE, "permission_level": "siteRestrictedUser" },
                ],
            },
        })
    );
    answers.push(listed.to_string());
    assert!(
        listed_connection(&app, &key, "search_console")
            .await
            .is_none()
    );

    // A site the account was never given, or cannot read: 400 naming the field, nothing made.
    for site in [FOUNDERS_OTHER_SITE, "https://old.example/"] {
        let reply = verify(
            &app,
            &key,
            json!({"product_slug": "shop", "search_console_site_url": site}),
        )
        .await;
        reply.expect_error(400, "search_console_site_url: ");
        answers.push(reply.text.clone());
    }
    assert!(
        listed_connection(&app, &key, "search_console")
            .await
            .is_none()
    );

    let verified = verify(
        &app,
        &owner.token,
        json!({"product_slug": "shop", "search_console_site_url": SITE}),
    )
    .await
    .expect(200)
    .clone();
    assert_eq!(
        verified,
        json!({
            "status": "complete",
            "ok": true,
            "sa_email": TEST_SERVICE_ACCOUNT_EMAIL,
            "activated": ["search_console"],
        })
    );
    let connection = listed_connection(&app, &key, "search_console")
        .await
        .expect("connected");
    assert_eq!(connection["status"], "active", "{connection}");
    assert_eq!(connection["config"]["site_url"], SITE, "{connection}");
    assert_eq!(
        connection["config"]["auth"], "service_account",
        "{connection}"
    );
    answers.push(connection.to_string());

    // Its backfill runs unasked at the next pass, through the account's token.
    sync(&app).await;
    let searched = search_columns(&app, &key).await;
    assert_eq!(
        searched,
        BTreeMap::from([(DAY.to_owned(), (6.0, 150.0))]),
        "the sums of what the fake served for the account's site only"
    );

    // Every token came from a JWT bearer grant, none from a refresh token.
    let exchanges = google.requests_to("/token");
    assert!(!exchanges.is_empty());
    for request in &exchanges {
        let form = request.form();
        assert!(
            form.iter()
                .any(|(k, v)| k == "grant_type" && v == JWT_BEARER),
            "{form:?}"
        );
        for (_, value) in form.iter().filter(|(k, _)| k == "assertion") {
            assert!(
                answers
                    .iter()
                    .all(|answer| !answer.contains(value.as_str()))
            );
        }
    }

    // Disconnect: nothing to revoke, no credential to delete.
    disconnect_revoking_nothing(&app, &google, &key, "search-console").await;
}

per_backend!(a_site_given_to_the_account_is_proven_connected_and_synced);

async fn a_key_google_does_not_know_is_refused_in_googles_words(backend: Backend) {
    let google = FakeGoogle::spawn().await;
    seed(&google);
    let dir = tempfile::tempdir().unwrap();
    let app = spawn(backend, &google, KeyFile::Untrusted, &dir).await;
    let (_, key) = founder(&app).await;
    let listed = verify(&app, &key, json!({"product_slug": "shop"}))
        .await
        .expect(200)
        .clone();
    let reason = listed["options"]["errors"]["search_console"]
        .as_str()
        .expect("a reason");
    assert!(reason.contains("Invalid JWT Signature."), "{listed}");
    verify(
        &app,
        &key,
        json!({"product_slug": "shop", "search_console_site_url": SITE}),
    )
    .await
    .expect_error(400, "search_console_site_url: ");
    assert!(
        listed_connection(&app, &key, "search_console")
            .await
            .is_none()
    );
}

per_backend!(a_key_google_does_not_know_is_refused_in_googles_words);
