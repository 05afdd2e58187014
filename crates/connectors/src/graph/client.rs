//! HTTP against the Graph API: one token per client, sent as `Authorization: Bearer`; a 60 s
//! timeout on every call; retries of throttles and Meta's transient trouble with exponential
//! backoff (never shorter than a usage header's announced wait); and edges read to the end by
//! their `after` cursor.
//!
//! Paging follows the cursor on the same path rather than `paging.next`'s absolute URL, so the
//! bearer token only ever goes to the configured origin; `paging.next` still decides whether
//! there is a next page, as Meta documents. Writes are retried like reads: Payback's writes set
//! absolute values (a budget), so sending one twice is harmless.

use std::time::Duration;

use reqwest::Method;
use serde::de::DeserializeOwned;

use super::GRAPH_VERSION;
use super::errors::{Failure, FailureKind, scrub};
use super::wire::Paged;
use crate::ConnectorError;
use crate::oauth::describe;
use crate::payments::RetryPolicy;

/// A hung connection must not hold a sync job's lease forever.
pub(crate) const REQUEST_TIMEOUT: Duration = Duration::from_secs(60);

/// More pages than this on one edge is a cursor loop, not data.
const MAX_PAGES: usize = 10_000;

/// A Graph call that failed, with the kind of Meta's refusal when Meta answered one (callers
/// tell a missing object or an oversized report apart from other failures).
#[derive(Debug)]
pub(crate) struct GraphError {
    pub kind: Option<FailureKind>,
    pub error: ConnectorError,
}

impl GraphError {
    fn plain(error: ConnectorError) -> Self {
        Self { kind: None, error }
    }
}

impl From<GraphError> for ConnectorError {
    fn from(err: GraphError) -> Self {
        err.error
    }
}

/// What one attempt came to, before the retry policy decides.
enum Attempt {
    Transport(String),
    Failed(Failure),
}

/// One token's session with the Graph API.
#[derive(Clone)]
pub(crate) struct GraphClient {
    /// A clone of the server's client (a handle: its pool is shared).
    http: reqwest::Client,
    base_url: String,
    token: String,
    retry: RetryPolicy,
}

impl GraphClient {
    pub(crate) fn new(
        http: &reqwest::Client,
        base_url: &str,
        token: &str,
        retry: RetryPolicy,
    ) -> Result<Self, ConnectorError> {
        if token.trim().is_empty() {
            return Err(ConnectorError::Config(
                "the Meta access token is empty".to_owned(),
            ));
        }
        Ok(Self {
            http: http.clone(),
            base_url: base_url.trim_end_matches('/').to_owned(),
            token: token.trim().to_owned(),
            retry,
        })
    }

    /// The same session with another token (a page's, exchanged from a user token).
    pub(crate) fn with_token(&self, token: &str) -> Result<Self, ConnectorError> {
        Self::new(&self.http, &self.base_url, token, self.retry)
    }

    /// `GET /{version}/{path}?{query}`.
    pub(crate) async fn get<T: DeserializeOwned>(
        &self,
        path: &str,
        query: &[(&str, String)],
    ) -> Result<T, GraphError> {
        self.call(Method::GET, path, query, &[]).await
    }

    /// `POST /{version}/{path}` with `form` as the body.
    pub(crate) async fn post<T: DeserializeOwned>(
        &self,
        path: &str,
        form: &[(&str, String)],
    ) -> Result<T, GraphError> {
        self.call(Method::POST, path, &[], form).await
    }

    /// `DELETE /{version}/{path}`.
    pub(crate) async fn delete<T: DeserializeOwned>(&self, path: &str) -> Result<T, GraphError> {
        self.call(Method::DELETE, path, &[], &[]).await
    }

