//! What the fake's Google Analytics holds: who reaches which property, and the seeded figures
//! (sessions by day, source and medium; sessions by day and landing page; events by day and
//! name).

use std::collections::{BTreeMap, HashMap};

use crate::fakes::day::Day;

/// One user's access to one property.
#[derive(Debug, Clone)]
pub(super) struct PropertyAccess {
    pub(super) user: String,
    pub(super) account_id: String,
    pub(super) account_name: String,
    pub(super) property_id: String,
    pub(super) display_name: String,
}

/// What the fake's Google Analytics holds.
#[derive(Debug)]
pub(crate) struct Analytics {
    pub(super) access: Vec<PropertyAccess>,
    /// (property, day, source, medium) to (sessions, engaged sessions).
    pub(super) sessions: BTreeMap<(String, Day, String, String), (u64, u64)>,
    /// (property, day, landing page) to sessions.
    pub(super) landing: BTreeMap<(String, Day, String), u64>,
    /// (property, day, event name) to its count.
    pub(super) events: BTreeMap<(String, Day, String), u64>,
    /// Issued `nextPageToken`s: the user and the account index the page starts at.
    pub(super) page_tokens: HashMap<String, (String, usize)>,
    /// Rows one `runReport` answers at most, below the request's `limit` (Google's is the
    /// limit; a test lowers it to see the connector follow `rowCount`).
    pub report_page_cap: usize,
    /// Accounts one `accountSummaries.list` page holds at most, below `pageSize` (a test lowers
    /// it to see the connector follow `nextPageToken`).
    pub summaries_page_cap: usize,
}

impl Default for Analytics {
    fn default() -> Self {
        Self {
            access: Vec::new(),
            sessions: BTreeMap::new(),
            landing: BTreeMap::new(),
            events: BTreeMap::new(),
            page_tokens: HashMap::new(),
            report_page_cap: usize::MAX,
            summaries_page_cap: usize::MAX,
        }
    }
}
