//! A loopback fake of PostHog's API, written from PostHog's API documentation
//! (posthog.com/docs/api), not from Payback's connector.
//!
//! One server on `127.0.0.1:0` answers, with `Authorization: Bearer <personal key>`:
//! - `GET /api/projects/{id}/`: `{id, name}`;
//! - `POST /api/projects/{id}/query/` with `{"query": {"kind": "HogQLQuery", "query": ...}}`:
//!   `{results: [[...]], columns: [...], types, hasMore, limit, offset}` (`hogql.rs` evaluates
//!   the four statement shapes Payback sends, over the seeded sessions and events, and answers
//!   400 `validation_error` to anything else). As documented (posthog.com/docs/api/queries), a
//!   statement without its own `LIMIT` gets 100 rows, and a `LIMIT` gets at most 50,000
//!   (lower with [`FakePostHog::cap_query_rows`]); `hasMore` says rows were cut off;
//! - `GET /api/projects/{id}/session_recordings?date_from&date_to&limit&offset`, newest first,
//!   as the API reference documents it, `{count, next, previous, results}` with `next` the
//!   following page's full URL or null, or, after [`FakePostHog::list_recordings_as_the_server_does`],
//!   as PostHog's server answers it, `{results, has_next, version}` with no URL;
//!
//! and errors `{type, code, detail, attr}`: 401 `authentication_failed` for an unknown or
//! deleted key, 403 `permission_denied` for a key without access to the project, 404 for an
//! unknown project, and 429 `throttled` with `Retry-After` when a test schedules it
//! ([`FakePostHog::throttle_next`]).

mod hogql;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use payback_domain::Timestamp;
use serde_json::{Value, json};

use super::loopback::LoopbackServer;
pub use super::recorder::RecordedRequest;
use super::recorder::RequestLog;
use super::{lock, recorder};

/// One session, as the `sessions` table holds it.
#[derive(Debug, Clone)]
pub struct Session {
    pub id: String,
    pub started_at: Timestamp,
    /// `$entry_pathname`.
    pub entry_path: String,
}

/// One event, as the `events` table holds it.
#[derive(Debug, Clone)]
pub struct Event {
    pub event: String,
    pub at: Timestamp,
    /// `properties.$pathname`.
    pub pathname: Option<String>,
    /// `$session_id`.
    pub session_id: Option<String>,
}

/// One recording, as `session_recordings` lists it.
#[derive(Debug, Clone)]
pub struct Recording {
    pub id: String,
    pub start_time: Timestamp,
    pub recording_duration: i64,
    pub start_url: String,
    pub console_error_count: i64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Access {
    Granted,
    Denied,
    Revoked,
}

/// The documented default rows of a statement without `LIMIT`, and the most a `LIMIT` gets.
const DEFAULT_QUERY_ROWS: usize = 100;
const MAX_QUERY_ROWS: usize = 50_000;

/// A throttle a test scheduled: the next `times` requests whose path contains `path` answer 429
/// with `Retry-After: retry_after`.
#[derive(Debug, Clone)]
struct Throttle {
    path: String,
    times: u32,
    retry_after: u64,
}

#[derive(Debug, Default)]
pub(crate) struct FakeState {
    keys: HashMap<String, Access>,
    projects: HashMap<String, String>,
    sessions: Vec<Session>,
    events: Vec<Event>,
    recordings: Vec<Recording>,
    /// The most rows one query answers, below the documented maximum (`None`: 50,000).
    query_row_cap: Option<usize>,
    /// Recordings listed as the server answers them (`has_next`) rather than as documented.
    server_shaped_recordings: bool,
    throttles: Vec<Throttle>,
    log: RequestLog,
}

type Shared = Arc<Mutex<FakeState>>;

/// The running fake; the server stops when this is dropped.
pub struct FakePostHog {
    server: LoopbackServer,
    shared: Shared,
}

impl std::fmt::Debug for FakePostHog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.server.describe("FakePostHog", f)
    }
}

impl FakePostHog {
    pub async fn spawn() -> Self {
        let shared: Shared = Arc::new(Mutex::new(FakeState::default()));
        let app = recorder::recording(Router::new().fallback(dispatch), shared.clone());
        Self {
            server: LoopbackServer::spawn("PostHog", app).await,
            shared,
        }
    }

