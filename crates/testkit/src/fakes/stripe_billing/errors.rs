//! Stripe's error object, `{"error": {"type", "code", "message", "param"}}`, with the statuses
//! Stripe documents: 400 invalid requests, 401 a bad key, 402 a declined card, 404 a missing
//! resource, 429 too many requests, 500 Stripe's own errors.

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

pub(crate) fn error(
    status: StatusCode,
    kind: &str,
    code: Option<&str>,
    param: Option<&str>,
    message: &str,
) -> Response {
    let mut object = json!({ "type": kind, "message": message });
    if let Some(code) = code {
        object["code"] = json!(code);
    }
    if let Some(param) = param {
        object["param"] = json!(param);
    }
    json_response(status, &json!({ "error": object }))
}

/// 401: no key, or not the account's.
pub(crate) fn invalid_key(shown: &str) -> Response {
    // Stripe masks all but the last four characters of the key it quotes.
    let tail: String = shown
        .chars()
        .rev()
        .take(4)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    error(
        StatusCode::UNAUTHORIZED,
        "invalid_request_error",
        None,
        None,
        &format!("Invalid API Key provided: sk_test_****{tail}"),
    )
}

/// 400: a required parameter missing.
pub(crate) fn missing(param: &str) -> Response {
    error(
        StatusCode::BAD_REQUEST,
        "invalid_request_error",
        Some("parameter_missing"),
        Some(param),
        &format!("Missing required param: {param}."),
    )
}

/// 400 (404 for a path's object): no such object.
pub(crate) fn no_such(status: StatusCode, what: &str, id: &str, param: Option<&str>) -> Response {
    error(
        status,
        "invalid_request_error",
        Some("resource_missing"),
        param,
        &format!("No such {what}: '{id}'"),
    )
}

/// 400: an invalid value.
pub(crate) fn invalid(param: &str, message: &str) -> Response {
    error(
        StatusCode::BAD_REQUEST,
        "invalid_request_error",
        None,
        Some(param),
        message,
    )
}

/// 400: an idempotency key reused with other parameters.
pub(crate) fn idempotency_mismatch(key: &str) -> Response {
    error(
        StatusCode::BAD_REQUEST,
        "idempotency_error",
        None,
        None,
        &format!(
            "Keys for idempotent requests can only be used with the same parameters they were \
             first used with. Try using a key other than '{key}' if you meant to execute a \
             different request."
        ),
    )
}

pub(crate) fn not_found() -> Response {
    error(
        StatusCode::NOT_FOUND,
        "invalid_request_error",
        None,
        None,
        "Unrecognized request URL. Please see https://stripe.com/docs or we can help at https://support.stripe.com/.",
    )
}

/// The answer of a failure a test scheduled.
pub(crate) fn scheduled(fail: Fail) -> Response {
    match fail {
        Fail::RateLimited => error(
            StatusCode::TOO_MANY_REQUESTS,
            "invalid_request_error",
            Some("rate_limit"),
            None,
            "Too many requests hit the API too quickly.",
        ),
        Fail::ApiError => error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "api_error",
            None,
            None,
            "An unknown error occurred",
        ),
        Fail::CardDeclined => error(
            StatusCode::PAYMENT_REQUIRED,
            "card_error",
            Some("card_declined"),
            None,
            "Your card was declined.",
        ),
    }
}
