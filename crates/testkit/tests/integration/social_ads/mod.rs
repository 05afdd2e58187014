//! Social ads end to end against loopback fakes of Meta (`payback_testkit::fake_meta`) and
//! LinkedIn (`payback_testkit::fake_linkedin`), each written from the vendor's documentation
//! apart from the connectors: the social-network grant's connect flow, key-based connects and
//! the policy wall, spend read into the reports at every level compared with independent sums,
//! the campaign filter, approved Meta budgets applied, and the organic page's snapshots.
//!
//! - `grant`: start, the Login dialog, callback, status, select, and the flow's refusals.
//! - `keys`: key-based connects (with and without ids), the adult-adjacent wall, test and
//!   disconnect.
//! - `spend`: Meta and LinkedIn spend, CAC and ROAS per channel and per ads level; the
//!   campaign filter; expired tokens and throttling.
//! - `budgets`: an approval changes the fake's budget (campaign or ad set) by the exact minor
//!   units; refusals change nothing; nothing reaches Meta before a human approves.
//! - `page`: the organic page's daily snapshots in the timeseries' `social_*` columns.
//! - `phishing`: Payback's confirmation page before Meta's Login dialog (issue 35), the
//!   callback bound to the confirming browser, and the dialog's PKCE proven at the exchange.
//! - `proposed_account`: an approved Meta budget lands only on the ad account it was
//!   proposed for.

mod budgets;
mod grant;
mod keys;
mod page;
mod phishing;
mod proposed_account;
mod spend;

use base64::Engine as _;
use payback_domain::Clock as _;
use payback_domain::connection::ConnectionKind;
use payback_server::secret::Secret;
use payback_testkit::fake_linkedin::{
    AccountSeed, CampaignSeed as LinkedInCampaign, CreativeSeed, Metrics as LinkedInMetrics, R_ADS,
    R_ADS_REPORTING,
};
use payback_testkit::fake_meta::{
    AdAccountSeed, AdSeed, AdSetSeed, CampaignSeed, IgAccountSeed, Metrics, PageSeed,
};
use payback_testkit::{Backend, FakeLinkedIn, FakeMeta, Session, TestApp};
use serde_json::{Value, json};

/// The tests' today, as the fakes count it.
const TODAY: &str = "2026-11-21";
/// The USD ad account the founder connects, one in EUR, and one Meta disabled.
const ACCOUNT: i64 = 1_001;
const EURO_ACCOUNT: i64 = 1_002;
const DISABLED_ACCOUNT: i64 = 1_003;
/// A campaign with an Advantage campaign budget (two ad sets), one whose budget lives on its
/// only ad set, and one with two ad-set budgets (a change there is refused).
const BRAND: i64 = 2_001;
const PROSPECTING: i64 = 2_002;
const SPLIT: i64 = 2_003;
const PAGE: i64 = 5_001;
const INSTAGRAM: i64 = 6_001;
/// A token pasted into the key connect (the grant mints its own through the dialog).
const META_TOKEN: &str = "EAA-pasted-user-token";
const LINKEDIN_TOKEN: &str = "AQX-linkedin-token";
const LINKEDIN_ACCOUNT: i64 = 507;
const LINKEDIN_OTHER: i64 = 508;

/// The service wired to both fakes: the Meta app, both vendors' API origins, a sealing key.
async fn spawn(backend: Backend, meta: &FakeMeta, linkedin: &FakeLinkedIn) -> TestApp {
    let (dialog, token) = (meta.dialog_url(), meta.token_url());
    let (app_id, app_secret) = (meta.app_id().to_owned(), meta.app_secret().to_owned());
    let (graph, rest) = (meta.base_url(), linkedin.base_url());
    let app = TestApp::spawn_with(backend, move |config| {
        config.secret_key = Some(Secret::new(
            base64::engine::general_purpose::STANDARD.encode([5_u8; 32]),
        ));
        config.socialco_client_id = Some(app_id);
        config.socialco_client_secret = Some(Secret::new(app_secret));
        config.socialco_auth_url = Some(dialog);
        config.socialco_token_url = Some(token);
        config
            .api_urls
            .insert(ConnectionKind::SocialAdsA, graph.clone());
        config.api_urls.insert(ConnectionKind::SocialA, graph);
        config.api_urls.insert(ConnectionKind::SocialAdsB, rest);
    })
    .await;
    meta.register_redirect_uri(&app.url("/connect/socialco/callback"));
    meta.set_today(TODAY);
    linkedin.set_today(TODAY);
    app
}

