//! "Detect integrations" on the Connections page in headless Chromium
//! (`e2e/dashboard-detect.mjs`) against the local test site of `detect_integrations.rs`: the
//! page shows the summary, each integration with its connected state and the platform, as the
//! API answers them. Afterwards: the site was asked for the page.

use payback_testkit::browser::{run_browser_script_with_env, spawn_on_wall_clock};
use payback_testkit::{Backend, per_backend};

use crate::detect_integrations::spawn_site;

const SLUG: &str = "detect";
const EMAIL: &str = "detect@example.com";

async fn detect(backend: Backend) {
    let (origin, seen, _) = spawn_site().await;
    let app = spawn_on_wall_clock(
        backend,
        |config| config.allow_private_fetch_hosts = true,
        |_| {},
    )
    .await;
    let owner = app.signup_verified(EMAIL).await;
    app.create_product(&owner.token, SLUG).await;
    let env = [
        ("PAYBACK_E2E_EMAIL", EMAIL.to_owned()),
        ("PAYBACK_E2E_SLUG", SLUG.to_owned()),
        ("PAYBACK_E2E_SITE", format!("{origin}/")),
    ];
    run_browser_script_with_env(&app, "dashboard-detect", &env).await;
    assert!(
        seen.lock()
            .unwrap()
            .iter()
            .filter(|path| *path == "/")
            .count()
            >= 2,
        "the browser's detection and the script's own API call each fetched the page"
    );
}

per_backend!(detect);
