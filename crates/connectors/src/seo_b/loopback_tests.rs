//! The connection against a small Ahrefs stand-in on loopback: the requests as they go over
//! the wire (paths, documented parameters, the bearer key), the snapshots dated the run day,
//! retries of throttles and server errors, a refused key as Ahrefs' `error` text, and the key
//! never in an error.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use payback_domain::Timestamp;

use super::*;
use crate::api_source::ApiConfig;
use crate::{Source, SyncWindow};

const KEY: &str = "ahrefs-loopback-key-0123456789";
const DOMAIN: &str = "shop.example";

/// What the stand-in saw and how it answers.
#[derive(Debug, Default)]
struct Seen {
    /// `endpoint?query` of every request, in order.
    requests: Vec<String>,
    /// The `Authorization` header of every request.
    authorizations: Vec<String>,
    /// Answer the next requests with these (status, body), first first.
    failures: Vec<(u16, String)>,
}

type Shared = Arc<Mutex<Seen>>;

async fn endpoint(
    State(state): State<Shared>,
    Path(name): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Response {
    let mut seen = state.lock().unwrap();
    seen.requests
        .push(format!("{name}?{}", query.unwrap_or_default()));
    let authorization = headers
        .get("authorization")
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    seen.authorizations.push(authorization);
    if !seen.failures.is_empty() {
        let (status, body) = seen.failures.remove(0);
        return (StatusCode::from_u16(status).unwrap(), body).into_response();
    }
    let body = match name.as_str() {
        "domain-rating" => r#"{"domain_rating":{"domain_rating":47.0,"ahrefs_rank":120345}}"#,
        "backlinks-stats" => {
            r#"{"metrics":{"live":1234,"all_time":5000,"live_refdomains":56,"all_time_refdomains":90}}"#
        }
        "organic-keywords" => {
            r#"{"keywords":[
            {"keyword":"payback","best_position":3,"best_position_url":"https://shop.example/","volume":1900},
            {"keyword":"cac calculator","best_position":11,"best_position_url":"https://shop.example/cac","volume":320}]}"#
        }
        _ => return (StatusCode::NOT_FOUND, r#"{"error":"Not found"}"#).into_response(),
    };
    body.into_response()
}

