//! The fake's memory: the API keys it knows, each domain's figures as Ahrefs reports them
//! (Domain Rating, backlink counts, organic keywords per country), the failures a test
//! scheduled, and every request.

use std::collections::HashMap;

use crate::fakes::recorder::RequestLog;
use crate::fakes::schedule::FailureSchedule;

/// A failure a test schedules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fail {
    /// 429 `{"error": "..."}`: over the API's requests-per-minute limit.
    TooManyRequests,
    /// 500 `{"error": "..."}`.
    InternalError,
}

/// What a key may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Access {
    /// A live key of a plan with API access.
    Granted,
    /// A live key whose plan has no API access to these endpoints (403).
    PlanWithoutApi,
    /// Deleted by its owner (401).
    Revoked,
}

/// Backlink counts of a domain, as `backlinks-stats` names them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Backlinks {
    pub live: i64,
    pub all_time: i64,
    pub live_refdomains: i64,
    pub all_time_refdomains: i64,
}

/// One organic keyword of a domain in one country, as `organic-keywords` lists it.
#[derive(Debug, Clone, PartialEq)]
pub struct OrganicKeyword {
    pub keyword: String,
    /// Two-letter code, lowercase (`us`).
    pub country: String,
    pub best_position: Option<i64>,
    pub best_position_url: Option<String>,
    pub volume: Option<i64>,
    /// The domain's estimated monthly visits from the keyword: the list's usual order.
    pub sum_traffic: i64,
    pub keyword_difficulty: Option<i64>,
}

/// A domain's figures; a domain never seeded reports zeros and no keywords, as Ahrefs does for
/// a domain it knows nothing of.
#[derive(Debug, Clone, Default)]
pub(crate) struct Domain {
    pub domain_rating: f64,
    pub ahrefs_rank: Option<i64>,
    pub backlinks: Backlinks,
    pub keywords: Vec<OrganicKeyword>,
}

#[derive(Debug, Default)]
pub(crate) struct State {
    pub keys: HashMap<String, Access>,
    /// By domain, lowercase.
    pub domains: HashMap<String, Domain>,
    pub scheduled: FailureSchedule<Fail>,
    pub log: RequestLog,
}

impl State {
    pub fn domain_mut(&mut self, domain: &str) -> &mut Domain {
        self.domains.entry(domain.to_ascii_lowercase()).or_default()
    }

    pub fn domain(&self, target: &str) -> Domain {
        self.domains
            .get(&target.to_ascii_lowercase())
            .cloned()
            .unwrap_or_default()
    }
}
