//! The one error type of the HTTP layer and its one status map. Every error body is
//! `{"error": "..."}` (plus `policy_code` on 422); 500s never carry internals.

use axum::Json;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use payback_domain::policy::PolicyRefusal;
use payback_store::StoreError;
use serde::Serialize;

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("{0}")]
    BadRequest(String),
    #[error("{0}")]
    Unauthorized(String),
    #[error("{0}")]
    Forbidden(String),
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    MethodNotAllowed(String),
    #[error("{0}")]
    Conflict(String),
    #[error("{0}")]
    PayloadTooLarge(String),
    #[error("{0}")]
    UnsupportedMediaType(String),
    /// Over a rate limit: 429 with `Retry-After` (RFC 6585), whole seconds until a request
    /// passes again, so a client can back off without guessing.
    #[error("{message}")]
    TooManyRequests {
        message: String,
        retry_after_secs: u64,
    },
    #[error("{0}")]
    ServiceUnavailable(String),
    /// A vendor or a customer's database needed to answer the request did not (502).
    #[error("{0}")]
    BadGateway(String),
    /// The policy engine refused a spend change as it was raised: 422 with `policy_code`.
    #[error("{0}")]
    PolicyRefused(PolicyRefusal),
    /// The policy engine refused a human's approval: 403 with `policy_code`; the card waits.
    #[error("{0}")]
    PolicyWall(PolicyRefusal),
    /// The workspace's plan does not include the feature: 402 with `required_plan`, the
    /// cheapest plan that does (`services::billing::plan::require`).
    #[error("{message}")]
    PaymentRequired {
        message: String,
        required_plan: &'static str,
    },
    /// Configuration that cannot be read; only at start-up.
    #[error("configuration: {0}")]
    Config(String),
    /// Anything unexpected; logged in full, answered as a bare 500.
    #[error("internal error: {0}")]
    Internal(String),
}

pub type ApiResult<T> = Result<T, ApiError>;

/// The error body every failure answers with.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ErrorBody {
    pub error: String,
    /// Only on policy refusals (422 when a proposal is raised, 403 when an approval is refused):
    /// `network_wall`, `daily_cap_exceeded`, `portfolio_ceiling_exceeded` or
    /// `portfolio_currency_mismatch`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub policy_code: Option<String>,
    /// Only on 402: the cheapest plan (`indie` or `growth`) that includes what was refused.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub required_plan: Option<String>,
}

impl ApiError {
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::Conflict(_) => StatusCode::CONFLICT,
            ApiError::PayloadTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::UnsupportedMediaType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::TooManyRequests { .. } => StatusCode::TOO_MANY_REQUESTS,
            ApiError::ServiceUnavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::BadGateway(_) => StatusCode::BAD_GATEWAY,
            ApiError::PaymentRequired { .. } => StatusCode::PAYMENT_REQUIRED,
            ApiError::PolicyRefused(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::PolicyWall(_) => StatusCode::FORBIDDEN,
            ApiError::Config(_) | ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    pub fn bad_request(message: impl Into<String>) -> Self {
        ApiError::BadRequest(message.into())
    }

    pub fn not_found(what: &str) -> Self {
        ApiError::NotFound(format!("{what} not found"))
    }

    pub fn internal(err: impl std::fmt::Display) -> Self {
        ApiError::Internal(err.to_string())
    }
}

impl From<StoreError> for ApiError {
    fn from(err: StoreError) -> Self {
        match err {
            StoreError::Conflict(what) => ApiError::Conflict(what),
            other => ApiError::Internal(other.to_string()),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        let policy_code = match &self {
            ApiError::PolicyRefused(refusal) | ApiError::PolicyWall(refusal) => {
                Some(refusal.code.as_str().to_owned())
            }
            _ => None,
        };
        // A 503 says what is not configured; other server errors keep their details in the log.
        // A 502 says which upstream failed and why (connector messages never carry secrets).
        let says_why = [StatusCode::SERVICE_UNAVAILABLE, StatusCode::BAD_GATEWAY];
        let message = if status.is_server_error() && !says_why.contains(&status) {
            tracing::error!(error = %self, "request failed");
            "internal error; the details are in the server log".to_owned()
        } else {
            self.to_string()
        };
        let retry_after = match &self {
            ApiError::TooManyRequests {
                retry_after_secs, ..
            } => Some(retry_after_secs.to_string()),
            _ => None,
        };
        let required_plan = match &self {
            ApiError::PaymentRequired { required_plan, .. } => Some((*required_plan).to_owned()),
            _ => None,
        };
        let body = ErrorBody {
            error: message,
            policy_code,
            required_plan,
        };
        match retry_after {
            Some(seconds) => (status, [(header::RETRY_AFTER, seconds)], Json(body)).into_response(),
            None => (status, Json(body)).into_response(),
        }
    }
}
