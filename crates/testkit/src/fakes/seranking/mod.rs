//! A loopback fake of the SE Ranking Project API, written from SE Ranking's documentation
//! (seranking.com/api/project: "Getting started", project management, AI Result Tracker, audit,
//! keyword positions, rate limits), not from Payback's connector, so tests prove the connector
//! speaks the documented contract.
//!
//! One server on `127.0.0.1:0` answers the documented `GET`s (`api.rs`) with the key in
//! `Authorization: Token KEY` (or `?token=KEY`), and errors as SE Ranking's `{"message": ...}`
//! bodies (`errors.rs`): no key 403 "No token", an unknown or regenerated key 403 "Incorrect
//! token", another account's project 404, a scheduled rate limit 429 with the documented
//! `{"error": {...}}` body and no rate-limit header.
//!
//! ```ignore
//! let se = FakeSeRanking::spawn().await;
//! se.add_project("KEY", 77, "Shop", "https://shop.example/");
//! se.add_engine(77, 1, "chatgpt");
//! se.set_mention(77, 1, "2026-11-20", 40.0);
//! se.add_audit("KEY", 5, "Shop", "https://shop.example/", Some(81.0));
//! se.set_position(77, 1, "payback", 390, "2026-11-20", 4, Some("https://shop.example/"));
//! se.throttle_next("/statistics", 1); // one 429 first
//! ```
//!
//! Every request is recorded ([`FakeSeRanking::requests`]) before anything else happens to it.

mod api;
mod errors;
mod state;

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard};

use axum::Router;
use axum::response::Response;

pub use super::day::Day;
pub use super::recorder::RecordedRequest;
pub use state::Fail;

use super::loopback::LoopbackServer;
use super::{lock, recorder};

pub(crate) type Shared = Arc<Mutex<state::State>>;

/// The running fake; the server stops when this is dropped.
pub struct FakeSeRanking {
    server: LoopbackServer,
    shared: Shared,
}

impl std::fmt::Debug for FakeSeRanking {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.server.describe("FakeSeRanking", f)
    }
}

fn day(text: &str) -> Day {
    Day::parse(text).unwrap_or_else(|| panic!("the fake takes YYYY-MM-DD days, not {text:?}"))
}

impl FakeSeRanking {
    pub async fn spawn() -> Self {
        let shared: Shared = Arc::new(Mutex::new(state::State::default()));
        let app = recorder::recording(Router::new().fallback(api::dispatch), shared.clone());
        Self {
            server: LoopbackServer::spawn("SE Ranking", app).await,
            shared,
        }
    }

