//! A loopback fake of the Bing Webmaster API's JSON protocol, written from Microsoft's
//! documentation (`bingwebmaster/api-protocols`, the `IWebmasterApi` reference and its
//! `ApiErrorCode`), not from Payback's connector, so tests prove the connector speaks the
//! documented contract.
//!
//! One server on `127.0.0.1:0` answers `GET /webmaster/api.svc/json/{Method}?...&apikey=KEY`
//! (`api.rs`) for two methods, each answer's data wrapped in `d`:
//! - `GetUserSites`: the key's user's sites (`Site`: `Url`, `IsVerified`, the verification
//!   codes),
//! - `GetQueryStats?siteUrl=`: the site's query stats (`QueryStats`: `Date` as WCF's
//!   `\/Date(ms-0800)\/`, `Query`, `Clicks`, `Impressions`, `AvgClickPosition`,
//!   `AvgImpressionPosition`), its whole history in one answer as Bing gives it,
//!
//! and errors as Bing's `{"ErrorCode": n, "Message": "ERROR!!! Name"}` bodies (`errors.rs`): an
//! unknown or revoked key is `InvalidApiKey` (3), a site of another user `NotAuthorized` (14).
//!
//! ```ignore
//! let bing = FakeBing::spawn().await;
//! bing.add_key("KEY");
//! bing.add_site("KEY", "https://shop.example/", true);
//! bing.set_query_day("https://shop.example/", "2026-11-20", "payback", 12, 340);
//! bing.throttle_next("GetQueryStats", 1); // one 429 first
//! // The connector calls {bing.base_url()}/webmaster/api.svc/json/GetQueryStats?siteUrl=...
//! ```
//!
//! Every request is recorded ([`FakeBing::requests`]) before anything else happens to it.

mod api;
mod errors;
mod state;

use std::sync::{Arc, Mutex, MutexGuard};

use axum::Router;
use axum::response::Response;

pub use super::day::Day;
pub use super::recorder::RecordedRequest;
pub use state::{Fail, QueryDay};

use super::loopback::LoopbackServer;
use super::{lock, recorder};

pub(crate) type Shared = Arc<Mutex<state::State>>;

/// The running fake; the server stops when this is dropped.
pub struct FakeBing {
    server: LoopbackServer,
    shared: Shared,
}

impl std::fmt::Debug for FakeBing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.server.describe("FakeBing", f)
    }
}

impl FakeBing {
    pub async fn spawn() -> Self {
        let shared: Shared = Arc::new(Mutex::new(state::State::default()));
        let app = recorder::recording(Router::new().fallback(api::dispatch), shared.clone());
        Self {
            server: LoopbackServer::spawn("Bing", app).await,
            shared,
        }
    }

    fn state(&self) -> MutexGuard<'_, state::State> {
        lock(&self.shared)
    }

    /// `http://127.0.0.1:PORT`, the fake's `https://ssl.bing.com`.
    pub fn base_url(&self) -> String {
        self.server.origin().to_owned()
    }

    // ---- who may call ----------------------------------------------------------------------

    /// A live API key (of one Bing Webmaster Tools user), with no sites yet.
    pub fn add_key(&self, key: &str) {
        self.state().keys.entry(key.to_owned()).or_default();
    }

    /// The user regenerates their key: the old one answers `InvalidApiKey` from now on.
    pub fn revoke(&self, key: &str) {
        if let Some(user) = self.state().keys.get_mut(key) {
            user.revoked = true;
        }
    }

    // ---- seeding --------------------------------------------------------------------------

    /// A site of `key`'s user, written as Bing lists it (e.g. `https://shop.example/`).
    pub fn add_site(&self, key: &str, url: &str, verified: bool) {
        let mut state = self.state();
        let user = state.keys.entry(key.to_owned()).or_default();
        user.sites.push(state::Site {
            url: url.to_owned(),
            verified,
        });
    }

    /// One query's numbers on one day (`YYYY-MM-DD`) of `site`, at average position 3.5 (0
    /// without impressions; [`Self::set_query_position`] sets another); a later call for the
    /// same day and query replaces them, as Bing restates recent days.
    pub fn set_query_day(&self, site: &str, day: &str, query: &str, clicks: i64, impressions: i64) {
        let day = Day::parse(day)
            .unwrap_or_else(|| panic!("set_query_day takes a YYYY-MM-DD day, not {day:?}"));
        self.state().set_query_day(
            site,
            QueryDay {
                day,
                query: query.to_owned(),
                clicks,
                impressions,
                position: if impressions > 0 { 3.5 } else { 0.0 },
            },
        );
    }

    /// The average impression position of a query's day already set.
    pub fn set_query_position(&self, site: &str, day: &str, query: &str, position: f64) {
        let day = Day::parse(day)
            .unwrap_or_else(|| panic!("set_query_position takes a YYYY-MM-DD day, not {day:?}"));
        let mut state = self.state();
        let row = state
            .stats
            .get_mut(site)
            .and_then(|days| {
                days.iter_mut()
                    .find(|row| row.day == day && row.query == query)
            })
            .unwrap_or_else(|| panic!("no query day {day} {query:?} of {site} to position"));
        row.position = position;
    }

    /// Every day the fake holds for `site`, as served.
    pub fn query_days(&self, site: &str) -> Vec<QueryDay> {
        self.state().stats.get(site).cloned().unwrap_or_default()
    }

    /// The next `times` requests whose path contains `path_contains` answer `fail`.
    pub fn fail_next(&self, path_contains: &str, times: u32, fail: Fail) {
        self.state().scheduled.push(path_contains, times, fail);
    }

    /// The next `times` requests to `method` answer 429.
    pub fn throttle_next(&self, method: &str, times: u32) {
        self.fail_next(method, times, Fail::TooManyRequests);
    }

    // ---- what happened --------------------------------------------------------------------

    /// Every request received, in order.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.state().log.all()
    }

    /// The requests whose path contains `path_contains` (a method's name).
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
