//! X's error answers, in one place, as "Response codes and errors" documents them: problem
//! bodies (`title`, `detail`, `type`, `status`) for a refused request, `errors[]` with a 200 for
//! a resource not found, and the `x-rate-limit-*` headers on a 429.

use axum::http::header::CONTENT_TYPE;
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use payback_domain::{Clock, SystemClock};
use serde_json::{Value, json};

use super::state::Fail;

const JSON: &str = "application/json; charset=utf-8";

/// The problem types X documents.
pub(crate) const INVALID_REQUEST: &str = "https://api.twitter.com/2/problems/invalid-request";
pub(crate) const NOT_FOUND: &str = "https://api.twitter.com/2/problems/resource-not-found";

pub(crate) fn json_response(status: StatusCode, body: &Value) -> Response {
    (status, [(CONTENT_TYPE, JSON)], body.to_string()).into_response()
}

/// No bearer token, an unknown one, or one the app regenerated.
pub(crate) fn unauthorized() -> Response {
    json_response(
        StatusCode::UNAUTHORIZED,
        &json!({ "title": "Unauthorized", "type": "about:blank", "status": 401,
                 "detail": "Unauthorized" }),
    )
}

/// A parameter X refuses: the top-level problem, and an entry saying which and why.
pub(crate) fn invalid_request(parameter: &str, value: &str, message: &str) -> Response {
    json_response(
        StatusCode::BAD_REQUEST,
        &json!({
            "errors": [{ "parameters": { parameter: [value] }, "message": message }],
            "title": "Invalid Request",
            "detail": "One or more parameters to your request was invalid.",
            "type": INVALID_REQUEST,
        }),
    )
}

/// A resource X cannot find: 200, no `data`, one `errors[]` entry.
pub(crate) fn not_found_entry(resource_type: &str, parameter: &str, value: &str) -> Response {
    let detail = match parameter {
        "username" => format!("Could not find user with username: [{value}]."),
        _ => format!("Could not find {resource_type} with {parameter}: [{value}]."),
    };
    json_response(
        StatusCode::OK,
        &json!({ "errors": [{
            "value": value, "detail": detail, "title": "Not Found Error",
            "resource_type": resource_type, "parameter": parameter, "resource_id": value,
            "type": NOT_FOUND,
        }]}),
    )
}

/// A path the fake does not serve.
pub(crate) fn no_route() -> Response {
    json_response(
        StatusCode::NOT_FOUND,
        &json!({ "title": "Not Found", "type": "about:blank", "status": 404,
                 "detail": "Not Found" }),
    )
}

/// The answer of a failure a test scheduled.
pub(crate) fn scheduled(fail: Fail) -> Response {
    match fail {
        Fail::RateLimited { reset_in_secs } => {
            let mut response = json_response(
                StatusCode::TOO_MANY_REQUESTS,
                &json!({ "title": "Too Many Requests", "detail": "Too Many Requests",
                         "type": "about:blank", "status": 429 }),
            );
            let reset = SystemClock.now().millis() / 1000 + reset_in_secs;
            let headers = response.headers_mut();
            headers.insert("x-rate-limit-limit", HeaderValue::from_static("900"));
            headers.insert("x-rate-limit-remaining", HeaderValue::from_static("0"));
            if let Ok(value) = HeaderValue::from_str(&reset.to_string()) {
                headers.insert("x-rate-limit-reset", value);
            }
            response
        }
        Fail::ServiceUnavailable => json_response(
            StatusCode::SERVICE_UNAVAILABLE,
            &json!({ "title": "Service Unavailable", "detail": "Service Unavailable",
                     "type": "about:blank", "status": 503 }),
        ),
    }
}
