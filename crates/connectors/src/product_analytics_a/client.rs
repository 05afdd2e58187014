//! HTTP against PostHog's API: `Authorization: Bearer KEY`, throttles (429) and server errors
//! retried with exponential backoff, PostHog's `{type, code, detail}` errors mapped to
//! [`ConnectorError`], and list pages followed through `next` only while it stays on the
//! configured origin (a `next` elsewhere would carry the key to another host).

use reqwest::StatusCode;
use serde::de::DeserializeOwned;
use serde_json::json;

use super::wire::{QueryAnswer, error_text};
use crate::ConnectorError;
use crate::keyed_http::{Failure, KeyedHttp, Vendor, throttled_or_failed};

/// PostHog, as messages name it and its key.
pub(crate) enum PostHog {}

impl Vendor for PostHog {
    const NAME: &'static str = "PostHog";
    const KEY_LABEL: &'static str = "PostHog personal API key";
}

/// One key's session with one PostHog origin.
pub(crate) type PostHogClient<'a> = KeyedHttp<'a, PostHog>;

impl PostHogClient<'_> {
    /// `GET {url}` (a URL on the origin), answering the body as `T`.
    pub(crate) async fn get_url<T: DeserializeOwned>(
        &self,
        what: &str,
        url: &str,
    ) -> Result<T, ConnectorError> {
        if !same_origin(url, self.origin()) {
            return Err(ConnectorError::Vendor(format!(
                "PostHog {what} pointed its next page at another host; not followed"
            )));
        }
        let build = |http: &reqwest::Client| {
            http.get(url)
                .bearer_auth(self.key())
                .header(reqwest::header::ACCEPT, "application/json")
        };
        self.answer(what, build).await
    }

    /// `GET {origin}{path}?{params}`.
    pub(crate) async fn get<T: DeserializeOwned>(
        &self,
        what: &str,
        path: &str,
        params: &[(&str, &str)],
    ) -> Result<T, ConnectorError> {
        let url = format!("{}{path}", self.origin());
        let build = |http: &reqwest::Client| {
            http.get(&url)
                .query(params)
                .bearer_auth(self.key())
                .header(reqwest::header::ACCEPT, "application/json")
        };
        self.answer(what, build).await
    }

    /// One HogQL query of project `project_id`: `POST /api/projects/{id}/query/`.
    pub(crate) async fn hogql(
        &self,
        project_id: &str,
        what: &str,
        query: &str,
    ) -> Result<QueryAnswer, ConnectorError> {
        let url = format!("{}/api/projects/{project_id}/query/", self.origin());
        let body = json!({ "query": { "kind": "HogQLQuery", "query": query } });
        let build = |http: &reqwest::Client| {
            http.post(&url)
                .bearer_auth(self.key())
                .header(reqwest::header::ACCEPT, "application/json")
                .json(&body)
        };
        self.answer(what, build).await
    }

    async fn answer<T: DeserializeOwned>(
        &self,
        what: &str,
        build: impl Fn(&reqwest::Client) -> reqwest::RequestBuilder,
    ) -> Result<T, ConnectorError> {
        let retryable = |status: StatusCode, _: &[u8]| throttled_or_failed(status);
        let (status, body) = self.send(what, build, retryable).await?;
        if status.is_success() {
            return serde_json::from_slice::<T>(&body).map_err(|err| {
                ConnectorError::Vendor(format!(
                    "PostHog {what} answered a shape Payback does not read: {err}"
                ))
            });
        }
        let message = error_text(&body)
            .map(|text| self.scrub(&text))
            .unwrap_or_else(|| format!("HTTP {}", status.as_u16()));
        Err(self.failure(what, status, Failure::of_status(status), message))
    }
}

/// Whether `url` is on `origin` (scheme, host and port alike).
fn same_origin(url: &str, origin: &str) -> bool {
    match (reqwest::Url::parse(url), reqwest::Url::parse(origin)) {
        (Ok(url), Ok(origin)) => url.origin() == origin.origin(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::same_origin;

    #[test]
    fn next_pages_stay_on_the_origin() {
        assert!(same_origin(
            "https://eu.posthog.com/api/projects/1/session_recordings?offset=100",
            "https://eu.posthog.com"
        ));
        assert!(!same_origin(
            "https://evil.example/api/projects/1/session_recordings",
            "https://eu.posthog.com"
        ));
        assert!(!same_origin(
            "http://eu.posthog.com/x",
            "https://eu.posthog.com"
        ));
    }
}
