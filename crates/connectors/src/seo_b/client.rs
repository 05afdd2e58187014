//! HTTP against Ahrefs API v3: `GET {origin}/v3/{endpoint}?{params}` with
//! `Authorization: Bearer KEY`, throttles (429) and server errors (5xx) retried with exponential
//! backoff, and Ahrefs' error bodies mapped to [`ConnectorError`].
//!
//! The key travels only in the header, never in a URL; every message taken from a vendor's body
//! is still scrubbed of it, in case a body echoes it.

use std::time::Duration;

use reqwest::StatusCode;
use serde::de::DeserializeOwned;

use super::wire::error_text;
use crate::ConnectorError;
use crate::payments::RetryPolicy;

/// The API's path under the origin; the endpoint (`site-explorer/domain-rating`) is appended.
const API_PATH: &str = "/v3/";

/// A hung connection must not hold a sync job's lease forever.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(60);

/// One key's session with the API.
pub(crate) struct AhrefsClient<'a> {
    http: &'a reqwest::Client,
    origin: &'a str,
    key: &'a str,
    retry: RetryPolicy,
}

impl<'a> AhrefsClient<'a> {
    /// A client of `origin` (Ahrefs', or a fake's); a blank key fails here, before any request.
    pub(crate) fn new(
        http: &'a reqwest::Client,
        origin: &'a str,
        key: &'a str,
        retry: RetryPolicy,
    ) -> Result<Self, ConnectorError> {
        let key = key.trim();
        if key.is_empty() {
            return Err(ConnectorError::Config(
                "api_key: the Ahrefs API key is empty".to_owned(),
            ));
        }
        Ok(Self {
            http,
            origin: origin.trim_end_matches('/'),
            key,
            retry,
        })
    }

    /// `GET {endpoint}?{params}`, answering the body as `T`.
    pub(crate) async fn get<T: DeserializeOwned>(
        &self,
        endpoint: &str,
        params: &[(&str, &str)],
    ) -> Result<T, ConnectorError> {
        let url = format!("{}{API_PATH}{endpoint}", self.origin);
        let mut retried = 0;
        loop {
            let unreachable = |err: reqwest::Error| {
                ConnectorError::Unreachable(format!(
                    "Ahrefs ({endpoint}): {}",
                    self.scrub(&describe(err))
                ))
            };
            let response = self
                .http
                .get(&url)
                .query(params)
                .bearer_auth(self.key)
                .header(reqwest::header::ACCEPT, "application/json")
                .timeout(REQUEST_TIMEOUT)
                .send()
                .await
                .map_err(unreachable)?;
            let status = response.status();
            let body = response.bytes().await.map_err(unreachable)?;
            if status.is_success() {
                return serde_json::from_slice::<T>(&body).map_err(|err| {
                    ConnectorError::Vendor(format!(
                        "Ahrefs {endpoint} answered a shape Payback does not read: {err}"
                    ))
                });
            }
            let throttled = status == StatusCode::TOO_MANY_REQUESTS;
            if (throttled || status.is_server_error()) && retried < self.retry.retries {
                let delay = self
                    .retry
                    .base_delay
                    .saturating_mul(2u32.saturating_pow(retried));
                tracing::warn!(
                    endpoint,
                    status = status.as_u16(),
                    retry = retried + 1,
                    ?delay,
                    "ahrefs throttled or failed; backing off"
                );
                tokio::time::sleep(delay).await;
                retried += 1;
                continue;
            }
            return Err(self.error(endpoint, status, &body, throttled));
        }
    }

    /// Ahrefs' `error` text (scrubbed) as the error its status says: a refused key (401, or 403:
    /// a missing key or one without API access) is [`ConnectorError::Unauthorized`] carrying the
    /// text alone, so a connect can quote it.
    fn error(
        &self,
        endpoint: &str,
        status: StatusCode,
        body: &[u8],
        throttled: bool,
    ) -> ConnectorError {
        let message = error_text(body)
            .map(|text| self.scrub(&text))
            .unwrap_or_else(|| format!("HTTP {}", status.as_u16()));
        if matches!(status, StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN) {
            return ConnectorError::Unauthorized(message);
        }
        let line = format!(
            "Ahrefs answered {} on {endpoint}: {message}",
            status.as_u16()
        );
        if throttled {
            ConnectorError::RateLimited(format!("{line} (after {} retries)", self.retry.retries))
        } else {
            ConnectorError::Vendor(line)
        }
    }

    /// `text` with the key replaced, wherever a vendor or a library echoed it.
    fn scrub(&self, text: &str) -> String {
        text.replace(self.key, "[redacted]")
    }
}

/// The transport error with its causes (reqwest's own line is only "error sending request"),
/// without the URL.
fn describe(err: reqwest::Error) -> String {
    let err = err.without_url();
    let mut text = err.to_string();
    let mut source = std::error::Error::source(&err);
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}
