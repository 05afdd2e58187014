//! Service configuration: environment variables `PAYBACK_*`, optionally a `payback.toml` with
//! the same keys in lower case (the environment wins).

use std::net::SocketAddr;

use figment::Figment;
use figment::providers::{Env, Format, Toml};
use serde::Deserialize;

use crate::error::ApiError;

#[derive(Debug, Clone, Deserialize)]
#[serde(default)]
pub struct Config {
    pub database_url: String,
    pub listen: SocketAddr,
    /// Base of links in emails and snippets; defaults to `http://<listen>`.
    pub public_url: Option<String>,
    pub operator_token: Option<String>,
    pub operator_email: Option<String>,
    pub staff_domain: Option<String>,
    /// `log`, `file:DIR` or `smtp://user:pass@host:port`.
    pub mail: String,
    /// Address mail is sent from.
    pub mail_from: String,
    pub rate_limit_per_minute: u32,
    /// Largest request body accepted, in bytes (event batches are the largest bodies).
    pub max_body_bytes: usize,
    /// Seconds between passes of the background job loop; 0 runs no jobs in this instance.
    pub jobs_every_secs: u64,
    /// Base64 of 32 bytes sealing stored credentials; unset, connecting a source answers 503.
    pub secret_key: Option<Redacted>,
    /// Where the payments connector sends its requests (the Stripe API); tests point it at a fake.
    pub stripe_api_base: String,
    /// Base URL of an OpenAI-compatible chat completions gateway (`/chat/completions` is
    /// appended).
    pub model_gateway_url: String,
    /// The gateway's bearer key; unset, the AI features answer 503.
    pub model_gateway_key: Option<Redacted>,
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

/// A configuration value that must never reach a log line: `Debug` prints `[redacted]`.
#[derive(Clone, Deserialize)]
#[serde(transparent)]
pub struct Redacted(pub String);

impl std::fmt::Debug for Redacted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("[redacted]")
    }
}

impl Default for Config {
    fn default() -> Self {
        Self {
            database_url: "sqlite://data/payback.db".to_owned(),
            listen: SocketAddr::from(([127, 0, 0, 1], 8080)),
            public_url: None,
            operator_token: None,
            operator_email: None,
            staff_domain: None,
            mail: "log".to_owned(),
            mail_from: "Payback <no-reply@payback.localhost>".to_owned(),
            rate_limit_per_minute: 20,
            max_body_bytes: 16 * 1024 * 1024,
            jobs_every_secs: 30,
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
