//! HTTP against Clarity's Data Export API: `GET {origin}/export-data/api/v1/{endpoint}` with
//! `Authorization: Bearer TOKEN`, sent once: a throttle or a server error is never retried,
//! since every try counts against the project's 10 requests a day.

use reqwest::StatusCode;
use serde::de::DeserializeOwned;

use crate::ConnectorError;
use crate::keyed_http::{Failure, KeyedHttp, Vendor};
use crate::payments::RetryPolicy;

/// The API's path under the origin.
const API_PATH: &str = "/export-data/api/v1/";

/// Clarity, as messages name it and its token.
pub(crate) enum Clarity {}

impl Vendor for Clarity {
    const NAME: &'static str = "Clarity";
    const KEY_FIELD: &'static str = "api_token";
    const KEY_LABEL: &'static str = "Clarity API token";
}

/// One token's session with the API.
pub(crate) type ClarityClient<'a> = KeyedHttp<'a, Clarity>;

/// No retries: each one would spend another of the day's requests.
pub(crate) const NO_RETRY: RetryPolicy = RetryPolicy {
    retries: 0,
    base_delay: std::time::Duration::ZERO,
};

impl ClarityClient<'_> {
    /// `GET {endpoint}?{params}` once, answering the body as `T`.
    pub(crate) async fn get<T: DeserializeOwned>(
        &self,
        endpoint: &str,
        params: &[(&str, &str)],
    ) -> Result<T, ConnectorError> {
        let url = format!("{}{API_PATH}{endpoint}", self.origin());
        let build = |http: &reqwest::Client| {
            http.get(&url)
                .query(params)
                .bearer_auth(self.key())
                .header(reqwest::header::ACCEPT, "application/json")
        };
        let (status, body) = self.send(endpoint, build, |_, _| false).await?;
        if status.is_success() {
            return serde_json::from_slice::<T>(&body).map_err(|err| {
                ConnectorError::Vendor(format!(
                    "Clarity {endpoint} answered a shape Payback does not read: {err}"
                ))
            });
        }
        Err(self.error(endpoint, status, &body))
    }

    /// Clarity's answer text (scrubbed; a JSON `message`/`error` when there is one) as the error
    /// its status says: 401/403 a refused token, 429 the day's requests spent.
    fn error(&self, endpoint: &str, status: StatusCode, body: &[u8]) -> ConnectorError {
        let message = super::wire::error_text(body)
            .map(|text| self.scrub(&text))
            .unwrap_or_else(|| format!("HTTP {}", status.as_u16()));
        self.failure(endpoint, status, Failure::of_status(status), message)
    }
}
