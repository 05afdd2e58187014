//! HTTP against the X API v2: `GET {origin}{path}?{query}` with `Authorization: Bearer TOKEN`,
//! X's problem bodies mapped to [`ConnectorError`], server errors (5xx) retried with
//! exponential backoff, and a 429 waited out until `x-rate-limit-reset` (epoch seconds) when
//! that is at most [`RateLimitWait`] away; a longer wait ends the call naming the rate limit,
//! so a run does not hold its lease for X's fifteen-minute windows.
//!
//! The token travels only in the header; every message is scrubbed of it besides, wherever X
//! or a library might echo it.

use std::time::Duration;

use payback_domain::{Clock, SystemClock, Timestamp};
use reqwest::StatusCode;
use reqwest::header::HeaderMap;
use serde::de::DeserializeOwned;

use super::wire::ErrorBody;
use crate::ConnectorError;
use crate::keyed_http::{Failure, KeyedHttp, Vendor};
use crate::payments::RetryPolicy;

/// X, as messages name it and its token.
pub(crate) enum XApi {}

impl Vendor for XApi {
    const NAME: &'static str = "X";
    const KEY_FIELD: &'static str = "bearer_token";
    const KEY_LABEL: &'static str = "X bearer token";
}

/// How many 429s one call waits out before giving up (each wait bounded by the config's
/// longest wait): X's reset ends a window, so more than a couple means something else is wrong.
const RATE_LIMIT_WAITS: u32 = 3;

/// The header X documents on every answer: when the current rate-limit window resets, in
/// seconds since the epoch.
const RATE_LIMIT_RESET: &str = "x-rate-limit-reset";

/// The longest a call sleeps for X's rate limit to reset before it gives up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateLimitWait(pub Duration);

impl Default for RateLimitWait {
    /// A minute: a window about to reset is waited out; one most of fifteen minutes away ends
    /// the run, whose next attempt comes with the next due run.
    fn default() -> Self {
        Self(Duration::from_secs(60))
    }
}

/// One token's session with the API.
pub(crate) struct XClient<'a> {
    session: KeyedHttp<'a, XApi>,
    longest_wait: RateLimitWait,
}

impl<'a> XClient<'a> {
    /// A client of `origin` (X's, or a fake's); a blank token fails here, before any request.
    pub(crate) fn new(
        http: &'a reqwest::Client,
        origin: &'a str,
        token: &'a str,
        retry: RetryPolicy,
        longest_wait: RateLimitWait,
    ) -> Result<Self, ConnectorError> {
        let session = KeyedHttp::new(http, origin, token, retry)?;
        Ok(Self {
            session,
            longest_wait,
        })
    }

    /// `GET {path}?{query}`, answering the body as `T`; `what` names the call in errors.
    ///
    /// Its own loop over the shared single tries, not the shared `send`: a 429 is waited out
    /// until X's reset rather than backed off, and both count across the whole call.
    pub(crate) async fn get<T: DeserializeOwned>(
        &self,
        what: &str,
        path: &str,
        query: &[(&str, String)],
    ) -> Result<T, ConnectorError> {
        let url = format!("{}{path}", self.session.origin());
        let mut retried = 0;
        let mut waited = 0;
        loop {
            let request = self
                .session
                .http()
                .get(&url)
                .query(query)
                .bearer_auth(self.session.key())
                .header(reqwest::header::ACCEPT, "application/json");
            let reply = self.session.exchange(what, request).await?;
            let status = reply.status;
            if status.is_success() {
                return serde_json::from_slice::<T>(&reply.body).map_err(|err| {
                    ConnectorError::Vendor(format!(
                        "X answered {what} in a shape Payback does not read: {err}"
                    ))
                });
            }
            if status == StatusCode::TOO_MANY_REQUESTS {
                let reset = reset_at(&reply.headers);
                let now = SystemClock.now();
                match self.rate_limit_sleep(reset, now) {
                    Some(sleep) if waited < RATE_LIMIT_WAITS => {
                        tracing::warn!(what, ?sleep, "x rate limit reached; waiting for its reset");
                        tokio::time::sleep(sleep).await;
                        waited += 1;
                        continue;
                    }
                    _ => return Err(self.rate_limited(what, reset, now, waited)),
                }
            }
            if status.is_server_error() && self.session.back_off(what, status, retried).await {
                retried += 1;
                continue;
            }
            let error = serde_json::from_slice::<ErrorBody>(&reply.body).unwrap_or_default();
            return Err(self.error(what, status, &error));
        }
    }

