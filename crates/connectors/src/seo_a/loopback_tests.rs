//! The connection against a small Semrush stand-in on loopback: the requests as they go over the
//! wire (report, key, domain, database, columns, sort and limit), the CSV to snapshots, no request
//! on test, `NOTHING FOUND` as no rows, retries of rate limits and server errors, a refused key as
//! Semrush's line, and the key never in an error.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use payback_domain::Timestamp;

use super::*;
use crate::{Source, SyncWindow};

const KEY: &str = "semrush-loopback-key-0123456789";

/// What the stand-in saw and how it answers.
#[derive(Debug, Default)]
struct Seen {
    /// The query of every request, in order.
    requests: Vec<String>,
    /// Answer the next requests with these (status, body), first first.
    failures: Vec<(u16, String)>,
}

type Shared = Arc<Mutex<Seen>>;

async fn root(State(state): State<Shared>, RawQuery(query): RawQuery) -> Response {
    let query = query.unwrap_or_default();
    let mut seen = state.lock().unwrap();
    seen.requests.push(query.clone());
    if !seen.failures.is_empty() {
        let (status, body) = seen.failures.remove(0);
        return (StatusCode::from_u16(status).unwrap(), body).into_response();
    }
    if query.contains("type=domain_rank&") {
        "Rank;Organic Keywords;Organic Traffic\r\n48210;1530;9800\r\n".into_response()
    } else if query.contains("type=domain_organic&") {
        "Keyword;Position;Search Volume;Url;Traffic (%)\r\n\
         payback;3;2400;https://shop.example/;12.50\r\n\
         cac calculator;7;880;https://shop.example/cac;1.10"
            .into_response()
    } else {
        "ERROR 30 :: UNKNOWN REPORT TYPE".into_response()
    }
}

