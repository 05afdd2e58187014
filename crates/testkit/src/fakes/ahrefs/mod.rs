//! A loopback fake of Ahrefs API v3's Site Explorer, written from Ahrefs' reference
//! documentation (docs.ahrefs.com/api), not from Payback's connector, so tests prove the
//! connector speaks the documented contract.
//!
//! One server on `127.0.0.1:0` answers `GET /v3/site-explorer/{endpoint}?...` with
//! `Authorization: Bearer KEY` (`api.rs`):
//! - `domain-rating?target&date`: `{"domain_rating": {"domain_rating", "ahrefs_rank"}}`,
//! - `backlinks-stats?target&date[&mode]`: `{"metrics": {"live", "all_time",
//!   "live_refdomains", "all_time_refdomains"}}`,
//! - `organic-keywords?target&date&select[&country&order_by&limit&mode]`: `{"keywords": [...]}`,
//!   the rows of one country (or all), ordered, cut at `limit` (default 1000; no offset), each
//!   holding the selected columns only,
//!
//! and errors as `{"error": "..."}` (`errors.rs`): an unknown or deleted key 401, a missing key
//! or a plan without API access 403, a missing or malformed parameter 400, a scheduled
//! throttle 429. The figures are the domain's current ones whatever `date` asks.
//!
//! ```ignore
//! let ahrefs = FakeAhrefs::spawn().await;
//! ahrefs.add_key("KEY");
//! ahrefs.set_domain_rating("shop.example", 47.0);
//! ahrefs.set_backlinks("shop.example", Backlinks { live: 1234, live_refdomains: 56, ..Default::default() });
//! ahrefs.add_keyword("shop.example", OrganicKeyword { .. });
//! ahrefs.throttle_next("organic-keywords", 1); // one 429 first
//! ```
//!
//! Every request is recorded ([`FakeAhrefs::requests`]) before anything else happens to it.

mod api;
mod errors;
mod state;

use std::sync::{Arc, Mutex, MutexGuard};

use axum::Router;
use axum::response::Response;

pub use super::recorder::RecordedRequest;
pub use state::{Backlinks, Fail, OrganicKeyword};

use super::loopback::LoopbackServer;
use super::{lock, recorder};
use state::Access;

pub(crate) type Shared = Arc<Mutex<state::State>>;

/// The running fake; the server stops when this is dropped.
pub struct FakeAhrefs {
    server: LoopbackServer,
    shared: Shared,
}

impl std::fmt::Debug for FakeAhrefs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.server.describe("FakeAhrefs", f)
    }
}

impl FakeAhrefs {
    pub async fn spawn() -> Self {
        let shared: Shared = Arc::new(Mutex::new(state::State::default()));
        let app = recorder::recording(Router::new().fallback(api::dispatch), shared.clone());
        Self {
            server: LoopbackServer::spawn("Ahrefs", app).await,
            shared,
        }
    }

    fn state(&self) -> MutexGuard<'_, state::State> {
        lock(&self.shared)
    }

    /// `http://127.0.0.1:PORT`, the fake's `https://api.ahrefs.com`.
    pub fn base_url(&self) -> String {
        self.server.origin().to_owned()
    }

    // ---- who may call ----------------------------------------------------------------------

    /// A live API key of a plan with API access.
    pub fn add_key(&self, key: &str) {
        self.state().keys.insert(key.to_owned(), Access::Granted);
    }

    /// A live key of a plan without API access: 403.
    pub fn add_key_without_api_access(&self, key: &str) {
        self.state()
            .keys
            .insert(key.to_owned(), Access::PlanWithoutApi);
    }

    /// The owner deletes the key: 401 from now on.
    pub fn revoke(&self, key: &str) {
        self.state().keys.insert(key.to_owned(), Access::Revoked);
    }

    // ---- seeding --------------------------------------------------------------------------

    pub fn set_domain_rating(&self, domain: &str, rating: f64) {
        self.state().domain_mut(domain).domain_rating = rating;
    }

    pub fn set_backlinks(&self, domain: &str, backlinks: Backlinks) {
        self.state().domain_mut(domain).backlinks = backlinks;
    }

    /// One keyword of `domain` in its country; a later one of the same keyword and country
    /// replaces it.
    pub fn add_keyword(&self, domain: &str, keyword: OrganicKeyword) {
        let mut state = self.state();
        let keywords = &mut state.domain_mut(domain).keywords;
        keywords.retain(|known| {
            !(known.keyword == keyword.keyword && known.country == keyword.country)
        });
        keywords.push(keyword);
    }

    /// Every keyword the fake holds for `domain`, in every country, as seeded.
    pub fn keywords(&self, domain: &str) -> Vec<OrganicKeyword> {
        self.state().domain(domain).keywords
    }

    /// The next `times` requests whose path contains `path_contains` answer `fail`.
    pub fn fail_next(&self, path_contains: &str, times: u32, fail: Fail) {
        self.state().scheduled.push(path_contains, times, fail);
    }

    /// The next `times` requests to `endpoint` answer 429.
    pub fn throttle_next(&self, endpoint: &str, times: u32) {
        self.fail_next(endpoint, times, Fail::TooManyRequests);
    }

    // ---- what happened --------------------------------------------------------------------

    /// Every request received, in order.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.state().log.all()
    }

    /// The requests whose path contains `path_contains` (an endpoint's name).
    pub fn requests_to(&self, path_contains: &str) -> Vec<RecordedRequest> {
        self.state().log.to(path_contains)
    }
}

impl recorder::Recorded for state::State {
    const BODY_LIMIT: usize = 64 * 1024;

    fn log(&mut self) -> &mut recorder::RequestLog {
        &mut self.log
    }

    fn scheduled_answer(&mut self, request: &RecordedRequest) -> Option<Response> {
        self.scheduled.take(&request.path).map(errors::scheduled)
    }
}

#[cfg(test)]
mod tests;