    /// How long to sleep for the window resetting at `reset`: `None` without a reset or when it
    /// is further away than the longest wait. A reset already past sleeps a moment (X's clock
    /// and ours may differ by a second).
    fn rate_limit_sleep(&self, reset: Option<Timestamp>, now: Timestamp) -> Option<Duration> {
        let reset = reset?;
        let millis = u64::try_from(reset.millis() - now.millis()).unwrap_or(0);
        let sleep = Duration::from_millis(millis.max(100));
        (sleep <= self.longest_wait.0).then_some(sleep)
    }

    fn rate_limited(
        &self,
        what: &str,
        reset: Option<Timestamp>,
        now: Timestamp,
        waited: u32,
    ) -> ConnectorError {
        let longest = self.longest_wait.0.as_secs();
        let when = match reset {
            Some(reset) => format!(
                "its window resets at {} ({} s away; a run waits at most {longest} s)",
                reset.to_rfc3339(),
                (reset.millis() - now.millis()).max(0) / 1000
            ),
            None => "X gave no x-rate-limit-reset to wait for".to_owned(),
        };
        let after = if waited > 0 {
            format!(", after waiting {waited} times")
        } else {
            String::new()
        };
        ConnectorError::RateLimited(format!(
            "X API rate limit reached on {what}: {when}{after}; the next run reads again"
        ))
    }

    /// X's reason (scrubbed) as the error its status says: a refused token (401, or 403 for a
    /// token whose app may not use the endpoint) is [`ConnectorError::Unauthorized`] carrying
    /// X's `detail` alone, so a connect can quote it. A 429 never comes here: it is waited out
    /// or ends the call naming the rate limit.
    fn error(&self, what: &str, status: StatusCode, error: &ErrorBody) -> ConnectorError {
        let reason = error
            .reason()
            .map(|reason| self.session.scrub(&reason))
            .unwrap_or_else(|| format!("HTTP {}", status.as_u16()));
        let failure = match Failure::of_status(status) {
            Failure::RefusedKey => Failure::RefusedKey,
            Failure::Throttled | Failure::Other => Failure::Other,
        };
        self.session.failure(what, status, failure, reason)
    }

    /// `text` with the token replaced.
    pub(crate) fn scrub(&self, text: &str) -> String {
        self.session.scrub(text)
    }
}

/// `x-rate-limit-reset` as an instant, when present and a number of seconds.
fn reset_at(headers: &HeaderMap) -> Option<Timestamp> {
    let seconds: i64 = headers
        .get(RATE_LIMIT_RESET)?
        .to_str()
        .ok()?
        .trim()
        .parse()
        .ok()?;
    Some(Timestamp::from_millis(seconds.checked_mul(1000)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reset_within_the_longest_wait_is_slept_out() {
        let _ = rustls::crypto::ring::default_provider().install_default();
        let http = reqwest::Client::new();
        let client = XClient::new(
            &http,
            "http://x.test",
            "token",
            RetryPolicy::default(),
            RateLimitWait(Duration::from_secs(5)),
        )
        .unwrap();
        let now = Timestamp::from_millis(1_795_000_000_000);
        let soon = Some(now.plus_millis(2_000));
        assert_eq!(
            client.rate_limit_sleep(soon, now),
            Some(Duration::from_secs(2))
        );
        let past = Some(now.minus_millis(2_000));
        assert_eq!(
            client.rate_limit_sleep(past, now),
            Some(Duration::from_millis(100))
        );
        assert_eq!(
            client.rate_limit_sleep(Some(now.plus_millis(900_000)), now),
            None
        );
        assert_eq!(client.rate_limit_sleep(None, now), None);
        let blank = XClient::new(
            &http,
            "http://x.test",
            " ",
            RetryPolicy::default(),
            RateLimitWait::default(),
        );
        assert!(matches!(blank, Err(ConnectorError::Config(_))));
    }

    #[test]
    fn the_reset_header_is_epoch_seconds() {
        let mut headers = HeaderMap::new();
        headers.insert(RATE_LIMIT_RESET, "1795000000".parse().unwrap());
        assert_eq!(
            reset_at(&headers),
            Some(Timestamp::from_millis(1_795_000_000_000))
        );
        headers.insert(RATE_LIMIT_RESET, "soon".parse().unwrap());
        assert_eq!(reset_at(&headers), None);
    }
}
