//! A tiny Graph fake on loopback for the social kinds' unit tests: canned answers by `METHOD
//! path`, and every request recorded (path, query and form parameters, the Authorization
//! header). Anything without an answer gets Meta's "object does not exist" error. The full
//! end-to-end suite runs against the testkit's Meta fake.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};

use super::GRAPH_VERSION;
use crate::source::{PageSink, SourceFuture};

/// One request the fake saw.
#[derive(Debug, Clone)]
pub(crate) struct Seen {
    pub method: Method,
    /// Without the version prefix: `act_123/insights`.
    pub path: String,
    pub params: BTreeMap<String, String>,
    pub auth: String,
}

#[derive(Default)]
struct Inner {
    seen: Vec<Seen>,
    /// Answers by `METHOD path`, given in turn; the last one repeats.
    answers: BTreeMap<String, Vec<(StatusCode, String)>>,
}

/// A running fake.
#[derive(Clone)]
pub(crate) struct FakeGraph {
    inner: Arc<Mutex<Inner>>,
    pub base_url: String,
}

impl FakeGraph {
    /// Serves `answers` (`("GET act_123", body)`, 200 each) on a loopback port.
    pub(crate) async fn start(answers: &[(&str, &str)]) -> Self {
        let _ = rustls::crypto::ring::default_provider().install_default();
        let inner = Arc::new(Mutex::new(Inner::default()));
        let router = Router::new().fallback(answer).with_state(inner.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base_url = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move {
            let _ = axum::serve(listener, router).await;
        });
        let fake = Self { inner, base_url };
        for (key, body) in answers {
            fake.answer(key, StatusCode::OK, body);
        }
        fake
    }

    /// Adds an answer to `key` (after the ones it has).
    pub(crate) fn answer(&self, key: &str, status: StatusCode, body: &str) {
        self.inner
            .lock()
            .unwrap()
            .answers
            .entry(key.to_owned())
            .or_default()
            .push((status, body.to_owned()));
    }

    pub(crate) fn seen(&self) -> Vec<Seen> {
        self.inner.lock().unwrap().seen.clone()
    }

    /// `METHOD path` of every request, in order.
    pub(crate) fn calls(&self) -> Vec<String> {
        self.seen()
            .iter()
            .map(|seen| format!("{} {}", seen.method, seen.path))
            .collect()
    }
}

/// A sink for sources that hand no pages (the social kinds answer in the batch).
pub(crate) struct NoPages;

impl PageSink for NoPages {
    fn write(
        &mut self,
        _events: Vec<payback_domain::event::IncomingEvent>,
    ) -> SourceFuture<'_, ()> {
        Box::pin(async { Ok(()) })
    }
}

fn params(text: &str) -> BTreeMap<String, String> {
    reqwest::Url::parse(&format!("http://x/?{text}"))
        .map(|url| {
            url.query_pairs()
                .map(|(k, v)| (k.into_owned(), v.into_owned()))
                .collect()
        })
        .unwrap_or_default()
}

async fn answer(
    State(inner): State<Arc<Mutex<Inner>>>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let mut inner = inner.lock().unwrap();
    let prefix = format!("/{GRAPH_VERSION}/");
    let path = uri.path().trim_start_matches(prefix.as_str()).to_owned();
    let mut all = params(uri.query().unwrap_or_default());
    all.extend(params(&String::from_utf8_lossy(&body)));
    inner.seen.push(Seen {
        method: method.clone(),
        path: path.clone(),
        params: all,
        auth: headers
            .get("authorization")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned(),
    });
    let key = format!("{method} {path}");
    let next = match inner.answers.get_mut(&key) {
        Some(list) if list.len() > 1 => Some(list.remove(0)),
        Some(list) => list.first().cloned(),
        None => None,
    };
    match next {
        Some((status, body)) => (status, body).into_response(),
        None => (
            StatusCode::BAD_REQUEST,
            format!(
                r#"{{"error": {{"message": "Unsupported request {key}. Object does not exist.", "type": "GraphMethodException", "code": 100, "error_subcode": 33, "fbtrace_id": "fake"}}}}"#
            ),
        )
            .into_response(),
    }
}
