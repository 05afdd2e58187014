//! The fake's memory: the API keys it knows (one per SE Ranking account) with their projects
//! and audits, each project's AI Result Tracker engines with their mention shares by day, its
//! keyword checks, the failures a test scheduled, and every request.

use std::collections::{BTreeMap, HashMap};

use crate::fakes::day::Day;
use crate::fakes::recorder::RequestLog;
use crate::fakes::schedule::FailureSchedule;

/// A failure a test schedules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fail {
    /// 429 with the documented rate-limit body.
    TooManyRequests,
    /// 500 with a `message`.
    InternalError,
}

/// A project of an account (`GET /sites`).
#[derive(Debug, Clone)]
pub(crate) struct Project {
    pub id: u64,
    pub title: String,
    /// The site's URL (the documented `name`).
    pub url: String,
    pub engines: Vec<Engine>,
    pub keywords: Vec<Keyword>,
    pub competitors: Vec<Competitor>,
}

/// A competitor added to a project, with its checks of the project's keywords.
#[derive(Debug, Clone)]
pub(crate) struct Competitor {
    pub id: u64,
    pub name: String,
    pub url: String,
    /// (search engine, keyword name, day, position); position 0 is "not found".
    pub checks: Vec<(u64, String, Day, u32)>,
}

/// An AI Result Tracker engine of a project, with its mention share per day.
#[derive(Debug, Clone)]
pub(crate) struct Engine {
    pub id: u64,
    pub base_name: String,
    pub mentions: BTreeMap<Day, f64>,
}

/// A tracked keyword of one search engine of a project, with its checks.
#[derive(Debug, Clone)]
pub(crate) struct Keyword {
    pub site_engine_id: u64,
    pub name: String,
    pub volume: u64,
    /// (day, position, landing URL); position 0 is "not found".
    pub checks: Vec<(Day, u32, Option<String>)>,
}

/// A site audit of an account (`/audit/list`), finished with a score or still running.
#[derive(Debug, Clone)]
pub(crate) struct Audit {
    pub id: u64,
    pub title: String,
    pub url: String,
    pub score: Option<f64>,
}

/// An SE Ranking account, as its key reaches it.
#[derive(Debug, Clone, Default)]
pub(crate) struct Account {
    pub projects: Vec<Project>,
    pub audits: Vec<Audit>,
    pub revoked: bool,
}

#[derive(Debug, Default)]
pub(crate) struct State {
    pub keys: HashMap<String, Account>,
    pub scheduled: FailureSchedule<Fail>,
    pub log: RequestLog,
}

impl State {
    /// The live account of `key`, if any.
    pub fn account(&self, key: &str) -> Option<&Account> {
        self.keys.get(key).filter(|account| !account.revoked)
    }

    /// The project `id`, whichever account holds it.
    pub fn project_mut(&mut self, id: u64) -> Option<&mut Project> {
        self.keys
            .values_mut()
            .flat_map(|account| account.projects.iter_mut())
            .find(|project| project.id == id)
    }

    /// The project holding competitor `id`.
    pub fn competitor_mut(&mut self, id: u64) -> Option<&mut Competitor> {
        self.keys
            .values_mut()
            .flat_map(|account| account.projects.iter_mut())
            .flat_map(|project| project.competitors.iter_mut())
            .find(|competitor| competitor.id == id)
    }

    pub fn project(&self, id: u64) -> Option<&Project> {
        self.keys
            .values()
            .flat_map(|account| account.projects.iter())
            .find(|project| project.id == id)
    }
}