    /// Every item of an edge, page by page until `paging.next` is gone.
    pub(crate) async fn get_all<T: DeserializeOwned>(
        &self,
        path: &str,
        query: &[(&str, String)],
    ) -> Result<Vec<T>, GraphError> {
        let mut items = Vec::new();
        let mut after: Option<String> = None;
        for _ in 0..MAX_PAGES {
            let mut page_query = query.to_vec();
            if let Some(cursor) = &after {
                page_query.push(("after", cursor.clone()));
            }
            let page: Paged<T> = self.get(path, &page_query).await?;
            let next = page.after().map(str::to_owned);
            items.extend(page.data);
            match next {
                None => {
                    tracing::debug!(path, items = items.len(), "graph edge read");
                    return Ok(items);
                }
                // A page that names itself as the next would loop forever.
                Some(next) if after.as_deref() == Some(next.as_str()) => {
                    return Err(GraphError::plain(ConnectorError::Vendor(format!(
                        "Meta answered the same paging cursor twice on GET {path}"
                    ))));
                }
                Some(next) => after = Some(next),
            }
        }
        Err(GraphError::plain(ConnectorError::Vendor(format!(
            "GET {path} kept paging past {MAX_PAGES} pages"
        ))))
    }

    /// One call, retried per the policy.
    async fn call<T: DeserializeOwned>(
        &self,
        method: Method,
        path: &str,
        query: &[(&str, String)],
        form: &[(&str, String)],
    ) -> Result<T, GraphError> {
        let url = format!(
            "{}/{GRAPH_VERSION}/{}",
            self.base_url,
            path.trim_start_matches('/')
        );
        let call = format!("{method} {}", path.trim_start_matches('/'));
        let mut retried = 0;
        loop {
            let backoff = self
                .retry
                .base_delay
                .saturating_mul(2u32.saturating_pow(retried));
            let delay = match self.attempt(&method, &url, &call, query, form).await {
                Ok(bytes) => return self.decode(&call, &bytes),
                Err(Attempt::Transport(line)) => {
                    if retried >= self.retry.retries {
                        return Err(GraphError::plain(ConnectorError::Unreachable(format!(
                            "{line} (after {retried} retries)"
                        ))));
                    }
                    backoff
                }
                Err(Attempt::Failed(failure)) => {
                    if !failure.retryable() || retried >= self.retry.retries {
                        return Err(GraphError {
                            kind: Some(failure.kind),
                            error: failure.into_error(retried),
                        });
                    }
                    failure.regain.map_or(backoff, |wait| wait.max(backoff))
                }
            };
            tracing::warn!(
                call,
                retry = retried + 1,
                ?delay,
                "meta throttled or failed; backing off"
            );
            tokio::time::sleep(delay).await;
            retried += 1;
        }
    }

    async fn attempt(
        &self,
        method: &Method,
        url: &str,
        call: &str,
        query: &[(&str, String)],
        form: &[(&str, String)],
    ) -> Result<Vec<u8>, Attempt> {
        let mut request = self
            .http
            .request(method.clone(), url)
            .bearer_auth(&self.token)
            .timeout(REQUEST_TIMEOUT);
        if !query.is_empty() {
            request = request.query(query);
        }
        if !form.is_empty() {
            request = request.form(form);
        }
        // The URL names no secret, but it is left out all the same: query values are data.
        let transport = |err: reqwest::Error| {
            Attempt::Transport(format!("Meta ({call}): {}", describe(&err.without_url())))
        };
        let response = request.send().await.map_err(transport)?;
        let status = response.status();
        let headers = response.headers().clone();
        let bytes = response.bytes().await.map_err(transport)?;
        if status.is_success() {
            return Ok(bytes.to_vec());
        }
        Err(Attempt::Failed(Failure::read(
            call,
            status.as_u16(),
            &headers,
            &bytes,
            &self.token,
        )))
    }

