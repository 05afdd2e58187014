//! A loopback fake of Google's OAuth 2.0 provider and of the Google Ads API's REST interface,
//! written from Google's public documentation alone, so tests prove a connector speaks the
//! documented contract rather than one fake's habits.
//!
//! One server on `127.0.0.1:0` answers:
//! - OAuth 2.0 for web server applications (`oauth.rs`): `GET /o/oauth2/v2/auth` (the consent
//!   screen, played by a scripted human), `POST /token`, `POST /revoke`,
//! - the Google Ads API (`ads.rs`) under any `/v{N}/` version: `customers:listAccessibleCustomers`,
//!   `googleAds:search` (paged by a small page size), `googleAds:searchStream`,
//!   `campaignBudgets:mutate`, `customers/{id}:mutate`, answering GAQL (`gaql.rs`) from the
//!   accounts a test seeds (`state.rs`, which documents how the daily rows add up),
//! - the Search Console API (`search_console.rs`): `webmasters/v3/sites`, `sites/{site}` and
//!   `sites/{site}/searchAnalytics/query` (paged by `startRow`/`rowLimit`), each user's sites
//!   apart (the human signed in on the consent screen is [`FakeGoogle::sign_in_as`]),
//! - errors in Google's documented shapes (`errors.rs`).
//!
//! ```ignore
//! let google = FakeGoogle::spawn().await;
//! google.add_customer(CustomerSeed::new(1234567890, "Shop", "USD"));
//! google.add_campaign(1234567890, CampaignSeed::new(11, "Brand", 50_000_000));
//! // PAYBACK_SEARCH_ADS_API_URL = google.ads_base_url(), the auth/token/revoke URLs likewise.
//! let location = google.authorize(&auth_url_the_app_built).await; // the human consents
//! ```
//!
//! Every request is recorded ([`FakeGoogle::requests`]) before anything else happens to it, so a
//! test can check what the connector sent, even for requests the fake refused.

mod ads;
mod analytics;
mod errors;
mod gaql;
mod oauth;
mod search_console;
pub mod service_account;
mod state;
mod tagmgr;

use std::sync::{Arc, Mutex, MutexGuard};

use axum::Router;
use axum::response::Response;
use axum::routing::{any, get, post};

pub use super::day::Day;
pub use super::human::ErrorPage as ConsentPage;
pub use super::recorder::RecordedRequest;
pub use analytics::{ANALYTICS_READONLY_SCOPE, ANALYTICS_SCOPE};
pub use search_console::{QueryFigures, WEBMASTERS_READONLY_SCOPE, WEBMASTERS_SCOPE};
pub use state::{
    ADWORDS_SCOPE, AdGroupSeed, AdSeed, Breakdown, CampaignSeed, Channel, CustomerSeed,
    DEFAULT_USER, Fail, KeywordSeed, MatchType, Metrics, Status,
};
pub use tagmgr::{
    FakeTag, PublishedVersion, TAGMANAGER_EDIT_CONTAINERS_SCOPE, TAGMANAGER_EDIT_VERSIONS_SCOPE,
    TAGMANAGER_PUBLISH_SCOPE, TAGMANAGER_READONLY_SCOPE, TagManagerPermission,
};

pub(crate) use super::lock;
use super::loopback::LoopbackServer;
use super::{human, recorder};

pub(crate) type Shared = Arc<Mutex<state::State>>;

/// Who the fake is to the app: the OAuth client it knows and the developer token it accepts.
#[derive(Debug, Clone)]
pub struct FakeGoogleConfig {
    pub client_id: String,
    pub client_secret: String,
    pub developer_token: String,
    /// Rows per `googleAds:search` page and per `searchStream` batch (Google's is 10,000; small
    /// here so paging is exercised).
    pub page_size: usize,
}

impl Default for FakeGoogleConfig {
    fn default() -> Self {
        Self {
            client_id: "payback-test.apps.googleusercontent.com".to_owned(),
            client_secret: "GOCSPX-payback-test-secret".to_owned(),
            developer_token: "payback-test-developer-token".to_owned(),
            page_size: 3,
        }
    }
}