    fn state(&self) -> MutexGuard<'_, state::State> {
        lock(&self.shared)
    }

    /// `http://127.0.0.1:PORT`, the fake's `https://api4.seranking.com`.
    pub fn base_url(&self) -> String {
        self.server.origin().to_owned()
    }

    // ---- who may call ----------------------------------------------------------------------

    /// A live API key (of one SE Ranking account), with no projects yet.
    pub fn add_key(&self, key: &str) {
        self.state().keys.entry(key.to_owned()).or_default();
    }

    /// The account regenerates its key: the old one answers "Incorrect token" from now on.
    pub fn revoke(&self, key: &str) {
        if let Some(account) = self.state().keys.get_mut(key) {
            account.revoked = true;
        }
    }

    // ---- seeding --------------------------------------------------------------------------

    /// A project of `key`'s account: its id, title (its name) and site URL.
    pub fn add_project(&self, key: &str, id: u64, title: &str, url: &str) {
        let mut state = self.state();
        let account = state.keys.entry(key.to_owned()).or_default();
        account.projects.push(state::Project {
            id,
            title: title.to_owned(),
            url: url.to_owned(),
            engines: Vec::new(),
            keywords: Vec::new(),
            competitors: Vec::new(),
        });
    }

    /// An AI Result Tracker engine (`chatgpt`, `perplexity`, ...) of project `project`.
    pub fn add_engine(&self, project: u64, llm_id: u64, base_name: &str) {
        let mut state = self.state();
        let project = state
            .project_mut(project)
            .unwrap_or_else(|| panic!("no project {project} seeded"));
        project.engines.push(state::Engine {
            id: llm_id,
            base_name: base_name.to_owned(),
            mentions: BTreeMap::new(),
        });
    }

    /// The engine's mention share (0-100) on `on` (`YYYY-MM-DD`); a day never set has none.
    pub fn set_mention(&self, project: u64, llm_id: u64, on: &str, percent: f64) {
        let mut state = self.state();
        let engine = state
            .project_mut(project)
            .and_then(|project| project.engines.iter_mut().find(|e| e.id == llm_id))
            .unwrap_or_else(|| panic!("no engine {llm_id} of project {project} seeded"));
        engine.mentions.insert(day(on), percent);
    }

    /// Each engine's `(base name, mention share)` on `on`, as served, for an independent sum.
    pub fn mentions_on(&self, project: u64, on: &str) -> Vec<(String, f64)> {
        let state = self.state();
        let Some(project) = state.project(project) else {
            return Vec::new();
        };
        project
            .engines
            .iter()
            .filter_map(|engine| {
                engine
                    .mentions
                    .get(&day(on))
                    .map(|value| (engine.base_name.clone(), *value))
            })
            .collect()
    }

    /// A site audit of `key`'s account: finished with `score` (0-100), or running when `None`.
    pub fn add_audit(&self, key: &str, id: u64, title: &str, url: &str, score: Option<f64>) {
        let mut state = self.state();
        let account = state.keys.entry(key.to_owned()).or_default();
        account.audits.push(state::Audit {
            id,
            title: title.to_owned(),
            url: url.to_owned(),
            score,
        });
    }

    /// A check of `keyword` in search engine `site_engine_id` of `project` on `on`: its
    /// position (0: not found) and ranking URL.
    #[allow(clippy::too_many_arguments)]
    pub fn set_position(
        &self,
        project: u64,
        site_engine_id: u64,
        keyword: &str,
        volume: u64,
        on: &str,
        position: u32,
        url: Option<&str>,
    ) {
        let mut state = self.state();
        let project = state
            .project_mut(project)
            .unwrap_or_else(|| panic!("no project {project} seeded"));
        let check = (day(on), position, url.map(str::to_owned));
        match project
            .keywords
            .iter_mut()
            .find(|k| k.site_engine_id == site_engine_id && k.name == keyword)
        {
            Some(known) => {
                known.volume = volume;
                known.checks.retain(|(seen, _, _)| *seen != check.0);
                known.checks.push(check);
            }
            None => project.keywords.push(state::Keyword {
                site_engine_id,
                name: keyword.to_owned(),
                volume,
                checks: vec![check],
            }),
        }
    }

    /// Adds competitor `id` (`name`, `url`) to `project`.
    pub fn add_competitor(&self, project: u64, id: u64, name: &str, url: &str) {
        let mut state = self.state();
        let project = state
            .project_mut(project)
            .unwrap_or_else(|| panic!("no project {project} seeded"));
        project.competitors.push(state::Competitor {
            id,
            name: name.to_owned(),
            url: url.to_owned(),
            checks: Vec::new(),
        });
    }

    /// A check of competitor `competitor` for the project's `keyword` in search engine
    /// `site_engine_id` on `on` (0: not found); the keyword must be one the project tracks there
    /// (seeded with [`Self::set_position`]), as SE Ranking reports competitors by its keywords.
    pub fn set_competitor_position(
        &self,
        competitor: u64,
        site_engine_id: u64,
        keyword: &str,
        on: &str,
        position: u32,
    ) {
        let mut state = self.state();
        let competitor = state
            .competitor_mut(competitor)
            .unwrap_or_else(|| panic!("no competitor {competitor} seeded"));
        let on = day(on);
        competitor.checks.retain(|(engine, name, seen, _)| {
            !(*engine == site_engine_id && name == keyword && *seen == on)
        });
        competitor
            .checks
            .push((site_engine_id, keyword.to_owned(), on, position));
    }

    /// The next `times` requests whose path contains `path_contains` answer `fail`.
    pub fn fail_next(&self, path_contains: &str, times: u32, fail: Fail) {
        self.state().scheduled.push(path_contains, times, fail);
    }

    /// The next `times` requests whose path contains `path_contains` answer 429.
    pub fn throttle_next(&self, path_contains: &str, times: u32) {
        self.fail_next(path_contains, times, Fail::TooManyRequests);
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
