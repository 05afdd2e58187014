//! The fake's memory: the API keys it knows with their unit balances, each domain's numbers per
//! regional database (the overview and the organic keywords), the failures a test scheduled, and
//! every request.

use std::collections::{BTreeMap, HashMap};

use crate::fakes::recorder::RequestLog;
use crate::fakes::schedule::FailureSchedule;

/// A failure a test schedules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fail {
    /// 429 with no body: more than the documented 10 requests per second.
    TooManyRequests,
    /// 502 with no body: the front end failed.
    BadGateway,
}

/// A domain's overview in one database (`domain_rank`, `domain_ranks`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Overview {
    /// `Rk`: the Semrush rank (1 is the most organic traffic).
    pub rank: i64,
    /// `Or`: keywords the domain ranks for in the top 100.
    pub organic_keywords: i64,
    /// `Ot`: the monthly organic traffic estimate.
    pub organic_traffic: i64,
    /// `Oc`: that traffic's cost in USD.
    pub organic_cost: i64,
}

/// One keyword the domain ranks for in one database (`domain_organic`).
#[derive(Debug, Clone, PartialEq)]
pub struct OrganicKeyword {
    /// `Ph`.
    pub keyword: String,
    /// `Po`.
    pub position: i64,
    /// `Nq`: the average monthly search volume.
    pub volume: i64,
    /// `Ur`: the domain's URL ranking for it.
    pub url: String,
    /// `Tr`: the share of the domain's organic traffic it brings, in percent.
    pub traffic_percent: f64,
}

/// An API key's account.
#[derive(Debug, Clone, Default)]
pub(crate) struct Account {
    /// `None`: more units than any test spends.
    pub units: Option<i64>,
    /// Units spent so far.
    pub spent: i64,
}

#[derive(Debug, Default)]
pub(crate) struct State {
    pub keys: HashMap<String, Account>,
    /// By domain, then database.
    pub overviews: HashMap<String, BTreeMap<String, Overview>>,
    pub keywords: HashMap<String, BTreeMap<String, Vec<OrganicKeyword>>>,
    pub scheduled: FailureSchedule<Fail>,
    pub log: RequestLog,
}
