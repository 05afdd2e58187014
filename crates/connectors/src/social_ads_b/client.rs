//! HTTP against LinkedIn's versioned Marketing API (`{base}/rest/...`): the headers every call
//! carries (`Authorization: Bearer`, `Linkedin-Version`, `X-Restli-Protocol-Version: 2.0.0`),
//! cursor paging of the search finders, and retries of throttles (429) and server errors (5xx)
//! with exponential backoff.

use std::time::Duration;

use serde::de::DeserializeOwned;

use super::LINKEDIN_VERSION;
use super::errors::{Failure, Resource, scrub};
use super::restli::Query;
use super::wire::Page;
use crate::ConnectorError;
use crate::oauth::describe;
use crate::payments::RetryPolicy;

/// A hung connection must not hold a sync job's lease forever.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(60);

/// Entities per search page: LinkedIn's documented default for cursor paging.
pub(crate) const PAGE_SIZE: u32 = 100;

/// One access token's session with the API.
pub(crate) struct LinkedInClient {
    /// A clone of the server's client (a handle: its pool is shared).
    http: reqwest::Client,
    base_url: String,
    access_token: String,
    retry: RetryPolicy,
}

impl LinkedInClient {
    /// A client of `base_url` (LinkedIn's origin, or a fake's); an empty token fails here.
    pub(crate) fn new(
        http: &reqwest::Client,
        base_url: &str,
        access_token: &str,
        retry: RetryPolicy,
    ) -> Result<Self, ConnectorError> {
        if access_token.trim().is_empty() {
            return Err(ConnectorError::Config(
                "the LinkedIn access token is not configured".to_owned(),
            ));
        }
        Ok(Self {
            http: http.clone(),
            base_url: base_url.trim_end_matches('/').to_owned(),
            access_token: access_token.trim().to_owned(),
            retry,
        })
    }

    /// `GET {base}/rest/{path}?{query}`, read as `T`.
    pub(crate) async fn get<T: DeserializeOwned>(
        &self,
        resource: Resource,
        path: &str,
        query: &Query,
    ) -> Result<T, ConnectorError> {
        let rendered = query.render();
        let url = if rendered.is_empty() {
            format!("{}/rest/{path}", self.base_url)
        } else {
            format!("{}/rest/{path}?{rendered}", self.base_url)
        };
        let bytes = self.call(resource, &url).await?;
        serde_json::from_slice(&bytes).map_err(|err| {
            ConnectorError::Vendor(format!(
                "LinkedIn {} answered a shape Payback does not read: {err}",
                resource.name()
            ))
        })
    }

    /// Every element of a cursor-paged search: `pageSize` on the first call, then the answer's
    /// `metadata.nextPageToken` as `pageToken` until none comes back.
    pub(crate) async fn search<T: DeserializeOwned>(
        &self,
        resource: Resource,
        path: &str,
        query: &Query,
    ) -> Result<Vec<T>, ConnectorError> {
        let mut elements = Vec::new();
        let mut token: Option<String> = None;
        loop {
            let mut page_query = query.clone().raw("pageSize", PAGE_SIZE.to_string());
            if let Some(token) = &token {
                page_query = page_query.text("pageToken", token);
            }
            let page: Page<T> = self.get(resource, path, &page_query).await?;
            elements.extend(page.elements);
            let next = page
                .metadata
                .and_then(|metadata| metadata.next_page_token)
                .filter(|next| !next.is_empty());
            match next {
                None => break,
                // A page naming itself as the next would loop forever.
                Some(next) if token.as_deref() == Some(next.as_str()) => {
                    return Err(ConnectorError::Vendor(format!(
                        "LinkedIn {} answered the same nextPageToken twice",
                        resource.name()
                    )));
                }
                Some(next) => token = Some(next),
            }
        }
        Ok(elements)
    }

    /// One GET, retrying throttles and server errors per the retry policy; answers the body of
    /// a 2xx.
    async fn call(&self, resource: Resource, url: &str) -> Result<Vec<u8>, ConnectorError> {
        let mut retried = 0;
        loop {
            let mut request = self
                .http
                .get(url)
                .bearer_auth(&self.access_token)
                .header("Linkedin-Version", LINKEDIN_VERSION)
                .header("X-Restli-Protocol-Version", "2.0.0")
                .timeout(REQUEST_TIMEOUT);
            if resource == Resource::Creatives {
                // The creatives sample requests name the finder method as well.
                request = request.header("X-RestLi-Method", "FINDER");
            }
            let unreachable = |err: reqwest::Error| {
                ConnectorError::Unreachable(format!(
                    "LinkedIn ({}): {}",
                    resource.name(),
                    scrub(&describe(&err), &self.access_token)
                ))
            };
            let response = request.send().await.map_err(unreachable)?;
            let status = response.status();
            let bytes = response.bytes().await.map_err(unreachable)?;
            if status.is_success() {
                return Ok(bytes.to_vec());
            }
            let failure = Failure::read(resource, status.as_u16(), &bytes, &self.access_token);
            if failure.retryable() && retried < self.retry.retries {
                let delay = self
                    .retry
                    .base_delay
                    .saturating_mul(2u32.saturating_pow(retried));
                tracing::warn!(
                    call = resource.name(),
                    status = status.as_u16(),
                    retry = retried + 1,
                    ?delay,
                    "linkedin throttled or failed; backing off"
                );
                tokio::time::sleep(delay).await;
                retried += 1;
                continue;
            }
            return Err(failure.into_error(retried));
        }
    }
}
