//! One request recorder for every HTTP fake: a middleware that reads each request whole, records
//! it before anything else happens to it (so a test sees what a connector sent even when the fake
//! refused it), lets the fake answer a failure the test scheduled, and otherwise passes the
//! request on to the fake's routes.

use std::sync::{Arc, Mutex};

use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::http::request::Parts;
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};

use super::form::form_pairs;
use super::lock;

/// One request as the fake received it (header names lowercase).
#[derive(Debug, Clone)]
pub struct RecordedRequest {
    pub method: String,
    pub path: String,
    pub query: Option<String>,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl RecordedRequest {
    fn new(parts: &Parts, body: &[u8]) -> Self {
        Self {
            method: parts.method.to_string(),
            path: parts.uri.path().to_owned(),
            query: parts.uri.query().map(str::to_owned),
            headers: parts
                .headers
                .iter()
                .map(|(name, value)| {
                    (
                        name.as_str().to_owned(),
                        String::from_utf8_lossy(value.as_bytes()).into_owned(),
                    )
                })
                .collect(),
            body: String::from_utf8_lossy(body).into_owned(),
        }
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        let name = name.to_ascii_lowercase();
        self.headers
            .iter()
            .find(|(key, _)| *key == name)
            .map(|(_, value)| value.as_str())
    }

    /// The body as JSON (`Null` when it is not JSON).
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or(serde_json::Value::Null)
    }

    /// The body as form pairs, decoded.
    pub fn form(&self) -> Vec<(String, String)> {
        form_pairs(&self.body)
    }

    /// The query string as pairs, decoded.
    pub fn query_pairs(&self) -> Vec<(String, String)> {
        form_pairs(self.query.as_deref().unwrap_or(""))
    }

    /// The first value of `name` in the query string or, failing that, the form body.
    pub fn param(&self, name: &str) -> Option<String> {
        self.query_pairs()
            .into_iter()
            .chain(self.form())
            .find(|(key, _)| key == name)
            .map(|(_, value)| value)
    }
}

/// Every request a fake received, in order.
#[derive(Debug, Clone, Default)]
pub(crate) struct RequestLog(Vec<RecordedRequest>);

impl RequestLog {
    /// Every request, in order.
    pub fn all(&self) -> Vec<RecordedRequest> {
        self.0.clone()
    }

    /// The requests whose path contains `path_contains`, in order.
    pub fn to(&self, path_contains: &str) -> Vec<RecordedRequest> {
        self.0
            .iter()
            .filter(|request| request.path.contains(path_contains))
            .cloned()
            .collect()
    }
}

/// A fake's state as the recorder sees it.
pub(crate) trait Recorded: Send + 'static {
    /// The largest body the fake reads; a larger one is answered 413 (and not recorded).
    const BODY_LIMIT: usize;

    fn log(&mut self) -> &mut RequestLog;

    /// The fake's answer to `request` when the test scheduled a failure for it (counting the
    /// failure used); `None` passes the request on to the routes.
    fn scheduled_answer(&mut self, request: &RecordedRequest) -> Option<Response>;
}

/// `routes` with every request recorded in `shared` first.
pub(crate) fn recording<S: Recorded>(
    routes: Router<Arc<Mutex<S>>>,
    shared: Arc<Mutex<S>>,
) -> Router {
    routes
        .layer(middleware::from_fn_with_state(shared.clone(), record::<S>))
        .with_state(shared)
}

async fn record<S: Recorded>(
    State(shared): State<Arc<Mutex<S>>>,
    request: Request,
    next: Next,
) -> Response {
    let (parts, body) = request.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, S::BODY_LIMIT).await else {
        return (
            StatusCode::PAYLOAD_TOO_LARGE,
            "request body too large for the fake",
        )
            .into_response();
    };
    let recorded = RecordedRequest::new(&parts, &bytes);
    let answer = {
        // One lock for both, so the log and the schedule agree on which request came first.
        let mut state = lock(&shared);
        let answer = state.scheduled_answer(&recorded);
        state.log().0.push(recorded);
        answer
    };
    match answer {
        Some(answer) => answer,
        None => {
            next.run(Request::from_parts(parts, Body::from(bytes)))
                .await
        }
    }
}
