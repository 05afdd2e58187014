//! The connection against a small SE Ranking stand-in on loopback: the requests as they go over
//! the wire (paths, the day's `from`/`to`, the `Token` header), a day without figures left out,
//! retries of rate limits and server errors, a refused key as SE Ranking's message, and the key
//! never in an error.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::extract::{RawQuery, State};
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use payback_domain::Timestamp;
use payback_domain::snapshot_metric::{
    AI_VISIBILITY, COMPETITOR_POSITION, KEYWORD_POSITION, SITE_HEALTH,
};

use super::*;
use crate::payments::RetryPolicy;
use crate::{Source, SyncWindow};

const KEY: &str = "0123456789abcdef0123456789abcdef01234567";

#[derive(Debug, Default)]
struct Seen {
    /// `path?query` of every request, in order.
    requests: Vec<String>,
    /// Answer the next requests with these (status, body), first first.
    failures: Vec<(u16, String)>,
}

type Shared = Arc<Mutex<Seen>>;

async fn answer(
    State(state): State<Shared>,
    uri: Uri,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
) -> Response {
    let mut seen = state.lock().unwrap();
    let query = query.unwrap_or_default();
    seen.requests.push(format!("{}?{query}", uri.path()));
    if !seen.failures.is_empty() {
        let (status, body) = seen.failures.remove(0);
        return (StatusCode::from_u16(status).unwrap(), body).into_response();
    }
    let token = headers
        .get("authorization")
        .and_then(|value| value.to_str().ok());
    if token != Some(&format!("Token {KEY}")) {
        return (StatusCode::FORBIDDEN, r#"{"message":"Incorrect token"}"#).into_response();
    }
    let body = match uri.path() {
        "/sites" => r#"[{"id":77,"title":"Shop","name":"https://shop.example/","is_active":1}]"#,
        "/sites/77/airt/llm" => {
            r#"[{"id":1,"base_name":"chatgpt","country_code":"us"},
                {"id":2,"base_name":"perplexity","country_code":"us"}]"#
        }
        // ChatGPT has figures on both days, Perplexity only on the 19th.
        "/sites/77/airt/llm/1/statistics" if query.contains("from=2026-11-19") => {
            r#"{"presence":{"mention_percent_in_top":40,"link_percent_in_top":5}}"#
        }
        "/sites/77/airt/llm/1/statistics" => r#"{"presence":{"mention_percent_in_top":30}}"#,
        "/sites/77/airt/llm/2/statistics" if query.contains("from=2026-11-19") => {
            r#"{"presence":{"mention_percent_in_top":"10"}}"#
        }
        "/sites/77/airt/llm/2/statistics" => r#"{"stats":{"prompts_count":0}}"#,
        "/audit/list" => r#"{"total":2,"items":[{"id":5,"title":"Blog"},{"id":6,"title":"Shop"}]}"#,
        "/audit/6/report" => r#"{"is_finished":true,"score_percent":81}"#,
        "/sites/77/positions" => {
            r#"[{"site_engine_id":1,"keywords":[{"id":3,"name":"payback","volume":390,
            "positions":[{"date":"2026-11-20","pos":4,"change":1}],
            "landing_pages":[{"date":"2026-11-20","url":"https://shop.example/"}]}]}]"#
        }
        "/competitors/site/77" => {
            r#"[{"id":901,"name":"rival.example","url":"https://rival.example/","domain_trust":4}]"#
        }
        // The project's keyword 3 by id, as SE Ranking names competitors' keywords.
        "/competitors/901/positions" => {
            r#"[{"site_engine_id":1,"keywords":[{"id":3,
            "positions":[{"date":"2026-11-20","pos":2,"change":0}]}]}]"#
        }
        _ => return (StatusCode::NOT_FOUND, r#"{"message":"Not found"}"#).into_response(),
    };
    body.into_response()
}

