//! HTTP against the SE Ranking Project API: `GET {origin}{path}?{query}` with the key in the
//! `Authorization: Token KEY` header (the documented way besides a `token` query parameter,
//! which would put the key in URLs), rate limits (429) and server errors (5xx) retried with
//! exponential backoff (SE Ranking sends no `Retry-After`), and error bodies mapped to
//! [`ConnectorError`]: a refused key (401/403, "No token" / "Incorrect token") is
//! [`ConnectorError::Unauthorized`] carrying SE Ranking's `message` alone.

use reqwest::StatusCode;
use serde::de::DeserializeOwned;

use super::wire::ErrorBody;
use crate::ConnectorError;
use crate::keyed_http::{Failure, KeyedHttp, Vendor, throttled_or_failed};

/// SE Ranking, as messages name it and its key.
pub(crate) enum SeRanking {}

impl Vendor for SeRanking {
    const NAME: &'static str = "SE Ranking";
    const KEY_LABEL: &'static str = "SE Ranking API key";
}

/// One key's session with the API: the shared core, with SE Ranking's own calls below.
pub(crate) type SeRankingClient<'a> = KeyedHttp<'a, SeRanking>;

impl SeRankingClient<'_> {
    /// `GET {path}?{query}`, answering the body as `T`.
    pub(crate) async fn get<T: DeserializeOwned>(
        &self,
        path: &str,
        query: &[(&str, &str)],
    ) -> Result<T, ConnectorError> {
        let url = format!("{}{path}", self.origin());
        let authorization = format!("Token {}", self.key());
        let build = |http: &reqwest::Client| {
            http.get(&url)
                .query(query)
                .header(reqwest::header::AUTHORIZATION, &authorization)
                .header(reqwest::header::ACCEPT, "application/json")
        };
        let retryable = |status: StatusCode, _: &[u8]| throttled_or_failed(status);
        let (status, body) = self.send(path, build, retryable).await?;
        if status.is_success() {
            return serde_json::from_slice::<T>(&body).map_err(|err| {
                ConnectorError::Vendor(format!(
                    "SE Ranking {path} answered a shape Payback does not read: {err}"
                ))
            });
        }
        let error = serde_json::from_slice::<ErrorBody>(&body).unwrap_or_default();
        Err(self.error(path, status, &error))
    }

    /// SE Ranking's reason (scrubbed) as the error its status says.
    fn error(&self, path: &str, status: StatusCode, error: &ErrorBody) -> ConnectorError {
        let message = error.reason().map_or_else(
            || format!("HTTP {}", status.as_u16()),
            |text| self.scrub(&text),
        );
        self.failure(path, status, Failure::of_status(status), message)
    }
}
