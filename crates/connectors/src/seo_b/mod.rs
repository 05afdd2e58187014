//! The `seo_b` connection: a domain's authority, backlinks and top organic keywords, read
//! through Ahrefs API v3 with the API key the customer created in Ahrefs (Account settings,
//! API keys). Read only, and metered: every request costs the customer API units, so the kind
//! runs weekly and never on demand, and each run makes three requests.
//!
//! One file per concern: `client` (the bearer key, retries and error bodies), `wire` (the
//! documented shapes), `reads` (the three endpoints with their documented parameters),
//! `mapping` (answers to snapshots), `source` (the [`crate::Source`]).
//!
//! Documentation followed (docs.ahrefs.com/api): the reference pages of Site Explorer's
//! `domain-rating`, `backlinks-stats` and `organic-keywords` (`GET /v3/site-explorer/...`,
//! `target` and `date` required, `select` required for lists, `limit` the only paging control),
//! `Authorization: Bearer <key>`, errors as `{"error": "..."}`, and "Limits consumption" (units
//! per request).

mod client;
#[cfg(test)]
mod loopback_tests;
mod mapping;
mod reads;
mod source;
mod wire;

pub use source::SeoBSource;

use std::fmt;

use crate::ConnectorError;
use crate::payments::RetryPolicy;
use client::AhrefsClient;

/// Ahrefs' API origin; `/v3/...` paths are appended.
pub const DEFAULT_API_BASE_URL: &str = "https://api.ahrefs.com";

/// How many organic keywords a run keeps: the top of the domain's list by estimated traffic.
/// Bounded because each row costs units; the top carries nearly all of the traffic.
pub const KEYWORD_LIMIT: u32 = 100;

/// The country whose organic results are read (Ahrefs' two-letter code, lowercase): one
/// country, so each keyword has one rank; the US, as `seo_a`'s default database.
pub const KEYWORD_COUNTRY: &str = "us";

/// One `seo_b` connection. `Debug` never prints the key.
#[derive(Clone)]
pub struct SeoBConfig {
    /// The Ahrefs API v3 key.
    pub api_key: String,
    /// The domain read, without a scheme (`shop.example`).
    pub domain: String,
    /// Default [`DEFAULT_API_BASE_URL`]; tests point it at a fake.
    pub api_base_url: String,
    /// How often throttles and server errors are retried.
    pub retry: RetryPolicy,
}

impl SeoBConfig {
    /// A config against Ahrefs' origin with the default retry policy.
    pub fn new(api_key: String, domain: String) -> Self {
        Self {
            api_key,
            domain,
            api_base_url: DEFAULT_API_BASE_URL.to_owned(),
            retry: RetryPolicy::default(),
        }
    }

    fn client<'a>(&'a self, http: &'a reqwest::Client) -> Result<AhrefsClient<'a>, ConnectorError> {
        AhrefsClient::new(http, &self.api_base_url, &self.api_key, self.retry)
    }
}

impl fmt::Debug for SeoBConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SeoBConfig")
            .field("api_key", &"[redacted]")
            .field("domain", &self.domain)
            .field("api_base_url", &self.api_base_url)
            .field("retry", &self.retry)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_config_starts_at_ahrefs_and_never_prints_its_key() {
        let config = SeoBConfig::new("ahrefs-key-secret-value".into(), "shop.example".into());
        assert_eq!(config.api_base_url, "https://api.ahrefs.com");
        assert_eq!(config.retry, RetryPolicy::default());
        let text = format!("{config:?}");
        assert!(!text.contains("ahrefs-key-secret-value"), "{text}");
        assert!(text.contains("shop.example"), "{text}");
    }
}
