//! The web dashboard: how the server hands out the app, and the browser tests that drive it in
//! headless Chromium (`e2e/dashboard-*.mjs`), each against a fresh service per backend.

// The connector's own tests and these share one Stripe fake; this file uses only part of it.
use crate::stripe_fake;

use base64::Engine as _;
use payback_domain::{Clock, DAY_MS, SystemClock};
use payback_server::secret::Secret;
use payback_testkit::browser::{
    repo_root, run_browser_script, run_browser_script_with_env, spawn_on_wall_clock,
};
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

async fn account_pages(backend: Backend) {
    let app = spawn_on_wall_clock(backend, |_| {}, |_| {}).await;
    run_browser_script(&app, "dashboard-account").await;
}

async fn reports_pages(backend: Backend) {
    let app = spawn_on_wall_clock(backend, |_| {}, |_| {}).await;
    run_browser_script(&app, "dashboard-reports").await;
}

async fn funnel_pages(backend: Backend) {
    let app = spawn_on_wall_clock(backend, |_| {}, |_| {}).await;
    run_browser_script(&app, "dashboard-funnel").await;
}

async fn queue_pages(backend: Backend) {
    let app = spawn_on_wall_clock(backend, |_| {}, |_| {}).await;
    run_browser_script(&app, "dashboard-queue").await;
}

