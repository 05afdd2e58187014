//! `seo_a`: a domain's standing in Semrush (its rank, organic keywords and traffic, and its top
//! organic keywords' positions and volumes), read through Semrush's Analytics API v3 with the API
//! key of the customer's subscription (Subscription info, API units). Read only.
//!
//! Every Semrush request spends the customer's API units, so Payback never calls Semrush to test
//! a key: the weekly run is the proof, and a refused key is that run's error.
//!
//! One file per concern: `client` (the URL, the key, retries and error bodies), `wire` (the CSV
//! and the error line), `mapping` (reports to snapshots), `source` (the [`crate::Source`]).
//!
//! Documentation followed (developer.semrush.com, Analytics API v3): the basic docs (the key,
//! `;`-separated CSV with a header line, the column codes and their response names, the
//! databases), Domain Overview (`domain_rank`, one database) and Domain Organic Search Keywords
//! (`domain_organic`: `display_sort`, `display_limit`), the errors (`ERROR NN :: TEXT`,
//! `ERROR 50 :: NOTHING FOUND`) and the API unit prices (10 units a line for both reports).

mod client;
#[cfg(test)]
mod loopback_tests;
mod mapping;
mod source;
mod wire;

pub use source::SeoASource;

use std::fmt;

use crate::ConnectorError;
use crate::payments::RetryPolicy;
use client::SemrushClient;

/// Semrush's API origin; the reports are read at its root, `/?type=...`.
pub const DEFAULT_API_BASE_URL: &str = "https://api.semrush.com";

/// The regional database read when the connection names none (Semrush's own default, google.com).
pub const DEFAULT_DATABASE: &str = "us";

/// How many of the domain's organic keywords a run reads, by traffic: 100 lines cost 1,000 units
/// a week, and the keywords past them bring little of the domain's traffic.
pub const TOP_KEYWORDS: usize = 100;

/// One `seo_a` connection. `Debug` never prints the key.
#[derive(Clone)]
pub struct SeoAConfig {
    /// The Semrush API key of the customer's subscription.
    pub api_key: String,
    /// The domain, as Semrush takes it (`shop.example`, no scheme).
    pub domain: String,
    /// The regional database (`us`, `uk`, `mobile-us`, ...).
    pub database: String,
    /// How many organic keywords a run reads.
    pub top_keywords: usize,
    /// Default [`DEFAULT_API_BASE_URL`]; tests point it at a fake.
    pub api_base_url: String,
    /// How often rate limits and server errors are retried.
    pub retry: RetryPolicy,
}

impl SeoAConfig {
    /// A config against Semrush's origin; a blank `database` is [`DEFAULT_DATABASE`].
    pub fn new(api_key: String, domain: String, database: Option<String>) -> Self {
        let database = database
            .map(|database| database.trim().to_owned())
            .filter(|database| !database.is_empty())
            .unwrap_or_else(|| DEFAULT_DATABASE.to_owned());
        Self {
            api_key,
            domain: domain.trim().to_owned(),
            database,
            top_keywords: TOP_KEYWORDS,
            api_base_url: DEFAULT_API_BASE_URL.to_owned(),
            retry: RetryPolicy::default(),
        }
    }

    fn client<'a>(
        &'a self,
        http: &'a reqwest::Client,
    ) -> Result<SemrushClient<'a>, ConnectorError> {
        SemrushClient::new(http, &self.api_base_url, &self.api_key, self.retry)
    }
}

impl fmt::Debug for SeoAConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SeoAConfig")
            .field("api_key", &"[redacted]")
            .field("domain", &self.domain)
            .field("database", &self.database)
            .field("top_keywords", &self.top_keywords)
            .field("api_base_url", &self.api_base_url)
            .field("retry", &self.retry)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_config_starts_at_semrush_in_us_and_never_prints_its_key() {
        let config = SeoAConfig::new(
            "semrush-key-secret-value".into(),
            " shop.example ".into(),
            None,
        );
        assert_eq!(config.api_base_url, "https://api.semrush.com");
        assert_eq!(config.database, "us");
        assert_eq!(config.domain, "shop.example");
        assert_eq!(config.top_keywords, 100);
        let text = format!("{config:?}");
        assert!(!text.contains("semrush-key-secret-value"), "{text}");
        assert!(text.contains("shop.example"), "{text}");
        let uk = SeoAConfig::new("k".into(), "shop.example".into(), Some("uk".into()));
        assert_eq!(uk.database, "uk");
        let blank = SeoAConfig::new("k".into(), "shop.example".into(), Some(" ".into()));
        assert_eq!(blank.database, "us");
    }
}
