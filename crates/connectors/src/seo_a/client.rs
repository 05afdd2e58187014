//! HTTP against Semrush's Analytics API v3: `GET {origin}/?type=REPORT&key=KEY&...`, each answer
//! read as a body first (Semrush writes its errors as `ERROR NN :: TEXT` bodies, whatever the
//! status), rate limits (429) and server errors (5xx) retried with exponential backoff, and the
//! errors mapped to [`ConnectorError`].
//!
//! The key travels in the query string (the API's only way for a key), so no URL is ever put in
//! an error or a log line: the shared [`KeyedHttp`] strips transport errors of theirs and every
//! message is scrubbed of the key besides.

use reqwest::StatusCode;

use super::wire::{NOTHING_FOUND, REFUSED_KEY_CODES, SemrushError, Table};
use crate::ConnectorError;
use crate::keyed_http::{KeyedHttp, Vendor, throttled_or_failed};

/// Semrush, as messages name it and its key.
pub(crate) enum Semrush {}

impl Vendor for Semrush {
    const NAME: &'static str = "Semrush";
    const KEY_LABEL: &'static str = "Semrush API key";
}

/// One key's session with the API: the shared core, with Semrush's own calls below.
pub(crate) type SemrushClient<'a> = KeyedHttp<'a, Semrush>;

impl SemrushClient<'_> {
    /// `GET /?type={report}&key=KEY&{params}`: the report's table, or `None` when Semrush
    /// answers `ERROR 50 :: NOTHING FOUND`.
    pub(crate) async fn report(
        &self,
        report: &str,
        params: &[(&str, &str)],
    ) -> Result<Option<Table>, ConnectorError> {
        let url = format!("{}/", self.origin());
        let mut query: Vec<(&str, &str)> = vec![("type", report), ("key", self.key())];
        query.extend_from_slice(params);
        let build = |http: &reqwest::Client| http.get(&url).query(&query);
        // An `ERROR NN ::` body is Semrush's final word, whatever the status: not retried.
        let retryable = |status: StatusCode, body: &[u8]| {
            throttled_or_failed(status) && SemrushError::parse(&text(body)).is_none()
        };
        let (status, body) = self.send(report, build, retryable).await?;
        let body = text(&body);
        if let Some(error) = SemrushError::parse(&body) {
            return self.error(report, error);
        }
        if status == StatusCode::TOO_MANY_REQUESTS {
            return Err(ConnectorError::RateLimited(format!(
                "Semrush answered 429 on {report} (after {} retries)",
                self.retries()
            )));
        }
        if !status.is_success() {
            return Err(ConnectorError::Vendor(format!(
                "Semrush answered HTTP {} on {report}",
                status.as_u16()
            )));
        }
        Table::parse(&body).map(Some).ok_or_else(|| {
            ConnectorError::Vendor(format!("Semrush answered {report} without a header line"))
        })
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
}

/// The body as text (Semrush answers UTF-8 CSV or an error line).
fn text(body: &[u8]) -> String {
    String::from_utf8_lossy(body).into_owned()
}