async fn serve(state: Shared) -> String {
    let router = Router::new()
        .route("/v3/site-explorer/{name}", get(endpoint))
        .with_state(state);
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

fn source(origin: &str) -> SeoBSource {
    let mut config = SeoBConfig::new(KEY.into(), DOMAIN.into());
    origin.clone_into(&mut config.api_base_url);
    config.retry = RetryPolicy {
        retries: 2,
        base_delay: Duration::from_millis(1),
    };
    SeoBSource::new(http(), config)
}

fn window() -> SyncWindow {
    // [2026-11-14 12:00, 2026-11-21 12:00): a run on 2026-11-21.
    SyncWindow {
        from: Timestamp::from_millis(1_794_657_600_000),
        to: Timestamp::from_millis(1_795_262_400_000),
    }
}

#[tokio::test]
async fn a_run_reads_the_three_endpoints_of_the_run_day() {
    let state = Shared::default();
    let origin = serve(state.clone()).await;
    let output = SeoBConfig::read(&source(&origin), window()).await.unwrap();
    let seen: Vec<(&str, &str, f64, Option<&str>)> = output
        .snapshots
        .iter()
        .map(|s| {
            assert_eq!(s.day, "2026-11-21", "{s:?}");
            (
                s.metric.as_str(),
                s.dimension.as_str(),
                s.value,
                s.detail.as_deref(),
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            ("domain_rating", "", 47.0, None),
            ("backlinks", "", 1_234.0, None),
            ("referring_domains", "", 56.0, None),
            (
                "keyword_position",
                "payback",
                3.0,
                Some("https://shop.example/")
            ),
            ("keyword_volume", "payback", 1_900.0, None),
            (
                "keyword_position",
                "cac calculator",
                11.0,
                Some("https://shop.example/cac")
            ),
            ("keyword_volume", "cac calculator", 320.0, None),
        ]
    );
    assert!(
        output.detail.contains("Domain Rating 47"),
        "{}",
        output.detail
    );
    let seen = state.lock().unwrap();
    assert_eq!(
        seen.requests,
        [
            "domain-rating?target=shop.example&date=2026-11-21".to_owned(),
            "backlinks-stats?target=shop.example&date=2026-11-21&mode=subdomains".to_owned(),
            "organic-keywords?target=shop.example&date=2026-11-21&mode=subdomains&country=us\
             &select=keyword%2Cbest_position%2Cbest_position_url%2Cvolume\
             &order_by=sum_traffic%3Adesc&limit=100"
                .to_owned(),
        ]
    );
    for authorization in &seen.authorizations {
        assert_eq!(authorization, &format!("Bearer {KEY}"));
    }
}

#[tokio::test]
async fn test_reads_the_domain_rating_once() {
    let state = Shared::default();
    let origin = serve(state.clone()).await;
    let line = source(&origin).test().await.unwrap();
    assert_eq!(line, "Ahrefs key reads shop.example: Domain Rating 47");
    let requests = state.lock().unwrap().requests.clone();
    assert_eq!(requests.len(), 1);
    assert!(requests[0].starts_with("domain-rating?target=shop.example&date="));
}

#[tokio::test]
async fn a_refused_key_is_ahrefs_error_and_never_the_key() {
    let state = Shared::default();
    let origin = serve(state.clone()).await;
    // Ahrefs echoing the key in its error must not carry it further.
    state
        .lock()
        .unwrap()
        .failures
        .push((401, format!(r#"{{"error":"Invalid API key {KEY}"}}"#)));
    let err = source(&origin).test().await.unwrap_err();
    let ConnectorError::Unauthorized(message) = &err else {
        panic!("{err}");
    };
    assert_eq!(message, "Invalid API key [redacted]");
    assert!(!format!("{err} {err:?}").contains(KEY));
    // A key without API access: 403, refused the same way.
    state
        .lock()
        .unwrap()
        .failures
        .push((403, r#"{"error":"Forbidden"}"#.to_owned()));
    let err = source(&origin).test().await.unwrap_err();
    assert!(
        matches!(&err, ConnectorError::Unauthorized(m) if m == "Forbidden"),
        "{err}"
    );
    // Any other refusal is the vendor's, with its text.
    state
        .lock()
        .unwrap()
        .failures
        .push((400, r#"{"error":"Invalid target"}"#.to_owned()));
    let err = source(&origin).test().await.unwrap_err();
    assert!(matches!(err, ConnectorError::Vendor(_)), "{err}");
    assert!(
        err.to_string()
            .contains("400 on site-explorer/domain-rating: Invalid target"),
        "{err}"
    );
}

#[tokio::test]
async fn throttles_and_server_errors_are_retried() {
    let state = Shared::default();
    let origin = serve(state.clone()).await;
    state.lock().unwrap().failures.extend([
        (429, r#"{"error":"Too many requests"}"#.to_owned()),
        (502, String::new()),
    ]);
    let source = source(&origin);
    assert!(source.test().await.is_ok());
    assert_eq!(state.lock().unwrap().requests.len(), 3);

    state
        .lock()
        .unwrap()
        .failures
        .extend(vec![(500, r#"{"error":"Internal error"}"#.to_owned()); 3]);
    let err = source.test().await.unwrap_err();
    assert!(matches!(err, ConnectorError::Vendor(_)), "{err}");
    assert!(err.to_string().contains("500"), "{err}");
    state.lock().unwrap().failures.extend(vec![
        (429, r#"{"error":"Too many requests"}"#.to_owned());
        3
    ]);
    let err = source.test().await.unwrap_err();
    assert!(matches!(err, ConnectorError::RateLimited(_)), "{err}");
    assert!(err.to_string().contains("Too many requests"), "{err}");
}

#[tokio::test]
async fn an_unreachable_ahrefs_never_shows_the_key() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let origin = format!("http://{}", listener.local_addr().unwrap());
    drop(listener);
    let err = source(&origin).test().await.unwrap_err();
    assert!(matches!(err, ConnectorError::Unreachable(_)), "{err}");
    assert!(!format!("{err} {err:?}").contains(KEY), "{err}");
    let mut blank = SeoBConfig::new("  ".into(), DOMAIN.into());
    blank.api_base_url = origin;
    let err = SeoBSource::new(http(), blank).test().await.unwrap_err();
    assert!(matches!(err, ConnectorError::Config(_)), "{err}");
}