/// Meta's accounts: the USD advertiser with three campaigns (see the constants), a EUR account
/// and a disabled one; a page with its Instagram account; the pasted token.
fn seed_meta(meta: &FakeMeta) {
    meta.add_ad_account(AdAccountSeed::new(ACCOUNT, "Shop Ads", "USD"));
    meta.add_ad_account(AdAccountSeed::new(EURO_ACCOUNT, "Euro shop", "EUR"));
    meta.add_ad_account(AdAccountSeed::new(DISABLED_ACCOUNT, "Old shop", "USD").account_status(2));
    meta.add_campaign(
        ACCOUNT,
        CampaignSeed::new(BRAND, "Brand - retargeting").daily_budget(2_000),
    );
    meta.add_campaign(ACCOUNT, CampaignSeed::new(PROSPECTING, "Prospecting US"));
    meta.add_campaign(ACCOUNT, CampaignSeed::new(SPLIT, "Brand - split"));
    meta.add_adset(AdSetSeed::new(3_001, BRAND, "Visitors"));
    meta.add_adset(AdSetSeed::new(3_002, BRAND, "Cart"));
    meta.add_adset(AdSetSeed::new(3_003, PROSPECTING, "Lookalikes").daily_budget(1_500));
    meta.add_adset(AdSetSeed::new(3_004, SPLIT, "A").daily_budget(700));
    meta.add_adset(AdSetSeed::new(3_005, SPLIT, "B").daily_budget(800));
    for (ad, adset, name) in [
        (4_001, 3_001, "Carousel"),
        (4_002, 3_002, "Video"),
        (4_003, 3_003, "Lookalike hero"),
        (4_004, 3_004, "Split A"),
        (4_005, 3_005, "Split B"),
    ] {
        meta.add_ad(AdSeed::new(ad, adset, name));
    }
    meta.add_page(PageSeed::new(PAGE, "Shop").instagram(IgAccountSeed::new(INSTAGRAM, "shop")));
    meta.add_user_token(
        META_TOKEN,
        &[
            "ads_read",
            "ads_management",
            "pages_show_list",
            "pages_read_engagement",
            "read_insights",
        ],
    );
}

