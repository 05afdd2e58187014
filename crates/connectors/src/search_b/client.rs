//! HTTP against the Bing Webmaster API's JSON protocol: `GET
//! {origin}/webmaster/api.svc/json/{Method}?{params}&apikey=KEY`, the answer's `d` unwrapped,
//! throttles (429, `ThrottleUser`/`ThrottleHost`) and server errors (5xx) retried with
//! exponential backoff, and Bing's error bodies mapped to [`ConnectorError`].
//!
//! The key travels in the query string (the API's only way for a key), so no URL is ever put
//! in an error or a log line: transport errors are stripped of theirs (`without_url`) and every
//! message is scrubbed of the key besides.

use std::time::Duration;

use reqwest::StatusCode;
use serde::de::DeserializeOwned;

use super::wire::{Envelope, ErrorBody, REFUSED_KEY_CODES, THROTTLE_CODES};
use crate::ConnectorError;
use crate::payments::RetryPolicy;

/// The JSON protocol's path under the origin; the method's name is appended.
const JSON_PATH: &str = "/webmaster/api.svc/json/";

/// A hung connection must not hold a sync job's lease forever.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(60);

/// One key's session with the API.
pub(crate) struct BingClient<'a> {
    http: &'a reqwest::Client,
    origin: &'a str,
    key: &'a str,
    retry: RetryPolicy,
}

impl<'a> BingClient<'a> {
    /// A client of `origin` (Bing's, or a fake's); a blank key fails here, before any request.
    pub(crate) fn new(
        http: &'a reqwest::Client,
        origin: &'a str,
        key: &'a str,
        retry: RetryPolicy,
    ) -> Result<Self, ConnectorError> {
        let key = key.trim();
        if key.is_empty() {
            return Err(ConnectorError::Config(
                "api_key: the Bing Webmaster API key is empty".to_owned(),
            ));
        }
        Ok(Self {
            http,
            origin: origin.trim_end_matches('/'),
            key,
            retry,
        })
    }

    /// `GET {Method}?{params}&apikey=KEY`, answering the envelope's `d` as `T`.
    pub(crate) async fn get<T: DeserializeOwned>(
        &self,
        method: &str,
        params: &[(&str, &str)],
    ) -> Result<T, ConnectorError> {
        let url = format!("{}{JSON_PATH}{method}", self.origin);
        let mut query: Vec<(&str, &str)> = params.to_vec();
        query.push(("apikey", self.key));
        let mut retried = 0;
        loop {
            let unreachable = |err: reqwest::Error| {
                ConnectorError::Unreachable(format!(
                    "Bing ({method}): {}",
                    self.scrub(&describe(err))
                ))
            };
            let response = self
                .http
                .get(&url)
                .query(&query)
                .header(reqwest::header::ACCEPT, "application/json")
                .timeout(REQUEST_TIMEOUT)
                .send()
                .await
                .map_err(unreachable)?;
            let status = response.status();
            let body = response.bytes().await.map_err(unreachable)?;
            if status.is_success() {
                return serde_json::from_slice::<Envelope<T>>(&body)
                    .map(|envelope| envelope.d)
                    .map_err(|err| {
                        ConnectorError::Vendor(format!(
                            "Bing {method} answered a shape Payback does not read: {err}"
                        ))
                    });
            }
            let error = serde_json::from_slice::<ErrorBody>(&body).unwrap_or_default();
            let throttled = status == StatusCode::TOO_MANY_REQUESTS
                || error
                    .error_code
                    .is_some_and(|code| THROTTLE_CODES.contains(&code));
            if (throttled || status.is_server_error()) && retried < self.retry.retries {
                let delay = self
                    .retry
                    .base_delay
                    .saturating_mul(2u32.saturating_pow(retried));
                tracing::warn!(
                    method,
                    status = status.as_u16(),
                    retry = retried + 1,
                    ?delay,
                    "bing throttled or failed; backing off"
                );
                tokio::time::sleep(delay).await;
                retried += 1;
                continue;
            }
            return Err(self.error(method, status, error, throttled));
        }
    }

    /// Bing's `Message` (scrubbed) as the error its code and status say: a refused key is
    /// [`ConnectorError::Unauthorized`] carrying the message alone, so a connect can quote it.
    fn error(
        &self,
        method: &str,
        status: StatusCode,
        error: ErrorBody,
        throttled: bool,
    ) -> ConnectorError {
        let refused = matches!(status, StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN)
            || error
                .error_code
                .is_some_and(|code| REFUSED_KEY_CODES.contains(&code));
        let message = match (error.message, error.error_code) {
            (Some(message), _) if !message.trim().is_empty() => self.scrub(message.trim()),
            (_, Some(code)) => format!("error code {code}"),
            _ => format!("HTTP {}", status.as_u16()),
        };
        if refused {
            return ConnectorError::Unauthorized(message);
        }
        let line = format!("Bing answered {} on {method}: {message}", status.as_u16());
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
/// without the URL, which carries the key.
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
