//! Request rate limits and the client address they key on.
//!
//! - Per client address: tower_governor layers on the public routes that hash a password or
//!   send mail (`PAYBACK_RATE_LIMIT_PER_MINUTE`, one budget for all of them) and on
//!   `POST /t/events` (`PAYBACK_TRACKING_RATE_LIMIT_PER_MINUTE`).
//! - Per write key (`PAYBACK_TRACKING_KEY_RATE_LIMIT_PER_MINUTE`) and per login email
//!   (`PAYBACK_LOGIN_ATTEMPTS_PER_EMAIL` per 15 minutes): keyed limiters the handlers check once
//!   they have read the key or the email, before any database work or password hash. Many
//!   addresses each under their own limit still meet these.
//!
//! - Per account (`PAYBACK_CHAT_PER_MINUTE`) and per credential (`PAYBACK_CHAT_KEY_PER_MINUTE`)
//!   on the chat routes, and the conversations under way per account
//!   (`PAYBACK_CHAT_CONCURRENT`, [`ConversationSlots`]): the chat service
//!   checks them before it asks the model gateway anything.
//!
//! - Per account (`PAYBACK_FETCH_PER_MINUTE`): fetches of tenant-given pages (detect-integrations),
//!   checked before anything is sent.
//!
//! Every limiter lives in memory, per instance, in [`Limiters`] (held by `AppState`).
//!
//! Behind a reverse proxy every request arrives from the proxy, so keying on the peer address
//! would put every client in one bucket. `PAYBACK_TRUSTED_PROXIES` names the proxies whose
//! `X-Forwarded-For` is believed ([`TrustedProxies`], in `trusted_proxies`); from any other peer
//! the header is ignored, since a client can send whatever it likes there.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, Weak};
use std::time::Duration;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Request, Response};
use axum::response::IntoResponse;
use governor::clock::{Clock as _, DefaultClock};
use governor::middleware::NoOpMiddleware;
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use tower_governor::GovernorLayer;
use tower_governor::errors::GovernorError;
use tower_governor::governor::{GovernorConfig, GovernorConfigBuilder};
use tower_governor::key_extractor::KeyExtractor;
use utoipa_axum::router::OpenApiRouter;

use crate::config::Config;
use crate::error::{ApiError, ApiResult};
// Re-exported: the client address is what these limits key on, and callers name it here.
pub use crate::trusted_proxies::TrustedProxies;

/// The window of the per-email login limit.
pub const LOGIN_WINDOW: Duration = Duration::from_secs(15 * 60);

/// The bucket an address counts in. An IPv6 client usually holds a whole /64 and could take a
/// fresh address for every request, so IPv6 addresses count per /64.
fn bucket(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => IpAddr::V6(Ipv6Addr::from(u128::from(v6) & !u128::from(u64::MAX))),
    }
}

/// tower_governor's key: the client address as [`TrustedProxies::client_ip`] finds it.
/// (tower_governor's own `SmartIpKeyExtractor` believes forwarding headers from anyone.)
#[derive(Debug, Clone)]
pub struct ClientAddress {
    trusted: Arc<TrustedProxies>,
}

impl KeyExtractor for ClientAddress {
    type Key = IpAddr;

    fn extract<T>(&self, req: &Request<T>) -> Result<Self::Key, GovernorError> {
        let ConnectInfo(peer) = req
            .extensions()
            .get::<ConnectInfo<SocketAddr>>()
            .ok_or(GovernorError::UnableToExtractKey)?;
        Ok(bucket(self.trusted.client_ip(peer.ip(), req.headers())))
    }
}

/// A per-address limit: `per_minute` requests, refilled evenly over the minute.
#[derive(Clone)]
pub struct AddressLimit {
    config: Arc<GovernorConfig<ClientAddress, NoOpMiddleware>>,
    per_minute: u32,
}

