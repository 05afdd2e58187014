//! The `replay_a` connection: Microsoft Clarity's Data Export API, read with the API token a
//! project admin generated (Clarity, Settings, Data Export). Read only and rationed: Clarity
//! answers at most 10 requests per project per day, so each test and each daily run is exactly
//! one request (never retried: a retry is another request of the day's ten), and the server
//! counts them per project and UTC day before sending (`kinds/replay_a`).
//!
//! One file per concern: `client` (the bearer token and error bodies), `wire` (the documented
//! shape), `mapping` (friction per path to snapshots), `source` (the [`crate::Source`]).
//!
//! Documentation followed (learn.microsoft.com/clarity, "Clarity Data Export API"):
//! `GET /export-data/api/v1/project-live-insights?numOfDays=1..3&dimension1=URL` with
//! `Authorization: Bearer <token>`; the answer is an array of `{metricName, information[]}`,
//! each information row carrying the dimension (`URL`; answers spell the key `Url`) and the
//! metric's figures (`subTotal` for the click and error counts); at most 1,000 rows, not
//! paged; 401 for a refused token, 403 for one without access, 429 once the day's 10 requests
//! are spent. The documentation lists the metrics with spaces ("Rage Click Count") and its
//! answers carry them without (`RageClickCount`): `mapping` matches both.

mod client;
mod mapping;
mod source;
mod wire;

pub use source::ReplayASource;

use std::fmt;

use crate::ConnectorError;
use client::ClarityClient;

/// Clarity's API origin (`www.clarity.ms`); `/export-data/api/v1/...` is appended.
pub const DEFAULT_API_BASE_URL: &str = "https://www.clarity.ms";

/// Clarity's documented quota: export requests per project per UTC day.
pub const DAILY_REQUESTS: i64 = 10;

/// Days a run reads: the last 24 hours, dated the run's day. Clarity reads 1 to 3; one day a
/// day keeps each day's figures apart.
pub const RUN_DAYS: u8 = 1;

/// One `replay_a` connection. `Debug` never prints the token.
#[derive(Clone)]
pub struct ReplayAConfig {
    /// The Data Export API token (a JWT).
    pub api_token: String,
    /// The Clarity project id (the token is scoped to it; it names the budget and the links).
    pub project_id: String,
    /// Default [`DEFAULT_API_BASE_URL`]; tests point it at a fake.
    pub api_base_url: String,
}

impl ReplayAConfig {
    /// A config against Clarity's origin.
    pub fn new(api_token: String, project_id: String) -> Self {
        Self {
            api_token,
            project_id,
            api_base_url: DEFAULT_API_BASE_URL.to_owned(),
        }
    }

    fn client<'a>(
        &'a self,
        http: &'a reqwest::Client,
    ) -> Result<ClarityClient<'a>, ConnectorError> {
        ClarityClient::new(http, &self.api_base_url, &self.api_token, client::NO_RETRY)
    }
}

impl fmt::Debug for ReplayAConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ReplayAConfig")
            .field("api_token", &"[redacted]")
            .field("project_id", &self.project_id)
            .field("api_base_url", &self.api_base_url)
            .finish()
    }
}

/// Clarity's dashboard of a project's recordings, filtered to `path` when given: where the
/// recordings Clarity's export does not list can be watched.
pub fn recordings_url(project_id: &str, path: Option<&str>) -> String {
    let base = format!("https://clarity.microsoft.com/projects/view/{project_id}/impressions");
    match path.and_then(|path| reqwest::Url::parse_with_params(&base, [("URL", path)]).ok()) {
        Some(filtered) => filtered.to_string(),
        None => base,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_config_never_prints_its_token() {
        let config = ReplayAConfig::new("clarity-token-secret".into(), "abc123".into());
        assert_eq!(config.api_base_url, "https://www.clarity.ms");
        let text = format!("{config:?}");
        assert!(!text.contains("clarity-token-secret"), "{text}");
        assert!(text.contains("abc123"), "{text}");
    }

    #[test]
    fn the_recordings_link_names_the_project_and_the_path() {
        assert_eq!(
            recordings_url("p1", None),
            "https://clarity.microsoft.com/projects/view/p1/impressions"
        );
        assert_eq!(
            recordings_url("p1", Some("/pricing")),
            "https://clarity.microsoft.com/projects/view/p1/impressions?URL=%2Fpricing"
        );
    }
}
