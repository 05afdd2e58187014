//! Service configuration: environment variables `PAYBACK_*`, optionally a `payback.toml` with
//! the same keys in lower case (the environment wins).

use std::net::SocketAddr;

use figment::Figment;
use figment::providers::{Env, Format, Toml};
use serde::Deserialize;

use crate::error::ApiError;
use crate::rate_limit::TrustedProxies;
use crate::secret::Secret;

#[derive(Debug, Clone, Deserialize)]
#[serde(default)]
pub struct Config {
    /// A `Secret`: a PostgreSQL URL carries the password.
    pub database_url: Secret,
    pub listen: SocketAddr,
    /// Base of links in emails and snippets; defaults to `http://<listen>`.
    pub public_url: Option<String>,
    pub operator_token: Option<Secret>,
    pub operator_email: Option<String>,
    pub staff_domain: Option<String>,
    /// `log`, `file:DIR` or `smtp://user:pass@host:port` (a `Secret`: the URL carries the
    /// password).
    pub mail: Secret,
    /// Address mail is sent from.
    pub mail_from: String,
    /// Requests per minute per client address to the public routes that hash a password or
    /// send mail (signup, lead prompt, agent signup, login, claim, accepting an invite), one
    /// budget for all of them.
    pub rate_limit_per_minute: u32,
    /// Requests per minute per client address to `POST /t/events`.
    pub tracking_rate_limit_per_minute: u32,
    /// Requests per minute per write key to `POST /t/events`, whatever the address.
    pub tracking_key_rate_limit_per_minute: u32,
    /// Login attempts per email (failed or not) per 15 minutes, whatever the address.
    pub login_attempts_per_email: u32,
    /// Reverse proxies whose `X-Forwarded-For` names the client (IPs or CIDR blocks,
    /// comma-separated); empty, the peer address is the client.
    pub trusted_proxies: TrustedProxies,
    /// Largest request body accepted, in bytes (event batches are the largest bodies).
    pub max_body_bytes: usize,
    /// Seconds between passes of the background job loop; 0 runs no jobs in this instance.
    pub jobs_every_secs: u64,
    /// Milliseconds a report waits for its product's pending events to be folded before it
    /// answers from what is folded, saying how many are still pending
    /// (`X-Payback-Pending-Events`). Exports and checks that decide on the data always wait for
    /// the whole fold.
    pub read_wait_ms: u64,
    /// Base64 of 32 bytes sealing stored credentials; unset, connecting a source answers 503.
    pub secret_key: Option<Secret>,
    /// Where the payments connector sends its requests (the Stripe API); tests point it at a fake.
    pub stripe_api_base: String,
    /// Base URL of an OpenAI-compatible chat completions gateway (`/chat/completions` is
    /// appended).
    pub model_gateway_url: String,
    /// The gateway's bearer key; unset, the AI features answer 503.
    pub model_gateway_key: Option<Secret>,
    /// The model asked.
    pub model: String,
    /// Lets tenants' database connections name loopback and private addresses (self-hosted
    /// setups, tests). Off, such hosts are refused: they would reach the API host's neighbours.
    pub allow_private_database_hosts: bool,
    /// The API host's environment as it was at start: operators may point a `sql_a` connection
    /// at variables of it by name. Captured once so nothing reads the process environment later.
    #[serde(skip)]
    pub host_env: HostEnv,
}

/// A snapshot of environment variables. `Debug` shows only how many there are: values may be
/// secrets.
#[derive(Clone, Default)]
pub struct HostEnv(std::collections::HashMap<String, String>);

impl HostEnv {
    /// The process environment now.
    pub fn capture() -> Self {
        Self(std::env::vars().collect())
    }

    pub fn get(&self, name: &str) -> Option<&str> {
        self.0.get(name).map(String::as_str)
    }

    /// Sets a variable in this snapshot (tests, and embedding callers).
    pub fn set(&mut self, name: impl Into<String>, value: impl Into<String>) {
        self.0.insert(name.into(), value.into());
    }
}

impl std::fmt::Debug for HostEnv {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "HostEnv({} variables)", self.0.len())
    }
}

impl Default for Config {
    fn default() -> Self {
        Self {
            database_url: Secret::from("sqlite://data/payback.db"),
            listen: SocketAddr::from(([127, 0, 0, 1], 8080)),
            public_url: None,
            operator_token: None,
            operator_email: None,
            staff_domain: None,
            mail: Secret::from("log"),
            mail_from: "Payback <no-reply@payback.localhost>".to_owned(),
            rate_limit_per_minute: 20,
            // A page view sends a few beacons; this leaves room for busy visitors and offices
            // behind one address.
            tracking_rate_limit_per_minute: 600,
            tracking_key_rate_limit_per_minute: 6000,
            login_attempts_per_email: 10,
            trusted_proxies: TrustedProxies::default(),
            max_body_bytes: 16 * 1024 * 1024,
            jobs_every_secs: 30,
            // A burst or a backfill can take minutes to fold; a dashboard answers within about
            // a second, and exactly whenever the fold keeps up (the usual case).
            read_wait_ms: 1_000,
            secret_key: None,
            stripe_api_base: "https://api.stripe.com".to_owned(),
            model_gateway_url: "https://api.openai.com/v1".to_owned(),
            model_gateway_key: None,
            model: "gpt-4o-mini".to_owned(),
            allow_private_database_hosts: false,
            host_env: HostEnv::default(),
        }
    }
}

impl Config {
    /// Reads `payback.toml` (when present) and then the `PAYBACK_` environment.
    pub fn load() -> Result<Self, ApiError> {
        Figment::new()
            .merge(Toml::file("payback.toml"))
            .merge(Env::prefixed("PAYBACK_"))
            .extract()
            .map(|config: Config| Config {
                host_env: HostEnv::capture(),
                ..config
            })
            .map_err(|err| ApiError::Config(err.to_string()))
    }

    /// [`Self::read_wait_ms`] as a duration.
    pub fn read_wait(&self) -> std::time::Duration {
        std::time::Duration::from_millis(self.read_wait_ms)
    }

    pub fn public_url(&self) -> String {
        match &self.public_url {
            Some(url) => url.trim_end_matches('/').to_owned(),
            None => format!("http://{}", self.listen),
        }
    }

    /// Whether this email belongs to the platform's staff (`platform_admin`).
    pub fn is_staff(&self, email: &str) -> bool {
        self.staff_domain.as_deref().is_some_and(|domain| {
            let domain = domain.trim_start_matches('@').to_ascii_lowercase();
            email
                .rsplit_once('@')
                .is_some_and(|(_, host)| host == domain)
        })
    }
}