impl AddressLimit {
    fn new(per_minute: u32, trusted: &Arc<TrustedProxies>) -> ApiResult<Self> {
        let per_minute = per_minute.max(1);
        let period = Duration::from_nanos(60_000_000_000 / u64::from(per_minute))
            .max(Duration::from_nanos(1));
        let config = GovernorConfigBuilder::default()
            .key_extractor(ClientAddress {
                trusted: Arc::clone(trusted),
            })
            .period(period)
            .burst_size(per_minute)
            .finish()
            .ok_or_else(|| ApiError::Config(format!("rate limit of {per_minute} per minute")))?;
        Ok(Self {
            config: Arc::new(config),
            per_minute,
        })
    }

    /// Limits `routes`, answering 429 JSON over the limit.
    pub fn apply<S>(&self, routes: OpenApiRouter<S>) -> OpenApiRouter<S>
    where
        S: Clone + Send + Sync + 'static,
    {
        let per_minute = self.per_minute;
        routes.layer(
            GovernorLayer::new(Arc::clone(&self.config))
                .error_handler(move |err| too_many_from_address(err, per_minute)),
        )
    }
}

fn too_many_from_address(err: GovernorError, per_minute: u32) -> Response<Body> {
    match err {
        GovernorError::TooManyRequests { wait_time, .. } => {
            let wait = wait_time.max(1);
            ApiError::TooManyRequests {
                message: format!(
                    "too many requests from this address: at most {per_minute} per minute; try again in {wait} s"
                ),
                retry_after_secs: wait,
            }
            .into_response()
        }
        other => ApiError::internal(other).into_response(),
    }
}

/// A limiter keyed by a string (a write key, an email).
#[derive(Clone)]
struct KeyedLimit {
    limiter: Arc<DefaultKeyedRateLimiter<String>>,
}

impl KeyedLimit {
    fn new(quota: Quota) -> Self {
        Self {
            limiter: Arc::new(RateLimiter::keyed(quota)),
        }
    }

    /// Counts one request for `key`; over the quota, the whole seconds until the next one
    /// passes.
    fn check(&self, key: &str) -> Result<(), u64> {
        self.limiter
            .check_key(&key.to_owned())
            .map_err(|not_until| {
                let wait = not_until.wait_time_from(self.limiter.clock().now());
                (wait.as_secs() + u64::from(wait.subsec_nanos() > 0)).max(1)
            })
    }
}

/// Every rate limiter of the instance.
#[derive(Clone)]
pub struct Limiters {
    /// Per client address, one budget for signup, lead prompt, agent signup, login, claim and
    /// accepting an invite.
    pub public_auth: AddressLimit,
    /// Per client address, `POST /t/events`.
    pub browser_events: AddressLimit,
    write_key: KeyedLimit,
    write_key_per_minute: u32,
    login_email: KeyedLimit,
    login_attempts: u32,
    chat_account: KeyedLimit,
    chat_account_per_minute: u32,
    chat_credential: KeyedLimit,
    chat_credential_per_minute: u32,
    fetch_account: KeyedLimit,
    fetch_account_per_minute: u32,
    /// Chat conversations under way, per account.
    pub chat_conversations: ConversationSlots,
}

impl std::fmt::Debug for Limiters {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Limiters")
            .field("public_auth_per_minute", &self.public_auth.per_minute)
            .field("browser_events_per_minute", &self.browser_events.per_minute)
            .field("write_key_per_minute", &self.write_key_per_minute)
            .field("login_attempts", &self.login_attempts)
            .field("chat_account_per_minute", &self.chat_account_per_minute)
            .field(
                "chat_credential_per_minute",
                &self.chat_credential_per_minute,
            )
            .field("chat_conversations", &self.chat_conversations)
            .field("fetch_account_per_minute", &self.fetch_account_per_minute)
            .finish()
    }
}

