//! HTTP against the Bing Webmaster API's JSON protocol: `GET
//! {origin}/webmaster/api.svc/json/{Method}?{params}&apikey=KEY`, the answer's `d` unwrapped,
//! throttles (429, `ThrottleUser`/`ThrottleHost`) and server errors (5xx) retried with
//! exponential backoff, and Bing's error bodies mapped to [`ConnectorError`].
//!
//! The key travels in the query string (the API's only way for a key), so no URL is ever put
//! in an error or a log line: the shared [`KeyedHttp`] strips transport errors of theirs and
//! every message is scrubbed of the key besides.

use reqwest::StatusCode;
use serde::de::DeserializeOwned;

use super::wire::{Envelope, ErrorBody, REFUSED_KEY_CODES, THROTTLE_CODES};
use crate::ConnectorError;
use crate::keyed_http::{Failure, KeyedHttp, Vendor, throttled_or_failed};

/// The JSON protocol's path under the origin; the method's name is appended.
const JSON_PATH: &str = "/webmaster/api.svc/json/";

/// Bing, as messages name it and its key.
pub(crate) enum Bing {}

impl Vendor for Bing {
    const NAME: &'static str = "Bing";
    const KEY_LABEL: &'static str = "Bing Webmaster API key";
}

/// One key's session with the API: the shared core, with Bing's own calls below.
pub(crate) type BingClient<'a> = KeyedHttp<'a, Bing>;

impl BingClient<'_> {
    /// `GET {Method}?{params}&apikey=KEY`, answering the envelope's `d` as `T`.
    pub(crate) async fn get<T: DeserializeOwned>(
        &self,
        method: &str,
        params: &[(&str, &str)],
    ) -> Result<T, ConnectorError> {
        let url = format!("{}{JSON_PATH}{method}", self.origin());
        let mut query: Vec<(&str, &str)> = params.to_vec();
        query.push(("apikey", self.key()));
        let build = |http: &reqwest::Client| {
            http.get(&url)
                .query(&query)
                .header(reqwest::header::ACCEPT, "application/json")
        };
        let retryable = |status: StatusCode, body: &[u8]| {
            throttled_or_failed(status) || throttle_code(&error_body(body))
        };
        let (status, body) = self.send(method, build, retryable).await?;
        if status.is_success() {
            return serde_json::from_slice::<Envelope<T>>(&body)
                .map(|envelope| envelope.d)
                .map_err(|err| {
                    ConnectorError::Vendor(format!(
                        "Bing {method} answered a shape Payback does not read: {err}"
                    ))
                });
        }
        Err(self.error(method, status, error_body(&body)))
    }

    /// Bing's `Message` (scrubbed) as the error its code and status say: a refused key is
    /// [`ConnectorError::Unauthorized`] carrying the message alone, so a connect can quote it.
    fn error(&self, method: &str, status: StatusCode, error: ErrorBody) -> ConnectorError {
        let refused = error
            .error_code
            .is_some_and(|code| REFUSED_KEY_CODES.contains(&code));
        let failure = match Failure::of_status(status) {
            Failure::Other | Failure::Throttled if refused => Failure::RefusedKey,
            Failure::Other if throttle_code(&error) => Failure::Throttled,
            failure => failure,
        };
        let message = match (error.message, error.error_code) {
            (Some(message), _) if !message.trim().is_empty() => self.scrub(message.trim()),
            (_, Some(code)) => format!("error code {code}"),
            _ => format!("HTTP {}", status.as_u16()),
        };
        self.failure(method, status, failure, message)
    }
}

/// A failure's body as Bing's error, empty when it is not one.
fn error_body(body: &[u8]) -> ErrorBody {
    serde_json::from_slice::<ErrorBody>(body).unwrap_or_default()
}

/// Bing throttles with a code (`ThrottleUser`, `ThrottleHost`) as well as with 429.
fn throttle_code(error: &ErrorBody) -> bool {
    error
        .error_code
        .is_some_and(|code| THROTTLE_CODES.contains(&code))
}
