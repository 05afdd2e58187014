//! Search ads end to end against the loopback Google fake (`payback_testkit::fake_google`,
//! written from Google's documentation apart from the connector): the search-engine grant's
//! connect flow, spend read into the ads report at every level, approved budgets applied on the
//! network, and the account's URL suffix.
//!
//! - `grant`: start, consent, callback, status, select, and every refusal of the flow.
//! - `phishing`: Payback's confirmation page before Google's (issue 35): provider links sent
//!   to someone else seal nothing, the honest flow completes once the person confirms, tenant
//!   values are escaped, unusable states and foreign posts are refused.
//! - `spend`: syncs compared with an independent sum of the fake's rows, restated days, quota
//!   errors and a revoked grant.
//! - `budgets`: an approval changes the fake's budget by the exact micros; refusals change
//!   nothing; nothing reaches the network before a human approves.
//! - `suffix`: reading, writing and refusing the URL suffix; test and disconnect.
//! - `suffix_doors`: only a person's dashboard session writes the suffix (keys, the operator
//!   token, MCP and chat get 403 and Google sees no write).
//! - `proposed_account`: an approved budget lands only on the customer it was proposed for.

mod budgets;
mod grant;
mod phishing;
mod proposed_account;
mod spend;
mod suffix;
mod suffix_doors;

use base64::Engine as _;
use payback_domain::Clock as _;
use payback_domain::connection::ConnectionKind;
use payback_server::secret::Secret;
use payback_testkit::fake_google::{
    AdGroupSeed, AdSeed, Breakdown, CampaignSeed, CustomerSeed, KeywordSeed, Metrics,
};
use payback_testkit::{Backend, FakeGoogle, Session, TestApp};
use serde_json::{Value, json};

/// The advertiser account the founder connects (`123-456-7890`).
const CUSTOMER: i64 = 1_234_567_890;
/// A manager account with a client of its own.
const MANAGER: i64 = 9_990_001_111;
const MANAGED: i64 = 5_550_002_222;
const SEARCH: i64 = 111;
const PMAX: i64 = 222;

/// The service wired to the fake: OAuth client, developer token, ads API, sealing key (also
/// the other areas' way to a product with Google Ads connected).
pub(crate) async fn spawn(backend: Backend, google: &FakeGoogle) -> TestApp {
    let (auth, token, revoke) = (google.auth_url(), google.token_url(), google.revoke_url());
    let (client_id, client_secret) = (
        google.client_id().to_owned(),
        google.client_secret().to_owned(),
    );
    let (ads, developer_token) = (google.ads_base_url(), google.developer_token().to_owned());
    let app = TestApp::spawn_with(backend, move |config| {
        config.secret_key = Some(Secret::new(
            base64::engine::general_purpose::STANDARD.encode([7_u8; 32]),
        ));
        config.searchco_client_id = Some(client_id);
        config.searchco_client_secret = Some(Secret::new(client_secret));
        config.searchco_auth_url = auth;
        config.searchco_token_url = token;
        config.searchco_revoke_url = revoke;
        config.search_ads_developer_token = Some(Secret::new(developer_token));
        config.api_urls.insert(ConnectionKind::SearchAds, ads);
    })
    .await;
    google.register_redirect_uri(&app.url("/connect/searchco/callback"));
    // Reports count back from the tests' clock, and so does the fake.
    google.set_today("2026-11-21");
    app
}

/// The fake's accounts: a USD advertiser with a search campaign (two ad groups, ads and
/// keywords) and a Performance Max campaign, a manager with one client, and a EUR account.
fn seed(google: &FakeGoogle) {
    google.add_customer(CustomerSeed::new(CUSTOMER, "Shop Ads", "USD"));
    google.add_customer(CustomerSeed::manager_account(MANAGER, "Agency", "USD"));
    google.add_customer(CustomerSeed::new(MANAGED, "Client of agency", "USD").under(MANAGER));
    google.add_campaign(
        CUSTOMER,
        CampaignSeed::new(SEARCH, "Search brand", 20_000_000),
    );
    google.add_campaign(
        CUSTOMER,
        CampaignSeed::new(PMAX, "Everywhere", 30_000_000).performance_max(),
    );
    google.add_ad_group(CUSTOMER, AdGroupSeed::new(11, SEARCH, "Exact"));
    google.add_ad_group(CUSTOMER, AdGroupSeed::new(12, SEARCH, "Broad"));
    google.add_ad(CUSTOMER, AdSeed::new(1_001, 11, "Ad one"));
    google.add_ad(CUSTOMER, AdSeed::new(1_002, 11, "Ad two"));
    google.add_ad(CUSTOMER, AdSeed::new(1_003, 12, "Ad three"));
    google.add_keyword(CUSTOMER, KeywordSeed::new(501, 11, "buy shop"));
    google.add_keyword(CUSTOMER, KeywordSeed::new(502, 12, "shop online"));
}

