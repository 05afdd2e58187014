//! The Google Ads API's failures: a `google.rpc.Status` in JSON, `{"error": {code, message,
//! status, details}}`, whose `details` hold one `GoogleAdsFailure` (`errors[]` of `{errorCode:
//! {<kind>: <CODE>}, message, location?, details?}` and a `requestId`), the `@type` naming the API
//! version of the request path. Failures the front end raises before the Ads API is reached (no
//! credential, a body that is not the request message) carry no `GoogleAdsFailure`.

use axum::http::{HeaderValue, StatusCode};
use axum::response::Response;
use serde_json::{Value, json};

use crate::fakes::google::errors::{INVALID_CREDENTIALS, front_end, json_response, status_word};
use crate::fakes::google::fail::Fail;

/// One `GoogleAdsError`.
#[derive(Debug, Clone)]
pub(crate) struct AdsError {
    /// The `ErrorCode` oneof member, camelCase (`quotaError`, `queryError`, ...).
    pub kind: &'static str,
    /// The enum value (`RESOURCE_EXHAUSTED`, `UNRECOGNIZED_FIELD`, ...).
    pub code: &'static str,
    pub message: String,
    /// `location.fieldPathElements`: field names (snake_case, as Google reports them) with an
    /// index for repeated fields.
    pub location: Vec<(String, Option<usize>)>,
    pub details: Option<Value>,
}

impl AdsError {
    pub fn new(kind: &'static str, code: &'static str, message: impl Into<String>) -> Self {
        Self {
            kind,
            code,
            message: message.into(),
            location: Vec::new(),
            details: None,
        }
    }

    pub fn at(mut self, path: &[(&str, Option<usize>)]) -> Self {
        self.location = path
            .iter()
            .map(|(name, index)| ((*name).to_owned(), *index))
            .collect();
        self
    }

    pub fn with_details(mut self, details: Value) -> Self {
        self.details = Some(details);
        self
    }

    pub fn to_json(&self) -> Value {
        let mut error = json!({
            "errorCode": { self.kind: self.code },
            "message": self.message,
        });
        if !self.location.is_empty() {
            let elements: Vec<Value> = self
                .location
                .iter()
                .map(|(name, index)| match index {
                    Some(index) => json!({"fieldName": name, "index": index}),
                    None => json!({"fieldName": name}),
                })
                .collect();
            error["location"] = json!({ "fieldPathElements": elements });
        }
        if let Some(details) = &self.details {
            error["details"] = details.clone();
        }
        error
    }
}

/// The top-level message Google's front end gives each status.
fn status_message(status: StatusCode) -> &'static str {
    match status.as_u16() {
        400 => "Request contains an invalid argument.",
        401 => INVALID_CREDENTIALS,
        403 => "The caller does not have permission",
        404 => "Requested entity was not found.",
        429 => "Resource has been exhausted (e.g. check quota).",
        501 => "Operation is not implemented, or supported, or enabled.",
        503 => "The service is currently unavailable.",
        _ => "Internal error encountered.",
    }
}

/// A Google Ads API failure: `google.rpc.Status` carrying one `GoogleAdsFailure`.
pub(crate) fn google_ads(
    status: StatusCode,
    version: &str,
    request_id: &str,
    errors: &[AdsError],
) -> Response {
    let body = json!({
        "error": {
            "code": status.as_u16(),
            "message": status_message(status),
            "status": status_word(status),
            "details": [failure_detail(version, request_id, errors)],
        }
    });
    with_request_id(json_response(status, &body), request_id)
}

/// The `GoogleAdsFailure` detail (also the `partialFailureError` detail of a mutate).
pub(crate) fn failure_detail(version: &str, request_id: &str, errors: &[AdsError]) -> Value {
    json!({
        "@type": format!("type.googleapis.com/google.ads.googleads.{version}.errors.GoogleAdsFailure"),
        "errors": errors.iter().map(AdsError::to_json).collect::<Vec<_>>(),
        "requestId": request_id,
    })
}

/// 400 for a JSON body that is not the request message (unknown field, wrong type).
pub(crate) fn bad_payload(description: &str) -> Response {
    let message = format!("Invalid JSON payload received. {description}");
    front_end(
        StatusCode::BAD_REQUEST,
        &message,
        vec![json!({
            "@type": "type.googleapis.com/google.rpc.BadRequest",
            "fieldViolations": [{ "description": message }],
        })],
    )
}

/// 501 for a request the fake does not model (rather than a made-up answer).
pub(crate) fn unmodelled(what: &str) -> Response {
    front_end(
        StatusCode::NOT_IMPLEMENTED,
        &format!("The fake Google Ads API does not model {what}."),
        Vec::new(),
    )
}

pub(crate) fn with_request_id(mut response: Response, request_id: &str) -> Response {
    if let Ok(value) = HeaderValue::from_str(request_id) {
        response.headers_mut().insert("request-id", value);
    }
    response
}

/// The answer of a scheduled failure on a Google Ads API path.
pub(crate) fn scheduled_ads(fail: Fail, version: &str, request_id: &str) -> Response {
    let (status, error) = match fail {
        Fail::Quota => (
            StatusCode::TOO_MANY_REQUESTS,
            AdsError::new(
                "quotaError",
                "RESOURCE_EXHAUSTED",
                "Too many requests. Retry in 86400 seconds.",
            )
            .with_details(json!({
                "quotaErrorDetails": {
                    "rateScope": "DEVELOPER",
                    "rateName": "Number of operations for basic access",
                    "retryDelay": "86400s",
                }
            })),
        ),
        Fail::QuotaRetryAfter(seconds) => (
            StatusCode::TOO_MANY_REQUESTS,
            AdsError::new(
                "quotaError",
                "RESOURCE_TEMPORARILY_EXHAUSTED",
                format!("Too many requests. Retry in {seconds} seconds."),
            )
            .with_details(json!({
                "quotaErrorDetails": {
                    "rateScope": "ACCOUNT",
                    "rateName": "Requests per account",
                    "retryDelay": format!("{seconds}s"),
                }
            })),
        ),
        Fail::Internal => (
            StatusCode::INTERNAL_SERVER_ERROR,
            AdsError::new(
                "internalError",
                "INTERNAL_ERROR",
                "An internal error has occurred.",
            ),
        ),
        Fail::Transient => (
            StatusCode::SERVICE_UNAVAILABLE,
            AdsError::new(
                "internalError",
                "TRANSIENT_ERROR",
                "The server encountered a transient error. Please retry.",
            ),
        ),
        Fail::Unauthenticated => (
            StatusCode::UNAUTHORIZED,
            AdsError::new(
                "authenticationError",
                "OAUTH_TOKEN_EXPIRED",
                "Oauth token in the header has expired.",
            ),
        ),
    };
    google_ads(status, version, request_id, &[error])
}