async fn serve(state: Shared) -> String {
    let router = Router::new().route("/", get(root)).with_state(state);
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

fn source(origin: &str) -> SeoASource {
    let mut config = SeoAConfig::new(KEY.into(), "shop.example".into(), Some("uk".into()));
    origin.clone_into(&mut config.api_base_url);
    config.retry = RetryPolicy {
        retries: 2,
        base_delay: Duration::from_millis(1),
    };
    SeoASource::new(http(), config)
}

/// A week ending during 2026-11-21 (UTC): the run day.
fn window() -> SyncWindow {
    SyncWindow {
        from: Timestamp::from_millis(1_795_046_400_000 - 5 * 86_400_000),
        to: Timestamp::from_millis(1_795_262_400_000),
    }
}

fn sync(source: &SeoASource) -> impl Future<Output = Result<crate::SyncOutput, ConnectorError>> {
    <SeoAConfig as crate::api_source::ApiConfig>::read(source, window())
}

#[tokio::test]
async fn a_run_reads_the_overview_and_the_top_keywords_on_the_run_day() {
    let state = Shared::default();
    let origin = serve(state.clone()).await;
    let output = sync(&source(&origin)).await.unwrap();
    let figures: Vec<(String, String, String, f64, Option<String>)> = output
        .snapshots
        .iter()
        .map(|s| {
            (
                s.day.clone(),
                s.metric.clone(),
                s.dimension.clone(),
                s.value,
                s.detail.clone(),
            )
        })
        .collect();
    let on = |metric: &str, dimension: &str, value: f64, detail: Option<&str>| {
        (
            "2026-11-21".to_owned(),
            metric.to_owned(),
            dimension.to_owned(),
            value,
            detail.map(str::to_owned),
        )
    };
    assert_eq!(
        figures,
        [
            on("domain_rank", "", 48_210.0, None),
            on("organic_keywords", "", 1_530.0, None),
            on("organic_traffic", "", 9_800.0, None),
            on(
                "keyword_position",
                "cac calculator",
                7.0,
                Some("https://shop.example/cac")
            ),
            on("keyword_volume", "cac calculator", 880.0, None),
            on(
                "keyword_position",
                "payback",
                3.0,
                Some("https://shop.example/")
            ),
            on("keyword_volume", "payback", 2_400.0, None),
        ]
    );
    let requests = state.lock().unwrap().requests.clone();
    assert_eq!(
        requests,
        [
            format!(
                "type=domain_rank&key={KEY}&domain=shop.example&database=uk&export_columns=Rk%2COr%2COt"
            ),
            format!(
                "type=domain_organic&key={KEY}&domain=shop.example&database=uk\
                 &export_columns=Ph%2CPo%2CNq%2CUr%2CTr&display_sort=tr_desc&display_limit=100"
            ),
        ]
    );
    assert!(
        output.detail.contains("2 organic keywords"),
        "{}",
        output.detail
    );
    assert!(!output.detail.contains(KEY));
}

#[tokio::test]
async fn test_never_calls_semrush() {
    let state = Shared::default();
    let origin = serve(state.clone()).await;
    let line = source(&origin).test().await.unwrap();
    assert!(line.contains("not called"), "{line}");
    assert!(
        line.contains("shop.example") && line.contains("uk"),
        "{line}"
    );
    assert!(state.lock().unwrap().requests.is_empty());
    let mut blank = source(&origin);
    blank.config.api_key = " ".into();
    let err = blank.test().await.unwrap_err();
    assert!(matches!(err, ConnectorError::Config(_)), "{err}");
}

#[tokio::test]
async fn nothing_found_is_no_rows() {
    let state = Shared::default();
    let origin = serve(state.clone()).await;
    state.lock().unwrap().failures.extend([
        (200, "ERROR 50 :: NOTHING FOUND".to_owned()),
        (200, "ERROR 50 :: NOTHING FOUND\r\n".to_owned()),
    ]);
    let output = sync(&source(&origin)).await.unwrap();
    assert!(output.snapshots.is_empty(), "{output:?}");
    assert!(output.detail.contains("no overview"), "{}", output.detail);
}

#[tokio::test]
async fn a_refused_key_is_semrushs_line_and_never_the_key() {
    let state = Shared::default();
    let origin = serve(state.clone()).await;
    // Semrush echoing the key must not carry it further; the status does not matter.
    state
        .lock()
        .unwrap()
        .failures
        .push((403, format!("ERROR 120 :: WRONG KEY - ID PAIR {KEY}")));
    let err = sync(&source(&origin)).await.unwrap_err();
    let ConnectorError::Unauthorized(message) = &err else {
        panic!("{err}");
    };
    assert_eq!(message, "ERROR 120 :: WRONG KEY - ID PAIR [redacted]");
    assert!(!format!("{err} {err:?}").contains(KEY));
    // Spent units are Semrush's error with its line, not a refused key.
    state
        .lock()
        .unwrap()
        .failures
        .push((200, "ERROR 132 :: API UNITS BALANCE IS ZERO".to_owned()));
    let err = sync(&source(&origin)).await.unwrap_err();
    assert!(matches!(err, ConnectorError::Vendor(_)), "{err}");
    assert!(
        err.to_string()
            .contains("ERROR 132 :: API UNITS BALANCE IS ZERO"),
        "{err}"
    );
}

#[tokio::test]
async fn rate_limits_and_server_errors_are_retried() {
    let state = Shared::default();
    let origin = serve(state.clone()).await;
    state
        .lock()
        .unwrap()
        .failures
        .extend([(429, String::new()), (502, String::new())]);
    let output = sync(&source(&origin)).await.unwrap();
    assert_eq!(output.snapshots.len(), 7);
    assert_eq!(state.lock().unwrap().requests.len(), 4);

    state
        .lock()
        .unwrap()
        .failures
        .extend(vec![(503, String::new()); 3]);
    let err = sync(&source(&origin)).await.unwrap_err();
    assert!(matches!(err, ConnectorError::Vendor(_)), "{err}");
    assert!(err.to_string().contains("503"), "{err}");
    state
        .lock()
        .unwrap()
        .failures
        .extend(vec![(429, String::new()); 3]);
    let err = sync(&source(&origin)).await.unwrap_err();
    assert!(matches!(err, ConnectorError::RateLimited(_)), "{err}");
    assert!(!err.to_string().contains(KEY));
}

#[tokio::test]
async fn an_unreachable_semrush_never_shows_the_key() {
    // A port nothing listens on: the transport error would name the URL, key included.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let origin = format!("http://{}", listener.local_addr().unwrap());
    drop(listener);
    let err = sync(&source(&origin)).await.unwrap_err();
    assert!(matches!(err, ConnectorError::Unreachable(_)), "{err}");
    assert!(!format!("{err} {err:?}").contains(KEY), "{err}");
}
