//! The `analytics_a` connection: one Google Analytics 4 property, discovered through the GA4
//! Admin API (`accountSummaries.list`) and read through the GA4 Data API (`runReport`),
//! authorised by the search-engine grant's refresh token or Payback's service account
//! ([`GoogleAuth`]) with the `analytics.readonly` scope ([`SCOPE`]).
//!
//! A sync reads three reports over the window's days: sessions and engaged sessions by day,
//! source and medium (daily `visit`/`engaged` volumes per channel), sessions by day and landing
//! page (`landing_sessions` snapshots per path), and, when the connection maps events, the
//! mapped events' counts by day and name (daily volumes of the mapped stages).
//!
//! One file per concern: `client` (the two APIs' calls over [`crate::google`]'s client),
//! `wire` (the JSON), `report` (one report, every page), `channel` (a session's source and
//! medium to Payback's channel), `mapping` (rows to stage volumes and snapshots),
//! [`event_maps`] (the maps and their rules), [`properties`] (what a grant reaches), `source`
//! (the [`crate::Source`]).

mod channel;
mod client;
pub mod event_maps;
mod mapping;
pub mod properties;
mod report;
mod source;
mod wire;

pub use crate::payments::RetryPolicy;
pub use event_maps::EventNameMap;
pub use properties::{PropertyOption, list_properties};
pub use source::AnalyticsASource;

use crate::ConnectorError;
use crate::google::GoogleAuth;
use client::{AdminClient, DataClient};

/// The GA4 Admin API's origin (`/v1beta/accountSummaries`).
pub const DEFAULT_ADMIN_BASE_URL: &str = "https://analyticsadmin.googleapis.com";

/// The GA4 Data API's origin (`/v1beta/properties/{id}:runReport`).
pub const DEFAULT_DATA_BASE_URL: &str = "https://analyticsdata.googleapis.com";

/// The one scope the kind asks Google for: read-only Analytics data and configuration.
pub const SCOPE: &str = "https://www.googleapis.com/auth/analytics.readonly";

/// Rows per `runReport` request (Google's default is 10,000, its maximum 250,000).
pub const ROW_LIMIT: usize = 100_000;

/// The two origins the kind calls: Google's own hosts, or one origin for both
/// (`PAYBACK_ANALYTICS_A_API_URL`, a test's fake).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiOrigins {
    pub admin: String,
    pub data: String,
}

impl ApiOrigins {
    /// Google's hosts.
    pub fn google() -> Self {
        Self {
            admin: DEFAULT_ADMIN_BASE_URL.to_owned(),
            data: DEFAULT_DATA_BASE_URL.to_owned(),
        }
    }

    /// One origin serving both APIs' `/v1beta/...` paths.
    pub fn one(origin: &str) -> Self {
        Self {
            admin: origin.to_owned(),
            data: origin.to_owned(),
        }
    }
}

/// One `analytics_a` connection, its credential opened. `Debug` never prints a token.
#[derive(Clone, Debug)]
pub struct AnalyticsAConfig {
    pub origins: ApiOrigins,
    /// The chosen property's numeric id (`properties/{id}` in Google's resource names).
    pub property_id: String,
    pub auth: GoogleAuth,
    /// Events whose daily counts become the volume of a stage (checked by the server before
    /// they are stored).
    pub event_maps: Vec<EventNameMap>,
    /// Rows a `runReport` page asks for (default [`ROW_LIMIT`]).
    pub row_limit: usize,
    /// How often quota (429) and server (5xx) answers are retried.
    pub retry: RetryPolicy,
}

impl AnalyticsAConfig {
    /// A config against Google's hosts with the default page size and retry policy.
    pub fn new(property_id: String, auth: GoogleAuth) -> Self {
        Self {
            origins: ApiOrigins::google(),
            property_id,
            auth,
            event_maps: Vec::new(),
            row_limit: ROW_LIMIT,
            retry: Self::default_retry(),
        }
    }

    pub(crate) fn default_retry() -> RetryPolicy {
        RetryPolicy::default()
    }

    /// A Data API client with a fresh access token.
    async fn data(&self, http: &reqwest::Client) -> Result<DataClient, ConnectorError> {
        if self.property_id.trim().is_empty() {
            return Err(ConnectorError::Config(
                "the Google Analytics property is not chosen".to_owned(),
            ));
        }
        DataClient::connect(http, &self.origins.data, self.retry, &self.auth).await
    }
}

/// An Admin API client for discovery.
pub(crate) async fn admin(
    http: &reqwest::Client,
    origins: &ApiOrigins,
    auth: &GoogleAuth,
) -> Result<AdminClient, ConnectorError> {
    AdminClient::connect(
        http,
        &origins.admin,
        AnalyticsAConfig::default_retry(),
        auth,
    )
    .await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oauth::{OAuthClient, OAuthEndpoints};

    fn config() -> AnalyticsAConfig {
        AnalyticsAConfig::new(
            "123456".into(),
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
        assert!(text.contains("123456"), "{text}");
        for secret in ["client-secret", "1//refresh-secret"] {
            assert!(!text.contains(secret), "{text}");
        }
    }

    #[test]
    fn defaults_are_googles_two_hosts() {
        let config = config();
        assert_eq!(
            config.origins.admin,
            "https://analyticsadmin.googleapis.com"
        );
        assert_eq!(config.origins.data, "https://analyticsdata.googleapis.com");
        assert_eq!(
            ApiOrigins::one("http://127.0.0.1:9"),
            ApiOrigins {
                admin: "http://127.0.0.1:9".into(),
                data: "http://127.0.0.1:9".into()
            }
        );
        assert_eq!(config.row_limit, 100_000);
    }
}