impl Limiters {
    /// The limiters `config` asks for. Inside a Tokio runtime it also starts a task that
    /// forgets idle keys every minute (every address, key and email seen is remembered until
    /// then); the task ends once the limiters are dropped.
    pub fn from_config(config: &Config) -> ApiResult<Self> {
        let trusted = Arc::new(config.trusted_proxies.clone());
        let write_key_per_minute = config.tracking_key_rate_limit_per_minute.max(1);
        let login_attempts = config.login_attempts_per_email.max(1);
        let chat_account_per_minute = config.chat_per_minute.max(1);
        let chat_credential_per_minute = config.chat_key_per_minute.max(1);
        let fetch_account_per_minute = config.fetch_per_minute.max(1);
        let login_quota = Quota::with_period(LOGIN_WINDOW / login_attempts)
            .map(|quota| quota.allow_burst(nonzero(login_attempts)))
            .ok_or_else(|| {
                ApiError::Config(format!("{login_attempts} login attempts per email"))
            })?;
        let limiters = Self {
            public_auth: AddressLimit::new(config.rate_limit_per_minute, &trusted)?,
            browser_events: AddressLimit::new(config.tracking_rate_limit_per_minute, &trusted)?,
            write_key: KeyedLimit::new(Quota::per_minute(nonzero(write_key_per_minute))),
            write_key_per_minute,
            login_email: KeyedLimit::new(login_quota),
            login_attempts,
            chat_account: KeyedLimit::new(Quota::per_minute(nonzero(chat_account_per_minute))),
            chat_account_per_minute,
            chat_credential: KeyedLimit::new(Quota::per_minute(nonzero(
                chat_credential_per_minute,
            ))),
            chat_credential_per_minute,
            fetch_account: KeyedLimit::new(Quota::per_minute(nonzero(fetch_account_per_minute))),
            fetch_account_per_minute,
            chat_conversations: ConversationSlots::new(config.chat_concurrent),
        };
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(forget_idle_keys(limiters.weak()));
        }
        Ok(limiters)
    }

    /// Counts a login attempt at `email` (already normalized), failed or not, from any
    /// address: guessing one account's password from many addresses meets this limit.
    pub fn check_login_email(&self, email: &str) -> ApiResult<()> {
        self.login_email
            .check(email)
            .map_err(|wait| ApiError::TooManyRequests {
                message: format!(
                    "too many requests for this email: at most {} login attempts per email per 15 minutes; try again in {wait} s",
                    self.login_attempts
                ),
                retry_after_secs: wait,
            })
    }

    /// Counts a `POST /t/events` for `key`, from any address.
    pub fn check_write_key(&self, key: &str) -> ApiResult<()> {
        self.write_key
            .check(key)
            .map_err(|wait| ApiError::TooManyRequests {
                message: format!(
                    "too many requests for this write key: at most {} per minute; try again in {wait} s",
                    self.write_key_per_minute
                ),
                retry_after_secs: wait,
            })
    }

    /// Counts a chat request for `credential` (one API key or session) and for `account`,
    /// answering 429 over either rate. The credential's rate is checked first, so a credential
    /// over its own rate spends nothing of its account's: one runaway key does not lock the
    /// account's other keys and people out.
    pub fn check_chat(&self, account: &str, credential: &str) -> ApiResult<()> {
        self.chat_credential
            .check(credential)
            .map_err(|wait| ApiError::TooManyRequests {
                message: format!(
                    "too many chat requests for this API key or session: at most {} per minute; try again in {wait} s",
                    self.chat_credential_per_minute
                ),
                retry_after_secs: wait,
            })?;
        self.chat_account
            .check(account)
            .map_err(|wait| ApiError::TooManyRequests {
                message: format!(
                    "too many chat requests for this account: at most {} per minute; try again in {wait} s",
                    self.chat_account_per_minute
                ),
                retry_after_secs: wait,
            })
    }

    /// Counts a fetch of a tenant-given page for `account`.
    pub fn check_fetch(&self, account: &str) -> ApiResult<()> {
        self.fetch_account
            .check(account)
            .map_err(|wait| ApiError::TooManyRequests {
                message: format!(
                    "too many page fetches for this account: at most {} per minute; try again in {wait} s",
                    self.fetch_account_per_minute
                ),
                retry_after_secs: wait,
            })
    }

    fn weak(&self) -> WeakLimiters {
        WeakLimiters {
            public_auth: Arc::downgrade(self.public_auth.config.limiter()),
            browser_events: Arc::downgrade(self.browser_events.config.limiter()),
            write_key: Arc::downgrade(&self.write_key.limiter),
            login_email: Arc::downgrade(&self.login_email.limiter),
            chat_account: Arc::downgrade(&self.chat_account.limiter),
            chat_credential: Arc::downgrade(&self.chat_credential.limiter),
            fetch_account: Arc::downgrade(&self.fetch_account.limiter),
        }
    }
}