/// Tokens as if the human had already consented with offline access.
#[derive(Debug, Clone)]
pub struct IssuedTokens {
    pub access_token: String,
    pub refresh_token: String,
}

/// What the human's browser shows: Google's consent screen.
const SCREEN: &str = "the consent screen";

/// The running fake; the server stops when this is dropped.
pub struct FakeGoogle {
    server: LoopbackServer,
    config: FakeGoogleConfig,
    shared: Shared,
}

impl std::fmt::Debug for FakeGoogle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.server.describe("FakeGoogle", f)
    }
}

impl FakeGoogle {
    /// Starts the fake with the default client and developer token.
    pub async fn spawn() -> Self {
        Self::spawn_with(FakeGoogleConfig::default()).await
    }

    pub async fn spawn_with(config: FakeGoogleConfig) -> Self {
        let mut state = state::State::new(
            config.client_id.clone(),
            config.client_secret.clone(),
            config.developer_token.clone(),
        );
        state.page_size = config.page_size.max(1);
        let shared: Shared = Arc::new(Mutex::new(state));
        let routes = Router::new()
            .route("/o/oauth2/v2/auth", get(oauth::authorize))
            .route("/token", post(oauth::token))
            .route("/revoke", post(oauth::revoke))
            .route("/webmasters/v3/{*rest}", any(search_console::dispatch))
            .route("/v1beta/{*rest}", any(analytics::dispatch))
            .route("/tagmanager/v2/{*rest}", any(tagmgr::dispatch))
            .fallback(ads::dispatch);
        let app = recorder::recording(routes, shared.clone());
        Self {
            server: LoopbackServer::spawn("Google", app).await,
            config,
            shared,
        }
    }

    fn base(&self) -> &str {
        self.server.origin()
    }

