//! The HTTP core every key-based vendor client shares (Bing, Semrush, Ahrefs, SE Ranking, X):
//! a key that must not be blank, one request with a timeout whose status and body are read
//! whole, throttles and server errors retried with exponential backoff as the vendor's
//! predicate says, transport errors as [`ConnectorError::Unreachable`] without the URL, and
//! every text scrubbed of the key.
//!
//! What stays with each vendor's client is its own: how the key travels (query parameter,
//! bearer, `Token` header), its paths, how a success decodes and what its error bodies mean.

use std::marker::PhantomData;
use std::time::Duration;

use reqwest::header::HeaderMap;
use reqwest::{RequestBuilder, StatusCode};

use crate::ConnectorError;
use crate::payments::RetryPolicy;

/// A hung connection must not hold a sync job's lease forever.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(60);

/// A vendor a [`KeyedHttp`] session talks to: how messages name it and its key. Its client is
/// `KeyedHttp<'_, TheVendor>`, its own calls in an `impl` of that type.
pub(crate) trait Vendor {
    /// The vendor as messages name it ("Bing", "SE Ranking").
    const NAME: &'static str;
    /// The config field that carries the key, named in the blank-key error.
    const KEY_FIELD: &'static str = "api_key";
    /// The key as the blank-key error names it ("Ahrefs API key").
    const KEY_LABEL: &'static str;
}

/// What a failed answer means, as the vendor's status or error code says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Failure {
    /// The key is refused (or may not use the call).
    RefusedKey,
    /// A throttle that outlasted the retries.
    Throttled,
    /// Anything else the vendor answered.
    Other,
}

impl Failure {
    /// What the status alone says: 401/403 a refused key, 429 a throttle.
    pub(crate) fn of_status(status: StatusCode) -> Self {
        match status {
            StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN => Self::RefusedKey,
            StatusCode::TOO_MANY_REQUESTS => Self::Throttled,
            _ => Self::Other,
        }
    }
}

/// One answer, read whole.
pub(crate) struct Reply {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Vec<u8>,
}

/// One key's session with one vendor's API.
pub(crate) struct KeyedHttp<'a, V> {
    http: &'a reqwest::Client,
    origin: &'a str,
    key: &'a str,
    retry: RetryPolicy,
    vendor: PhantomData<V>,
}

impl<'a, V: Vendor> KeyedHttp<'a, V> {
    /// A session with `origin` (the vendor's, or a fake's, without its trailing `/`); a blank
    /// key fails here, naming the field, before any request.
    pub(crate) fn new(
        http: &'a reqwest::Client,
        origin: &'a str,
        key: &'a str,
        retry: RetryPolicy,
    ) -> Result<Self, ConnectorError> {
        let key = key.trim();
        if key.is_empty() {
            return Err(ConnectorError::Config(format!(
                "{}: the {} is empty",
                V::KEY_FIELD,
                V::KEY_LABEL
            )));
        }
        Ok(Self {
            http,
            origin: origin.trim_end_matches('/'),
            key,
            retry,
            vendor: PhantomData,
        })
    }