/// One day of the seeded account's spend, in micros: ads, keywords (a second view of the same
/// ad-group spend) and the Performance Max campaign's own.
fn spend_day(google: &FakeGoogle, day: &str, scale: i64) {
    let ad = |ad_group, ad| Breakdown::Ad { ad_group, ad };
    let keyword = |ad_group, criterion| Breakdown::Keyword {
        ad_group,
        criterion,
    };
    google.add_daily(
        CUSTOMER,
        day,
        ad(11, 1_001),
        Metrics::new(4_000_000 * scale, 100, 10),
    );
    google.add_daily(
        CUSTOMER,
        day,
        ad(11, 1_002),
        Metrics::new(1_500_000 * scale, 50, 5),
    );
    google.add_daily(
        CUSTOMER,
        day,
        ad(12, 1_003),
        Metrics::new(2_250_000 * scale, 80, 4),
    );
    google.add_daily(
        CUSTOMER,
        day,
        keyword(11, 501),
        Metrics::new(5_000_000 * scale, 140, 14),
    );
    google.add_daily(
        CUSTOMER,
        day,
        keyword(12, 502),
        Metrics::new(2_000_000 * scale, 70, 3),
    );
    google.add_daily(
        CUSTOMER,
        day,
        Breakdown::CampaignOnly { campaign: PMAX },
        Metrics::new(3_333_333 * scale, 900, 9),
    );
}

/// Micros to the cents Payback stores: rounded half up, per stored row.
fn cents(micros: i64) -> i64 {
    (micros + 5_000) / 10_000
}

async fn founder(app: &TestApp) -> (Session, String) {
    let owner = app.signup_verified("founder@example.com").await;
    app.create_product(&owner.token, "shop").await;
    let key = app.api_key(&owner).await;
    (owner, key)
}

/// The URL suffix's route for `shop`'s Google Ads connection.
const SUFFIX_PATH: &str = "/products/shop/connections/search-ads/url-suffix";

/// A fake Google whose advertiser already carries the final URL suffix `ref=partner`, the
/// service wired to it, and the founder with an agent key; nothing is connected yet.
async fn suffixed_founder(backend: Backend) -> (FakeGoogle, TestApp, Session, String) {
    let google = FakeGoogle::spawn().await;
    google.add_customer(
        CustomerSeed::new(CUSTOMER, "Shop Ads", "USD").final_url_suffix("ref=partner"),
    );
    let app = spawn(backend, &google).await;
    let (owner, key) = founder(&app).await;
    (google, app, owner, key)
}

/// Writes `shop`'s URL suffix as `token` (the dashboard's button); it must be accepted (200).
/// Answers what was written.
async fn write_suffix(app: &TestApp, token: &str) -> Value {
    app.post(SUFFIX_PATH, Some(token), json!({}))
        .await
        .expect(200)
        .clone()
}

/// `POST /connect/searchco/start` for `shop`'s search ads, answering to `client`.
async fn start_grant(app: &TestApp, token: &str, client: &str) -> Value {
    app.post(
        "/connect/searchco/start",
        Some(token),
        json!({ "product_slug": "shop", "kinds": ["search_ads"], "client": client }),
    )
    .await
    .expect(200)
    .clone()
}

/// Starts the grant for `shop`, plays the human, follows the callback; answers the state.
async fn consent(app: &TestApp, google: &FakeGoogle, token: &str) -> String {
    let started = start_grant(app, token, "api").await;
    let state = started["state"].as_str().unwrap().to_owned();
    let consent_url = app
        .confirm_grant(started["auth_url"].as_str().unwrap())
        .await;
    let back = google.authorize(&consent_url).await;
    let page = app.follow_callback(&back).await;
    assert_eq!(
        page.status().as_u16(),
        200,
        "{}",
        page.text().await.unwrap()
    );
    state
}

/// The whole connect flow for the seeded advertiser; answers the connection as listed.
pub(crate) async fn connect(app: &TestApp, google: &FakeGoogle, token: &str) -> Value {
    let state = consent(app, google, token).await;
    let selected = app
        .post(
            "/connect/searchco/select",
            Some(token),
            json!({ "state": state, "ads_customer_id": "123-456-7890" }),
        )
        .await
        .expect(200)
        .clone();
    assert_eq!(selected, json!({ "ok": true, "activated": ["search_ads"] }));
    search_ads_connection(app, token).await
}

async fn search_ads_connection(app: &TestApp, token: &str) -> Value {
    let listed = app
        .get("/connections", Some(token))
        .await
        .expect(200)
        .clone();
    listed
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["kind"] == "search_ads")
        .cloned()
        .expect("a search_ads connection")
}

/// One pass of the sync job.
async fn sync(app: &TestApp) {
    payback_server::services::sync::run_due(&app.state, app.clock.now())
        .await
        .unwrap();
}
