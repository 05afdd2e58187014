//! A small website on loopback: the pages the analysis fetches, a redirect ladder, a missing
//! page and a page without text; it counts the requests it answered.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use axum::Router;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;

/// The landing page's visible text, as the model must receive it.
pub const PRICING_TEXT: &str = "Payroll in ten minutes\nFor teams of 2 to 50.\nStart free";

pub const PRICING_HTML: &str = "<!doctype html><html><head><title>Payroll in ten minutes</title>\
    <style>.hero{color:red}</style><script>window.secretLoader = 'do not send';</script></head>\
    <body><h1>For teams of 2 to 50.</h1><!-- an internal note --><a href=\"/signup\">Start free</a></body></html>";

pub struct FakeSite {
    pub origin: String,
    hits: Arc<AtomicUsize>,
}

impl FakeSite {
    pub async fn spawn() -> Self {
        let hits = Arc::new(AtomicUsize::new(0));
        let app = Router::new()
            .route("/pricing", get(pricing))
            .route("/pricing/", get(pricing))
            .route("/missing", get(missing))
            .route("/blank", get(blank))
            .route("/hop/{left}", get(hop))
            .with_state(hits.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind the site");
        let origin = format!("http://{}", listener.local_addr().expect("site address"));
        tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Self { origin, hits }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.origin)
    }

    /// Requests answered so far.
    pub fn hits(&self) -> usize {
        self.hits.load(Ordering::SeqCst)
    }
}

async fn pricing(State(hits): State<Arc<AtomicUsize>>) -> Html<&'static str> {
    hits.fetch_add(1, Ordering::SeqCst);
    Html(PRICING_HTML)
}

async fn missing(State(hits): State<Arc<AtomicUsize>>) -> Response {
    hits.fetch_add(1, Ordering::SeqCst);
    (StatusCode::NOT_FOUND, Html("<p>Not here</p>")).into_response()
}

async fn blank(State(hits): State<Arc<AtomicUsize>>) -> Html<&'static str> {
    hits.fetch_add(1, Ordering::SeqCst);
    Html("<html><head><script>var only = 'code';</script></head><body></body></html>")
}

/// `/hop/N` redirects to `/hop/N-1` (relative), `/hop/0` to `/pricing`.
async fn hop(State(hits): State<Arc<AtomicUsize>>, Path(left): Path<u32>) -> Response {
    hits.fetch_add(1, Ordering::SeqCst);
    let next = match left {
        0 => "/pricing".to_owned(),
        n => format!("{}", n - 1),
    };
    (StatusCode::FOUND, [(header::LOCATION, next)]).into_response()
}
