//! PostHog's documented shapes: the query API's `{results, columns, types, hasMore}` (rows as
//! arrays in the order of `columns`; `hasMore` true when the statement's `LIMIT` cut rows off),
//! the project, the session recordings page, and error bodies `{type, code, detail, attr}`.
//!
//! The recordings page is read in both shapes PostHog has: the API reference's paginated list
//! `{count, next, previous, results}` (posthog.com/docs/api/session-recordings, `limit` and
//! `offset` parameters) and what PostHog's server answers, `{results, has_next, version}`
//! (`list_recordings_response` in PostHog's `session_recording_api.py`), which has no `next`
//! URL: there the next page is the same request at `offset` plus the rows read.

use serde::Deserialize;
use serde_json::Value;

/// A HogQL query's answer.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct QueryAnswer {
    #[serde(default)]
    pub results: Vec<Vec<Value>>,
    #[serde(default)]
    pub columns: Vec<String>,
    /// More rows past this page's `LIMIT` (null or absent: none).
    #[serde(rename = "hasMore", default)]
    pub has_more: Option<bool>,
}

impl QueryAnswer {
    /// The position of `column` in each row.
    pub(crate) fn column(&self, column: &str) -> Option<usize> {
        self.columns.iter().position(|name| name == column)
    }
}

/// `GET /api/projects/{id}/`.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct Project {
    #[serde(default)]
    pub name: Option<String>,
}

/// One page of `GET /api/projects/{id}/session_recordings`.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct RecordingsPage {
    #[serde(default)]
    pub results: Vec<Recording>,
    /// The documented next page's URL (null on the last page).
    #[serde(default)]
    pub next: Option<String>,
    /// The server's flag for a further page when it sends no `next`.
    #[serde(default)]
    pub has_next: Option<bool>,
}

/// One recording, with the fields a playback pointer needs.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct Recording {
    pub id: String,
    #[serde(default)]
    pub start_time: Option<String>,
    #[serde(default)]
    pub recording_duration: Option<i64>,
    #[serde(default)]
    pub start_url: Option<String>,
    #[serde(default)]
    pub console_error_count: Option<i64>,
}

/// A cell as text (a string, or a number written out).
pub(crate) fn text(cell: &Value) -> Option<String> {
    match cell {
        Value::String(text) => Some(text.clone()),
        Value::Number(number) => Some(number.to_string()),
        _ => None,
    }
}

/// A cell as a count.
pub(crate) fn count(cell: &Value) -> Option<i64> {
    match cell {
        Value::Number(number) => number.as_i64(),
        Value::String(text) => text.trim().parse().ok(),
        _ => None,
    }
}

/// An error body's `detail` (PostHog's), or a short text body.
pub(crate) fn error_text(body: &[u8]) -> Option<String> {
    if let Ok(value) = serde_json::from_slice::<Value>(body) {
        for field in ["detail", "message", "error"] {
            if let Some(text) = value.get(field).and_then(Value::as_str) {
                return Some(text.to_owned());
            }
        }
    }
    let text = String::from_utf8_lossy(body).trim().to_owned();
    (!text.is_empty() && text.len() <= 300).then_some(text)
}
