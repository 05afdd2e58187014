//! The fake's memory: the bearer tokens it accepts, the accounts with their followers and
//! posts, the failures a test scheduled, and every request.

use std::collections::HashMap;

use crate::fakes::recorder::RequestLog;
use crate::fakes::schedule::FailureSchedule;

/// A failure a test schedules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fail {
    /// 429 with X's problem body and `x-rate-limit-reset` this many seconds from now (wall
    /// clock, as X's is).
    RateLimited { reset_in_secs: i64 },
    /// 503 with X's problem body.
    ServiceUnavailable,
}

/// A post's public metrics, as X counts them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PostMetrics {
    pub impressions: i64,
    pub likes: i64,
    pub replies: i64,
    pub reposts: i64,
    pub quotes: i64,
    pub bookmarks: i64,
}

/// One post of an account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Post {
    pub id: String,
    /// RFC 3339 as X writes it, `2026-11-20T14:03:00.000Z`.
    pub created_at: String,
    /// Milliseconds since the epoch of `created_at`, for ordering and `start_time`.
    pub created_ms: i64,
    pub text: String,
    pub metrics: PostMetrics,
}

#[derive(Debug, Clone)]
pub(crate) struct Account {
    pub id: String,
    pub username: String,
    pub followers: i64,
    /// Newest first once sorted at read.
    pub posts: Vec<Post>,
}

#[derive(Debug, Default)]
pub(crate) struct State {
    /// Bearer token → live (false once revoked).
    pub tokens: HashMap<String, bool>,
    pub accounts: Vec<Account>,
    pub scheduled: FailureSchedule<Fail>,
    pub log: RequestLog,
}

impl State {
    pub fn live_token(&self, token: &str) -> bool {
        self.tokens.get(token).copied().unwrap_or(false)
    }

    /// X's handles are case-insensitive.
    pub fn by_username(&self, username: &str) -> Option<&Account> {
        self.accounts
            .iter()
            .find(|account| account.username.eq_ignore_ascii_case(username))
    }

    pub fn by_id(&self, id: &str) -> Option<&Account> {
        self.accounts.iter().find(|account| account.id == id)
    }

    pub fn account_mut(&mut self, username: &str) -> Option<&mut Account> {
        self.accounts
            .iter_mut()
            .find(|account| account.username.eq_ignore_ascii_case(username))
    }
}
