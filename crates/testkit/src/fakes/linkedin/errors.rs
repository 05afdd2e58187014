//! The error bodies LinkedIn documents, built in one place.
//!
//! Every error is JSON with `status` (the HTTP status), `message`, and where LinkedIn sends them
//! `serviceErrorCode` (a numeric subcode) and `code` (the constant of the newer envelope):
//! - 401: `EMPTY` (`{"message":"Empty oauth2_access_token","serviceErrorCode":401,"status":401}`,
//!   the error-handling page's sample), `INVALID_ACCESS_TOKEN` 65600, `REVOKED_ACCESS_TOKEN`
//!   65601, `EXPIRED_ACCESS_TOKEN` 65602,
//! - 400 `VERSION_MISSING` without `Linkedin-Version`, 426 `NONEXISTENT_VERSION` for a version
//!   not active ("Requested version 20241101 is not active"),
//! - 403 `ACCESS_DENIED` 100 "Not enough permissions to access: {resource}.{method}.{version}",
//! - 400 `ILLEGAL_ARGUMENT` for a parameter Rest.li cannot read, 404 `NOT_FOUND`,
//! - 429 "Resource level throttle limit for calls to this resource is reached.", 500
//!   `INTERNAL_ERROR`, 503 `UNDER_MAINTENANCE`, 504 Gateway Timeout.

use axum::http::header::CONTENT_TYPE;
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{Map, Value, json};

use super::state::Fail;

const JSON: &str = "application/json";

pub(crate) fn json_response(status: StatusCode, body: &Value) -> Response {
    let mut response = (status, [(CONTENT_TYPE, JSON)], body.to_string()).into_response();
    // LinkedIn names the Rest.li protocol of every answer.
    response.headers_mut().insert(
        "x-restli-protocol-version",
        HeaderValue::from_static("2.0.0"),
    );
    response
}

/// `{"status", "serviceErrorCode"?, "code"?, "message"}`.
fn error(
    status: StatusCode,
    service_error_code: Option<u32>,
    code: Option<&str>,
    message: &str,
) -> Response {
    let mut body = Map::new();
    body.insert("status".into(), json!(status.as_u16()));
    if let Some(service_error_code) = service_error_code {
        body.insert("serviceErrorCode".into(), json!(service_error_code));
    }
    if let Some(code) = code {
        body.insert("code".into(), json!(code));
    }
    body.insert("message".into(), json!(message));
    json_response(status, &Value::Object(body))
}

/// No `Authorization` header, or an empty bearer token.
pub(crate) fn empty_token() -> Response {
    error(
        StatusCode::UNAUTHORIZED,
        Some(401),
        None,
        "Empty oauth2_access_token",
    )
}

/// An `Authorization` header that is not `Bearer <token>`.
pub(crate) fn unknown_scheme() -> Response {
    error(
        StatusCode::UNAUTHORIZED,
        Some(401),
        None,
        "Unknown authentication scheme",
    )
}

pub(crate) fn invalid_token() -> Response {
    error(
        StatusCode::UNAUTHORIZED,
        Some(65600),
        Some("INVALID_ACCESS_TOKEN"),
        "Invalid access token",
    )
}

pub(crate) fn revoked_token() -> Response {
    error(
        StatusCode::UNAUTHORIZED,
        Some(65601),
        Some("REVOKED_ACCESS_TOKEN"),
        "The token used in the request has been revoked by the user",
    )
}

pub(crate) fn expired_token() -> Response {
    error(
        StatusCode::UNAUTHORIZED,
        Some(65602),
        Some("EXPIRED_ACCESS_TOKEN"),
        "The token used in the request has expired",
    )
}

/// A versioned (`/rest/`) call without `Linkedin-Version`; LinkedIn's gateway answers it.
pub(crate) fn version_missing() -> Response {
    let mut response = error(
        StatusCode::BAD_REQUEST,
        None,
        Some("VERSION_MISSING"),
        "A version must be present. Please specify a version by adding the LinkedIn-Version header.",
    );
    response
        .headers_mut()
        .insert("x-restli-gateway-error", HeaderValue::from_static("true"));
    response
}

/// A version sunset, not yet released, or not a version at all. LinkedIn names the version as
/// a date (`202411` is "20241101").
pub(crate) fn nonexistent_version(as_date: &str) -> Response {
    error(
        StatusCode::UPGRADE_REQUIRED,
        None,
        Some("NONEXISTENT_VERSION"),
        &format!("Requested version {as_date} is not active"),
    )
}

/// A token without the scope the resource needs (`resource_method` as LinkedIn names it, for
/// example `adAnalytics.FINDER-analytics.20261101`).
pub(crate) fn access_denied(resource_method: &str) -> Response {
    error(
        StatusCode::FORBIDDEN,
        Some(100),
        Some("ACCESS_DENIED"),
        &format!("Not enough permissions to access: {resource_method}"),
    )
}

/// A request Rest.li cannot read: a malformed parameter, a path key, a missing parameter.
pub(crate) fn illegal_argument(message: &str) -> Response {
    error(
        StatusCode::BAD_REQUEST,
        None,
        Some("ILLEGAL_ARGUMENT"),
        message,
    )
}

pub(crate) fn not_found() -> Response {
    error(StatusCode::NOT_FOUND, None, Some("NOT_FOUND"), "Not Found")
}

pub(crate) fn method_not_allowed() -> Response {
    error(
        StatusCode::METHOD_NOT_ALLOWED,
        None,
        None,
        "Method Not Allowed",
    )
}

/// The answer of a scheduled failure.
pub(crate) fn scheduled(fail: Fail) -> Response {
    match fail {
        Fail::Throttled => error(
            StatusCode::TOO_MANY_REQUESTS,
            None,
            None,
            "Resource level throttle limit for calls to this resource is reached.",
        ),
        Fail::Internal => error(
            StatusCode::INTERNAL_SERVER_ERROR,
            None,
            Some("INTERNAL_ERROR"),
            "Internal Error",
        ),
        Fail::Maintenance => error(
            StatusCode::SERVICE_UNAVAILABLE,
            None,
            Some("UNDER_MAINTENANCE"),
            "Under Maintenance",
        ),
        Fail::GatewayTimeout => error(StatusCode::GATEWAY_TIMEOUT, None, None, "Gateway Timeout"),
    }
}
