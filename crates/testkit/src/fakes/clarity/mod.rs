//! A loopback fake of Microsoft Clarity's Data Export API, written from Clarity's documentation
//! ("Clarity Data Export API", learn.microsoft.com), not from Payback's connector.
//!
//! One server on `127.0.0.1:0` answers `GET /export-data/api/v1/project-live-insights` with
//! `Authorization: Bearer TOKEN` (a token belongs to one project), `numOfDays` 1-3 (required)
//! and up to three `dimensionN` (`URL` among them). The answer is the documented array of
//! `{metricName, information[]}`: `Traffic` rows (`totalSessionCount`, as strings) and the
//! seeded friction metrics' rows (`sessionsCount`, `subTotal`), each row carrying its `URL`
//! when `URL` is a dimension (the documentation's example keys a row by the dimension's name as
//! asked; answers recorded from Clarity key it `Url`, which [`FakeClarity::key_urls_as_answered`]
//! switches to). Metric names are stored as seeded: the documentation lists them with spaces
//! ("Rage Click Count"), answers carry them without (`RageClickCount`); a test seeds either.
//! Errors as documented: 401 for an unknown or revoked token, 400 for
//! a missing or out-of-range `numOfDays`, and 429 once a project has had its 10 requests of the
//! UTC day (the 11th and later, failed ones included, as Clarity counts them).
//!
//! ```ignore
//! let clarity = FakeClarity::spawn().await;
//! clarity.add_token("TOKEN", "proj1");
//! clarity.add_insight("proj1", "RageClickCount", "https://shop.example/pricing?a=1", 4);
//! ```

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use super::day::Day;
use super::loopback::LoopbackServer;
pub use super::recorder::RecordedRequest;
use super::recorder::RequestLog;
use super::{lock, recorder};

/// Clarity's quota: requests per project per day.
pub const DAILY_LIMIT: u32 = 10;

const ENDPOINT: &str = "/export-data/api/v1/project-live-insights";

#[derive(Debug, Default)]
pub(crate) struct FakeState {
    /// token -> (project, revoked).
    tokens: HashMap<String, (String, bool)>,
    /// project -> (metric name, URL, subTotal).
    insights: HashMap<String, Vec<(String, String, i64)>>,
    /// (project, day) -> requests received.
    requests: HashMap<(String, String), u32>,
    /// The key of a row's URL (`URL` as documented, unless switched to `Url`).
    url_key: Option<&'static str>,
    log: RequestLog,
}

type Shared = Arc<Mutex<FakeState>>;

/// The running fake; the server stops when this is dropped.
pub struct FakeClarity {
    server: LoopbackServer,
    shared: Shared,
}

impl std::fmt::Debug for FakeClarity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.server.describe("FakeClarity", f)
    }
}

impl FakeClarity {
    pub async fn spawn() -> Self {
        let shared: Shared = Arc::new(Mutex::new(FakeState::default()));
        let app = recorder::recording(Router::new().fallback(dispatch), shared.clone());
        Self {
            server: LoopbackServer::spawn("Clarity", app).await,
            shared,
        }
    }

    fn state(&self) -> MutexGuard<'_, FakeState> {
        lock(&self.shared)
    }

    /// `http://127.0.0.1:PORT`, the fake's `https://www.clarity.ms`.
    pub fn base_url(&self) -> String {
        self.server.origin().to_owned()
    }

    /// A live token of `project`.
    pub fn add_token(&self, token: &str, project: &str) {
        self.state()
            .tokens
            .insert(token.to_owned(), (project.to_owned(), false));
    }

    /// The admin deletes the token: 401 from now on.
    pub fn revoke(&self, token: &str) {
        if let Some(entry) = self.state().tokens.get_mut(token) {
            entry.1 = true;
        }
    }

    /// One row of `metric` (`RageClickCount`, `DeadClickCount`, `ScriptErrorCount`, `Traffic`)
    /// for `url` with `sub_total`.
    pub fn add_insight(&self, project: &str, metric: &str, url: &str, sub_total: i64) {
        self.state()
            .insights
            .entry(project.to_owned())
            .or_default()
            .push((metric.to_owned(), url.to_owned(), sub_total));
    }

    /// Rows key their URL `Url`, as Clarity's answers do, rather than the documented `URL`.
    pub fn key_urls_as_answered(&self) {
        self.state().url_key = Some("Url");
    }

    /// Requests `project` made today (UTC), as Clarity counts them.
    pub fn requests_today(&self, project: &str) -> u32 {
        let today = day_text(Day::today());
        self.state()
            .requests
            .get(&(project.to_owned(), today))
            .copied()
            .unwrap_or(0)
    }

    /// Every request received, in order.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.state().log.all()
    }
}

