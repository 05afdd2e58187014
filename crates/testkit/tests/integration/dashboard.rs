//! The web dashboard: how the server hands out the app, and the browser tests that drive it in
//! headless Chromium (`e2e/dashboard-*.mjs`), each against a fresh service per backend.

// The connector's own tests and these share one Stripe fake; this file uses only part of it.
use crate::stripe_fake;

use base64::Engine as _;
use payback_domain::{Clock, DAY_MS, SystemClock};
use payback_server::secret::Secret;
use payback_testkit::browser::{repo_root, run_browser_script, run_browser_script_with_env};
use payback_testkit::{Backend, TestApp, backend_tests, per_backend};
use stripe_fake::{FakeCharge, FakeRefund, Seed, StripeFake};

/// The built app's hashed script, as named in `web/dist/assets`.
fn built_script() -> String {
    let assets = repo_root().join("web/dist/assets");
    let entries = std::fs::read_dir(&assets).expect("web/dist/assets (built by crates/web)");
    entries
        .filter_map(Result::ok)
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .find(|name| name.ends_with(".js"))
        .expect("a built script")
}

async fn the_app_is_served_at_the_root_with_safe_headers(app: TestApp) {
    let page = app.get("/", None).await;
    assert_eq!(page.status, 200, "{}", page.text);
    assert!(
        page.header("content-type")
            .unwrap_or_default()
            .starts_with("text/html")
    );
    assert_eq!(page.header("cache-control").unwrap_or_default(), "no-cache");
    assert_eq!(page.header("x-frame-options").unwrap_or_default(), "DENY");
    let csp = page.header("content-security-policy").unwrap_or_default();
    assert!(
        csp.contains("script-src 'self'") && csp.contains("frame-ancestors 'none'"),
        "{csp}"
    );
    let script = built_script();
    assert!(
        page.text.contains(&format!("/assets/{script}")),
        "{}",
        page.text
    );
}

async fn assets_are_immutable_and_compressed(app: TestApp) {
    let script = built_script();
    let reply = app
        .client
        .get(app.url(&format!("/assets/{script}")))
        .header("accept-encoding", "gzip")
        .send()
        .await
        .expect("asset");
    assert_eq!(reply.status(), 200);
    let header = |name: &str| {
        reply
            .headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned()
    };
    assert_eq!(
        header("cache-control"),
        "public, max-age=31536000, immutable"
    );
    assert_eq!(header("content-encoding"), "gzip");
    assert!(header("content-type").contains("javascript"));
    let on_disk = std::fs::read(repo_root().join("web/dist/assets").join(&script)).unwrap();
    let compressed = reply.bytes().await.unwrap();
    assert!(
        compressed.len() < on_disk.len(),
        "{} >= {}",
        compressed.len(),
        on_disk.len()
    );
}

async fn a_missing_asset_is_a_json_404(app: TestApp) {
    app.get("/assets/nothing-here.js", None)
        .await
        .expect_error(404, "assets/nothing-here.js");
    // The API's own fallbacks are untouched by the dashboard's routes.
    app.get("/no-such-route", None).await.expect_error(404, "");
}

async fn account_pages(app: TestApp) {
    run_browser_script(&app, "dashboard-account").await;
}

async fn reports_pages(app: TestApp) {
    run_browser_script(&app, "dashboard-reports").await;
}

async fn funnel_pages(app: TestApp) {
    run_browser_script(&app, "dashboard-funnel").await;
}

async fn queue_pages(app: TestApp) {
    run_browser_script(&app, "dashboard-queue").await;
}

/// The journey: sign up, verify, log in, create a product, send events, see the
/// attribution match the API, approve an agent's proposal, find it in history.
async fn sign_up_to_approval(app: TestApp) {
    run_browser_script(&app, "dashboard-journey").await;
}

/// The key `e2e/dashboard-connections.mjs` connects with, and what the fake holds for it: two
/// charges of 4900 and 2900 cents in the last 30 days and a 900-cent refund of the first, so a
/// sync brings 6900 cents of revenue.
const E2E_STRIPE_KEY: &str = "sk_test_e2eKey123";

fn e2e_stripe_seed() -> Seed {
    let days_ago = |days: i64| (SystemClock.now().millis() - days * DAY_MS) / 1000;
    let mut first = FakeCharge::succeeded("ch_e2e_1", 4_900, "usd", days_ago(3));
    first.billing_email = Some("first@example.com".into());
    let mut second = FakeCharge::succeeded("ch_e2e_2", 2_900, "usd", days_ago(5));
    second.billing_email = Some("second@example.com".into());
    Seed {
        charges: vec![first, second],
        refunds: vec![FakeRefund::succeeded(
            "re_e2e_1",
            900,
            "ch_e2e_1",
            "usd",
            days_ago(1),
        )],
        ..Seed::default()
    }
}

/// The connections page against a Stripe fake: connect, test, sync now, disconnect.
async fn connections_page(backend: Backend) {
    let fake = StripeFake::start(E2E_STRIPE_KEY, e2e_stripe_seed()).await;
    let base = fake.base_url.clone();
    let app = TestApp::spawn_with(backend, move |config| {
        let key = base64::engine::general_purpose::STANDARD.encode([9_u8; 32]);
        config.secret_key = Some(Secret::new(key));
        config.stripe_api_base = base;
    })
    .await;
    run_browser_script(&app, "dashboard-connections").await;
}

#[tokio::test]
async fn connections_page_sqlite() {
    connections_page(Backend::Sqlite).await;
}

#[tokio::test]
async fn connections_page_postgres() {
    connections_page(Backend::Postgres).await;
}

/// A product page behind a backlog: with the fold held, the frame's banner shows the count the
/// API reports; once the script has seen it the fold goes on, and the banner goes.
async fn backlog_banner(backend: Backend) {
    // The production wait (test apps otherwise wait for the whole fold).
    let app = TestApp::spawn_with(backend, |config| config.read_wait_ms = 1_000).await;
    let signals = tempfile::tempdir().unwrap();
    let seen = signals.path().join("banner-seen");
    app.state.ingest.pause_folding().await;
    let env = [("PAYBACK_BACKLOG_SEEN", seen.display().to_string())];
    let resume = async {
        // The script fails (and with it this test) if it never gets as far as the banner.
        while !seen.exists() {
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        app.state.ingest.resume_folding().await;
    };
    tokio::join!(
        run_browser_script_with_env(&app, "dashboard-backlog", &env),
        resume
    );
}

per_backend!(backlog_banner);

backend_tests!(
    the_app_is_served_at_the_root_with_safe_headers,
    assets_are_immutable_and_compressed,
    a_missing_asset_is_a_json_404,
    account_pages,
    reports_pages,
    funnel_pages,
    queue_pages,
    sign_up_to_approval,
);
