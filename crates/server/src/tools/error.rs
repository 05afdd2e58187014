//! A tool's failure: the API's error for the same request, so an agent reads the same message
//! (naming the field, the missing product, the policy that refused) whichever door it uses.

use serde::Serialize;

use crate::error::ApiError;

/// `{error, status, policy_code?}`: the API's error body plus the HTTP status the API answers
/// for the same request (400 a refused input, 404 a product the caller cannot see, 422 a policy
/// refusal, ...). Server faults say no more than the API says.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
#[error("{error}")]
pub struct ToolError {
    pub error: String,
    pub status: u16,
    /// Only on policy refusals: `network_wall`, `daily_cap_exceeded`,
    /// `portfolio_ceiling_exceeded` or `portfolio_currency_mismatch`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub policy_code: Option<String>,
}

impl From<ApiError> for ToolError {
    fn from(err: ApiError) -> Self {
        let status = err.status();
        let policy_code = match &err {
            ApiError::PolicyRefused(refusal) | ApiError::PolicyWall(refusal) => {
                Some(refusal.code.as_str().to_owned())
            }
            _ => None,
        };
        // As the HTTP door does: a 503 says what is not configured and a 502 which upstream
        // failed; other server errors keep their details in the log.
        let says_why = matches!(
            err,
            ApiError::ServiceUnavailable(_) | ApiError::BadGateway(_)
        );
        let error = if status.is_server_error() && !says_why {
            tracing::error!(error = %err, "tool call failed");
            "internal error; the details are in the server log".to_owned()
        } else {
            err.to_string()
        };
        ToolError {
            error,
            status: status.as_u16(),
            policy_code,
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // a failing unwrap is the test's failure message
mod tests {
    use payback_domain::policy::{PolicyCode, PolicyRefusal};
    use serde_json::json;

    use super::*;

    #[test]
    fn carries_the_api_status_message_and_policy_code() {
        let refused = ToolError::from(ApiError::PolicyRefused(PolicyRefusal {
            code: PolicyCode::DailyCapExceeded,
            message: "over the cap".to_owned(),
        }));
        assert_eq!(refused.status, 422);
        assert_eq!(refused.policy_code.as_deref(), Some("daily_cap_exceeded"));
        assert_eq!(
            serde_json::to_value(&refused).unwrap(),
            json!({"error": refused.error, "status": 422, "policy_code": "daily_cap_exceeded"})
        );

        let missing = ToolError::from(ApiError::not_found("product"));
        assert_eq!(
            serde_json::to_value(&missing).unwrap(),
            json!({"error": "product not found", "status": 404})
        );
    }

    #[test]
    fn server_faults_stay_in_the_log() {
        let fault = ToolError::from(ApiError::internal("connection refused to 10.0.0.7"));
        assert_eq!(fault.status, 500);
        assert!(!fault.error.contains("10.0.0.7"));
        let upstream = ToolError::from(ApiError::BadGateway("the gateway timed out".to_owned()));
        assert_eq!(upstream.error, "the gateway timed out");
    }
}