    fn state(&self) -> MutexGuard<'_, state::State> {
        lock(&self.shared)
    }

    // ---- where it listens ----------------------------------------------------------------

    /// `http://127.0.0.1:PORT`: the OAuth endpoints' origin (Google's are
    /// `accounts.google.com` and `oauth2.googleapis.com`; here one server).
    pub fn oauth_base(&self) -> String {
        self.base().to_owned()
    }

    /// The authorization endpoint (`https://accounts.google.com/o/oauth2/v2/auth`).
    pub fn auth_url(&self) -> String {
        format!("{}/o/oauth2/v2/auth", self.base())
    }

    /// The token endpoint (`https://oauth2.googleapis.com/token`).
    pub fn token_url(&self) -> String {
        format!("{}/token", self.base())
    }

    /// The key file of the test service account
    /// ([`service_account::TEST_SERVICE_ACCOUNT_EMAIL`]), exchanged at this fake's token endpoint.
    pub fn service_account_key_json(&self) -> String {
        service_account::test_key_json(&self.token_url())
    }

    /// The revocation endpoint (`https://oauth2.googleapis.com/revoke`).
    pub fn revoke_url(&self) -> String {
        format!("{}/revoke", self.base())
    }

    /// The Ads API origin (`https://googleads.googleapis.com`), without a version: calls go to
    /// `{ads_base_url}/v21/customers/...` (any `v{N}`).
    pub fn ads_base_url(&self) -> String {
        self.base().to_owned()
    }

    pub fn client_id(&self) -> &str {
        &self.config.client_id
    }

    pub fn client_secret(&self) -> &str {
        &self.config.client_secret
    }

    pub fn developer_token(&self) -> &str {
        &self.config.developer_token
    }

    // ---- seeding --------------------------------------------------------------------------

    pub fn add_customer(&self, seed: CustomerSeed) {
        self.state().add_customer(seed);
    }

    /// Adds a campaign (and its budget) to `customer`.
    pub fn add_campaign(&self, customer: i64, seed: CampaignSeed) {
        self.state().add_campaign(customer, seed);
    }

    pub fn add_ad_group(&self, customer: i64, seed: AdGroupSeed) {
        self.state().add_ad_group(customer, seed);
    }

    pub fn add_ad(&self, customer: i64, seed: AdSeed) {
        self.state().add_ad(customer, seed);
    }

    pub fn add_keyword(&self, customer: i64, seed: KeywordSeed) {
        self.state().add_keyword(customer, seed);
    }

    /// Sets one day's metrics of an ad, a keyword or a campaign's own spend (`day` is
    /// `YYYY-MM-DD`); a later call for the same day and breakdown replaces the row, as Google
    /// restates recent days. How the breakdowns add up is in `state.rs`: ad rows
    /// make ad groups, campaigns and customers; campaign-only rows add to their campaign;
    /// keyword rows are a second view of ad-group spend and add to nothing.
    pub fn add_daily(&self, customer: i64, day: &str, at: Breakdown, metrics: Metrics) {
        let day = Day::parse(day)
            .unwrap_or_else(|| panic!("add_daily takes a YYYY-MM-DD day, not {day:?}"));
        self.state().add_daily(customer, day, at, metrics);
    }

    /// The day `DURING` ranges count back from (default: today, UTC).
    pub fn set_today(&self, day: &str) {
        let day = Day::parse(day)
            .unwrap_or_else(|| panic!("set_today takes a YYYY-MM-DD day, not {day:?}"));
        self.state().today = Some(day);
    }

    pub fn set_page_size(&self, rows: usize) {
        self.state().page_size = rows.max(1);
    }

    /// Leaves zero metric values out of rows, as proto3 JSON may (to prove a reader tolerates
    /// absent metrics).
    pub fn omit_zero_metrics(&self, omit: bool) {
        self.state().omit_zero_metrics = omit;
    }

    /// The Search Console API origin (`https://www.googleapis.com`): calls go to
    /// `{search_console_base_url}/webmasters/v3/...`.
    pub fn search_console_base_url(&self) -> String {
        self.base().to_owned()
    }

    /// Gives Google user `user` access to `site_url` in Search Console at `permission_level`
    /// (`siteOwner`, `siteFullUser`, `siteRestrictedUser`, `siteUnverifiedUser`).
    pub fn add_search_console_site(&self, user: &str, site_url: &str, permission_level: &str) {
        self.state()
            .search_console
            .add_site(user, site_url, permission_level);
    }

    /// Google user `user` loses `site_url` (removed from their Search Console).
    pub fn remove_search_console_site(&self, user: &str, site_url: &str) {
        self.state()
            .search_console
            .sites
            .retain(|site| !(site.user == user && site.site_url == site_url));
    }

    /// One day's figures of `query` on `site_url` (`day` is `YYYY-MM-DD`); a later call for the
    /// same day and query replaces them, as Google restates recent days.
    pub fn add_search_console_row(
        &self,
        site_url: &str,
        day: &str,
        query: &str,
        figures: QueryFigures,
    ) {
        let day = Day::parse(day).unwrap_or_else(|| {
            panic!("add_search_console_row takes a YYYY-MM-DD day, not {day:?}")
        });
        self.state()
            .search_console
            .rows
            .insert((site_url.to_owned(), day, query.to_owned()), figures);
    }

    // ---- the human and the provider ---------------------------------------------------------

    /// The Google user signed in on the consent screen from now on (and of
    /// [`Self::issue_tokens`]); [`DEFAULT_USER`] until called.
    pub fn sign_in_as(&self, user: &str) {
        self.state().oauth.human = user.to_owned();
    }

    /// The human cancels on the consent screen (`error=access_denied`).
    pub fn set_human_refuses(&self, refuses: bool) {
        self.state().oauth.human_refuses = refuses;
    }

    /// The human leaves only these of the requested scopes ticked (granular consent); an empty
    /// list restores granting everything requested.
    pub fn set_human_grants_only(&self, scopes: &[&str]) {
        self.state().oauth.human_grants_only =
            (!scopes.is_empty()).then(|| scopes.iter().map(|s| (*s).to_owned()).collect());
    }

    /// Registers an authorized redirect URI; once any is registered, the authorization endpoint
    /// takes only exact matches (`redirect_uri_mismatch` otherwise).
    pub fn register_redirect_uri(&self, uri: &str) {
        self.state().oauth.redirect_uris.push(uri.to_owned());
    }

    /// The human removes the app's access from their Google account: every token stops working.
    pub fn revoke_all(&self) {
        let mut state = self.state();
        let client_id = state.client_id.clone();
        oauth::revoke_client(&mut state, &client_id);
    }

    /// Every access token issued so far expires (the refresh tokens keep working).
    pub fn expire_access_tokens(&self) {
        for access in self.state().oauth.access.values_mut() {
            access.expired = true;
        }
    }

    /// Tokens of an offline grant with the `adwords` scope, as if the human had consented (for
    /// tests that start connected).
    pub fn issue_tokens(&self) -> IssuedTokens {
        let (access_token, refresh_token) =
            oauth::issue_offline(&mut self.state(), vec![ADWORDS_SCOPE.to_owned()]);
        IssuedTokens {
            access_token,
            refresh_token,
        }
    }

    /// The next `times` requests whose path contains `path_contains` answer `fail` (in Google's
    /// shape for that path: a `GoogleAdsFailure` on Ads API paths, an OAuth error on `/token`).
    pub fn fail_next(&self, path_contains: &str, times: u32, fail: Fail) {
        self.state().scheduled.push(path_contains, times, fail);
    }

    /// Plays the human on the consent screen: GETs `auth_url` (as the app built it) and returns
    /// the `Location` it redirects to (`redirect_uri?state=..&code=..&scope=..`, or
    /// `?state=..&error=access_denied` when the human refuses). Panics on an error page.
    pub async fn authorize(&self, auth_url: &str) -> String {
        human::expect_redirect(self.try_authorize(auth_url).await, SCREEN)
    }

    /// [`Self::authorize`], returning the error page instead of panicking on one.
    pub async fn try_authorize(&self, auth_url: &str) -> Result<String, ConsentPage> {
        human::visit(auth_url, SCREEN).await
    }

    // ---- what happened --------------------------------------------------------------------

    /// Every request received, in order.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.state().log.all()
    }

    /// The requests whose path contains `path_contains`.
    pub fn requests_to(&self, path_contains: &str) -> Vec<RecordedRequest> {
        self.state().log.to(path_contains)
    }

    /// The amount of the budget campaign `campaign` uses now.
    pub fn budget_micros(&self, customer: i64, campaign: i64) -> Option<i64> {
        let state = self.state();
        let campaign = state.campaign(customer, campaign)?;
        state
            .budget(customer, campaign.budget)
            .map(|b| b.amount_micros)
    }

    /// The id of the budget campaign `campaign` uses.
    pub fn budget_id(&self, customer: i64, campaign: i64) -> Option<i64> {
        self.state().campaign(customer, campaign).map(|c| c.budget)
    }

    pub fn final_url_suffix(&self, customer: i64) -> Option<String> {
        self.state()
            .customer(customer)
            .and_then(|c| c.final_url_suffix.clone())
    }

    pub fn auto_tagging(&self, customer: i64) -> Option<bool> {
        self.state().customer(customer).map(|c| c.auto_tagging)
    }
}

impl recorder::Recorded for state::State {
    const BODY_LIMIT: usize = 16 * 1024 * 1024;

    fn log(&mut self) -> &mut recorder::RequestLog {
        &mut self.log
    }

    /// In Google's shape for the path: a `GoogleAdsFailure` on Ads API paths, an OAuth error
    /// elsewhere.
    fn scheduled_answer(&mut self, request: &RecordedRequest) -> Option<Response> {
        let fail = self.scheduled.take(&request.path)?;
        let first = request
            .path
            .trim_start_matches('/')
            .split('/')
            .next()
            .unwrap_or("");
        Some(if first == "v1beta" {
            analytics::scheduled(fail)
        } else if ads::is_version(first) {
            errors::scheduled_ads(fail, first, &self.mint("fakeReq"))
        } else if first == "webmasters" {
            search_console::scheduled(fail)
        } else if first == "tagmanager" {
            tagmgr::scheduled(fail)
        } else {
            errors::scheduled_oauth(fail)
        })
    }
}

#[cfg(test)]
mod tests;
