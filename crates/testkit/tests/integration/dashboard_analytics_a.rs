//! Google Analytics in headless Chromium (`e2e/dashboard-analytics-a.mjs`): the grant's property
//! picker (the founder's properties, not a rival's) and the card's event maps editor.
//! Afterwards the stored connection is checked here: active, the chosen property, the maps the
//! editor saved, and the one scope Google was asked for.

use base64::Engine as _;
use payback_domain::connection::ConnectionKind;
use payback_server::secret::Secret;
use payback_testkit::browser::{run_browser_script_with_env, spawn_on_wall_clock};
use payback_testkit::fake_google::ANALYTICS_READONLY_SCOPE;
use payback_testkit::{Backend, FakeGoogle, per_backend};
use serde_json::json;

const SLUG: &str = "analytics-shop";
const EMAIL: &str = "analytics@example.com";
const GOOGLE_USER: &str = "founder@gmail.example";
const PROPERTY: &str = "111";

async fn analytics(backend: Backend) {
    let google = FakeGoogle::spawn().await;
    google.add_analytics_property(GOOGLE_USER, "1", "Shop Inc", PROPERTY, "shop.example");
    google.add_analytics_property(GOOGLE_USER, "2", "Blog Co", "112", "blog.example");
    google.add_analytics_property("rival@gmail.example", "9", "Rival", "999", "rival.example");
    google.sign_in_as(GOOGLE_USER);
    let (auth, token, revoke) = (google.auth_url(), google.token_url(), google.revoke_url());
    let (client_id, client_secret) = (
        google.client_id().to_owned(),
        google.client_secret().to_owned(),
    );
    let origin = google.analytics_base_url();
    let app = spawn_on_wall_clock(
        backend,
        move |config| {
            let key = base64::engine::general_purpose::STANDARD.encode([9_u8; 32]);
            config.secret_key = Some(Secret::new(key));
            config.searchco_client_id = Some(client_id);
            config.searchco_client_secret = Some(Secret::new(client_secret));
            config.searchco_auth_url = auth;
            config.searchco_token_url = token;
            config.searchco_revoke_url = revoke;
            config.api_urls.insert(ConnectionKind::AnalyticsA, origin);
        },
        |_| {},
    )
    .await;
    google.register_redirect_uri(&app.url("/connect/searchco/callback"));
    let owner = app.signup_verified(EMAIL).await;
    app.create_product(&owner.token, SLUG).await;
    let env = [
        ("PAYBACK_E2E_EMAIL", EMAIL.to_owned()),
        ("PAYBACK_E2E_SLUG", SLUG.to_owned()),
        ("PAYBACK_E2E_PROPERTY", PROPERTY.to_owned()),
    ];
    run_browser_script_with_env(&app, "dashboard-analytics-a", &env).await;

    let listed = app
        .get("/connections", Some(&owner.token))
        .await
        .expect(200)
        .clone();
    let row = listed
        .as_array()
        .expect("connections")
        .iter()
        .find(|row| row["kind"] == "analytics_a" && row["product_slug"] == SLUG)
        .cloned()
        .unwrap_or_else(|| panic!("no analytics_a connection in {listed}"));
    assert_eq!(row["status"], "active", "{row}");
    assert_eq!(row["config"]["property_id"], PROPERTY, "{row}");
    assert_eq!(
        row["event_maps"],
        json!([
            { "event_name": "sign_up", "stage": "signup" },
            { "event_name": "generate_lead", "stage": "lead" },
        ])
    );
    let consents = google.requests_to("/o/oauth2/v2/auth");
    let scopes: Vec<String> = consents
        .iter()
        .filter_map(|request| request.param("scope"))
        .collect();
    assert_eq!(scopes, [ANALYTICS_READONLY_SCOPE], "{consents:?}");
}

per_backend!(analytics);
