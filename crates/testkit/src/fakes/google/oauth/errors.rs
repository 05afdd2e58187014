//! The OAuth endpoints' errors: RFC 6749 `{"error", "error_description"}` from the token and
//! revocation endpoints, an error page from the consent screen.

use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE, PRAGMA};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::fakes::google::errors::json_response;
use crate::fakes::google::fail::Fail;

/// An RFC 6749 error from the token or revocation endpoint.
pub(crate) fn oauth(status: StatusCode, error: &str, description: &str) -> Response {
    let body = json!({ "error": error, "error_description": description });
    no_store(json_response(status, &body))
}

/// The page the authorization endpoint shows the human when it cannot redirect back (bad
/// client, unregistered redirect URI, malformed request): Google shows an error screen.
pub(crate) fn consent_screen_error(status: StatusCode, error: &str, description: &str) -> Response {
    let body = format!(
        "<!doctype html><title>Error 400: {error}</title><h1>Access blocked: authorization error</h1><p>Error {}: {error}</p><p>{description}</p>",
        status.as_u16()
    );
    (status, [(CONTENT_TYPE, "text/html; charset=utf-8")], body).into_response()
}

pub(crate) fn no_store(mut response: Response) -> Response {
    response.headers_mut().insert(
        CACHE_CONTROL,
        HeaderValue::from_static("no-cache, no-store, max-age=0, must-revalidate"),
    );
    response
        .headers_mut()
        .insert(PRAGMA, HeaderValue::from_static("no-cache"));
    response
}

/// The answer of a scheduled failure on an OAuth endpoint.
pub(crate) fn scheduled_oauth(fail: Fail) -> Response {
    match fail {
        Fail::Quota | Fail::QuotaRetryAfter(_) => oauth(
            StatusCode::TOO_MANY_REQUESTS,
            "rate_limit_exceeded",
            "Rate limit exceeded.",
        ),
        Fail::Internal => oauth(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal_failure",
            "Backend Error",
        ),
        Fail::Transient => oauth(
            StatusCode::SERVICE_UNAVAILABLE,
            "temporarily_unavailable",
            "The service is temporarily unavailable.",
        ),
        Fail::Unauthenticated => oauth(
            StatusCode::BAD_REQUEST,
            "invalid_grant",
            "Token has been expired or revoked.",
        ),
    }
}
