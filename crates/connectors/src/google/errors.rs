//! A Google API error answer (`{"error": {"code", "message", "status"}}`, the shape Search
//! Console, GA4, Tag Manager, Sheets and Drive share) read into what Payback does with it:
//! retry (quota, server trouble), ask for a reconnect (401/403), or report Google's message.
//! Google's messages name the resource or the field, never the request's token, so they are
//! quoted as they are.

use serde::Deserialize;

use crate::ConnectorError;

/// `{"error": {...}}`.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct ErrorBody {
    #[serde(default)]
    pub error: ErrorDetail,
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct ErrorDetail {
    #[serde(default)]
    pub message: Option<String>,
    #[serde(default)]
    pub status: Option<String>,
}

/// What kind of refusal an answer was.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FailureKind {
    /// 401 / `UNAUTHENTICATED`: the access token was refused.
    Unauthenticated,
    /// 403 / `PERMISSION_DENIED`: the login may not reach the resource (or a scope is missing).
    Forbidden,
    /// 429 / `RESOURCE_EXHAUSTED`: a quota; retried.
    RateLimited,
    /// 5xx: Google's trouble; retried.
    Server,
    /// Anything else (a bad request, an unknown resource): final.
    Other,
}

/// One error answer, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Failure {
    pub kind: FailureKind,
    /// `Search Console answered 403 PERMISSION_DENIED on sites.get: <message>`.
    pub line: String,
    /// Google's message alone.
    pub message: String,
}

impl Failure {
    /// Reads a non-2xx answer of `api`'s `call` (e.g. `Search Console`, `searchAnalytics.query`).
    pub(crate) fn read(api: &str, call: &str, status: u16, body: &[u8]) -> Self {
        let error = serde_json::from_slice::<ErrorBody>(body)
            .unwrap_or_default()
            .error;
        let rpc_status = error.status.unwrap_or_default();
        let kind = match (status, rpc_status.as_str()) {
            (401, _) | (_, "UNAUTHENTICATED") => FailureKind::Unauthenticated,
            (403, _) | (_, "PERMISSION_DENIED") => FailureKind::Forbidden,
            (429, _) | (_, "RESOURCE_EXHAUSTED") => FailureKind::RateLimited,
            (500..=599, _) => FailureKind::Server,
            _ => FailureKind::Other,
        };
        let message = error
            .message
            .filter(|text| !text.trim().is_empty())
            .unwrap_or_else(|| "no error message".to_owned());
        let mut line = format!("{api} answered {status}");
        if !rpc_status.is_empty() {
            line.push(' ');
            line.push_str(&rpc_status);
        }
        line.push_str(&format!(" on {call}: {message}"));
        Self {
            kind,
            line,
            message,
        }
    }

    /// Whether waiting and asking again may help.
    pub(crate) fn retryable(&self) -> bool {
        matches!(self.kind, FailureKind::RateLimited | FailureKind::Server)
    }

    /// The error Payback reports, once `retries` retries did not help.
    pub(crate) fn into_error(self, retries: u32) -> ConnectorError {
        let Failure { kind, line, .. } = self;
        match kind {
            FailureKind::Unauthenticated => {
                ConnectorError::Unauthorized(format!("{line}; reconnect the Google grant"))
            }
            FailureKind::Forbidden => ConnectorError::Unauthorized(format!(
                "{line}; the Google login (or service account) that was given access may no \
                 longer reach it: reconnect, or give it access again"
            )),
            FailureKind::RateLimited => ConnectorError::RateLimited(format!(
                "{line} (after {retries} retries; the run stored nothing and will try again)"
            )),
            FailureKind::Server => {
                ConnectorError::Unreachable(format!("{line} (after {retries} retries)"))
            }
            FailureKind::Other => ConnectorError::Vendor(line),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn googles_error_shape_is_read_and_mapped() {
        let body = br#"{"error":{"code":403,"message":"User does not have sufficient permission for site 'https://shop.example/'.","status":"PERMISSION_DENIED"}}"#;
        let failure = Failure::read("Search Console", "sites.get", 403, body);
        assert_eq!(failure.kind, FailureKind::Forbidden);
        assert!(!failure.retryable());
        assert_eq!(
            failure.line,
            "Search Console answered 403 PERMISSION_DENIED on sites.get: User does not have sufficient permission for site 'https://shop.example/'."
        );
        assert!(matches!(
            failure.into_error(0),
            ConnectorError::Unauthorized(_)
        ));
        let quota = Failure::read("Tag Manager", "containers.list", 429, b"{}");
        assert!(quota.retryable());
        assert!(matches!(
            quota.into_error(2),
            ConnectorError::RateLimited(_)
        ));
        let server = Failure::read("Google Analytics", "runReport", 503, b"not json");
        assert_eq!(server.kind, FailureKind::Server);
        assert!(server.line.ends_with("no error message"));
        let bad = Failure::read(
            "Search Console",
            "searchAnalytics.query",
            400,
            br#"{"error":{"code":400,"message":"Invalid startDate","status":"INVALID_ARGUMENT"}}"#,
        );
        assert_eq!(bad.message, "Invalid startDate");
        assert!(
            matches!(bad.into_error(0), ConnectorError::Vendor(line) if line.contains("Invalid startDate"))
        );
    }
}