type AddressLimiter = RateLimiter<
    IpAddr,
    governor::state::keyed::DefaultKeyedStateStore<IpAddr>,
    DefaultClock,
    NoOpMiddleware,
>;

/// What the clean-up task holds: it must not keep the limiters alive.
struct WeakLimiters {
    public_auth: Weak<AddressLimiter>,
    browser_events: Weak<AddressLimiter>,
    write_key: Weak<DefaultKeyedRateLimiter<String>>,
    login_email: Weak<DefaultKeyedRateLimiter<String>>,
    chat_account: Weak<DefaultKeyedRateLimiter<String>>,
    chat_credential: Weak<DefaultKeyedRateLimiter<String>>,
    fetch_account: Weak<DefaultKeyedRateLimiter<String>>,
}

async fn forget_idle_keys(limiters: WeakLimiters) {
    let mut tick = tokio::time::interval(Duration::from_secs(60));
    tick.tick().await;
    loop {
        tick.tick().await;
        let mut alive = false;
        for limiter in [&limiters.public_auth, &limiters.browser_events] {
            if let Some(limiter) = limiter.upgrade() {
                alive = true;
                limiter.retain_recent();
                limiter.shrink_to_fit();
            }
        }
        for limiter in [
            &limiters.write_key,
            &limiters.login_email,
            &limiters.chat_account,
            &limiters.chat_credential,
            &limiters.fetch_account,
        ] {
            if let Some(limiter) = limiter.upgrade() {
                alive = true;
                limiter.retain_recent();
                limiter.shrink_to_fit();
            }
        }
        if !alive {
            return;
        }
    }
}

fn nonzero(n: u32) -> NonZeroU32 {
    NonZeroU32::new(n).unwrap_or(NonZeroU32::MIN)
}

/// `Retry-After` of a refusal for too many conversations at once: conversations mostly end
/// within seconds (at most the 60 s time budget), and nothing tells when one will.
const BUSY_RETRY_AFTER_SECS: u64 = 5;

/// The conversations under way, per account, at most `per_account` each (the chat service takes
/// one per conversation: `services::chat::admit`). Held in [`Limiters`], per instance.
#[derive(Clone)]
pub struct ConversationSlots {
    per_account: usize,
    taken: Arc<Mutex<HashMap<String, usize>>>,
}

impl std::fmt::Debug for ConversationSlots {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ConversationSlots")
            .field("per_account", &self.per_account)
            .finish_non_exhaustive()
    }
}

impl ConversationSlots {
    pub fn new(per_account: usize) -> Self {
        Self {
            per_account: per_account.max(1),
            taken: Arc::default(),
        }
    }

    pub fn per_account(&self) -> usize {
        self.per_account
    }

    fn lock(taken: &Mutex<HashMap<String, usize>>) -> MutexGuard<'_, HashMap<String, usize>> {
        // A count is a plain number, whole after any panic: a poisoned lock holds it intact.
        taken.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// One more conversation for `account`, held until the returned slot is dropped (however
    /// the conversation ends); 429 when the account already has `per_account` under way.
    pub fn take(&self, account: &str) -> ApiResult<ConversationSlot> {
        let mut taken = Self::lock(&self.taken);
        let count = taken.entry(account.to_owned()).or_insert(0);
        if *count >= self.per_account {
            return Err(ApiError::TooManyRequests {
                message: format!(
                    "too many conversations under way for this account: at most {} at once; \
                     try again in {BUSY_RETRY_AFTER_SECS} s",
                    self.per_account
                ),
                retry_after_secs: BUSY_RETRY_AFTER_SECS,
            });
        }
        *count += 1;
        Ok(ConversationSlot {
            account: account.to_owned(),
            taken: Arc::clone(&self.taken),
        })
    }

