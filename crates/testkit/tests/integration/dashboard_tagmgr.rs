//! Google Tag Manager in headless Chromium (`e2e/dashboard-tagmgr.mjs`): the grant's container
//! picker (the founder's containers, not a rival's), the tracking page's tag audit, and "Publish
//! to Tag Manager" asking first. Afterwards the fake is checked here: exactly one version
//! published, holding one Custom HTML tag with the product's snippet on All Pages.

use base64::Engine as _;
use payback_domain::Clock as _;
use payback_domain::connection::ConnectionKind;
use payback_server::secret::Secret;
use payback_testkit::browser::{run_browser_script_with_env, spawn_on_wall_clock};
use payback_testkit::fake_google::TagManagerPermission;
use payback_testkit::{Backend, FakeGoogle, per_backend};

const SLUG: &str = "tag-shop";
const EMAIL: &str = "tag-manager@example.com";
const GOOGLE_USER: &str = "founder@gmail.example";
const CONTAINER: &str = "accounts/10/containers/101";

async fn tag_manager(backend: Backend) {
    let google = FakeGoogle::spawn().await;
    google.add_tag_manager_account("10", "Shop");
    google.grant_tag_manager_access(GOOGLE_USER, "10", TagManagerPermission::Publish);
    google.add_tag_manager_container("10", "101", "shop.example", "GTM-SHOP1");
    google.add_tag_manager_container("10", "102", "checkout", "GTM-SHOP2");
    google.add_tag_manager_account("90", "Rival");
    google.grant_tag_manager_access("rival@gmail.example", "90", TagManagerPermission::Publish);
    google.add_tag_manager_container("90", "901", "rival.example", "GTM-RIVAL");
    google.sign_in_as(GOOGLE_USER);
    let (auth, token, revoke) = (google.auth_url(), google.token_url(), google.revoke_url());
    let (client_id, client_secret) = (
        google.client_id().to_owned(),
        google.client_secret().to_owned(),
    );
    let origin = google.tag_manager_base_url();
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
            config.api_urls.insert(ConnectionKind::Tagmgr, origin);
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
        ("PAYBACK_E2E_CONTAINER", CONTAINER.to_owned()),
    ];
    // The job loop's sync pass (the audit), while the script runs.
    let sync_job = async {
        loop {
            payback_server::services::sync::run_due(&app.state, app.clock.now())
                .await
                .expect("a sync pass");
            tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        }
    };
    tokio::select! {
        () = run_browser_script_with_env(&app, "dashboard-tagmgr", &env) => {}
        () = sync_job => unreachable!("the sync loop never ends"),
    }

    let info = app
        .get(
            &format!("/products/{SLUG}/tracking-key"),
            Some(&owner.token),
        )
        .await
        .expect(200)
        .clone();
    let snippet = info["gtm_html"].as_str().expect("the snippet").to_owned();
    let published = google.tag_manager_published(CONTAINER);
    assert_eq!(published.len(), 1, "{published:?}");
    assert_eq!(published[0].tags.len(), 1);
    assert_eq!(published[0].tags[0].kind, "html");
    assert_eq!(published[0].tags[0].html.as_deref(), Some(snippet.as_str()));
    assert_eq!(published[0].tags[0].firing_trigger_ids, ["2147479553"]);
    assert_eq!(
        info["gtm_deploy"]["version_name"],
        published[0].name.as_str()
    );
    assert!(
        google
            .tag_manager_published("accounts/90/containers/901")
            .is_empty()
    );
}

per_backend!(tag_manager);