impl recorder::Recorded for FakeState {
    const BODY_LIMIT: usize = 64 * 1024;

    fn log(&mut self) -> &mut RequestLog {
        &mut self.log
    }

    fn scheduled_answer(&mut self, _request: &RecordedRequest) -> Option<Response> {
        None
    }
}

fn day_text(day: Day) -> String {
    let (y, m, d) = day.ymd();
    format!("{y:04}-{m:02}-{d:02}")
}

fn answer(status: StatusCode, body: Value) -> Response {
    (status, axum::Json(body)).into_response()
}

async fn dispatch(State(shared): State<Shared>, headers: HeaderMap, uri: Uri) -> Response {
    if uri.path() != ENDPOINT {
        return answer(StatusCode::NOT_FOUND, json!({ "message": "Not Found" }));
    }
    let token = headers
        .get("authorization")
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.strip_prefix("Bearer "))
        .unwrap_or_default()
        .trim()
        .to_owned();
    let mut state = lock(&shared);
    let Some((project, revoked)) = state.tokens.get(&token).cloned() else {
        return answer(
            StatusCode::UNAUTHORIZED,
            json!({ "message": "Unauthorized" }),
        );
    };
    if revoked {
        return answer(
            StatusCode::UNAUTHORIZED,
            json!({ "message": "Unauthorized" }),
        );
    }
    let count = state
        .requests
        .entry((project.clone(), day_text(Day::today())))
        .or_default();
    *count += 1;
    if *count > DAILY_LIMIT {
        return answer(
            StatusCode::TOO_MANY_REQUESTS,
            json!({ "message": "Exceeded daily limit of 10 requests per project" }),
        );
    }
    let params: Vec<(String, String)> = uri.query().map(url_pairs).unwrap_or_default();
    let param = |name: &str| {
        params
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.clone())
    };
    match param("numOfDays").and_then(|days| days.parse::<u8>().ok()) {
        Some(1..=3) => {}
        _ => {
            return answer(
                StatusCode::BAD_REQUEST,
                json!({ "message": "numOfDays must be 1, 2 or 3" }),
            );
        }
    }
    let by_url = ["dimension1", "dimension2", "dimension3"]
        .iter()
        .any(|name| param(name).as_deref() == Some("URL"));
    let url_key = state.url_key.unwrap_or("URL");
    let rows = state.insights.get(&project).cloned().unwrap_or_default();
    let mut metrics: Vec<String> = Vec::new();
    for (metric, _, _) in &rows {
        if !metrics.contains(metric) {
            metrics.push(metric.clone());
        }
    }
    let body: Vec<Value> = metrics
        .iter()
        .map(|metric| {
            let information: Vec<Value> = rows
                .iter()
                .filter(|(name, _, _)| name == metric)
                .map(|(_, url, count)| {
                    let mut row = if metric == "Traffic" {
                        json!({ "totalSessionCount": count.to_string(), "totalBotSessionCount": "0" })
                    } else {
                        json!({ "sessionsCount": count.to_string(), "sessionsWithMetricPercentage": 1.5, "subTotal": count.to_string() })
                    };
                    if by_url {
                        row[url_key] = json!(url);
                    }
                    row
                })
                .collect();
            json!({ "metricName": metric, "information": information })
        })
        .collect();
    answer(StatusCode::OK, Value::Array(body))
}

/// `a=1&b=2`, percent-decoded.
fn url_pairs(query: &str) -> Vec<(String, String)> {
    super::form::form_pairs(query)
}
