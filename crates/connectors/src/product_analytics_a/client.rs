//! HTTP against PostHog's API: `Authorization: Bearer KEY`, throttles (429) and server errors
//! retried, PostHog's `{type, code, detail}` errors mapped to [`ConnectorError`], HogQL
//! statements paged with an explicit `LIMIT` while the answer says `hasMore`, and list pages
//! followed through `next` only while it stays on the configured origin (a `next` elsewhere
//! would carry the key to another host).
//!
//! A 429 carries `Retry-After` (seconds; PostHog's throttles are Django REST framework's, whose
//! `Throttled` answer sets it): a short wait is waited out before the retry, a long one (the
//! HogQL API's hourly quota) fails the call at once as throttled instead of holding the run.
//! Without the header, and on 5xx, the retries back off exponentially.

use std::time::Duration;

use reqwest::StatusCode;
use reqwest::header::{HeaderMap, RETRY_AFTER};
use serde::de::DeserializeOwned;
use serde_json::json;

use super::hogql::{MAX_PAGES, PAGE_ROWS, paged};
use super::wire::{QueryAnswer, error_text};
use crate::ConnectorError;
use crate::keyed_http::{Failure, KeyedHttp, Vendor, throttled_or_failed};

/// The longest `Retry-After` waited out inside a run; a longer one fails the call as throttled.
const MAX_RETRY_AFTER: Duration = Duration::from_secs(30);

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

    /// Every row of one HogQL `statement` (without a `LIMIT` of its own) of project
    /// `project_id`: pages of [`PAGE_ROWS`] from `POST /api/projects/{id}/query/`, the next one
    /// from the rows read so far while PostHog answers `hasMore` or a full page, at most
    /// [`MAX_PAGES`].
    pub(crate) async fn hogql(
        &self,
        project_id: &str,
        what: &str,
        statement: &str,
    ) -> Result<QueryAnswer, ConnectorError> {
        let mut all: Option<QueryAnswer> = None;
        let mut offset = 0;
        for _ in 0..MAX_PAGES {
            let page = self
                .hogql_page(project_id, what, &paged(statement, PAGE_ROWS, offset))
                .await?;
            let read = page.results.len();
            // `hasMore` says PostHog cut rows off (its own cap below the `LIMIT`); a full page
            // may also have more where a statement's own `LIMIT` leaves `hasMore` unset. An
            // empty page ends the statement whatever its flag says: no loop on nothing.
            let more = (page.has_more.unwrap_or(false) || read >= PAGE_ROWS) && read > 0;
            match all.as_mut() {
                None => all = Some(page),
                Some(rows) if rows.columns == page.columns => rows.results.extend(page.results),
                Some(_) => {
                    return Err(ConnectorError::Vendor(format!(
                        "PostHog {what} answered other columns on a later page"
                    )));
                }
            }
            if !more {
                return all.ok_or_else(|| {
                    ConnectorError::Vendor(format!("PostHog {what} answered no page"))
                });
            }
            offset += read;
        }
        Err(ConnectorError::Vendor(format!(
            "PostHog {what} has more than {} rows; a shorter window reads it",
            MAX_PAGES * PAGE_ROWS
        )))
    }

    /// One page: `query` as sent, with its `LIMIT`.
    async fn hogql_page(
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

    /// The request `build` makes, retried on 429 and 5xx (a 429 after its `Retry-After`), its
    /// success decoded as `T` and its failure as the error PostHog's body says.
    async fn answer<T: DeserializeOwned>(
        &self,
        what: &str,
        build: impl Fn(&reqwest::Client) -> reqwest::RequestBuilder,
    ) -> Result<T, ConnectorError> {
        let mut retried = 0;
        let (status, body) = loop {
            let reply = self.exchange(what, build(self.http())).await?;
            let status = reply.status;
            if status.is_success() || !throttled_or_failed(status) {
                break (status, reply.body);
            }
            match retry_after(status, &reply.headers) {
                Some(wait) if wait > MAX_RETRY_AFTER => {
                    return Err(ConnectorError::RateLimited(format!(
                        "PostHog answered 429 on {what}: throttled; it asks to wait {} s before \
                         the next request (not retried)",
                        wait.as_secs()
                    )));
                }
                Some(wait) if retried < self.retries() => {
                    tracing::warn!(what, wait_s = wait.as_secs(), "PostHog throttled; waiting");
                    tokio::time::sleep(wait).await;
                }
                Some(_) => break (status, reply.body),
                None if self.back_off(what, status, retried).await => {}
                None => break (status, reply.body),
            }
            retried += 1;
        };
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

/// A 429's `Retry-After` in seconds (the form PostHog sends); none for other statuses or an
/// HTTP date, which then back off like a 5xx.
fn retry_after(status: StatusCode, headers: &HeaderMap) -> Option<Duration> {
    if status != StatusCode::TOO_MANY_REQUESTS {
        return None;
    }
    let seconds = headers
        .get(RETRY_AFTER)?
        .to_str()
        .ok()?
        .trim()
        .parse::<u64>()
        .ok()?;
    Some(Duration::from_secs(seconds))
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
    use super::*;

    /// A query API that never says `hasMore` (as where a statement's own `LIMIT` applies)
    /// holding `PAGE_ROWS + 5` rows: a full page asks the next one.
    #[tokio::test]
    async fn a_full_page_asks_for_the_next_even_without_has_more() {
        use axum::Json;
        use axum::routing::post;
        use serde_json::Value;

        let total = PAGE_ROWS + 5;
        let answer = move |Json(body): Json<Value>| async move {
            let query = body["query"]["query"]
                .as_str()
                .unwrap_or_default()
                .to_owned();
            let (_, tail) = query.rsplit_once(" LIMIT ").unwrap();
            let (limit, offset) = tail.split_once(" OFFSET ").unwrap();
            let (limit, offset): (usize, usize) = (limit.parse().unwrap(), offset.parse().unwrap());
            let rows: Vec<Value> = (offset..total.min(offset + limit))
                .map(|n| json!([n]))
                .collect();
            Json(json!({ "columns": ["n"], "results": rows, "hasMore": null }))
        };
        let router = axum::Router::new().route("/api/projects/1/query/", post(answer));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let origin = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move {
            let _ = axum::serve(listener, router).await;
        });
        let _ = rustls::crypto::ring::default_provider().install_default();
        let http = reqwest::Client::new();
        let client = PostHogClient::new(
            &http,
            &origin,
            "phx_k",
            crate::payments::RetryPolicy::default(),
        )
        .unwrap();
        let answer = client
            .hogql("1", "test query", "SELECT n FROM t ORDER BY n")
            .await
            .unwrap();
        assert_eq!(answer.results.len(), total);
        assert_eq!(answer.results[total - 1], vec![json!(total - 1)]);
    }

    #[test]
    fn retry_after_is_read_from_a_throttle_only() {
        let mut headers = HeaderMap::new();
        headers.insert(RETRY_AFTER, "7".parse().unwrap());
        assert_eq!(
            retry_after(StatusCode::TOO_MANY_REQUESTS, &headers),
            Some(Duration::from_secs(7))
        );
        assert_eq!(retry_after(StatusCode::SERVICE_UNAVAILABLE, &headers), None);
        headers.insert(
            RETRY_AFTER,
            "Wed, 21 Oct 2026 07:28:00 GMT".parse().unwrap(),
        );
        assert_eq!(retry_after(StatusCode::TOO_MANY_REQUESTS, &headers), None);
        assert_eq!(
            retry_after(StatusCode::TOO_MANY_REQUESTS, &HeaderMap::new()),
            None
        );
    }

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
