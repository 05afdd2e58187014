//! HTTP against the Search Console API (`/webmasters/v3/...`): `Authorization: Bearer` on every
//! call, the site percent-encoded as one path segment, and retries of quota and server errors
//! with exponential backoff (the shared `keyed_http` core).

use reqwest::{Method, StatusCode};
use serde::de::DeserializeOwned;

use super::errors::Failure;
use super::wire::{QueryRequest, QueryResponse, Site, SitesList};
use crate::ConnectorError;
use crate::keyed_http::{KeyedHttp, Vendor};
use crate::oauth::OAuthClient;
use crate::payments::RetryPolicy;

/// Search Console for the shared HTTP core: its name in messages, and the grant's access token
/// as the secret (never blank: Google's token endpoint answers one or fails).
enum SearchConsole {}

impl Vendor for SearchConsole {
    const NAME: &'static str = "Search Console";
    const KEY_FIELD: &'static str = "access_token";
    const KEY_LABEL: &'static str = "Google access token";
}

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

    /// One call, retrying quota and server errors per the retry policy (every call here reads),
    /// through the shared HTTP core with the access token as the secret it scrubs.
    async fn call<T: DeserializeOwned>(
        &self,
        method: Method,
        call: &str,
        url: &str,
        body: Option<&serde_json::Value>,
    ) -> Result<T, ConnectorError> {
        let session = KeyedHttp::<SearchConsole>::new(
            &self.http,
            &self.base_url,
            &self.access_token,
            self.retry,
        )?;
        let build = |http: &reqwest::Client| {
            let request = http.request(method.clone(), url).bearer_auth(session.key());
            match body {
                Some(body) => request.json(body),
                None => request,
            }
        };
        let retryable = |status: StatusCode, bytes: &[u8]| {
            Failure::read(call, status.as_u16(), bytes).retryable()
        };
        let (status, bytes) = session.send(call, build, retryable).await?;
        if status.is_success() {
            return serde_json::from_slice(&bytes).map_err(|err| {
                ConnectorError::Vendor(format!(
                    "{call} answered a shape Payback does not read: {err}"
                ))
            });
        }
        let failure = Failure::read(call, status.as_u16(), &bytes);
        // A retryable failure returned only once every retry was spent.
        let retried = if failure.retryable() {
            session.retries()
        } else {
            0
        };
        Err(failure.into_error(retried))
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
