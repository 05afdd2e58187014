//! HTTP against the Google Ads API's REST interface: the headers every call carries
//! (`Authorization: Bearer`, `developer-token`, `login-customer-id` when acting through a
//! manager), GAQL through `googleAds:search` page by page, mutates, and retries of quota and
//! server errors with exponential backoff.
//!
//! `googleAds:search` rather than `searchStream`: over REST a stream is one JSON array holding
//! every batch, so it saves nothing without a streaming parser, and an error half way arrives
//! inside a 200. Each `search` page is a whole JSON object (Google fixes its size at 10,000
//! rows; `pageSize` is refused since v17) with its own status, so a page is retried alone.

use std::time::Duration;

use reqwest::Method;
use serde::de::DeserializeOwned;

use super::API_VERSION;
use super::errors::Failure;
use super::wire::{AccessibleCustomers, GoogleAdsRow, SearchPage};
use crate::ConnectorError;
use crate::oauth::{OAuthClient, describe};
use crate::payments::RetryPolicy;

/// A hung connection must not hold a sync job's lease forever.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(60);

/// The account a call acts on, and the manager it is reached through (`None`: directly).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Account<'a> {
    pub customer_id: &'a str,
    pub login_customer_id: Option<&'a str>,
}

/// One authorised session with the API: an access token fetched for one operation (a test, a
/// sync, a budget change), which outlives none of them.
pub(crate) struct AdsClient {
    /// A clone of the server's client (a handle: its pool is shared).
    http: reqwest::Client,
    base_url: String,
    developer_token: String,
    access_token: String,
    retry: RetryPolicy,
}

impl AdsClient {
    /// Exchanges the refresh token for an access token; a revoked grant fails here, as
    /// `Unauthorized` with the reconnect message.
    pub(crate) async fn connect(
        http: &reqwest::Client,
        base_url: &str,
        developer_token: &str,
        retry: RetryPolicy,
        oauth: &OAuthClient,
        refresh_token: &str,
    ) -> Result<Self, ConnectorError> {
        if developer_token.trim().is_empty() {
            return Err(ConnectorError::Config(
                "the Google Ads developer token is not configured".to_owned(),
            ));
        }
        let access_token = oauth.access_token(http, refresh_token).await?;
        Ok(Self {
            http: http.clone(),
            base_url: base_url.trim_end_matches('/').to_owned(),
            developer_token: developer_token.to_owned(),
            access_token,
            retry,
        })
    }

    /// The ids of the customers the granting login reaches directly.
    pub(crate) async fn accessible_customers(&self) -> Result<Vec<String>, ConnectorError> {
        let url = format!(
            "{}/{API_VERSION}/customers:listAccessibleCustomers",
            self.base_url
        );
        let answer: AccessibleCustomers = self
            .call(
                Method::GET,
                "customers:listAccessibleCustomers",
                &url,
                None,
                None,
            )
            .await?;
        Ok(answer
            .resource_names
            .iter()
            .filter_map(|name| name.strip_prefix("customers/"))
            .map(str::to_owned)
            .collect())
    }

    /// Every row `query` selects on `account`, following `nextPageToken` to the last page.
    pub(crate) async fn search(
        &self,
        account: Account<'_>,
        query: &str,
    ) -> Result<Vec<GoogleAdsRow>, ConnectorError> {
        let url = format!(
            "{}/{API_VERSION}/customers/{}/googleAds:search",
            self.base_url, account.customer_id
        );
        let mut rows = Vec::new();
        let mut token: Option<String> = None;
        loop {
            let mut body = serde_json::json!({ "query": query });
            if let Some(token) = &token {
                body["pageToken"] = serde_json::Value::String(token.clone());
            }
            let page: SearchPage = self
                .call(
                    Method::POST,
                    "googleAds:search",
                    &url,
                    account.login_customer_id,
                    Some(&body),
                )
                .await?;
            rows.extend(page.results);
            match page.next_page_token.filter(|next| !next.is_empty()) {
                None => break,
                // A page that names itself as the next would loop forever.
                Some(next) if token.as_deref() == Some(next.as_str()) => {
                    return Err(ConnectorError::Vendor(
                        "googleAds:search answered the same nextPageToken twice".to_owned(),
                    ));
                }
                Some(next) => token = Some(next),
            }
        }
        tracing::debug!(rows = rows.len(), "google ads search read");
        Ok(rows)
    }

    /// `POST customers/{id}/<service>:mutate` (or `customers/{id}:mutate` when `service` is
    /// empty) with `body`; answers Google's response object.
    pub(crate) async fn mutate(
        &self,
        account: Account<'_>,
        service: &str,
        body: &serde_json::Value,
    ) -> Result<serde_json::Value, ConnectorError> {
        let (url, call) = if service.is_empty() {
            (
                format!(
                    "{}/{API_VERSION}/customers/{}:mutate",
                    self.base_url, account.customer_id
                ),
                "customers:mutate".to_owned(),
            )
        } else {
            (
                format!(
                    "{}/{API_VERSION}/customers/{}/{service}:mutate",
                    self.base_url, account.customer_id
                ),
                format!("{service}:mutate"),
            )
        };
        self.call(
            Method::POST,
            &call,
            &url,
            account.login_customer_id,
            Some(body),
        )
        .await
    }

    /// One call, retrying quota and server errors per the retry policy. Mutates are retried too:
    /// Payback's are absolute (set an amount, set a suffix), so sending one twice is harmless.
    async fn call<T: DeserializeOwned>(
        &self,
        method: Method,
        call: &str,
        url: &str,
        login_customer_id: Option<&str>,
        body: Option<&serde_json::Value>,
    ) -> Result<T, ConnectorError> {
        let mut retried = 0;
        loop {
            let mut request = self
                .http
                .request(method.clone(), url)
                .bearer_auth(&self.access_token)
                .header("developer-token", &self.developer_token)
                .timeout(REQUEST_TIMEOUT);
            if let Some(login) = login_customer_id {
                request = request.header("login-customer-id", login);
            }
            if let Some(body) = body {
                request = request.json(body);
            }
            let response = request.send().await.map_err(|err| {
                ConnectorError::Unreachable(format!("Google Ads ({call}): {}", describe(&err)))
            })?;
            let status = response.status();
            let bytes = response.bytes().await.map_err(|err| {
                ConnectorError::Unreachable(format!("Google Ads ({call}): {}", describe(&err)))
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
                let backoff = self
                    .retry
                    .base_delay
                    .saturating_mul(2u32.saturating_pow(retried));
                let delay = failure
                    .retry_delay
                    .map_or(backoff, |asked| asked.max(backoff));
                tracing::warn!(
                    call,
                    status = status.as_u16(),
                    retry = retried + 1,
                    ?delay,
                    "google ads asked to slow down or failed; backing off"
                );
                tokio::time::sleep(delay).await;
                retried += 1;
                continue;
            }
            return Err(failure.into_error(retried));
        }
    }
}
