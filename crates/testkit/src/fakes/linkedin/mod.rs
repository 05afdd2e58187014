//! A loopback fake of LinkedIn's Marketing API (the versioned REST API under `/rest/`), written
//! from LinkedIn's public documentation alone, so tests prove a connector speaks the documented
//! contract rather than one fake's habits.
//!
//! One server on `127.0.0.1:0` answers (read-only, `GET`):
//! - the gate every call passes (`gate.rs`): `Authorization: Bearer`, `Linkedin-Version: YYYYMM`,
//!   `X-Restli-Protocol-Version: 2.0.0`,
//! - the ad account hierarchy (`entities.rs`): `adAccounts/{id}`, `adAccounts?q=search`,
//!   `adAccounts/{id}/adCampaigns?q=search`, `adAccounts/{id}/creatives?q=criteria`, cursor-paged
//!   by a small page size (`paging.rs`),
//! - `adAnalytics?q=analytics` (`analytics.rs`) from the days a test seeds (`state.rs`, which
//!   documents how the pivots add up, retention and the element cap),
//! - Rest.li 2.0 parameters read strictly (`restli.rs`), errors in LinkedIn's shapes
//!   (`errors.rs`).
//!
//! ```ignore
//! let linkedin = FakeLinkedIn::spawn().await;
//! linkedin.add_token("tok", &[R_ADS, R_ADS_REPORTING]);
//! linkedin.add_ad_account(AccountSeed::new(507, "Shop", "EUR"));
//! linkedin.add_campaign(507, CampaignSeed::new(11, "Brand"));
//! linkedin.add_creative(11, CreativeSeed::new(71, Some("Hero")));
//! linkedin.set_day(71, "2026-11-20", Metrics::new("12.34", 1000, 20));
//! linkedin.set_campaign_day(11, "2026-11-20", Metrics::new("0.66", 40, 0)); // no creative
//! linkedin.set_analytics_cap(5); // LinkedIn's is 15,000: make the connector split its ranges
//! // The connector calls {linkedin.rest_url()}/adAnalytics?q=analytics&... with "tok".
//! ```
//!
//! Every request is recorded ([`FakeLinkedIn::requests`]) before anything else happens to it,
//! so a test can check what the connector sent, even for requests the fake refused.

mod analytics;
mod api;
mod entities;
mod errors;
mod gate;
mod paging;
mod restli;
mod state;

use std::sync::{Arc, Mutex, MutexGuard};

use axum::Router;
use axum::response::Response;

pub use super::day::Day;
pub use super::recorder::RecordedRequest;
pub use state::{
    AccountSeed, AccountStatus, AccountType, CampaignSeed, CampaignStatus, CreativeSeed,
    CreativeStatus, Fail, LINKEDIN_ANALYTICS_CAP, Metrics, R_ADS, R_ADS_REPORTING, RW_ADS,
};

pub(crate) use super::lock;
use super::loopback::LoopbackServer;
use super::recorder;

pub(crate) type Shared = Arc<Mutex<state::State>>;

/// How the fake behaves before a test changes it.
#[derive(Debug, Clone)]
pub struct FakeLinkedInConfig {
    /// Elements per search page at most, whatever `pageSize` asks (LinkedIn's default page is
    /// 100; small here so paging is exercised).
    pub page_size: usize,
    /// Elements per `adAnalytics` answer at most (LinkedIn's 15,000).
    pub analytics_cap: usize,
    /// The oldest `Linkedin-Version` served (`YYYYMM`): LinkedIn keeps a version about a year,
    /// then answers 426.
    pub oldest_version: u32,
    /// The newest version served; a later one is not released yet (426 too).
    pub newest_version: u32,
}

impl Default for FakeLinkedInConfig {
    fn default() -> Self {
        Self {
            page_size: 3,
            analytics_cap: LINKEDIN_ANALYTICS_CAP,
            oldest_version: 202_601,
            newest_version: 202_611,
        }
    }
}

/// The running fake; the server stops when this is dropped.
pub struct FakeLinkedIn {
    server: LoopbackServer,
    shared: Shared,
}

impl std::fmt::Debug for FakeLinkedIn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.server.describe("FakeLinkedIn", f)
    }
}

impl FakeLinkedIn {
    /// Starts the fake with the default configuration.
    pub async fn spawn() -> Self {
        Self::spawn_with(FakeLinkedInConfig::default()).await
    }

