//! SE Ranking's error bodies, in one place: `{"message": "..."}` with a 4xx or 5xx (the
//! "Getting started" page: a call without a key answers 403 `{"message":"No token"}`, a wrong
//! key "incorrect token"), and the rate-limits page's 429 body
//! `{"error": {"code": 429, "message": "Too Many Requests", "description": "..."}}`, sent
//! without any rate-limit header.

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

fn message(status: StatusCode, text: &str) -> Response {
    json_response(status, &json!({ "message": text }))
}

pub(crate) fn no_token() -> Response {
    message(StatusCode::FORBIDDEN, "No token")
}

pub(crate) fn incorrect_token() -> Response {
    message(StatusCode::FORBIDDEN, "Incorrect token")
}

/// A project, engine or audit the key's account does not have.
pub(crate) fn not_found(what: &str) -> Response {
    message(StatusCode::NOT_FOUND, &format!("{what} not found"))
}

/// A missing or malformed parameter.
pub(crate) fn bad_parameter(name: &str) -> Response {
    message(
        StatusCode::BAD_REQUEST,
        &format!("Parameter {name} is invalid"),
    )
}

/// The answer of a failure a test scheduled.
pub(crate) fn scheduled(fail: Fail) -> Response {
    match fail {
        Fail::TooManyRequests => json_response(
            StatusCode::TOO_MANY_REQUESTS,
            &json!({ "error": {
                "code": 429,
                "message": "Too Many Requests",
                "description": "The call-rate limit has been reached. Please reduce your request frequency."
            }}),
        ),
        Fail::InternalError => message(StatusCode::INTERNAL_SERVER_ERROR, "Internal server error"),
    }
}