/// One ad's day: (ad, campaign, ad set, spend as Meta writes it, impressions, clicks).
type AdDay = (i64, i64, i64, &'static str, i64, i64);

/// Per day, each ad's.
const META_DAYS: [(&str, [AdDay; 5]); 2] = [
    (
        "2026-11-19",
        [
            (4_001, BRAND, 3_001, "12.34", 1_000, 40),
            (4_002, BRAND, 3_002, "5.5", 400, 12),
            (4_003, PROSPECTING, 3_003, "20.01", 3_000, 90),
            (4_004, SPLIT, 3_004, "3.99", 200, 5),
            (4_005, SPLIT, 3_005, "0.07", 10, 0),
        ],
    ),
    (
        "2026-11-20",
        [
            (4_001, BRAND, 3_001, "7.10", 800, 20),
            (4_002, BRAND, 3_002, "0", 0, 0),
            (4_003, PROSPECTING, 3_003, "31.45", 4_100, 130),
            (4_004, SPLIT, 3_004, "2.00", 150, 3),
            (4_005, SPLIT, 3_005, "1.25", 90, 2),
        ],
    ),
];

/// Meta's decimal spend as cents, computed independently of the connector (the fake's amounts
/// have at most two decimals).
fn meta_cents(spend: &str) -> i64 {
    let (units, fraction) = spend.split_once('.').unwrap_or((spend, ""));
    let fraction = format!("{fraction:0<2}");
    units.parse::<i64>().unwrap() * 100 + fraction[..2].parse::<i64>().unwrap()
}

fn seed_meta_spend(meta: &FakeMeta) {
    for (day, rows) in META_DAYS {
        for (ad, _, _, spend, impressions, clicks) in rows {
            meta.set_day(ad, day, Metrics::new(spend, impressions, clicks));
        }
    }
}

/// LinkedIn: the USD account (two campaigns, one with a creative and spend the creatives do not
/// cover) and a second USD account (so discovery must ask for a choice).
fn seed_linkedin(linkedin: &FakeLinkedIn) {
    linkedin.add_token(LINKEDIN_TOKEN, &[R_ADS, R_ADS_REPORTING]);
    linkedin.add_ad_account(AccountSeed::new(LINKEDIN_ACCOUNT, "Shop B2B", "USD"));
    linkedin.add_ad_account(AccountSeed::new(LINKEDIN_OTHER, "Agency", "USD"));
    linkedin.add_campaign(LINKEDIN_ACCOUNT, LinkedInCampaign::new(11, "Founders"));
    linkedin.add_campaign(LINKEDIN_ACCOUNT, LinkedInCampaign::new(12, "CTOs"));
    linkedin.add_creative(11, CreativeSeed::new(71, Some("Hero")));
    linkedin.add_creative(12, CreativeSeed::new(72, None));
}

/// LinkedIn's days: (creative or None for the campaign's own, campaign, day, cost).
const LINKEDIN_DAYS: [(Option<i64>, i64, &str, &str); 4] = [
    (Some(71), 11, "2026-11-19", "40.10"),
    (Some(72), 12, "2026-11-19", "9.90"),
    (None, 12, "2026-11-19", "1.05"),
    (Some(71), 11, "2026-11-20", "22.00"),
];

fn seed_linkedin_spend(linkedin: &FakeLinkedIn) {
    for (creative, campaign, day, cost) in LINKEDIN_DAYS {
        match creative {
            Some(creative) => linkedin.set_day(creative, day, LinkedInMetrics::new(cost, 500, 9)),
            None => linkedin.set_campaign_day(campaign, day, LinkedInMetrics::new(cost, 20, 1)),
        }
    }
}

async fn founder(app: &TestApp) -> (Session, String) {
    let owner = app.signup_verified("founder@example.com").await;
    app.create_product(&owner.token, "shop").await;
    let key = app.api_key(&owner).await;
    (owner, key)
}

/// `POST /products/shop/connections/social-ads-a` with the pasted token and the USD account.
async fn connect_meta_ads(app: &TestApp, token: &str) -> Value {
    app.post(
        "/products/shop/connections/social-ads-a",
        Some(token),
        json!({ "access_token": META_TOKEN, "ad_account_id": ACCOUNT.to_string() }),
    )
    .await
    .expect(200)
    .clone()
}

async fn connect_linkedin(app: &TestApp, token: &str) -> Value {
    app.post(
        "/products/shop/connections/social-ads-b",
        Some(token),
        json!({ "access_token": LINKEDIN_TOKEN, "ad_account_id": LINKEDIN_ACCOUNT.to_string() }),
    )
    .await
    .expect(200)
    .clone()
}

/// The connection of `kind` as `GET /connections` lists it.
async fn connection(app: &TestApp, token: &str, kind: &str) -> Option<Value> {
    let listed = app
        .get("/connections", Some(token))
        .await
        .expect(200)
        .clone();
    listed
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["kind"] == kind)
        .cloned()
}

/// One pass of the sync job.
async fn sync(app: &TestApp) {
    payback_server::services::sync::run_due(&app.state, app.clock.now())
        .await
        .unwrap();
}

/// `POST /connect/socialco/start` with `body` as `token`; it must be accepted (200).
async fn start_grant(app: &TestApp, token: &str, body: Value) -> Value {
    app.post("/connect/socialco/start", Some(token), body)
        .await
        .expect(200)
        .clone()
}

/// The grant `state`'s status as `token` polls it.
async fn grant_status(app: &TestApp, token: &str, state: &str) -> Value {
    app.get(
        &format!("/connect/socialco/status?state={state}"),
        Some(token),
    )
    .await
    .expect(200)
    .clone()
}

/// `POST /connect/socialco/select` with `body` as `token`; it must be accepted (200). Answers
/// what it activated.
async fn select_grant(app: &TestApp, token: &str, body: Value) -> Value {
    app.post("/connect/socialco/select", Some(token), body)
        .await
        .expect(200)
        .clone()
}
