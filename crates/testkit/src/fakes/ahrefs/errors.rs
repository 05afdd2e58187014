//! Ahrefs' error bodies, in one place: the reference documents every error as
//! `{"error": "<text>"}`. A key Ahrefs does not know answers 401, a missing one or one whose plan
//! has no API access 403, a bad parameter 400, too many requests in a minute 429.

use axum::http::StatusCode;
use axum::http::header::CONTENT_TYPE;
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use super::state::Fail;

pub(crate) fn json_response(status: StatusCode, body: &Value) -> Response {
    (
        status,
        [(CONTENT_TYPE, "application/json")],
        body.to_string(),
    )
        .into_response()
}

pub(crate) fn error(status: StatusCode, text: &str) -> Response {
    json_response(status, &json!({ "error": text }))
}

/// An unknown or deleted key.
pub(crate) fn unauthorized() -> Response {
    error(
        StatusCode::UNAUTHORIZED,
        "Unauthorized: the API key is invalid",
    )
}

/// No `Authorization: Bearer` header.
pub(crate) fn missing_key() -> Response {
    error(StatusCode::FORBIDDEN, "Forbidden: no API key")
}

/// A plan without API access.
pub(crate) fn no_api_access() -> Response {
    error(
        StatusCode::FORBIDDEN,
        "Forbidden: API access is not included in your plan",
    )
}

/// A missing or malformed parameter.
pub(crate) fn bad_request(text: &str) -> Response {
    error(StatusCode::BAD_REQUEST, text)
}

pub(crate) fn not_found() -> Response {
    error(StatusCode::NOT_FOUND, "Not found")
}

/// The answer of a failure a test scheduled.
pub(crate) fn scheduled(fail: Fail) -> Response {
    match fail {
        Fail::TooManyRequests => error(StatusCode::TOO_MANY_REQUESTS, "Too many requests"),
        Fail::InternalError => error(StatusCode::INTERNAL_SERVER_ERROR, "Internal server error"),
    }
}
