//! A loopback fake of Semrush's Analytics API v3, written from Semrush's documentation
//! (developer.semrush.com: the basic docs' CSV format, columns and errors, the Domain Overview
//! and Domain Organic Search Keywords reports, the API unit prices), not from Payback's
//! connector, so tests prove the connector speaks the documented contract.
//!
//! One server on `127.0.0.1:0` answers `GET /?type=REPORT&key=KEY&domain=D&database=DB&...`
//! (`api.rs`) for `domain_rank`, `domain_ranks` and `domain_organic`, each as `;`-separated CSV
//! with a header line, and errors as `ERROR NN :: TEXT` bodies (`errors.rs`): no key is 122, an
//! unknown key 120, a domain without data `ERROR 50 :: NOTHING FOUND`, spent units 132.
//!
//! ```ignore
//! let semrush = FakeSemrush::spawn().await;
//! semrush.add_key("KEY");
//! semrush.set_overview("shop.example", "us", Overview { rank: 48_210, organic_keywords: 1_530, organic_traffic: 9_800, organic_cost: 4_100 });
//! semrush.add_keyword("shop.example", "us", OrganicKeyword { keyword: "payback".into(), position: 3, volume: 2_400, url: "https://shop.example/".into(), traffic_percent: 12.5 });
//! // The connector calls {semrush.base_url()}/?type=domain_rank&key=KEY&domain=shop.example&database=us
//! ```
//!
//! Every request is recorded ([`FakeSemrush::requests`]) before anything else happens to it.

mod api;
mod errors;
mod state;

use std::sync::{Arc, Mutex, MutexGuard};

use axum::Router;
use axum::response::Response;

pub use super::recorder::RecordedRequest;
pub use state::{Fail, OrganicKeyword, Overview};

use super::loopback::LoopbackServer;
use super::{lock, recorder};

pub(crate) type Shared = Arc<Mutex<state::State>>;

/// The running fake; the server stops when this is dropped.
pub struct FakeSemrush {
    server: LoopbackServer,
    shared: Shared,
}

impl std::fmt::Debug for FakeSemrush {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.server.describe("FakeSemrush", f)
    }
}

impl FakeSemrush {
    pub async fn spawn() -> Self {
        let shared: Shared = Arc::new(Mutex::new(state::State::default()));
        let app = recorder::recording(Router::new().fallback(api::dispatch), shared.clone());
        Self {
            server: LoopbackServer::spawn("Semrush", app).await,
            shared,
        }
    }

    fn state(&self) -> MutexGuard<'_, state::State> {
        lock(&self.shared)
    }

    /// `http://127.0.0.1:PORT`, the fake's `https://api.semrush.com`.
    pub fn base_url(&self) -> String {
        self.server.origin().to_owned()
    }

    // ---- who may call ----------------------------------------------------------------------

    /// A live API key with more units than any test spends.
    pub fn add_key(&self, key: &str) {
        self.state().keys.entry(key.to_owned()).or_default();
    }

    /// The key's account holds `units` in all (10 per line served).
    pub fn set_units(&self, key: &str, units: i64) {
        self.state().keys.entry(key.to_owned()).or_default().units = Some(units);
    }

    /// The units the key has spent.
    pub fn units_spent(&self, key: &str) -> i64 {
        self.state()
            .keys
            .get(key)
            .map_or(0, |account| account.spent)
    }

    // ---- seeding --------------------------------------------------------------------------

    /// `domain`'s overview in `database`; a later call replaces it.
    pub fn set_overview(&self, domain: &str, database: &str, overview: Overview) {
        self.state()
            .overviews
            .entry(domain.to_ascii_lowercase())
            .or_default()
            .insert(database.to_owned(), overview);
    }

    /// One organic keyword of `domain` in `database`; a later one of the same keyword replaces it.
    pub fn add_keyword(&self, domain: &str, database: &str, keyword: OrganicKeyword) {
        let mut state = self.state();
        let rows = state
            .keywords
            .entry(domain.to_ascii_lowercase())
            .or_default()
            .entry(database.to_owned())
            .or_default();
        rows.retain(|known| known.keyword != keyword.keyword);
        rows.push(keyword);
    }

    /// Every organic keyword the fake holds for `domain` in `database`, as seeded.
    pub fn keywords(&self, domain: &str, database: &str) -> Vec<OrganicKeyword> {
        self.state()
            .keywords
            .get(&domain.to_ascii_lowercase())
            .and_then(|databases| databases.get(database))
            .cloned()
            .unwrap_or_default()
    }

    /// `domain`'s overview in `database`, if seeded.
    pub fn overview(&self, domain: &str, database: &str) -> Option<Overview> {
        self.state()
            .overviews
            .get(&domain.to_ascii_lowercase())
            .and_then(|databases| databases.get(database))
            .copied()
    }

    /// The next `times` requests answer `fail`.
    pub fn fail_next(&self, times: u32, fail: Fail) {
        self.state().scheduled.push("/", times, fail);
    }

    // ---- what happened --------------------------------------------------------------------

    /// Every request received, in order.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.state().log.all()
    }

    /// The requests for the report `report` (their `type` parameter), in order.
    pub fn requests_of(&self, report: &str) -> Vec<RecordedRequest> {
        self.requests()
            .into_iter()
            .filter(|request| request.param("type").as_deref() == Some(report))
            .collect()
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
