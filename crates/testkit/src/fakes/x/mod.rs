//! A loopback fake of the X API v2, written from X's documentation (docs.x.com: "Users
//! lookup", "User Posts timeline", "Pagination", "Response codes and errors", "Rate limits"),
//! not from Payback's connector, so tests prove the connector speaks the documented contract.
//!
//! One server on `127.0.0.1:0` answers (`api.rs`), with `Authorization: Bearer TOKEN`:
//! - `GET /2/users/by/username/:username?user.fields=public_metrics`: the account,
//!   `public_metrics.followers_count` among its counts; a handle not found is a 200 with only
//!   `errors[]` (`resource-not-found`), an invalid one a 400 `invalid-request`,
//! - `GET /2/users/:id/tweets?tweet.fields=public_metrics,created_at&max_results&start_time&
//!   pagination_token`: its posts newest first, paged by `meta.next_token`,
//!
//! and errors as X's problem bodies (`errors.rs`): an unknown or revoked token is 401
//! `Unauthorized`, a scheduled rate limit a 429 with `x-rate-limit-reset`.
//!
//! ```ignore
//! let x = FakeX::spawn().await;
//! x.add_token("TOKEN");
//! x.add_account("2244994945", "shop", 1234);
//! x.add_post("shop", "1001", "2026-11-20T14:03:00.000Z", "hello", PostMetrics { impressions: 300, likes: 9, ..Default::default() });
//! x.rate_limit_next("/tweets", 1, 2); // one 429 resetting in 2 s
//! // The connector calls {x.base_url()}/2/users/by/username/shop?user.fields=public_metrics
//! ```
//!
//! Every request is recorded ([`FakeX::requests`]) before anything else happens to it.

mod api;
mod errors;
mod state;

use std::sync::{Arc, Mutex, MutexGuard};

use axum::Router;
use axum::response::Response;
use payback_domain::Timestamp;

pub use super::recorder::RecordedRequest;
pub use state::{Fail, Post, PostMetrics};

use super::loopback::LoopbackServer;
use super::{lock, recorder};

pub(crate) type Shared = Arc<Mutex<state::State>>;

/// The running fake; the server stops when this is dropped.
pub struct FakeX {
    server: LoopbackServer,
    shared: Shared,
}

impl std::fmt::Debug for FakeX {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.server.describe("FakeX", f)
    }
}

impl FakeX {
    pub async fn spawn() -> Self {
        let shared: Shared = Arc::new(Mutex::new(state::State::default()));
        let app = recorder::recording(Router::new().fallback(api::dispatch), shared.clone());
        Self {
            server: LoopbackServer::spawn("X", app).await,
            shared,
        }
    }

    fn state(&self) -> MutexGuard<'_, state::State> {
        lock(&self.shared)
    }

    /// `http://127.0.0.1:PORT`, the fake's `https://api.x.com`.
    pub fn base_url(&self) -> String {
        self.server.origin().to_owned()
    }

    // ---- who may call ----------------------------------------------------------------------

    /// A live app bearer token.
    pub fn add_token(&self, token: &str) {
        self.state().tokens.insert(token.to_owned(), true);
    }

    /// The app's token is regenerated: the old one answers 401 from now on.
    pub fn revoke(&self, token: &str) {
        self.state().tokens.insert(token.to_owned(), false);
    }

    // ---- seeding --------------------------------------------------------------------------

    /// An account (numeric `id`, handle, followers) with no posts yet.
    pub fn add_account(&self, id: &str, username: &str, followers: i64) {
        self.state().accounts.push(state::Account {
            id: id.to_owned(),
            username: username.to_owned(),
            followers,
            posts: Vec::new(),
        });
    }

    /// The account gains or loses followers.
    pub fn set_followers(&self, username: &str, followers: i64) {
        if let Some(account) = self.state().account_mut(username) {
            account.followers = followers;
        }
    }

    /// A post of `username`'s, created at `created_at` (RFC 3339, e.g.
    /// `2026-11-20T14:03:00.000Z`).
    pub fn add_post(
        &self,
        username: &str,
        id: &str,
        created_at: &str,
        text: &str,
        metrics: PostMetrics,
    ) {
        let created_ms = Timestamp::parse_rfc3339(created_at)
            .unwrap_or_else(|| panic!("add_post takes an RFC 3339 instant, not {created_at:?}"))
            .millis();
        let mut state = self.state();
        let account = state
            .account_mut(username)
            .unwrap_or_else(|| panic!("add_post: no account @{username}; add_account first"));
        account.posts.push(Post {
            id: id.to_owned(),
            created_at: created_at.to_owned(),
            created_ms,
            text: text.to_owned(),
            metrics,
        });
    }

    /// Every post of `username`'s the fake holds, as seeded.
    pub fn posts(&self, username: &str) -> Vec<Post> {
        self.state()
            .by_username(username)
            .map(|account| account.posts.clone())
            .unwrap_or_default()
    }

    /// The next `times` requests whose path contains `path_contains` answer `fail`.
    pub fn fail_next(&self, path_contains: &str, times: u32, fail: Fail) {
        self.state().scheduled.push(path_contains, times, fail);
    }

    /// The next `times` requests whose path contains `path_contains` answer 429, the window
    /// resetting `reset_in_secs` from now.
    pub fn rate_limit_next(&self, path_contains: &str, times: u32, reset_in_secs: i64) {
        self.fail_next(path_contains, times, Fail::RateLimited { reset_in_secs });
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