    /// Conversations under way for `account`.
    pub fn under_way(&self, account: &str) -> usize {
        Self::lock(&self.taken).get(account).copied().unwrap_or(0)
    }
}

/// One conversation's place among its account's; given back on drop.
#[derive(Debug)]
pub struct ConversationSlot {
    account: String,
    taken: Arc<Mutex<HashMap<String, usize>>>,
}

impl Drop for ConversationSlot {
    fn drop(&mut self) {
        let mut taken = ConversationSlots::lock(&self.taken);
        if let Some(count) = taken.get_mut(&self.account) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                // Accounts with nothing under way are forgotten, so the map stays small.
                taken.remove(&self.account);
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // a failing unwrap is the test's failure message
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn ipv6_counts_per_64() {
        assert_eq!(bucket(ip("2001:db8:1:2:3:4:5:6")), ip("2001:db8:1:2::"));
        assert_eq!(bucket(ip("203.0.113.9")), ip("203.0.113.9"));
    }

    #[tokio::test]
    async fn keyed_limits_name_the_wait() {
        let config = Config {
            login_attempts_per_email: 2,
            tracking_key_rate_limit_per_minute: 1,
            ..Config::default()
        };
        let limiters = Limiters::from_config(&config).unwrap();
        limiters.check_login_email("ann@example.com").unwrap();
        limiters.check_login_email("ann@example.com").unwrap();
        let err = limiters
            .check_login_email("ann@example.com")
            .unwrap_err()
            .to_string();
        assert!(err.contains("per email"), "{err}");
        // 15 minutes for 2 attempts: one more every 450 s.
        assert!(err.ends_with("try again in 450 s"), "{err}");
        limiters.check_login_email("bob@example.com").unwrap();
        limiters.check_write_key("svc_pub_a").unwrap();
        let err = limiters
            .check_write_key("svc_pub_a")
            .unwrap_err()
            .to_string();
        assert!(err.contains("write key"), "{err}");
    }

    #[tokio::test]
    async fn page_fetches_are_counted_per_account() {
        let config = Config {
            fetch_per_minute: 1,
            ..Config::default()
        };
        let limiters = Limiters::from_config(&config).unwrap();
        limiters.check_fetch("account:a").unwrap();
        limiters.check_fetch("account:b").unwrap();
        let err = limiters.check_fetch("account:a").unwrap_err().to_string();
        assert!(err.contains("page fetches for this account"), "{err}");
    }

    #[tokio::test]
    async fn a_credential_over_its_chat_rate_spends_nothing_of_its_account() {
        let config = Config {
            chat_per_minute: 2,
            chat_key_per_minute: 1,
            ..Config::default()
        };
        let limiters = Limiters::from_config(&config).unwrap();
        limiters.check_chat("account:a", "key:1").unwrap();
        let err = limiters.check_chat("account:a", "key:1").unwrap_err();
        assert!(err.to_string().ends_with("try again in 60 s"), "{err}");
        // The refused request left the account's second request for another key.
        limiters.check_chat("account:a", "key:2").unwrap();
        let err = limiters.check_chat("account:a", "key:3").unwrap_err();
        assert!(err.to_string().contains("for this account"), "{err}");
        assert_eq!(config.chat_concurrent, 3);
        assert_eq!(limiters.chat_conversations.per_account(), 3);
    }

    #[test]
    fn slots_are_per_account_and_given_back_on_drop() {
        let slots = ConversationSlots::new(2);
        let first = slots.take("a").unwrap();
        let _second = slots.take("a").unwrap();
        let refused = slots.take("a").unwrap_err();
        assert!(matches!(
            refused,
            ApiError::TooManyRequests {
                retry_after_secs: BUSY_RETRY_AFTER_SECS,
                ..
            }
        ));
        let _other = slots.take("b").unwrap();
        drop(first);
        assert_eq!(slots.under_way("a"), 1);
        let _third = slots.take("a").unwrap();
    }
}