    /// The HTTP client, for a vendor that loops over [`KeyedHttp::exchange`] itself.
    pub(crate) fn http(&self) -> &'a reqwest::Client {
        self.http
    }

    /// The origin, without a trailing `/`, for the vendor's paths to follow.
    pub(crate) fn origin(&self) -> &'a str {
        self.origin
    }

    /// The key (trimmed), for the vendor's way of sending it.
    pub(crate) fn key(&self) -> &'a str {
        self.key
    }

    /// How many retries a throttle or a server error gets, for messages after them.
    pub(crate) fn retries(&self) -> u32 {
        self.retry.retries
    }

    /// The request `build` makes, sent until it answers something `retryable` (given the status
    /// and body of a failure) does not call for another try, or the retries run out; answers
    /// that last status and body, whatever they are. `what` names the call in errors and logs.
    pub(crate) async fn send(
        &self,
        what: &str,
        build: impl Fn(&reqwest::Client) -> RequestBuilder,
        retryable: impl Fn(StatusCode, &[u8]) -> bool,
    ) -> Result<(StatusCode, Vec<u8>), ConnectorError> {
        let mut retried = 0;
        loop {
            let reply = self.exchange(what, build(self.http)).await?;
            if !reply.status.is_success()
                && retryable(reply.status, &reply.body)
                && self.back_off(what, reply.status, retried).await
            {
                retried += 1;
                continue;
            }
            return Ok((reply.status, reply.body));
        }
    }

    /// One try of the request `build` makes, with the timeout: its status, headers and body,
    /// or the transport error as [`ConnectorError::Unreachable`] (causes kept, URL and key not).
    pub(crate) async fn exchange(
        &self,
        what: &str,
        request: RequestBuilder,
    ) -> Result<Reply, ConnectorError> {
        let unreachable = |err: reqwest::Error| {
            ConnectorError::Unreachable(format!(
                "{} ({what}): {}",
                V::NAME,
                self.scrub(&describe(err))
            ))
        };
        let response = request
            .timeout(REQUEST_TIMEOUT)
            .send()
            .await
            .map_err(unreachable)?;
        let status = response.status();
        let headers = response.headers().clone();
        let body = response.bytes().await.map_err(unreachable)?;
        Ok(Reply {
            status,
            headers,
            body: body.to_vec(),
        })
    }

    /// Sleeps the backoff before retry number `retried + 1` (the base delay doubled each time)
    /// and answers true, or answers false at once when the retries are spent.
    pub(crate) async fn back_off(&self, what: &str, status: StatusCode, retried: u32) -> bool {
        if retried >= self.retry.retries {
            return false;
        }
        let delay = self
            .retry
            .base_delay
            .saturating_mul(2u32.saturating_pow(retried));
        tracing::warn!(
            vendor = V::NAME,
            what,
            status = status.as_u16(),
            retry = retried + 1,
            ?delay,
            "vendor throttled or failed; backing off"
        );
        tokio::time::sleep(delay).await;
        true
    }

    /// The vendor's failure as the error it is: a refused key carries `message` alone (so a
    /// connect can quote it); otherwise "{vendor} answered {status} on {what}: {message}", a
    /// [`ConnectorError::RateLimited`] naming the retries spent when throttled.
    pub(crate) fn failure(
        &self,
        what: &str,
        status: StatusCode,
        failure: Failure,
        message: String,
    ) -> ConnectorError {
        if failure == Failure::RefusedKey {
            return ConnectorError::Unauthorized(message);
        }
        let line = format!(
            "{} answered {} on {what}: {message}",
            V::NAME,
            status.as_u16()
        );
        if failure == Failure::Throttled {
            ConnectorError::RateLimited(format!("{line} (after {} retries)", self.retry.retries))
        } else {
            ConnectorError::Vendor(line)
        }
    }

    /// `text` with the key replaced, wherever a vendor or a library echoed it.
    pub(crate) fn scrub(&self, text: &str) -> String {
        text.replace(self.key, "[redacted]")
    }
}

/// 429 or 5xx: what every vendor here retries, some with more of their own.
pub(crate) fn throttled_or_failed(status: StatusCode) -> bool {
    status == StatusCode::TOO_MANY_REQUESTS || status.is_server_error()
}

/// The transport error with its causes, without the URL, which may carry the key.
fn describe(err: reqwest::Error) -> String {
    crate::oauth::describe(&err.without_url())
}

#[cfg(test)]
mod tests {
    use super::*;

    enum Fake {}

    impl Vendor for Fake {
        const NAME: &'static str = "Fake";
        const KEY_LABEL: &'static str = "Fake API key";
    }

    #[test]
    fn a_blank_key_is_refused_naming_the_field() {
        let _ = rustls::crypto::ring::default_provider().install_default();
        let http = reqwest::Client::new();
        let blank = KeyedHttp::<Fake>::new(&http, "http://fake.test", "  ", RetryPolicy::default());
        match blank {
            Err(ConnectorError::Config(message)) => {
                assert_eq!(message, "api_key: the Fake API key is empty");
            }
            _ => panic!("a blank key must be a config error"),
        }
    }

    #[test]
    fn the_origin_loses_its_slash_and_the_key_is_scrubbed() {
        let _ = rustls::crypto::ring::default_provider().install_default();
        let http = reqwest::Client::new();
        let session = KeyedHttp::<Fake>::new(
            &http,
            "http://fake.test/",
            " secret-key ",
            RetryPolicy::default(),
        )
        .unwrap();
        assert_eq!(session.origin(), "http://fake.test");
        assert_eq!(session.key(), "secret-key");
        assert_eq!(
            session.scrub("bad key secret-key, again secret-key"),
            "bad key [redacted], again [redacted]"
        );
    }
}
