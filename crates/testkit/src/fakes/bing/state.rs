//! The fake's memory: the API keys it knows (one per Bing Webmaster Tools user) with their
//! sites, each site's query stats by day, the failures a test scheduled, and every request.

use std::collections::HashMap;

use crate::fakes::day::Day;
use crate::fakes::recorder::RequestLog;
use crate::fakes::schedule::FailureSchedule;

/// A failure a test schedules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fail {
    /// 429 with no body.
    TooManyRequests,
    /// 500 with `InternalError` (1).
    InternalError,
    /// 400 with `ThrottleUser` (4), Bing's own throttle.
    ThrottleUser,
}

/// One query's numbers on one day of a site.
#[derive(Debug, Clone, PartialEq)]
pub struct QueryDay {
    pub day: Day,
    pub query: String,
    pub clicks: i64,
    pub impressions: i64,
    /// `AvgImpressionPosition`: the site's average position in the results that showed it
    /// (1 is the top); 0 without impressions.
    pub position: f64,
}

#[derive(Debug, Clone)]
pub(crate) struct Site {
    pub url: String,
    pub verified: bool,
}

/// A Bing Webmaster Tools user, as their key reaches them.
#[derive(Debug, Clone, Default)]
pub(crate) struct User {
    pub sites: Vec<Site>,
    pub revoked: bool,
}

#[derive(Debug, Default)]
pub(crate) struct State {
    pub keys: HashMap<String, User>,
    /// By site URL as seeded.
    pub stats: HashMap<String, Vec<QueryDay>>,
    pub scheduled: FailureSchedule<Fail>,
    pub log: RequestLog,
}

impl State {
    pub fn set_query_day(&mut self, site: &str, seed: QueryDay) {
        let days = self.stats.entry(site.to_owned()).or_default();
        days.retain(|known| !(known.day == seed.day && known.query == seed.query));
        days.push(seed);
    }

    /// The live user of `key`, if any.
    pub fn user(&self, key: &str) -> Option<&User> {
        self.keys.get(key).filter(|user| !user.revoked)
    }
}