async fn serve(state: Shared) -> String {
    let router = Router::new().fallback(answer).with_state(state);
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

fn config(origin: &str) -> GeoAConfig {
    let mut config = GeoAConfig::new(KEY.into(), "77".into());
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

struct NoPages;

impl crate::PageSink for NoPages {
    fn write(
        &mut self,
        _events: Vec<payback_domain::event::IncomingEvent>,
    ) -> crate::SourceFuture<'_, ()> {
        Box::pin(async { Ok(()) })
    }
}

fn value(output: &crate::SyncOutput, day: &str, metric: &str, dimension: &str) -> Option<f64> {
    output
        .snapshots
        .iter()
        .find(|s| s.day == day && s.metric == metric && s.dimension == dimension)
        .map(|s| s.value)
}

#[tokio::test]
async fn a_read_asks_each_engine_for_each_day_and_keeps_the_mean() {
    let state = Shared::default();
    let origin = serve(state.clone()).await;
    let source = GeoASource::new(http(), config(&origin));
    let output = source.sync(window(), &mut NoPages).await.unwrap();
    assert_eq!(value(&output, "2026-11-19", AI_VISIBILITY, ""), Some(25.0));
    assert_eq!(value(&output, "2026-11-20", AI_VISIBILITY, ""), Some(30.0));
    assert_eq!(
        value(&output, "2026-11-20", AI_VISIBILITY, "perplexity"),
        None
    );
    assert_eq!(value(&output, "2026-11-20", SITE_HEALTH, ""), Some(81.0));
    assert_eq!(
        value(&output, "2026-11-20", KEYWORD_POSITION, "payback"),
        Some(4.0)
    );
    let gap = output
        .snapshots
        .iter()
        .find(|s| s.metric == COMPETITOR_POSITION)
        .expect("the competitor's position");
    assert_eq!(
        (gap.day.as_str(), gap.dimension.as_str(), gap.value),
        ("2026-11-20", "payback", 2.0)
    );
    assert_eq!(gap.detail.as_deref(), Some("rival.example"));
    let requests = state.lock().unwrap().requests.clone();
    assert!(
        requests
            .contains(&"/competitors/901/positions?date_from=2026-11-19&date_to=2026-11-20".into()),
        "{requests:?}"
    );
    assert!(
        requests.contains(&"/sites/77/airt/llm/2/statistics?from=2026-11-20&to=2026-11-20".into()),
        "{requests:?}"
    );
    assert!(
        requests.contains(
            &"/sites/77/positions?date_from=2026-11-19&date_to=2026-11-20&with_landing_pages=1"
                .into()
        ),
        "{requests:?}"
    );
    assert!(!output.detail.contains(KEY));
}

#[tokio::test]
async fn test_finds_the_project_and_names_an_unknown_one() {
    let state = Shared::default();
    let origin = serve(state.clone()).await;
    let line = GeoASource::new(http(), config(&origin))
        .test()
        .await
        .unwrap();
    assert!(line.contains("Shop (https://shop.example/)"), "{line}");
    let mut other = config(&origin);
    other.company_id = "78".into();
    let err = GeoASource::new(http(), other).test().await.unwrap_err();
    assert!(matches!(err, ConnectorError::Config(_)), "{err}");
    let companies = list_companies(&http(), &origin, KEY).await.unwrap();
    assert_eq!(companies[0].domain, "https://shop.example/");
}

#[tokio::test]
async fn a_refused_key_is_se_rankings_message_and_never_the_key() {
    let state = Shared::default();
    let origin = serve(state.clone()).await;
    let err = list_companies(&http(), &origin, "wrong-key")
        .await
        .unwrap_err();
    let ConnectorError::Unauthorized(message) = &err else {
        panic!("{err}");
    };
    assert_eq!(message, "Incorrect token");
    state
        .lock()
        .unwrap()
        .failures
        .push((401, format!(r#"{{"message":"Incorrect token {KEY}"}}"#)));
    let err = list_companies(&http(), &origin, KEY).await.unwrap_err();
    assert!(!format!("{err} {err:?}").contains(KEY), "{err}");
}

#[tokio::test]
async fn rate_limits_and_server_errors_are_retried() {
    let state = Shared::default();
    let origin = serve(state.clone()).await;
    let limited =
        r#"{"error":{"code":429,"message":"Too Many Requests","description":"Slow down."}}"#;
    state
        .lock()
        .unwrap()
        .failures
        .extend([(429, limited.to_owned()), (502, String::new())]);
    let source = GeoASource::new(http(), config(&origin));
    assert!(source.test().await.is_ok());
    assert_eq!(state.lock().unwrap().requests.len(), 3);
    state
        .lock()
        .unwrap()
        .failures
        .extend(vec![(429, limited.to_owned()); 3]);
    let err = source.test().await.unwrap_err();
    assert!(matches!(err, ConnectorError::RateLimited(_)), "{err}");
    assert!(err.to_string().contains("Too Many Requests"), "{err}");
}

#[tokio::test]
async fn an_unreachable_se_ranking_is_an_unreachable_error() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let origin = format!("http://{}", listener.local_addr().unwrap());
    drop(listener);
    let err = list_companies(&http(), &origin, KEY).await.unwrap_err();
    assert!(matches!(err, ConnectorError::Unreachable(_)), "{err}");
    assert!(!format!("{err} {err:?}").contains(KEY), "{err}");
    let blank = list_companies(&http(), &origin, "  ").await.unwrap_err();
    assert!(matches!(blank, ConnectorError::Config(_)), "{blank}");
}
