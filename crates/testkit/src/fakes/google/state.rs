//! The fake's memory, behind one lock: the Ads accounts a test seeded (`ads/seeds.rs` documents
//! how their daily rows add up), what the OAuth provider issued, each other API's data, the
//! failures a test scheduled, and every request received.

use std::collections::{BTreeMap, HashMap};

use super::ads::{Ad, AdGroup, BreakdownKey, Budget, Campaign, Cursor, Customer, Keyword, Metrics};
use super::analytics::Analytics;
use super::fail::Fail;
use super::oauth::Oauth;
use super::search_console::Console;
use super::tagmgr::TagManager;
use crate::fakes::day::Day;
use crate::fakes::recorder::RequestLog;
use crate::fakes::schedule::FailureSchedule;

#[derive(Debug)]
pub(crate) struct State {
    pub client_id: String,
    pub client_secret: String,
    pub developer_token: String,
    pub page_size: usize,
    pub today: Option<Day>,
    /// Leave zero metric values out of rows (proto3 JSON's default-value omission).
    pub omit_zero_metrics: bool,
    pub customers: Vec<Customer>,
    pub budgets: Vec<Budget>,
    pub campaigns: Vec<Campaign>,
    pub ad_groups: Vec<AdGroup>,
    pub ads: Vec<Ad>,
    pub keywords: Vec<Keyword>,
    pub daily: BTreeMap<(i64, Day, BreakdownKey), Metrics>,
    pub oauth: Oauth,
    pub search_console: Console,
    pub analytics: Analytics,
    pub tag_manager: TagManager,
    pub log: RequestLog,
    pub scheduled: FailureSchedule<Fail>,
    pub cursors: HashMap<String, Cursor>,
    pub counter: u64,
}

impl State {
    pub fn new(client_id: String, client_secret: String, developer_token: String) -> Self {
        Self {
            client_id,
            client_secret,
            developer_token,
            page_size: 3,
            today: None,
            omit_zero_metrics: false,
            customers: Vec::new(),
            budgets: Vec::new(),
            campaigns: Vec::new(),
            ad_groups: Vec::new(),
            ads: Vec::new(),
            keywords: Vec::new(),
            daily: BTreeMap::new(),
            oauth: Oauth::default(),
            search_console: Console::default(),
            analytics: Analytics::default(),
            tag_manager: TagManager::default(),
            log: RequestLog::default(),
            scheduled: FailureSchedule::default(),
            cursors: HashMap::new(),
            counter: 0,
        }
    }

    /// A fresh opaque value with `prefix` (tokens, codes, request ids).
    pub fn mint(&mut self, prefix: &str) -> String {
        self.counter += 1;
        format!("{prefix}{}{}", self.counter, uuid::Uuid::new_v4().simple())
    }

    pub fn today(&self) -> Day {
        self.today.unwrap_or_else(Day::today)
    }
}
