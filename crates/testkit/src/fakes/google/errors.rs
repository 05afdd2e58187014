//! The error bodies every Google API here shares: a `google.rpc.Status` in JSON, `{"error":
//! {code, message, status, details?}}`, as Google's front end answers (no credential, a scope
//! missing) and as the JSON APIs answer their own refusals. The Ads API's `GoogleAdsFailure` is in
//! `ads/errors.rs`, the OAuth endpoints' RFC 6749 errors in `oauth/errors.rs`.

use axum::http::StatusCode;
use axum::http::header::CONTENT_TYPE;
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use super::fail::Fail;

pub(crate) const JSON: &str = "application/json; charset=UTF-8";

/// What Google's front end says of a credential that is there but not a live access token.
pub(crate) const INVALID_CREDENTIALS: &str = "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.";

/// The canonical `status` word of an HTTP status (google.rpc.Code).
pub(crate) fn status_word(status: StatusCode) -> &'static str {
    match status.as_u16() {
        400 => "INVALID_ARGUMENT",
        401 => "UNAUTHENTICATED",
        403 => "PERMISSION_DENIED",
        404 => "NOT_FOUND",
        409 => "ABORTED",
        429 => "RESOURCE_EXHAUSTED",
        501 => "UNIMPLEMENTED",
        503 => "UNAVAILABLE",
        504 => "DEADLINE_EXCEEDED",
        _ => "INTERNAL",
    }
}

/// A failure raised before the Ads API itself: `google.rpc.Status` with the given message and
/// details (possibly none).
pub(crate) fn front_end(status: StatusCode, message: &str, details: Vec<Value>) -> Response {
    let mut error = json!({
        "code": status.as_u16(),
        "message": message,
        "status": status_word(status),
    });
    if !details.is_empty() {
        error["details"] = Value::Array(details);
    }
    json_response(status, &json!({ "error": error }))
}

/// 401 with no credential at all.
pub(crate) fn missing_credential() -> Response {
    front_end(
        StatusCode::UNAUTHORIZED,
        "Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.",
        Vec::new(),
    )
}

/// 401 for a credential that is not a live access token.
pub(crate) fn invalid_credentials() -> Response {
    error(StatusCode::UNAUTHORIZED, INVALID_CREDENTIALS)
}

/// 403 for an access token without the scope the method needs; `metadata` names the service
/// (and, for the Ads API, the method).
pub(crate) fn insufficient_scope(metadata: Value) -> Response {
    front_end(
        StatusCode::FORBIDDEN,
        "Request had insufficient authentication scopes.",
        vec![json!({
            "@type": "type.googleapis.com/google.rpc.ErrorInfo",
            "reason": "ACCESS_TOKEN_SCOPE_INSUFFICIENT",
            "domain": "googleapis.com",
            "metadata": metadata,
        })],
    )
}

/// A JSON API's own refusal: the status and a message, no details.
pub(crate) fn error(status: StatusCode, message: &str) -> Response {
    front_end(status, message, Vec::new())
}

pub(crate) fn bad_request(message: &str) -> Response {
    error(StatusCode::BAD_REQUEST, message)
}

/// 404 for a path a JSON API does not serve.
pub(crate) fn not_found(path: &str) -> Response {
    error(
        StatusCode::NOT_FOUND,
        &format!("The requested URL {path} was not found on this server."),
    )
}

/// A scheduled failure on a JSON API's path: its quota message on a quota failure, and
/// `unauthenticated` as that API refuses an expired token.
pub(crate) fn scheduled(fail: Fail, quota: &str, unauthenticated: fn() -> Response) -> Response {
    match fail {
        Fail::Quota | Fail::QuotaRetryAfter(_) => error(StatusCode::TOO_MANY_REQUESTS, quota),
        Fail::Internal => error(
            StatusCode::INTERNAL_SERVER_ERROR,
            "Internal error encountered.",
        ),
        Fail::Transient => error(
            StatusCode::SERVICE_UNAVAILABLE,
            "The service is currently unavailable.",
        ),
        Fail::Unauthenticated => unauthenticated(),
    }
}

pub(crate) fn json_response(status: StatusCode, body: &Value) -> Response {
    (status, [(CONTENT_TYPE, JSON)], body.to_string()).into_response()
}