/// The journey: sign up, verify, log in, create a product, send events, see the
/// attribution match the API, approve an agent's proposal, find it in history.
async fn sign_up_to_approval(backend: Backend) {
    let app = spawn_on_wall_clock(backend, |_| {}, |_| {}).await;
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
    let app = spawn_on_wall_clock(
        backend,
        move |config| {
            let key = base64::engine::general_purpose::STANDARD.encode([9_u8; 32]);
            config.secret_key = Some(Secret::new(key));
            config.stripe_api_base = base;
        },
        |_| {},
    )
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

/// The Google Ads account `e2e/dashboard-search-ads.mjs` connects (`123-456-7890`), its search
/// campaign (whose daily budget the approved proposal changes from $20 to $35) and the
/// Performance Max campaign next to it.
const E2E_ADS_CUSTOMER: i64 = 1_234_567_890;
const E2E_ADS_SEARCH: i64 = 111;
const E2E_ADS_PMAX: i64 = 222;
/// The account's own suffix, which Payback keeps when it appends its parameters.
const E2E_ADS_OWN_SUFFIX: &str = "ref=ads";

/// The fake Google's accounts: the advertiser (USD, three ads under two ad groups, two keywords,
/// a Performance Max campaign, spend on two recent days), a manager with a client (shown, not
/// choosable) and an account in EUR (not choosable for a USD product). Answers the spend the
/// dashboard must show, in cents: every seeded amount is whole cents, so no rounding is involved.
fn e2e_google_seed(google: &payback_testkit::FakeGoogle) -> i64 {
    use payback_testkit::fake_google::{
        AdGroupSeed, AdSeed, Breakdown, CampaignSeed, CustomerSeed, Day, KeywordSeed, Metrics,
    };
    let customer = E2E_ADS_CUSTOMER;
    google.add_customer(
        CustomerSeed::new(customer, "Shop Ads", "USD").final_url_suffix(E2E_ADS_OWN_SUFFIX),
    );
    google.add_customer(CustomerSeed::manager_account(
        9_990_001_111,
        "Agency",
        "USD",
    ));
    google.add_customer(
        CustomerSeed::new(5_550_002_222, "Client of agency", "USD").under(9_990_001_111),
    );
    google.add_customer(CustomerSeed::new(4_440_003_333, "Euro shop", "EUR"));
    google.add_campaign(
        customer,
        CampaignSeed::new(E2E_ADS_SEARCH, "Search brand", 20_000_000),
    );
    google.add_campaign(
        customer,
        CampaignSeed::new(E2E_ADS_PMAX, "Everywhere", 30_000_000).performance_max(),
    );
    google.add_ad_group(customer, AdGroupSeed::new(11, E2E_ADS_SEARCH, "Exact"));
    google.add_ad_group(customer, AdGroupSeed::new(12, E2E_ADS_SEARCH, "Broad"));
    google.add_ad(customer, AdSeed::new(1_001, 11, "Ad one"));
    google.add_ad(customer, AdSeed::new(1_002, 11, "Ad two"));
    google.add_ad(customer, AdSeed::new(1_003, 12, "Ad three"));
    google.add_keyword(customer, KeywordSeed::new(501, 11, "buy shop"));
    google.add_keyword(customer, KeywordSeed::new(502, 12, "shop online"));
    let ad = |ad_group, ad| Breakdown::Ad { ad_group, ad };
    let keyword = |ad_group, criterion| Breakdown::Keyword {
        ad_group,
        criterion,
    };
    // (where, micros, impressions, clicks); keywords are a second view of their ad groups.
    let rows = [
        (ad(11, 1_001), 4_000_000, 100, 10),
        (ad(11, 1_002), 1_500_000, 50, 5),
        (ad(12, 1_003), 2_250_000, 80, 4),
        (keyword(11, 501), 5_500_000, 150, 15),
        (keyword(12, 502), 2_250_000, 80, 4),
        (
            Breakdown::CampaignOnly {
                campaign: E2E_ADS_PMAX,
            },
            3_330_000,
            900,
            9,
        ),
    ];
    let mut spend_micros = 0;
    for days_ago in [1, 3] {
        let day = Day::today().plus(-days_ago).to_string();
        for (at, micros, impressions, clicks) in &rows {
            google.add_daily(
                customer,
                &day,
                *at,
                Metrics::new(*micros, *impressions, *clicks),
            );
            if !matches!(at, Breakdown::Keyword { .. }) {
                spend_micros += micros;
            }
        }
    }
    spend_micros / 10_000
}

/// Google Ads in the dashboard against the loopback Google fake: the person signs in, sees a
/// first connect attempt end in words (its code exchange fails), connects Google Ads (the fake's
/// consent page sends the browser back through the callback), picks the
/// advertiser among the accounts the grant reaches, sees the card, writes the URL suffix after
/// confirming, sees the spend of the first sync at every level of the ads report, and approves
/// an agent's proposal (made here with an API key) to see it applied with before and after.
/// The sync job runs here while the script does (it has no "Sync now"); afterwards the fake's
/// budget is the approved amount in micros and its suffix the one written.
async fn search_ads_page(backend: Backend) {
    use payback_domain::connection::ConnectionKind;
    use serde_json::json;

    let google = payback_testkit::FakeGoogle::spawn().await;
    let spend_cents = e2e_google_seed(&google);
    let (auth, token, revoke) = (google.auth_url(), google.token_url(), google.revoke_url());
    let (client_id, client_secret) = (
        google.client_id().to_owned(),
        google.client_secret().to_owned(),
    );
    let (ads, developer_token) = (google.ads_base_url(), google.developer_token().to_owned());
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
            config.search_ads_developer_token = Some(Secret::new(developer_token));
            config.api_urls.insert(ConnectionKind::SearchAds, ads);
        },
        |_| {},
    )
    .await;
    google.register_redirect_uri(&app.url("/connect/searchco/callback"));

    let email = "google-ads@example.com";
    let owner = app.signup_verified(email).await;
    app.post(
        "/products",
        Some(&owner.token),
        json!({ "name": "Google Shop", "slug": "google-shop", "currency": "USD" }),
    )
    .await
    .expect(200);
    let key = app.api_key(&owner).await;
    let proposal = app
        .post(
            "/products/google-shop/proposals",
            Some(&key),
            json!({
                "network": "google",
                "campaign_id": E2E_ADS_SEARCH.to_string(),
                "from_cents": 2_000,
                "to_cents": 3_500,
                "rationale": "Brand search pays back in a week and runs out of budget by noon.",
            }),
        )
        .await
        .expect(202)["proposal_id"]
        .as_str()
        .expect("proposal_id")
        .to_owned();
    assert!(
        google.requests_to("campaignBudgets").is_empty(),
        "nothing reaches the network before a person approves"
    );
    // The first consent's code exchange fails, so the page shows a grant ending in an error.
    google.fail_next(
        "/token",
        1,
        payback_testkit::fake_google::Fail::Unauthenticated,
    );

    let env = [
        ("PAYBACK_E2E_EMAIL", email.to_owned()),
        ("PAYBACK_E2E_SLUG", "google-shop".to_owned()),
        ("PAYBACK_E2E_PROPOSAL", proposal),
        ("PAYBACK_E2E_SPEND_CENTS", spend_cents.to_string()),
    ];
    // The job loop's sync pass, while the script runs (test apps run no jobs of their own).
    let sync_job = async {
        loop {
            payback_server::services::sync::run_due(&app.state, app.clock.now())
                .await
                .expect("a sync pass");
            tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        }
    };
    tokio::select! {
        () = run_browser_script_with_env(&app, "dashboard-search-ads", &env) => {}
        () = sync_job => unreachable!("the sync loop never ends"),
    }

    assert_eq!(
        google.budget_micros(E2E_ADS_CUSTOMER, E2E_ADS_SEARCH),
        Some(35_000_000),
        "the approved daily budget, in micros, on the campaign's budget"
    );
    assert_eq!(
        google.budget_micros(E2E_ADS_CUSTOMER, E2E_ADS_PMAX),
        Some(30_000_000),
        "the other campaign's budget is untouched"
    );
    assert_eq!(
        google.final_url_suffix(E2E_ADS_CUSTOMER).as_deref(),
        Some(
            "ref=ads&utm_source=google&utm_medium=cpc&utm_campaign={campaignid}&utm_id={adgroupid}&utm_term={keyword}&utm_content={creative}"
        ),
        "the account's own parameter kept, Payback's appended"
    );
}

per_backend!(search_ads_page);

/// A product page behind a backlog: with the fold held, the frame's banner shows the count the
/// API reports; once the script has seen it the fold goes on, and the banner goes.
async fn backlog_banner(backend: Backend) {
    // The production wait (test apps otherwise wait for the whole fold).
    let app = spawn_on_wall_clock(backend, |config| config.read_wait_ms = 1_000, |_| {}).await;
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

per_backend!(
    backlog_banner,
    account_pages,
    reports_pages,
    funnel_pages,
    queue_pages,
    sign_up_to_approval,
);

backend_tests!(
    the_app_is_served_at_the_root_with_safe_headers,
    assets_are_immutable_and_compressed,
    a_missing_asset_is_a_json_404,
);
