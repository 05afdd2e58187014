#![allow(clippy::unwrap_used)]
//! The web dashboard: how the server hands out the app, and the browser tests that drive it in
//! headless Chromium (`e2e/dashboard-*.mjs`), each against a fresh service per backend.

use payback_testkit::browser::{repo_root, run_browser_script};
use payback_testkit::{TestApp, backend_tests};

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
