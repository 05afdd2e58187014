//! The `search_console` connection: one Google Search Console site read through the Search
//! Console API (webmasters v3), authorised by the search-engine grant's refresh token or
//! Payback's service account ([`GoogleAuth`]) with the `webmasters.readonly` scope ([`SCOPE`]).
//! Each day's clicks and impressions land as snapshots per search query.
//!
//! One file per concern: `client` (the API's calls over [`crate::google`]'s client), `wire`
//! (the JSON), `analytics` (the query's pages),
//! `mapping` (rows to snapshots), [`sites`] (what a grant reaches), `source` (the
//! [`crate::Source`]).

mod analytics;
mod client;
mod mapping;
pub mod sites;
mod source;
mod wire;

pub use crate::payments::RetryPolicy;
pub use sites::{SiteOption, list_sites};
pub use source::SearchConsoleSource;

use crate::ConnectorError;
use crate::google::GoogleAuth;
use client::ConsoleClient;

/// The Search Console API's origin; `/webmasters/v3/...` paths are appended.
pub const DEFAULT_API_BASE_URL: &str = "https://www.googleapis.com";

/// The one scope the kind asks Google for: read-only Search Console data.
pub const SCOPE: &str = "https://www.googleapis.com/auth/webmasters.readonly";

/// Rows per `searchAnalytics.query` request: Google's maximum.
pub const ROW_LIMIT: usize = 25_000;

/// One `search_console` connection, its credential opened. `Debug` never prints a token.
#[derive(Clone, Debug)]
pub struct SearchConsoleConfig {
    /// Default [`DEFAULT_API_BASE_URL`]; tests point it at a fake.
    pub api_base_url: String,
    /// The chosen site, as Google spells it (`https://shop.example/`, `sc-domain:shop.example`).
    pub site_url: String,
    pub auth: GoogleAuth,
    /// Rows a query page asks for (default [`ROW_LIMIT`]).
    pub row_limit: usize,
    /// How often quota (429) and server (5xx) answers are retried.
    pub retry: RetryPolicy,
}

impl SearchConsoleConfig {
    /// A config against Google's origin with the default page size and retry policy.
    pub fn new(site_url: String, auth: GoogleAuth) -> Self {
        Self {
            api_base_url: DEFAULT_API_BASE_URL.to_owned(),
            site_url,
            auth,
            row_limit: ROW_LIMIT,
            retry: Self::default_retry(),
        }
    }

    pub(crate) fn default_retry() -> RetryPolicy {
        RetryPolicy::default()
    }

    /// A client with a fresh access token.
    async fn client(&self, http: &reqwest::Client) -> Result<ConsoleClient, ConnectorError> {
        if self.site_url.trim().is_empty() {
            return Err(ConnectorError::Config(
                "the Search Console site is not chosen".to_owned(),
            ));
        }
        ConsoleClient::connect(http, &self.api_base_url, self.retry, &self.auth).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oauth::{OAuthClient, OAuthEndpoints};

    fn config() -> SearchConsoleConfig {
        SearchConsoleConfig::new(
            "https://shop.example/".into(),
            GoogleAuth::Grant {
                oauth: OAuthClient::new(
                    "id".into(),
                    "client-secret".into(),
                    OAuthEndpoints::google(),
                ),
                refresh_token: "1//refresh-secret".into(),
            },
        )
    }

    #[test]
    fn debug_never_prints_a_secret() {
        let text = format!("{:?}", config());
        assert!(text.contains("https://shop.example/"), "{text}");
        for secret in ["client-secret", "1//refresh-secret"] {
            assert!(!text.contains(secret), "{text}");
        }
    }

    #[test]
    fn defaults_are_googles() {
        let config = config();
        assert_eq!(config.api_base_url, "https://www.googleapis.com");
        assert_eq!(config.row_limit, 25_000);
    }
}
