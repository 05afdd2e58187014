//! Bing's error bodies, in one place: the `ApiFault` contract as JSON,
//! `{"ErrorCode": n, "Message": "ERROR!!! Name"}`, with `n` from the documented `ApiErrorCode`
//! enumeration (1 `InternalError`, 3 `InvalidApiKey`, 4 `ThrottleUser`, 8 `InvalidParameter`,
//! 14 `NotAuthorized`) and the message in the form Bing is seen to write it. Faults answer 400
//! (the status WCF gives a fault of the JSON protocol); an overloaded front end answers 429 or 5xx.

use axum::http::StatusCode;
use axum::http::header::CONTENT_TYPE;
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use super::state::Fail;

const JSON: &str = "application/json; charset=utf-8";

pub(crate) fn json_response(status: StatusCode, body: &Value) -> Response {
    (status, [(CONTENT_TYPE, JSON)], body.to_string()).into_response()
}

fn fault(status: StatusCode, code: u32, name: &str) -> Response {
    json_response(
        status,
        &json!({ "ErrorCode": code, "Message": format!("ERROR!!! {name}") }),
    )
}

/// No key, an unknown one, or one its user regenerated.
pub(crate) fn invalid_api_key() -> Response {
    fault(StatusCode::BAD_REQUEST, 3, "InvalidApiKey")
}

/// A site that is not the key's user's.
pub(crate) fn not_authorized() -> Response {
    fault(StatusCode::BAD_REQUEST, 14, "NotAuthorized")
}

/// A missing or malformed parameter (`siteUrl`).
pub(crate) fn invalid_parameter() -> Response {
    fault(StatusCode::BAD_REQUEST, 8, "InvalidParameter")
}

/// A method the fake does not serve (or a path outside the JSON protocol).
pub(crate) fn not_found() -> Response {
    (StatusCode::NOT_FOUND, "Endpoint not found.").into_response()
}

/// The answer of a failure a test scheduled.
pub(crate) fn scheduled(fail: Fail) -> Response {
    match fail {
        Fail::TooManyRequests => StatusCode::TOO_MANY_REQUESTS.into_response(),
        Fail::InternalError => fault(StatusCode::INTERNAL_SERVER_ERROR, 1, "InternalError"),
        Fail::ThrottleUser => fault(StatusCode::BAD_REQUEST, 4, "ThrottleUser"),
    }
}
