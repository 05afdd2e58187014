//! HTTP against Semrush's Analytics API v3: `GET {origin}/?type=REPORT&key=KEY&...`, each answer
//! read as a body first (Semrush writes its errors as `ERROR NN :: TEXT` bodies, whatever the
//! status), rate limits (429) and server errors (5xx) retried with exponential backoff, and the
//! errors mapped to [`ConnectorError`].
//!
//! The key travels in the query string (the API's only way for a key), so no URL is ever put in
//! an error or a log line: transport errors are stripped of theirs and every message is scrubbed
//! of the key besides.

use std::time::Duration;

use reqwest::StatusCode;

use super::wire::{NOTHING_FOUND, REFUSED_KEY_CODES, SemrushError, Table};
use crate::ConnectorError;
use crate::payments::RetryPolicy;

/// A hung connection must not hold a sync job's lease forever.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(60);

/// One key's session with the API.
pub(crate) struct SemrushClient<'a> {
    http: &'a reqwest::Client,
    origin: &'a str,
    key: &'a str,
    retry: RetryPolicy,
}

impl<'a> SemrushClient<'a> {
    /// A client of `origin` (Semrush's, or a fake's); a blank key fails here, before any request.
    pub(crate) fn new(
        http: &'a reqwest::Client,
        origin: &'a str,
        key: &'a str,
        retry: RetryPolicy,
    ) -> Result<Self, ConnectorError> {
        let key = key.trim();
        if key.is_empty() {
            return Err(ConnectorError::Config(
                "api_key: the Semrush API key is empty".to_owned(),
            ));
        }
        Ok(Self {
            http,
            origin: origin.trim_end_matches('/'),
            key,
            retry,
        })
    }

    /// `GET /?type={report}&key=KEY&{params}`: the report's table, or `None` when Semrush
    /// answers `ERROR 50 :: NOTHING FOUND`.
    pub(crate) async fn report(
        &self,
        report: &str,
        params: &[(&str, &str)],
    ) -> Result<Option<Table>, ConnectorError> {
        let url = format!("{}/", self.origin);
        let mut query: Vec<(&str, &str)> = vec![("type", report), ("key", self.key)];
        query.extend_from_slice(params);
        let mut retried = 0;
        loop {
            let unreachable = |err: reqwest::Error| {
                ConnectorError::Unreachable(format!(
                    "Semrush ({report}): {}",
                    self.scrub(&describe(err))
                ))
            };
            let response = self
                .http
                .get(&url)
                .query(&query)
                .timeout(REQUEST_TIMEOUT)
                .send()
                .await
                .map_err(unreachable)?;
            let status = response.status();
            let body = response.text().await.map_err(unreachable)?;
            if let Some(error) = SemrushError::parse(&body) {
                return self.error(report, error);
            }
            let retryable = status == StatusCode::TOO_MANY_REQUESTS || status.is_server_error();
            if retryable && retried < self.retry.retries {
                let delay = self
                    .retry
                    .base_delay
                    .saturating_mul(2u32.saturating_pow(retried));
                tracing::warn!(
                    report,
                    status = status.as_u16(),
                    retry = retried + 1,
                    ?delay,
                    "semrush throttled or failed; backing off"
                );
                tokio::time::sleep(delay).await;
                retried += 1;
                continue;
            }
            if status == StatusCode::TOO_MANY_REQUESTS {
                return Err(ConnectorError::RateLimited(format!(
                    "Semrush answered 429 on {report} (after {} retries)",
                    self.retry.retries
                )));
            }
            if !status.is_success() {
                return Err(ConnectorError::Vendor(format!(
                    "Semrush answered HTTP {} on {report}",
                    status.as_u16()
                )));
            }
            return Table::parse(&body).map(Some).ok_or_else(|| {
                ConnectorError::Vendor(format!("Semrush answered {report} without a header line"))
            });
        }
    }

    /// An `ERROR NN :: TEXT` body: no rows for 50, the key refused (Semrush's line alone, so it
    /// can be quoted as it is), any other code the vendor's error with its line.
    fn error(&self, report: &str, error: SemrushError) -> Result<Option<Table>, ConnectorError> {
        let line = self.scrub(&error.line);
        if error.code == NOTHING_FOUND {
            return Ok(None);
        }
        if REFUSED_KEY_CODES.contains(&error.code) {
            return Err(ConnectorError::Unauthorized(line));
        }
        Err(ConnectorError::Vendor(format!(
            "Semrush answered {line} on {report}"
        )))
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
