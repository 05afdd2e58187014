//! A loopback fake of Google's OAuth 2.0 provider and of the Google APIs the connectors call,
//! written from Google's public documentation alone, so tests prove a connector speaks the
//! documented contract rather than one fake's habits.
//!
//! One server on `127.0.0.1:0` answers, a folder per API:
//! - OAuth 2.0 for web server applications (`oauth/`): `GET /o/oauth2/v2/auth` (the consent
//!   screen, played by a scripted human), `POST /token`, `POST /revoke`, and service accounts'
//!   JWT bearer grant (`service_account.rs`),
//! - the Google Ads API (`ads/`) under any `/v{N}/` version: `customers:listAccessibleCustomers`,
//!   `googleAds:search` (paged by a small page size), `googleAds:searchStream`,
//!   `campaignBudgets:mutate`, `customers/{id}:mutate`, answering GAQL (`gaql/`) from the
//!   accounts a test seeds (`ads/seeds.rs`, which documents how the daily rows add up),
//! - the Search Console API (`search_console/`): `webmasters/v3/sites`, `sites/{site}` and
//!   `sites/{site}/searchAnalytics/query` (paged by `startRow`/`rowLimit`), each user's sites
//!   apart (the human signed in on the consent screen is [`FakeGoogle::sign_in_as`]),
//! - Google Analytics 4's Admin and Data APIs (`analytics/`) and the Tag Manager API
//!   (`tagmgr/`),
//! - errors in Google's documented shapes (`errors.rs`, and each API's own), including the
//!   failures a test schedules (`fail.rs`).
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
mod bearer;
mod errors;
mod fail;
mod gaql;
mod oauth;
mod search_console;
pub mod service_account;
mod state;
mod tagmgr;

use std::sync::{Arc, Mutex, MutexGuard};

use axum::Router;
use axum::routing::{any, get, post};

pub use super::day::Day;
pub use super::human::ErrorPage as ConsentPage;
pub use super::recorder::RecordedRequest;
pub use ads::{
    ADWORDS_SCOPE, AdGroupSeed, AdSeed, Breakdown, CampaignSeed, Channel, CustomerSeed,
    KeywordSeed, MatchType, Metrics, Status,
};
pub use analytics::{ANALYTICS_READONLY_SCOPE, ANALYTICS_SCOPE};
pub use fail::Fail;
pub use oauth::DEFAULT_USER;
pub use search_console::{QueryFigures, WEBMASTERS_READONLY_SCOPE, WEBMASTERS_SCOPE};
pub use tagmgr::{
    FakeTag, PublishedVersion, TAGMANAGER_EDIT_CONTAINERS_SCOPE, TAGMANAGER_EDIT_VERSIONS_SCOPE,
    TAGMANAGER_PUBLISH_SCOPE, TAGMANAGER_READONLY_SCOPE, TagManagerPermission,
};

pub(crate) use super::lock;
use super::loopback::LoopbackServer;
use super::recorder;

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

    pub fn client_id(&self) -> &str {
        &self.config.client_id
    }

    pub fn client_secret(&self) -> &str {
        &self.config.client_secret
    }

    pub fn developer_token(&self) -> &str {
        &self.config.developer_token
    }

    /// The next `times` requests whose path contains `path_contains` answer `fail` (in Google's
    /// shape for that path: a `GoogleAdsFailure` on Ads API paths, an OAuth error on `/token`).
    pub fn fail_next(&self, path_contains: &str, times: u32, fail: Fail) {
        self.state().scheduled.push(path_contains, times, fail);
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
}

/// A day a test seeds (`YYYY-MM-DD`), or a panic naming the helper it was given to.
fn seed_day(text: &str, helper: &str) -> Day {
    Day::parse(text).unwrap_or_else(|| panic!("{helper} takes a YYYY-MM-DD day, not {text:?}"))
}

#[cfg(test)]
mod test_support;
