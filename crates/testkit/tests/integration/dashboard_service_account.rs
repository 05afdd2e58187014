//! The search-engine grant's service-account path in headless Chromium
//! (`e2e/dashboard-service-account.mjs`): Payback's service account shown with the steps for
//! Search Console, what it reaches listed after "verify" (only the site the fake gave it), and
//! that site connected from the list. Afterwards the stored connection is checked here: active,
//! the chosen site, made by the service account, no credential stored.

use base64::Engine as _;
use payback_domain::connection::ConnectionKind;
use payback_server::secret::Secret;
use payback_testkit::browser::{run_browser_script_with_env, spawn_on_wall_clock};
use payback_testkit::fake_google::service_account::TEST_SERVICE_ACCOUNT_EMAIL;
use payback_testkit::{Backend, FakeGoogle, per_backend};

const SLUG: &str = "service-account";
const EMAIL: &str = "service-account@example.com";
const SITE: &str = "https://shop.example/";

async fn service_account(backend: Backend) {
    let google = FakeGoogle::spawn().await;
    google.add_search_console_site(TEST_SERVICE_ACCOUNT_EMAIL, SITE, "siteRestrictedUser");
    google.add_search_console_site(
        "founder@gmail.example",
        "https://private.example/",
        "siteOwner",
    );
    let dir = tempfile::tempdir().expect("a directory for the key file");
    let key_file = dir.path().join("service-account.json");
    std::fs::write(&key_file, google.service_account_key_json()).expect("the key file");
    let origin = google.search_console_base_url();
    let (client_id, client_secret) = (
        google.client_id().to_owned(),
        google.client_secret().to_owned(),
    );
    let app = spawn_on_wall_clock(
        backend,
        move |config| {
            let key = base64::engine::general_purpose::STANDARD.encode([9_u8; 32]);
            config.secret_key = Some(Secret::new(key));
            config.searchco_client_id = Some(client_id);
            config.searchco_client_secret = Some(Secret::new(client_secret));
            config.searchco_search_console = true;
            config.searchco_service_account_key_file = Some(key_file);
            config
                .api_urls
                .insert(ConnectionKind::SearchConsole, origin);
        },
        |_| {},
    )
    .await;
    let owner = app.signup_verified(EMAIL).await;
    app.create_product(&owner.token, SLUG).await;
    let env = [
        ("PAYBACK_E2E_EMAIL", EMAIL.to_owned()),
        ("PAYBACK_E2E_SLUG", SLUG.to_owned()),
        ("PAYBACK_E2E_SITE", SITE.to_owned()),
    ];
    run_browser_script_with_env(&app, "dashboard-service-account", &env).await;

    let listed = app
        .get("/connections", Some(&owner.token))
        .await
        .expect(200)
        .clone();
    let row = listed
        .as_array()
        .expect("connections")
        .iter()
        .find(|row| row["kind"] == "search_console" && row["product_slug"] == SLUG)
        .cloned()
        .unwrap_or_else(|| panic!("no search_console connection in {listed}"));
    assert_eq!(row["status"], "active", "{row}");
    assert_eq!(row["config"]["site_url"], SITE, "{row}");
    assert_eq!(row["config"]["auth"], "service_account", "{row}");
    // The JWT bearer grant was used, and no assertion reached an answer.
    let exchanges = google.requests_to("/token");
    assert!(!exchanges.is_empty(), "the service account bought a token");
    for request in exchanges {
        for (name, value) in request.form() {
            if name == "assertion" {
                assert!(!listed.to_string().contains(&value));
            }
        }
    }
}

per_backend!(service_account);