    /// A 2xx body as `T`. serde's message is reduced to its category and position: its text can
    /// quote values, and a value here may be a token.
    fn decode<T: DeserializeOwned>(&self, call: &str, bytes: &[u8]) -> Result<T, GraphError> {
        serde_json::from_slice(bytes).map_err(|err| {
            let line = format!(
                "{call} answered a shape Payback does not read ({:?} error at line {} column {})",
                err.classify(),
                err.line(),
                err.column()
            );
            GraphError::plain(ConnectorError::Vendor(scrub(&line, &self.token)))
        })
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use axum::Router;
    use axum::extract::{Query, State};
    use axum::http::{HeaderMap, StatusCode};
    use axum::response::{IntoResponse, Response};
    use axum::routing::get;
    use serde::Deserialize;

    use super::*;

    #[derive(Debug, Deserialize)]
    struct Item {
        id: String,
    }

    #[derive(Default)]
    struct Seen {
        auth: Vec<String>,
        afters: Vec<Option<String>>,
        calls: usize,
    }

    type Shared = Arc<Mutex<Seen>>;

    async fn pages(
        State(seen): State<Shared>,
        headers: HeaderMap,
        Query(query): Query<std::collections::HashMap<String, String>>,
    ) -> Response {
        let mut seen = seen.lock().unwrap();
        seen.calls += 1;
        seen.auth.push(
            headers
                .get("authorization")
                .and_then(|v| v.to_str().ok())
                .unwrap_or_default()
                .to_owned(),
        );
        let after = query.get("after").cloned();
        seen.afters.push(after.clone());
        // The second call is throttled once, with a short announced wait.
        if seen.calls == 2 {
            return (
                StatusCode::BAD_REQUEST,
                [(
                    "x-business-use-case-usage",
                    r#"{"1": [{"type": "ads_management", "call_count": 100, "estimated_time_to_regain_access": 0}]}"#,
                )],
                r#"{"error": {"message": "(#80004) There have been too many calls to this ad-account.", "type": "OAuthException", "code": 80004, "fbtrace_id": "x"}}"#,
            )
                .into_response();
        }
        let body = match after.as_deref() {
            None => {
                r#"{"data": [{"id": "1"}, {"id": "2"}], "paging": {"cursors": {"before": "b", "after": "c1"}, "next": "https://graph.facebook.com/v27.0/me/things?after=c1"}}"#
            }
            Some("c1") => {
                r#"{"data": [{"id": "3"}], "paging": {"cursors": {"before": "c1", "after": "c2"}}}"#
            }
            Some(_) => r#"{"data": []}"#,
        };
        (StatusCode::OK, body).into_response()
    }

    async fn serve(router: Router) -> String {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move {
            let _ = axum::serve(listener, router).await;
        });
        format!("http://{addr}")
    }

    fn http() -> reqwest::Client {
        let _ = rustls::crypto::ring::default_provider().install_default();
        reqwest::Client::new()
    }

    fn fast() -> RetryPolicy {
        RetryPolicy {
            retries: 2,
            base_delay: Duration::from_millis(5),
        }
    }

    #[tokio::test]
    async fn an_edge_is_read_to_its_last_page_through_a_throttle() {
        let seen = Shared::default();
        let base = serve(
            Router::new()
                .route("/v27.0/me/things", get(pages))
                .with_state(seen.clone()),
        )
        .await;
        let client = GraphClient::new(&http(), &base, "EAAB-test-token", fast()).unwrap();
        let items: Vec<Item> = client
            .get_all("me/things", &[("fields", "id".to_owned())])
            .await
            .unwrap();
        let ids: Vec<&str> = items.iter().map(|item| item.id.as_str()).collect();
        assert_eq!(ids, ["1", "2", "3"]);
        let seen = seen.lock().unwrap();
        // First page, the throttled second call, its retry, and no call past the last page.
        assert_eq!(
            seen.afters,
            [None, Some("c1".to_owned()), Some("c1".to_owned())]
        );
        assert!(
            seen.auth
                .iter()
                .all(|auth| auth == "Bearer EAAB-test-token")
        );
    }

    #[tokio::test]
    async fn an_unreachable_origin_is_unreachable_without_the_url() {
        let client = GraphClient::new(
            &http(),
            "http://127.0.0.1:9",
            "EAAB-test-token",
            RetryPolicy {
                retries: 0,
                base_delay: Duration::from_millis(1),
            },
        )
        .unwrap();
        let err = client
            .get::<serde_json::Value>("act_1", &[("fields", "name".to_owned())])
            .await
            .unwrap_err();
        assert!(err.kind.is_none());
        match err.error {
            ConnectorError::Unreachable(line) => {
                assert!(line.starts_with("Meta (GET act_1)"), "{line}");
                assert!(!line.contains("fields=name"), "{line}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn an_empty_token_is_a_configuration_error() {
        let err = GraphClient::new(&http(), "http://x", "  ", fast()).err();
        assert!(matches!(err, Some(ConnectorError::Config(_))));
    }
}