    fn state(&self) -> MutexGuard<'_, FakeState> {
        lock(&self.shared)
    }

    /// `http://127.0.0.1:PORT`, the fake's `https://us.posthog.com`.
    pub fn base_url(&self) -> String {
        self.server.origin().to_owned()
    }

    /// A project (every seeded row belongs to every project: tests use one).
    pub fn add_project(&self, id: &str, name: &str) {
        self.state().projects.insert(id.to_owned(), name.to_owned());
    }

    /// A live personal key with access.
    pub fn add_key(&self, key: &str) {
        self.state().keys.insert(key.to_owned(), Access::Granted);
    }

    /// A live key without access to the project (403).
    pub fn add_key_without_access(&self, key: &str) {
        self.state().keys.insert(key.to_owned(), Access::Denied);
    }

    /// The owner deletes the key: 401.
    pub fn revoke(&self, key: &str) {
        self.state().keys.insert(key.to_owned(), Access::Revoked);
    }

    pub fn add_session(&self, session: Session) {
        self.state().sessions.push(session);
    }

    pub fn add_event(&self, event: Event) {
        self.state().events.push(event);
    }

    pub fn add_recording(&self, recording: Recording) {
        self.state().recordings.push(recording);
    }

    /// One query answers at most `rows` rows, however large its `LIMIT` (PostHog clamps a
    /// `LIMIT` to its maximum the same way): a run must page to read more.
    pub fn cap_query_rows(&self, rows: usize) {
        self.state().query_row_cap = Some(rows.max(1));
    }

    /// The recordings list answers as PostHog's server does: `{results, has_next, version}`,
    /// the next page asked by `offset`, no `next` URL.
    pub fn list_recordings_as_the_server_does(&self) {
        self.state().server_shaped_recordings = true;
    }

    /// The next `times` requests whose path contains `path_contains` answer 429 `throttled`
    /// with `Retry-After: retry_after_secs`.
    pub fn throttle_next(&self, path_contains: &str, times: u32, retry_after_secs: u64) {
        self.state().throttles.push(Throttle {
            path: path_contains.to_owned(),
            times,
            retry_after: retry_after_secs,
        });
    }

    /// Every request received, in order.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.state().log.all()
    }

    /// The requests whose path contains `path_contains`.
    pub fn requests_to(&self, path_contains: &str) -> Vec<RecordedRequest> {
        self.state().log.to(path_contains)
    }
}

impl recorder::Recorded for FakeState {
    const BODY_LIMIT: usize = 256 * 1024;

    fn log(&mut self) -> &mut RequestLog {
        &mut self.log
    }

    fn scheduled_answer(&mut self, request: &RecordedRequest) -> Option<Response> {
        let throttle = self
            .throttles
            .iter_mut()
            .find(|throttle| throttle.times > 0 && request.path.contains(&throttle.path))?;
        throttle.times -= 1;
        let wait = throttle.retry_after;
        let body = json!({
            "type": "throttled_error",
            "code": "throttled",
            "detail": format!("Request was throttled. Expected available in {wait} seconds."),
            "attr": null,
        });
        Some(
            (
                StatusCode::TOO_MANY_REQUESTS,
                [("retry-after", wait.to_string())],
                axum::Json(body),
            )
                .into_response(),
        )
    }
}

fn error(status: StatusCode, kind: &str, code: &str, detail: &str) -> Response {
    (
        status,
        axum::Json(json!({ "type": kind, "code": code, "detail": detail, "attr": null })),
    )
        .into_response()
}

