//! HTTP against the SE Ranking Project API: `GET {origin}{path}?{query}` with the key in the
//! `Authorization: Token KEY` header (the documented way besides a `token` query parameter,
//! which would put the key in URLs), rate limits (429) and server errors (5xx) retried with
//! exponential backoff (SE Ranking sends no `Retry-After`), and error bodies mapped to
//! [`ConnectorError`]: a refused key (401/403, "No token" / "Incorrect token") is
//! [`ConnectorError::Unauthorized`] carrying SE Ranking's `message` alone.

use std::time::Duration;

use reqwest::StatusCode;
use serde::de::DeserializeOwned;

use super::wire::ErrorBody;
use crate::ConnectorError;
use crate::payments::RetryPolicy;

/// A hung connection must not hold a sync job's lease forever.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(60);

/// One key's session with the API.
pub(crate) struct SeRankingClient<'a> {
    http: &'a reqwest::Client,
    origin: &'a str,
    key: &'a str,
    retry: RetryPolicy,
}

impl<'a> SeRankingClient<'a> {
    /// A client of `origin` (SE Ranking's, or a fake's); a blank key fails here, before any
    /// request.
    pub(crate) fn new(
        http: &'a reqwest::Client,
        origin: &'a str,
        key: &'a str,
        retry: RetryPolicy,
    ) -> Result<Self, ConnectorError> {
        let key = key.trim();
        if key.is_empty() {
            return Err(ConnectorError::Config(
                "api_key: the SE Ranking API key is empty".to_owned(),
            ));
        }
        Ok(Self {
            http,
            origin: origin.trim_end_matches('/'),
            key,
            retry,
        })
    }

    /// `GET {path}?{query}`, answering the body as `T`.
    pub(crate) async fn get<T: DeserializeOwned>(
        &self,
        path: &str,
        query: &[(&str, &str)],
    ) -> Result<T, ConnectorError> {
        let url = format!("{}{path}", self.origin);
        let mut retried = 0;
        loop {
            let unreachable = |err: reqwest::Error| {
                ConnectorError::Unreachable(format!(
                    "SE Ranking ({path}): {}",
                    self.scrub(&describe(err))
                ))
            };
            let response = self
                .http
                .get(&url)
                .query(query)
                .header(
                    reqwest::header::AUTHORIZATION,
                    format!("Token {}", self.key),
                )
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
                        "SE Ranking {path} answered a shape Payback does not read: {err}"
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
                    path,
                    status = status.as_u16(),
                    retry = retried + 1,
                    ?delay,
                    "se ranking throttled or failed; backing off"
                );
                tokio::time::sleep(delay).await;
                retried += 1;
                continue;
            }
            let error = serde_json::from_slice::<ErrorBody>(&body).unwrap_or_default();
            return Err(self.error(path, status, &error));
        }
    }

    /// SE Ranking's reason (scrubbed) as the error its status says.
    fn error(&self, path: &str, status: StatusCode, error: &ErrorBody) -> ConnectorError {
        let message = error.reason().map_or_else(
            || format!("HTTP {}", status.as_u16()),
            |text| self.scrub(&text),
        );
        if matches!(status, StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN) {
            return ConnectorError::Unauthorized(message);
        }
        let line = format!(
            "SE Ranking answered {} on {path}: {message}",
            status.as_u16()
        );
        if status == StatusCode::TOO_MANY_REQUESTS {
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
