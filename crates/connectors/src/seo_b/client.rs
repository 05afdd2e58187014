//! HTTP against Ahrefs API v3: `GET {origin}/v3/{endpoint}?{params}` with
//! `Authorization: Bearer KEY`, throttles (429) and server errors (5xx) retried with exponential
//! backoff, and Ahrefs' error bodies mapped to [`ConnectorError`].
//!
//! The key travels only in the header, never in a URL; every message taken from a vendor's body
//! is still scrubbed of it, in case a body echoes it.

use reqwest::StatusCode;
use serde::de::DeserializeOwned;

use super::wire::error_text;
use crate::ConnectorError;
use crate::keyed_http::{Failure, KeyedHttp, Vendor, throttled_or_failed};

/// The API's path under the origin; the endpoint (`site-explorer/domain-rating`) is appended.
const API_PATH: &str = "/v3/";

/// Ahrefs, as messages name it and its key.
pub(crate) enum Ahrefs {}

impl Vendor for Ahrefs {
    const NAME: &'static str = "Ahrefs";
    const KEY_LABEL: &'static str = "Ahrefs API key";
}

/// One key's session with the API: the shared core, with Ahrefs's own calls below.
pub(crate) type AhrefsClient<'a> = KeyedHttp<'a, Ahrefs>;

impl AhrefsClient<'_> {
    /// `GET {endpoint}?{params}`, answering the body as `T`.
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
        let retryable = |status: StatusCode, _: &[u8]| throttled_or_failed(status);
        let (status, body) = self.send(endpoint, build, retryable).await?;
        if status.is_success() {
            return serde_json::from_slice::<T>(&body).map_err(|err| {
                ConnectorError::Vendor(format!(
                    "Ahrefs {endpoint} answered a shape Payback does not read: {err}"
                ))
            });
        }
        Err(self.error(endpoint, status, &body))
    }

    /// Ahrefs' `error` text (scrubbed) as the error its status says: a refused key (401, or 403:
    /// a missing key or one without API access) is [`ConnectorError::Unauthorized`] carrying the
    /// text alone, so a connect can quote it.
    fn error(&self, endpoint: &str, status: StatusCode, body: &[u8]) -> ConnectorError {
        let message = error_text(body)
            .map(|text| self.scrub(&text))
            .unwrap_or_else(|| format!("HTTP {}", status.as_u16()));
        self.failure(endpoint, status, Failure::of_status(status), message)
    }
}