async fn dispatch(
    State(shared): State<Shared>,
    method: Method,
    headers: HeaderMap,
    uri: Uri,
    body: Bytes,
) -> Response {
    let origin = headers
        .get("host")
        .and_then(|value| value.to_str().ok())
        .map(|host| format!("http://{host}"))
        .unwrap_or_default();
    let key = headers
        .get("authorization")
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.strip_prefix("Bearer "))
        .unwrap_or_default()
        .trim()
        .to_owned();
    let state = lock(&shared);
    match state.keys.get(&key) {
        Some(Access::Granted) => {}
        Some(Access::Denied) => {
            return error(
                StatusCode::FORBIDDEN,
                "authentication_error",
                "permission_denied",
                "You do not have permission to perform this action.",
            );
        }
        _ => {
            return error(
                StatusCode::UNAUTHORIZED,
                "authentication_error",
                "authentication_failed",
                "Personal API key is invalid.",
            );
        }
    }
    let path = uri.path();
    let Some(rest) = path.strip_prefix("/api/projects/") else {
        return error(
            StatusCode::NOT_FOUND,
            "invalid_request",
            "not_found",
            "Not found.",
        );
    };
    let (project, tail) = rest.split_once('/').unwrap_or((rest, ""));
    let Some(name) = state.projects.get(project) else {
        return error(
            StatusCode::NOT_FOUND,
            "invalid_request",
            "not_found",
            "Not found.",
        );
    };
    match (method, tail) {
        (Method::GET, "") => (
            StatusCode::OK,
            axum::Json(json!({ "id": project.parse::<i64>().unwrap_or(0), "name": name })),
        )
            .into_response(),
        (Method::POST, "query/") => {
            let request: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
            let query = request["query"]["query"].as_str().unwrap_or_default();
            if request["query"]["kind"] != "HogQLQuery" {
                return error(
                    StatusCode::BAD_REQUEST,
                    "validation_error",
                    "invalid_input",
                    "query.kind must be HogQLQuery",
                );
            }
            match hogql::run(query, &state.sessions, &state.events) {
                Some((columns, results)) => {
                    let (limit, offset) = hogql::limit_and_offset(query);
                    let cap = state.query_row_cap.unwrap_or(MAX_QUERY_ROWS);
                    let limit = limit.unwrap_or(DEFAULT_QUERY_ROWS).min(cap);
                    let has_more = offset + limit < results.len();
                    let page: Vec<Value> = results
                        .into_iter()
                        .skip(offset)
                        .take(limit)
                        .map(Value::from)
                        .collect();
                    (
                        StatusCode::OK,
                        axum::Json(json!({
                            "columns": columns,
                            "results": page,
                            "types": [],
                            "hasMore": has_more,
                            "limit": limit,
                            "offset": offset,
                            "hogql": query,
                        })),
                    )
                        .into_response()
                }
                None => error(
                    StatusCode::BAD_REQUEST,
                    "validation_error",
                    "query_error",
                    "The fake does not know this query",
                ),
            }
        }
        (Method::GET, "session_recordings" | "session_recordings/") => recordings(
            &state.recordings,
            &origin,
            path,
            uri.query().unwrap_or(""),
            state.server_shaped_recordings,
        ),
        _ => error(
            StatusCode::NOT_FOUND,
            "invalid_request",
            "not_found",
            "Not found.",
        ),
    }
}

fn recordings(
    all: &[Recording],
    origin: &str,
    path: &str,
    query: &str,
    server_shaped: bool,
) -> Response {
    let params = super::form::form_pairs(query);
    let param = |name: &str| {
        params
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.clone())
    };
    let from = param("date_from").and_then(|text| Timestamp::parse_rfc3339(&text));
    let to = param("date_to").and_then(|text| Timestamp::parse_rfc3339(&text));
    let limit: usize = param("limit")
        .and_then(|text| text.parse().ok())
        .unwrap_or(50);
    let offset: usize = param("offset")
        .and_then(|text| text.parse().ok())
        .unwrap_or(0);
    let mut matching: Vec<&Recording> = all
        .iter()
        .filter(|recording| from.is_none_or(|from| recording.start_time >= from))
        .filter(|recording| to.is_none_or(|to| recording.start_time < to))
        .collect();
    matching.sort_by_key(|recording| std::cmp::Reverse(recording.start_time));
    let page: Vec<Value> = matching
        .iter()
        .skip(offset)
        .take(limit)
        .map(|recording| {
            json!({
                "id": recording.id,
                "distinct_id": "person-1",
                "viewed": false,
                "recording_duration": recording.recording_duration,
                "start_time": recording.start_time.to_rfc3339(),
                "end_time": recording.start_time.plus_millis(recording.recording_duration * 1000).to_rfc3339(),
                "click_count": 3,
                "console_error_count": recording.console_error_count,
                "start_url": recording.start_url,
            })
        })
        .collect();
    let more = offset + limit < matching.len();
    if server_shaped {
        return (
            StatusCode::OK,
            axum::Json(json!({ "results": page, "has_next": more, "version": 4 })),
        )
            .into_response();
    }
    let next = more.then(|| {
        let mut pairs: Vec<(String, String)> = params
            .iter()
            .filter(|(key, _)| key != "offset")
            .cloned()
            .collect();
        pairs.push(("offset".to_owned(), (offset + limit).to_string()));
        let mut url = reqwest::Url::parse(&format!("{origin}{path}")).expect("the fake's own URL");
        url.query_pairs_mut().extend_pairs(pairs);
        url.to_string()
    });
    (
        StatusCode::OK,
        axum::Json(json!({
            "count": matching.len(),
            "next": next,
            "previous": null,
            "results": page,
        })),
    )
        .into_response()
}
