//! The connection against a small X stand-in on loopback: the requests as they go over the
//! wire (paths, fields, `start_time`, the bearer header), paging by `next_token`, a 429 waited
//! out until `x-rate-limit-reset` or, when the reset is too far, an error naming the rate limit,
//! refusals carrying X's `detail`, and the token never in an error.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::extract::{RawQuery, State};
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use payback_domain::{Clock, SystemClock, Timestamp};
use serde_json::json;

use super::*;
use crate::api_source::ApiConfig;
use crate::{Source, SyncWindow};

const TOKEN: &str = "AAAAAAAAAAAAAAAAAAAAAloopback-bearer-0123456789";
const USER_ID: &str = "2244994945";

/// What the stand-in saw and how it answers.
#[derive(Debug, Default)]
struct Seen {
    /// `path?query` of every request, in order.
    requests: Vec<String>,
    /// The `Authorization` header of every request.
    authorizations: Vec<String>,
    /// Answer the next requests with these (status, reset seconds from now, body) first.
    failures: Vec<(u16, Option<i64>, String)>,
}

type Shared = Arc<Mutex<Seen>>;

fn now_seconds() -> i64 {
    SystemClock.now().millis() / 1000
}

async fn answer(
    State(state): State<Shared>,
    uri: Uri,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
) -> Response {
    let query = query.unwrap_or_default();
    let mut seen = state.lock().unwrap();
    seen.requests.push(format!("{}?{query}", uri.path()));
    seen.authorizations.push(
        headers
            .get("authorization")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned(),
    );
    if !seen.failures.is_empty() {
        let (status, reset, body) = seen.failures.remove(0);
        let mut response = (StatusCode::from_u16(status).unwrap(), body).into_response();
        if let Some(reset) = reset {
            let value = (now_seconds() + reset).to_string();
            response
                .headers_mut()
                .insert("x-rate-limit-reset", value.parse().unwrap());
        }
        return response;
    }
    let body = match uri.path() {
        "/2/users/by/username/shop" => json!({"data": {"id": USER_ID, "name": "Shop",
            "username": "shop", "public_metrics": {"followers_count": 1234, "following_count": 5,
            "tweet_count": 3, "listed_count": 0, "like_count": 0}}}),
        "/2/users/by/username/nobody" => json!({"errors": [{"value": "nobody",
            "detail": "Could not find user with username: [nobody].", "title": "Not Found Error",
            "resource_type": "user", "parameter": "username", "resource_id": "nobody",
            "type": "https://api.twitter.com/2/problems/resource-not-found"}]}),
        path if path == format!("/2/users/{USER_ID}/tweets") => {
            if query.contains("pagination_token=page2") {
                json!({"data": [
                    {"id": "101", "text": "first", "created_at": "2026-11-19T09:00:00.000Z",
                     "public_metrics": {"retweet_count": 1, "reply_count": 1, "like_count": 5,
                     "quote_count": 0, "bookmark_count": 2, "impression_count": 300}},
                    {"id": "100", "text": "too old", "created_at": "2026-11-18T23:00:00.000Z",
                     "public_metrics": {"retweet_count": 9, "reply_count": 9, "like_count": 9,
                     "quote_count": 9, "bookmark_count": 9, "impression_count": 9000}}],
                    "meta": {"result_count": 2, "newest_id": "101", "oldest_id": "100"}})
            } else {
                json!({"data": [
                    {"id": "103", "text": "third", "created_at": "2026-11-20T18:30:00.000Z",
                     "public_metrics": {"retweet_count": 2, "reply_count": 3, "like_count": 10,
                     "quote_count": 1, "bookmark_count": 0, "impression_count": 1000}},
                    {"id": "102", "text": "second", "created_at": "2026-11-20T08:00:00.000Z",
                     "public_metrics": {"retweet_count": 0, "reply_count": 0, "like_count": 4,
                     "quote_count": 0, "bookmark_count": 0, "impression_count": 200}}],
                    "meta": {"result_count": 2, "newest_id": "103", "oldest_id": "102",
                     "next_token": "page2"}})
            }
        }
        _ => {
            return (
                StatusCode::NOT_FOUND,
                json!({"title": "Not Found", "type": "about:blank", "status": 404,
                       "detail": "Not Found"})
                .to_string(),
            )
                .into_response();
        }
    };
    body.to_string().into_response()
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

fn config(origin: &str) -> SocialBConfig {
    let mut config = SocialBConfig::new(TOKEN.into(), "shop".into());
    origin.clone_into(&mut config.api_base_url);
    config.retry = RetryPolicy {
        retries: 2,
        base_delay: Duration::from_millis(1),
    };
    config.rate_limit_wait = RateLimitWait(Duration::from_secs(3));
    config
}

fn window() -> SyncWindow {
    // [2026-11-19, 2026-11-21): the days 19 and 20.
    SyncWindow {
        from: Timestamp::from_millis(1_795_046_400_000),
        to: Timestamp::from_millis(1_795_219_200_000),
    }
}

fn limited() -> String {
    json!({"title": "Too Many Requests", "detail": "Too Many Requests", "type": "about:blank",
           "status": 429})
    .to_string()
}

#[tokio::test]
async fn a_read_pages_the_timeline_and_sums_the_windows_posts_by_day() {
    let state = Shared::default();
    let origin = serve(state.clone()).await;
    let source = SocialBSource::new(http(), config(&origin));
    let output = SocialBConfig::read(&source, window()).await.unwrap();
    let value = |day: &str, metric: &str, dimension: &str| {
        output
            .snapshots
            .iter()
            .find(|s| s.day == day && s.metric == metric && s.dimension == dimension)
            .map(|s| s.value)
    };
    assert_eq!(
        value("2026-11-20", "social_impressions", "x"),
        Some(1_200.0)
    );
    assert_eq!(value("2026-11-20", "social_engagement", "x"), Some(20.0));
    assert_eq!(value("2026-11-20", "social_engagement", ""), Some(20.0));
    assert_eq!(value("2026-11-19", "social_impressions", "x"), Some(300.0));
    assert_eq!(value("2026-11-19", "social_engagement", "x"), Some(7.0));
    assert_eq!(value("2026-11-20", "social_followers", "x"), Some(1_234.0));
    assert_eq!(value("2026-11-18", "social_impressions", "x"), None);
    let ids: Vec<&str> = output.posts.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids, ["103", "102", "101"]);
    assert!(output.posts.iter().all(|p| p.network == "x"));
    assert!(
        output.detail.contains("1 outside the window"),
        "{}",
        output.detail
    );

    let seen = state.lock().unwrap();
    assert_eq!(
        seen.requests,
        [
            "/2/users/by/username/shop?user.fields=public_metrics".to_owned(),
            format!(
                "/2/users/{USER_ID}/tweets?tweet.fields=public_metrics%2Ccreated_at\
                 &max_results=100&start_time=2026-11-19T00%3A00%3A00Z"
            ),
            format!(
                "/2/users/{USER_ID}/tweets?tweet.fields=public_metrics%2Ccreated_at\
                 &max_results=100&start_time=2026-11-19T00%3A00%3A00Z&pagination_token=page2"
            ),
        ]
    );
    assert!(
        seen.authorizations
            .iter()
            .all(|a| *a == format!("Bearer {TOKEN}"))
    );
}

