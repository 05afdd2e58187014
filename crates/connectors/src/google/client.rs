//! HTTP against one of Google's JSON APIs (Search Console, GA4 Admin and Data, Tag Manager,
//! Sheets, Drive): `Authorization: Bearer` on every call, Google's error shape read by
//! [`Failure`], and retries with exponential backoff through the shared `keyed_http` core.
//!
//! Reads retry quota and server errors. Writes retry only a quota refusal (429 means Google did
//! nothing); a 5xx on a write is reported, never sent again, since Google may have acted on it
//! (a second tag, a second published version).

use std::marker::PhantomData;

use reqwest::{Method, StatusCode};
use serde::de::DeserializeOwned;

use super::GoogleAuth;
use super::errors::{Failure, FailureKind};
use crate::ConnectorError;
use crate::keyed_http::{KeyedHttp, Vendor};
use crate::payments::RetryPolicy;

/// Whether a call changes something at Google, which decides what is retried.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Effect {
    Read,
    Write,
}

/// One authorised session with one Google API `V`: an access token fetched for one operation
/// (a test, a sync, a discovery, a deploy), which outlives none of them.
pub(crate) struct GoogleClient<V> {
    /// A clone of the server's client (a handle: its pool is shared).
    http: reqwest::Client,
    base_url: String,
    access_token: String,
    retry: RetryPolicy,
    api: PhantomData<V>,
}

/// A failed call: the error Payback reports and Google's own message (a tag manager's
/// `compilerError` or a permission message a caller may want to tell apart).
#[derive(Debug)]
pub(crate) struct CallError {
    pub error: ConnectorError,
    /// The refusal's kind; `None` when the call never got an answer or the answer did not parse.
    pub kind: Option<FailureKind>,
}

impl From<CallError> for ConnectorError {
    fn from(err: CallError) -> Self {
        err.error
    }
}

impl<V: Vendor> GoogleClient<V> {
    /// Buys an access token with `auth`; a revoked grant or refused service account fails here.
    pub(crate) async fn connect(
        http: &reqwest::Client,
        base_url: &str,
        retry: RetryPolicy,
        auth: &GoogleAuth,
    ) -> Result<Self, ConnectorError> {
        let access_token = auth.access_token(http).await?;
        Ok(Self {
            http: http.clone(),
            base_url: base_url.trim_end_matches('/').to_owned(),
            access_token,
            retry,
            api: PhantomData,
        })
    }

    /// The API's origin, without a trailing `/`, for the caller's paths to follow.
    pub(crate) fn base_url(&self) -> &str {
        &self.base_url
    }

    /// A GET that reads.
    pub(crate) async fn get<T: DeserializeOwned>(
        &self,
        call: &str,
        url: &str,
    ) -> Result<T, ConnectorError> {
        Ok(self
            .call(Effect::Read, Method::GET, call, url, None)
            .await?)
    }

    /// A POST whose body asks a question (a report, a query): retried like a read.
    pub(crate) async fn query<T: DeserializeOwned>(
        &self,
        call: &str,
        url: &str,
        body: &serde_json::Value,
    ) -> Result<T, ConnectorError> {
        Ok(self
            .call(Effect::Read, Method::POST, call, url, Some(body))
            .await?)
    }

    /// One call; `effect` decides what is retried (the module's note). The error keeps the
    /// refusal's kind for callers that answer a 403 differently.
    pub(crate) async fn call<T: DeserializeOwned>(
        &self,
        effect: Effect,
        method: Method,
        call: &str,
        url: &str,
        body: Option<&serde_json::Value>,
    ) -> Result<T, CallError> {
        let unanswered = |error| CallError { error, kind: None };
        let session =
            KeyedHttp::<V>::new(&self.http, &self.base_url, &self.access_token, self.retry)
                .map_err(unanswered)?;
        let build = |http: &reqwest::Client| {
            let request = http.request(method.clone(), url).bearer_auth(session.key());
            match body {
                Some(body) => request.json(body),
                None => request,
            }
        };
        let retryable = |status: StatusCode, bytes: &[u8]| {
            let failure = Failure::read(V::NAME, call, status.as_u16(), bytes);
            match effect {
                Effect::Read => failure.retryable(),
                Effect::Write => failure.kind == FailureKind::RateLimited,
            }
        };
        let (status, bytes) = session
            .send(call, build, retryable)
            .await
            .map_err(unanswered)?;
        if status.is_success() {
            // Some writes answer an empty body (a delete); `null` reads into `()`.
            let bytes: &[u8] = if bytes.is_empty() { b"null" } else { &bytes };
            return serde_json::from_slice(bytes).map_err(|err| {
                unanswered(ConnectorError::Vendor(format!(
                    "{} answered {call} in a shape Payback does not read: {err}",
                    V::NAME
                )))
            });
        }
        let failure = Failure::read(V::NAME, call, status.as_u16(), &bytes);
        let kind = failure.kind;
        // A retryable failure returned only once every retry was spent.
        let retried = if retryable(status, &bytes) {
            session.retries()
        } else {
            0
        };
        Err(CallError {
            error: failure.into_error(retried),
            kind: Some(kind),
        })
    }
}

/// A value as one path segment: every byte but RFC 3986's unreserved characters
/// percent-encoded (`https://shop.example/` is `https%3A%2F%2Fshop.example%2F`, as Google's
/// reference writes it; `sc-domain:shop.example` keeps no bare colon either).
pub(crate) fn encode_segment(text: &str) -> String {
    let mut out = String::with_capacity(text.len() * 3);
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::encode_segment;

    #[test]
    fn a_site_url_is_one_encoded_segment() {
        assert_eq!(
            encode_segment("https://www.example.com/"),
            "https%3A%2F%2Fwww.example.com%2F"
        );
        assert_eq!(
            encode_segment("sc-domain:example.com"),
            "sc-domain%3Aexample.com"
        );
        assert_eq!(
            encode_segment("http://ü.example/a b"),
            "http%3A%2F%2F%C3%BC.example%2Fa%20b"
        );
    }
}
