//! The connection against a small Bing stand-in on loopback: the requests as they go over the
//! wire (path, `siteUrl` encoded, the key), retries of throttles and server errors, a refused
//! key as Bing's message, and the key never in an error.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use payback_domain::Timestamp;

use super::*;
use crate::api_source::ApiConfig;
use crate::{Source, SyncWindow};

const KEY: &str = "bing-loopback-key-0123456789";
const SITE: &str = "https://shop.example/";

/// What the stand-in saw and how it answers.
#[derive(Debug, Default)]
struct Seen {
    /// `path?query` of every request, in order.
    requests: Vec<String>,
    /// Answer the next requests with these (status, body), first first.
    failures: Vec<(u16, String)>,
}

type Shared = Arc<Mutex<Seen>>;

async fn method(
    State(state): State<Shared>,
    Path(name): Path<String>,
    RawQuery(query): RawQuery,
) -> Response {
    let mut seen = state.lock().unwrap();
    seen.requests
        .push(format!("{name}?{}", query.unwrap_or_default()));
    if !seen.failures.is_empty() {
        let (status, body) = seen.failures.remove(0);
        return (StatusCode::from_u16(status).unwrap(), body).into_response();
    }
    let body = match name.as_str() {
        "GetUserSites" => {
            r#"{"d":[{"__type":"Site:#Microsoft.Bing.Webmaster.Api","IsVerified":true,
            "Url":"https:\/\/shop.example\/"}]}"#
        }
        // 2026-11-19 and 2026-11-20 at midnight Pacific, and one older week.
        "GetQueryStats" => {
            r#"{"d":[
            {"Clicks":3,"Date":"\/Date(1795075200000-0800)\/","Impressions":40,"Query":"payback"},
            {"Clicks":5,"Date":"\/Date(1795161600000-0800)\/","Impressions":60,"Query":"payback"},
            {"Clicks":1,"Date":"\/Date(1795161600000-0800)\/","Impressions":9,"Query":"cac"},
            {"Clicks":50,"Date":"\/Date(1790000000000-0700)\/","Impressions":900,"Query":"payback"}]}"#
        }
        _ => return (StatusCode::NOT_FOUND, "no such method").into_response(),
    };
    body.into_response()
}

async fn serve(state: Shared) -> String {
    let router = Router::new()
        .route("/webmaster/api.svc/json/{name}", get(method))
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

fn config(origin: &str) -> SearchBConfig {
    let mut config = SearchBConfig::new(KEY.into(), SITE.into());
    origin.clone_into(&mut config.api_base_url);
    config.retry = RetryPolicy {
        retries: 2,
        base_delay: Duration::from_millis(1),
    };
    config
}

fn window() -> SyncWindow {
    // [2026-11-19, 2026-11-21): the days 19 and 20.
    SyncWindow {
        from: Timestamp::from_millis(1_795_046_400_000),
        to: Timestamp::from_millis(1_795_219_200_000),
    }
}

#[tokio::test]
async fn sync_reads_query_stats_of_the_site_inside_the_window() {
    let state = Shared::default();
    let origin = serve(state.clone()).await;
    let source = SearchBSource::new(http(), config(&origin));
    let output = SearchBConfig::read(&source, window()).await.unwrap();
    assert_eq!(output.snapshots.len(), 6, "{output:?}");
    let clicks: f64 = output
        .snapshots
        .iter()
        .filter(|s| s.metric == "search_clicks")
        .map(|s| s.value)
        .sum();
    assert_eq!(clicks, 9.0);
    assert!(
        output.detail.contains("1 rows of other days"),
        "{}",
        output.detail
    );
    let requests = state.lock().unwrap().requests.clone();
    assert_eq!(
        requests,
        [format!(
            "GetQueryStats?siteUrl=https%3A%2F%2Fshop.example%2F&apikey={KEY}"
        )]
    );
    assert!(!output.detail.contains(KEY));
}

#[tokio::test]
async fn test_finds_the_site_among_the_keys_sites() {
    let state = Shared::default();
    let origin = serve(state.clone()).await;
    let source = SearchBSource::new(http(), config(&origin));
    let line = source.test().await.unwrap();
    assert!(line.contains("https://shop.example/ (verified)"), "{line}");
    let mut other = config(&origin);
    other.site_url = "https://other.example/".into();
    let err = SearchBSource::new(http(), other).test().await.unwrap_err();
    assert!(matches!(err, ConnectorError::Config(_)), "{err}");
    let sites = list_sites(&http(), &origin, KEY).await.unwrap();
    assert_eq!(
        sites,
        [BingSite {
            url: SITE.into(),
            verified: true
        }]
    );
}

#[tokio::test]
async fn a_refused_key_is_bings_message_and_never_the_key() {
    let state = Shared::default();
    let origin = serve(state.clone()).await;
    // Bing echoing the key in its message must not carry it further.
    state.lock().unwrap().failures.push((
        400,
        format!(r#"{{"ErrorCode":3,"Message":"ERROR!!! InvalidApiKey {KEY}"}}"#),
    ));
    let err = list_sites(&http(), &origin, KEY).await.unwrap_err();
    let ConnectorError::Unauthorized(message) = &err else {
        panic!("{err}");
    };
    assert_eq!(message, "ERROR!!! InvalidApiKey [redacted]");
    assert!(!format!("{err} {err:?}").contains(KEY));
}

#[tokio::test]
async fn throttles_and_server_errors_are_retried() {
    let state = Shared::default();
    let origin = serve(state.clone()).await;
    state.lock().unwrap().failures.extend([
        (429, String::new()),
        (
            400,
            r#"{"ErrorCode":4,"Message":"ERROR!!! ThrottleUser"}"#.to_owned(),
        ),
    ]);
    let source = SearchBSource::new(http(), config(&origin));
    assert!(source.test().await.is_ok());
    assert_eq!(state.lock().unwrap().requests.len(), 3);

    state
        .lock()
        .unwrap()
        .failures
        .extend(vec![(503, String::new()); 3]);
    let err = source.test().await.unwrap_err();
    assert!(matches!(err, ConnectorError::Vendor(_)), "{err}");
    assert!(err.to_string().contains("503"), "{err}");
    assert!(!err.to_string().contains(KEY));
    state
        .lock()
        .unwrap()
        .failures
        .extend(vec![(429, String::new()); 3]);
    let err = source.test().await.unwrap_err();
    assert!(matches!(err, ConnectorError::RateLimited(_)), "{err}");
}

#[tokio::test]
async fn an_unreachable_bing_never_shows_the_key() {
    // A port nothing listens on: the transport error would name the URL, key included.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let origin = format!("http://{}", listener.local_addr().unwrap());
    drop(listener);
    let err = list_sites(&http(), &origin, KEY).await.unwrap_err();
    assert!(matches!(err, ConnectorError::Unreachable(_)), "{err}");
    assert!(!format!("{err} {err:?}").contains(KEY), "{err}");
    let blank = list_sites(&http(), &origin, "  ").await.unwrap_err();
    assert!(matches!(blank, ConnectorError::Config(_)), "{blank}");
}
