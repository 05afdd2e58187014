//! The `product_analytics_a` connection: PostHog (US or EU cloud, or a self-hosted instance),
//! read with a personal API key (PostHog, Settings, Personal API keys; scopes `query:read`,
//! `session_recording:read`, `project:read`). Read only. A run asks HogQL for sessions per
//! entry path and day, the mapped events' daily counts, and the friction events (`$rageclick`,
//! `$dead_click`, `$exception`) per `$pathname` and day, and samples the window's recordings
//! as playback links (never video).
//!
//! One file per concern: `client` (bearer key, retries, error bodies, same-origin paging),
//! `wire` (the documented shapes), `hogql` (the queries and their literals), `event_maps` (which
//! events count as which stage), `mapping` (answers to the batch), `source` (the [`crate::Source`]).
//!
//! Documentation followed (posthog.com/docs/api): `Authorization: Bearer <personal key>`;
//! `POST /api/projects/{project_id}/query/` with `{"query": {"kind": "HogQLQuery", "query":
//! "..."}}` answering `{results: [[...]], columns: [...], hasMore}` (100 rows unless the
//! statement sets its own `LIMIT`, up to 50,000: every statement here does, and pages);
//! `GET /api/projects/{project_id}/`; `GET /api/projects/{project_id}/session_recordings`
//! (`limit`, `offset`) answering `{count, next, previous, results}` as documented or
//! `{results, has_next}` as PostHog's server does; errors `{type, code, detail, attr}` (401
//! `authentication_failed`, 403 `permission_denied`, 429 `throttled` with `Retry-After`).
//!
//! Hosts (posthog.com/docs/api, "API overview"): the private API a personal key reads is on
//! `https://us.posthog.com` and `https://eu.posthog.com` (or the self-hosted domain); the
//! `*.i.posthog.com` hosts serve the public capture and flags endpoints only, so a pasted
//! ingestion host is read as its cloud's private origin ([`private_api_origin`]).

mod client;
pub mod event_maps;
mod hogql;
mod mapping;
mod source;
mod wire;

pub use event_maps::EventMap;
pub use source::ProductAnalyticsASource;

use std::fmt;

use crate::ConnectorError;
use crate::payments::RetryPolicy;
use client::PostHogClient;

/// PostHog's US cloud origin, the default `host`.
pub const DEFAULT_API_BASE_URL: &str = "https://us.posthog.com";

/// Recordings a run keeps at most (two pages of [`RECORDING_PAGE`]): a sample to watch, not an
/// archive.
pub const MAX_RECORDINGS: usize = 200;
/// Recordings asked per page.
pub const RECORDING_PAGE: usize = 100;

/// One `product_analytics_a` connection. `Debug` never prints the key.
#[derive(Clone)]
pub struct ProductAnalyticsAConfig {
    /// The personal API key.
    pub api_key: String,
    /// The PostHog project id (digits).
    pub project_id: String,
    /// The origin read (`https://eu.posthog.com`, a self-hosted origin), without a trailing `/`:
    /// the API's and the playback links'.
    pub host: String,
    /// Which events count as which funnel stage.
    pub event_maps: Vec<EventMap>,
    /// How often throttles and server errors are retried.
    pub retry: RetryPolicy,
}

impl ProductAnalyticsAConfig {
    /// A config against `host` with no maps and the default retry policy.
    pub fn new(api_key: String, project_id: String, host: String) -> Self {
        Self {
            api_key,
            project_id,
            host: private_api_origin(&host),
            event_maps: Vec::new(),
            retry: RetryPolicy::default(),
        }
    }

    fn client<'a>(
        &'a self,
        http: &'a reqwest::Client,
    ) -> Result<PostHogClient<'a>, ConnectorError> {
        PostHogClient::new(http, &self.host, &self.api_key, self.retry)
    }
}

impl fmt::Debug for ProductAnalyticsAConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ProductAnalyticsAConfig")
            .field("api_key", &"[redacted]")
            .field("project_id", &self.project_id)
            .field("host", &self.host)
            .field("event_maps", &self.event_maps)
            .finish()
    }
}

/// PostHog's cloud ingestion hosts and the private API origin of the same cloud.
const INGESTION_HOSTS: [(&str, &str); 2] = [
    ("https://us.i.posthog.com", "https://us.posthog.com"),
    ("https://eu.i.posthog.com", "https://eu.posthog.com"),
];

/// The origin PostHog's private API and app answer on for `host`, without a trailing `/`: a
/// cloud ingestion host becomes its cloud's app origin; any other origin is kept.
pub fn private_api_origin(host: &str) -> String {
    let origin = host.trim().trim_end_matches('/');
    INGESTION_HOSTS
        .iter()
        .find(|(ingestion, _)| origin.eq_ignore_ascii_case(ingestion))
        .map_or(origin, |(_, private)| private)
        .to_owned()
}

/// The playback link of one session's recording.
pub fn playback_url(host: &str, project_id: &str, session_id: &str) -> String {
    format!(
        "{}/project/{project_id}/replay/{session_id}",
        private_api_origin(host)
    )
}

/// The project's recordings list in PostHog.
pub fn recordings_url(host: &str, project_id: &str) -> String {
    format!("{}/project/{project_id}/replay", private_api_origin(host))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_config_never_prints_its_key_and_links_follow_the_host() {
        let config = ProductAnalyticsAConfig::new(
            "phx_secret_key".into(),
            "42".into(),
            "https://eu.posthog.com/".into(),
        );
        let text = format!("{config:?}");
        assert!(!text.contains("phx_secret_key"), "{text}");
        assert_eq!(config.host, "https://eu.posthog.com");
        assert_eq!(
            playback_url(&config.host, "42", "s-1"),
            "https://eu.posthog.com/project/42/replay/s-1"
        );
        assert_eq!(
            recordings_url(&config.host, "42"),
            "https://eu.posthog.com/project/42/replay"
        );
    }

    #[test]
    fn an_ingestion_host_reads_its_clouds_private_api() {
        let config = ProductAnalyticsAConfig::new(
            "phx_k".into(),
            "42".into(),
            "https://eu.i.posthog.com/".into(),
        );
        assert_eq!(config.host, "https://eu.posthog.com");
        assert_eq!(
            private_api_origin("https://US.i.posthog.com"),
            "https://us.posthog.com"
        );
        assert_eq!(
            private_api_origin("https://ph.example:8000/"),
            "https://ph.example:8000"
        );
        assert_eq!(
            playback_url("https://eu.i.posthog.com", "42", "s-1"),
            "https://eu.posthog.com/project/42/replay/s-1"
        );
    }
}