    pub async fn spawn_with(config: FakeLinkedInConfig) -> Self {
        let state = state::State::new(
            config.page_size,
            config.analytics_cap,
            (config.oldest_version, config.newest_version),
        );
        let shared: Shared = Arc::new(Mutex::new(state));
        let app = recorder::recording(Router::new().fallback(api::dispatch), shared.clone());
        Self {
            server: LoopbackServer::spawn("LinkedIn", app).await,
            shared,
        }
    }

    fn state(&self) -> MutexGuard<'_, state::State> {
        lock(&self.shared)
    }

    // ---- where it listens ----------------------------------------------------------------

    /// `http://127.0.0.1:PORT`, the fake's `https://api.linkedin.com`.
    pub fn base_url(&self) -> String {
        self.server.origin().to_owned()
    }

    /// `{base_url}/rest`, the versioned API's base path (`https://api.linkedin.com/rest`).
    pub fn rest_url(&self) -> String {
        format!("{}/rest", self.server.origin())
    }

    // ---- who may call ----------------------------------------------------------------------

    /// A live access token with these scopes ([`R_ADS`], [`RW_ADS`], [`R_ADS_REPORTING`]).
    pub fn add_token(&self, token: &str, scopes: &[&str]) {
        self.state().tokens.insert(
            token.to_owned(),
            state::Token {
                scopes: scopes.iter().map(|s| (*s).to_owned()).collect(),
                state: state::TokenState::Live,
            },
        );
    }

    /// The member revokes the app: the token answers 401 `REVOKED_ACCESS_TOKEN`.
    pub fn revoke(&self, token: &str) {
        self.set_token_state(token, state::TokenState::Revoked);
    }

    /// The token's 60 days are up: it answers 401 `EXPIRED_ACCESS_TOKEN`.
    pub fn expire(&self, token: &str) {
        self.set_token_state(token, state::TokenState::Expired);
    }

    fn set_token_state(&self, token: &str, to: state::TokenState) {
        if let Some(known) = self.state().tokens.get_mut(token) {
            known.state = to;
        }
    }

    // ---- seeding --------------------------------------------------------------------------

    pub fn add_ad_account(&self, seed: AccountSeed) {
        self.state().add_account(seed);
    }

    /// Adds a campaign to `account` (seeded before).
    pub fn add_campaign(&self, account: i64, seed: CampaignSeed) {
        self.state().add_campaign(account, seed);
    }

    /// Adds a creative to `campaign` (seeded before).
    pub fn add_creative(&self, campaign: i64, seed: CreativeSeed) {
        self.state().add_creative(campaign, seed);
    }

    /// Sets one day (`YYYY-MM-DD`) of a creative; a later call for the same day replaces it, as
    /// LinkedIn restates recent days.
    pub fn set_day(&self, creative: i64, day: &str, metrics: Metrics) {
        let day = parse_day("set_day", day);
        self.state().set_day(creative, day, &metrics);
    }

    /// Sets one day of a campaign's spend that no creative carries: it counts in the
    /// `CAMPAIGN`, `CAMPAIGN_GROUP` and `ACCOUNT` pivots, never in `CREATIVE` (see `state.rs`).
    pub fn set_campaign_day(&self, campaign: i64, day: &str, metrics: Metrics) {
        let day = parse_day("set_campaign_day", day);
        self.state().set_campaign_day(campaign, day, &metrics);
    }

    /// The day "today" is (default: today, UTC): open date ranges end on it and retention counts
    /// back from it.
    pub fn set_today(&self, day: &str) {
        self.state().today = Some(parse_day("set_today", day));
    }

    /// Elements per search page at most.
    pub fn set_page_size(&self, elements: usize) {
        self.state().page_size = elements.max(1);
    }

    /// Elements per `adAnalytics` answer at most; the rest are left off silently, as LinkedIn
    /// does past 15,000.
    pub fn set_analytics_cap(&self, elements: usize) {
        self.state().analytics_cap = elements;
    }

    /// The next `times` requests whose path contains `path_contains` answer `fail`.
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

fn parse_day(method: &str, day: &str) -> Day {
    Day::parse(day).unwrap_or_else(|| panic!("{method} takes a YYYY-MM-DD day, not {day:?}"))
}

impl recorder::Recorded for state::State {
    const BODY_LIMIT: usize = 1024 * 1024;

    fn log(&mut self) -> &mut recorder::RequestLog {
        &mut self.log
    }

    fn scheduled_answer(&mut self, request: &RecordedRequest) -> Option<Response> {
        self.scheduled.take(&request.path).map(errors::scheduled)
    }
}

#[cfg(test)]
mod tests;