#[tokio::test]
async fn a_rate_limit_resetting_soon_is_waited_out() {
    let state = Shared::default();
    let origin = serve(state.clone()).await;
    state
        .lock()
        .unwrap()
        .failures
        .push((429, Some(1), limited()));
    let source = SocialBSource::new(http(), config(&origin));
    let line = source.test().await.unwrap();
    assert!(line.contains("@shop (id 2244994945)"), "{line}");
    assert!(line.contains("1234 followers"), "{line}");
    assert_eq!(state.lock().unwrap().requests.len(), 2);
}

#[tokio::test]
async fn a_rate_limit_resetting_too_late_ends_the_run_naming_it() {
    let state = Shared::default();
    let origin = serve(state.clone()).await;
    let source = SocialBSource::new(http(), config(&origin));
    state
        .lock()
        .unwrap()
        .failures
        .push((429, Some(900), limited()));
    let err = SocialBConfig::read(&source, window()).await.unwrap_err();
    let ConnectorError::RateLimited(message) = &err else {
        panic!("{err}");
    };
    assert!(message.contains("X API rate limit"), "{message}");
    assert!(message.contains("a run waits at most 3 s"), "{message}");
    assert_eq!(state.lock().unwrap().requests.len(), 1);
    // Without a reset to wait for, it ends at once too.
    state.lock().unwrap().failures.push((429, None, limited()));
    let err = source.test().await.unwrap_err();
    assert!(err.to_string().contains("no x-rate-limit-reset"), "{err}");
}

#[tokio::test]
async fn refusals_carry_xs_detail_and_never_the_token() {
    let state = Shared::default();
    let origin = serve(state.clone()).await;
    // X echoing the token must not carry it further.
    state.lock().unwrap().failures.push((
        401,
        None,
        json!({"title": "Unauthorized", "type": "about:blank", "status": 401,
               "detail": format!("Unauthorized {TOKEN}")})
        .to_string(),
    ));
    let err = find_account(&http(), &origin, TOKEN, "shop")
        .await
        .unwrap_err();
    let ConnectorError::Unauthorized(message) = &err else {
        panic!("{err}");
    };
    assert_eq!(message, "Unauthorized [redacted]");
    assert!(!format!("{err} {err:?}").contains(TOKEN));

    let missing = find_account(&http(), &origin, TOKEN, "@nobody")
        .await
        .unwrap_err();
    let ConnectorError::Config(message) = &missing else {
        panic!("{missing}");
    };
    assert_eq!(
        message,
        "username: Could not find user with username: [nobody]."
    );

    // Server errors are retried, then reported with their status.
    let source = SocialBSource::new(http(), config(&origin));
    state
        .lock()
        .unwrap()
        .failures
        .push((503, None, String::new()));
    assert!(source.test().await.is_ok());
    state
        .lock()
        .unwrap()
        .failures
        .extend(vec![(503, None, String::new()); 3]);
    let err = source.test().await.unwrap_err();
    assert!(matches!(err, ConnectorError::Vendor(_)), "{err}");
    assert!(err.to_string().contains("503"), "{err}");
}

#[tokio::test]
async fn an_unreachable_x_never_shows_the_token() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let origin = format!("http://{}", listener.local_addr().unwrap());
    drop(listener);
    let err = find_account(&http(), &origin, TOKEN, "shop")
        .await
        .unwrap_err();
    assert!(matches!(err, ConnectorError::Unreachable(_)), "{err}");
    assert!(!format!("{err} {err:?}").contains(TOKEN), "{err}");
    let bad = find_account(&http(), &origin, TOKEN, "not a handle")
        .await
        .unwrap_err();
    assert!(matches!(bad, ConnectorError::Config(_)), "{bad}");
}
