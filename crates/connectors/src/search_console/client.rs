//! HTTP against the Search Console API (`/webmasters/v3/...`): `Authorization: Bearer` on every
//! call, the site percent-encoded as one path segment, and retries of quota and server errors
//! with exponential backoff.

use std::time::Duration;

use reqwest::Method;
use serde::de::DeserializeOwned;

use super::errors::Failure;
use super::wire::{QueryRequest, QueryResponse, Site, SitesList};
use crate::ConnectorError;
use crate::oauth::{OAuthClient, describe};
use crate::payments::RetryPolicy;

/// A hung connection must not hold a sync job's lease forever.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(60);

/// One authorised session with the API: an access token fetched for one operation (a test, a
/// sync, a discovery), which outlives none of them.
pub(crate) struct ConsoleClient {
    /// A clone of the server's client (a handle: its pool is shared).
    http: reqwest::Client,
    base_url: String,
    access_token: String,
    retry: RetryPolicy,
}

impl ConsoleClient {
    /// Exchanges the refresh token for an access token; a revoked grant fails here, as
    /// `Unauthorized` with the reconnect message.
    pub(crate) async fn connect(
        http: &reqwest::Client,
        base_url: &str,
        retry: RetryPolicy,
        oauth: &OAuthClient,
        refresh_token: &str,
    ) -> Result<Self, ConnectorError> {
        let access_token = oauth.access_token(http, refresh_token).await?;
        Ok(Self {
            http: http.clone(),
            base_url: base_url.trim_end_matches('/').to_owned(),
            access_token,
            retry,
        })
    }

    /// `sites.list`: every site the granting login has in Search Console (not paged).
    pub(crate) async fn sites(&self) -> Result<Vec<Site>, ConnectorError> {
        let url = format!("{}/webmasters/v3/sites", self.base_url);
        let list: SitesList = self.call(Method::GET, "sites.list", &url, None).await?;
        Ok(list.site_entry)
    }

    /// `sites.get`: the login's permission on one site.
    pub(crate) async fn site(&self, site_url: &str) -> Result<Site, ConnectorError> {
        let url = format!(
            "{}/webmasters/v3/sites/{}",
            self.base_url,
            encode_segment(site_url)
        );
        self.call(Method::GET, "sites.get", &url, None).await
    }

    /// One page of `searchAnalytics.query`.
    pub(crate) async fn query(
        &self,
        site_url: &str,
        request: &QueryRequest<'_>,
    ) -> Result<QueryResponse, ConnectorError> {
        let url = format!(
            "{}/webmasters/v3/sites/{}/searchAnalytics/query",
            self.base_url,
            encode_segment(site_url)
        );
        let body = serde_json::to_value(request).map_err(|err| {
            ConnectorError::Config(format!("the search analytics query did not encode: {err}"))
        })?;
        self.call(Method::POST, "searchAnalytics.query", &url, Some(&body))
            .await
    }

    /// One call, retrying quota and server errors per the retry policy (every call here reads).
    async fn call<T: DeserializeOwned>(
        &self,
        method: Method,
        call: &str,
        url: &str,
        body: Option<&serde_json::Value>,
    ) -> Result<T, ConnectorError> {
        let mut retried = 0;
        loop {
            let mut request = self
                .http
                .request(method.clone(), url)
                .bearer_auth(&self.access_token)
                .timeout(REQUEST_TIMEOUT);
            if let Some(body) = body {
                request = request.json(body);
            }
            let response = request.send().await.map_err(|err| {
                ConnectorError::Unreachable(format!("Search Console ({call}): {}", describe(&err)))
            })?;
            let status = response.status();
            let bytes = response.bytes().await.map_err(|err| {
                ConnectorError::Unreachable(format!("Search Console ({call}): {}", describe(&err)))
            })?;
            if status.is_success() {
                return serde_json::from_slice(&bytes).map_err(|err| {
                    ConnectorError::Vendor(format!(
                        "{call} answered a shape Payback does not read: {err}"
                    ))
                });
            }
            let failure = Failure::read(call, status.as_u16(), &bytes);
            if failure.retryable() && retried < self.retry.retries {
                let delay = self
                    .retry
                    .base_delay
                    .saturating_mul(2u32.saturating_pow(retried));
                tracing::warn!(
                    call,
                    status = status.as_u16(),
                    retry = retried + 1,
                    ?delay,
                    "search console asked to slow down or failed; backing off"
                );
                tokio::time::sleep(delay).await;
                retried += 1;
                continue;
            }
            return Err(failure.into_error(retried));
        }
    }
}

/// A site URL as one path segment: every byte but RFC 3986's unreserved characters
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
