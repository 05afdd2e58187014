//! A Google Ads error answer read into what Payback does with it: retry (quota, server trouble),
//! ask for a reconnect (401/403), or report the first Google Ads error's message.
//!
//! The body is `{"error": {"code", "message", "status", "details": [{"@type":
//! "type.googleapis.com/google.ads.googleads.vN.errors.GoogleAdsFailure", "errors": [{"errorCode":
//! {"<family>": "<CODE>"}, "message", "details": {"quotaErrorDetails": {"retryDelay"}}}]}]}}`.
//! Google's messages name fields and ids, never the request's token, so they are quoted as they
//! are.

use std::time::Duration;

use super::wire::{AdsError, ErrorBody};
use crate::ConnectorError;

/// A quota's retry delay longer than this is not waited for: the run fails now and the sync's
/// backoff tries again later (a daily quota asks for hours).
const LONGEST_HONORED_DELAY: Duration = Duration::from_secs(30);

/// What kind of refusal an answer was.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FailureKind {
    /// 401 / `UNAUTHENTICATED`: the access token was refused.
    Unauthenticated,
    /// 403 / `PERMISSION_DENIED`: this login may not act on this account, or the developer token
    /// may not be used.
    Forbidden,
    /// 429 / `RESOURCE_EXHAUSTED`: a quota; retried.
    RateLimited,
    /// 5xx: Google's trouble; retried.
    Server,
    /// Anything else (a bad query, a refused mutate): final.
    Other,
}

/// One error answer, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Failure {
    pub kind: FailureKind,
    /// `Google Ads answered 400 INVALID_ARGUMENT on googleAds:search: <message> (queryError: X)`.
    pub line: String,
    /// The quota's own retry delay, when Google gave one.
    pub retry_delay: Option<Duration>,
}

impl Failure {
    /// Reads a non-2xx answer of `call` (e.g. `googleAds:search`).
    pub(crate) fn read(call: &str, status: u16, body: &[u8]) -> Self {
        let parsed = serde_json::from_slice::<ErrorBody>(body)
            .unwrap_or_default()
            .error;
        let first = parsed
            .details
            .iter()
            .flat_map(|detail| detail.errors.iter())
            .next();
        let rpc_status = parsed.status.clone().unwrap_or_default();
        let kind = match (status, rpc_status.as_str()) {
            (401, _) | (_, "UNAUTHENTICATED") => FailureKind::Unauthenticated,
            (403, _) | (_, "PERMISSION_DENIED") => FailureKind::Forbidden,
            (429, _) | (_, "RESOURCE_EXHAUSTED") => FailureKind::RateLimited,
            (500..=599, _) => FailureKind::Server,
            _ => FailureKind::Other,
        };
        let message = first
            .and_then(|error| error.message.clone())
            .or(parsed.message.clone())
            .filter(|text| !text.trim().is_empty())
            .unwrap_or_else(|| "no error message".to_owned());
        let mut line = format!("Google Ads answered {status}");
        if !rpc_status.is_empty() {
            line.push(' ');
            line.push_str(&rpc_status);
        }
        line.push_str(&format!(" on {call}: {message}"));
        if let Some(code) = first.and_then(error_code) {
            line.push_str(&format!(" ({code})"));
        }
        let retry_delay = first
            .and_then(|error| error.details.as_ref())
            .and_then(|details| details.quota_error_details.as_ref())
            .and_then(|quota| quota.retry_delay.as_deref())
            .and_then(parse_duration);
        Self {
            kind,
            line,
            retry_delay,
        }
    }

    /// Whether waiting and asking again may help: a quota whose delay is short enough, or a 5xx.
    pub(crate) fn retryable(&self) -> bool {
        match self.kind {
            FailureKind::RateLimited => self
                .retry_delay
                .is_none_or(|delay| delay <= LONGEST_HONORED_DELAY),
            FailureKind::Server => true,
            _ => false,
        }
    }

    /// The error Payback reports, once `retries` retries did not help.
    pub(crate) fn into_error(self, retries: u32) -> ConnectorError {
        let Failure { kind, line, .. } = self;
        match kind {
            FailureKind::Unauthenticated => {
                ConnectorError::Unauthorized(format!("{line}; reconnect the Google grant"))
            }
            FailureKind::Forbidden => ConnectorError::Unauthorized(format!(
                "{line}; the Google login that granted access may no longer reach this Ads \
                 account: reconnect the Google grant"
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

/// `queryError: PROHIBITED_FIELD_IN_SELECT_CLAUSE` from `{"queryError": "PROHIBITED_..."}`.
fn error_code(error: &AdsError) -> Option<String> {
    let (family, code) = error.error_code.iter().next()?;
    Some(match code.as_str() {
        Some(code) => format!("{family}: {code}"),
        None => format!("{family}: {code}"),
    })
}

/// A protobuf Duration's JSON text (`"30s"`, `"1.5s"`).
fn parse_duration(text: &str) -> Option<Duration> {
    let seconds: f64 = text.trim().strip_suffix('s')?.parse().ok()?;
    (seconds.is_finite() && seconds >= 0.0).then(|| Duration::from_secs_f64(seconds))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Google's documented shape of a failed query.
    const QUERY_ERROR: &str = r#"{
      "error": {
        "code": 400,
        "message": "Request contains an invalid argument.",
        "status": "INVALID_ARGUMENT",
        "details": [
          {
            "@type": "type.googleapis.com/google.ads.googleads.v26.errors.GoogleAdsFailure",
            "errors": [
              {
                "errorCode": {"queryError": "UNRECOGNIZED_FIELD"},
                "message": "Unrecognized field in the query: 'campaign.nme'."
              },
              {
                "errorCode": {"queryError": "INVALID_ARGUMENT_TYPE"},
                "message": "second error"
              }
            ],
            "requestId": "abc123"
          }
        ]
      }
    }"#;

    #[test]
    fn the_first_google_ads_error_names_the_failure() {
        let failure = Failure::read("googleAds:search", 400, QUERY_ERROR.as_bytes());
        assert_eq!(failure.kind, FailureKind::Other);
        assert_eq!(
            failure.line,
            "Google Ads answered 400 INVALID_ARGUMENT on googleAds:search: Unrecognized field in \
             the query: 'campaign.nme'. (queryError: UNRECOGNIZED_FIELD)"
        );
        assert!(!failure.retryable());
        assert!(matches!(failure.into_error(0), ConnectorError::Vendor(_)));
    }

    #[test]
    fn quota_errors_are_retried_within_reason() {
        let body = r#"{"error": {"code": 429, "message": "Resource has been exhausted (e.g. check quota).",
          "status": "RESOURCE_EXHAUSTED", "details": [{
            "@type": "type.googleapis.com/google.ads.googleads.v26.errors.GoogleAdsFailure",
            "errors": [{"errorCode": {"quotaError": "RESOURCE_TEMPORARILY_EXHAUSTED"},
              "message": "Too many requests. Retry in 5 seconds.",
              "details": {"quotaErrorDetails": {"rateScope": "ACCOUNT", "rateName": "Requests per service per method", "retryDelay": "5s"}}}]}]}}"#;
        let failure = Failure::read("googleAds:search", 429, body.as_bytes());
        assert_eq!(failure.kind, FailureKind::RateLimited);
        assert_eq!(failure.retry_delay, Some(Duration::from_secs(5)));
        assert!(failure.retryable());
        let err = failure.into_error(4);
        match err {
            ConnectorError::RateLimited(line) => {
                assert!(
                    line.contains("Too many requests. Retry in 5 seconds."),
                    "{line}"
                );
                assert!(
                    line.contains("quotaError: RESOURCE_TEMPORARILY_EXHAUSTED"),
                    "{line}"
                );
                assert!(line.contains("after 4 retries"), "{line}");
            }
            other => panic!("{other:?}"),
        }
        // A daily quota asks for hours: not waited for.
        let daily = body.replace("\"5s\"", "\"86400s\"");
        let failure = Failure::read("googleAds:search", 429, daily.as_bytes());
        assert!(!failure.retryable());
    }

    #[test]
    fn refused_credentials_ask_for_a_reconnect() {
        let body = r#"{"error": {"code": 401, "message": "Request is missing required authentication credential.",
          "status": "UNAUTHENTICATED"}}"#;
        let failure = Failure::read("googleAds:search", 401, body.as_bytes());
        assert_eq!(failure.kind, FailureKind::Unauthenticated);
        let err = failure.into_error(0);
        assert!(matches!(&err, ConnectorError::Unauthorized(line)
            if line.contains("missing required authentication") && line.contains("reconnect")));

        let body = r#"{"error": {"code": 403, "message": "The caller does not have permission",
          "status": "PERMISSION_DENIED", "details": [{
            "@type": "type.googleapis.com/google.ads.googleads.v26.errors.GoogleAdsFailure",
            "errors": [{"errorCode": {"authorizationError": "USER_PERMISSION_DENIED"},
              "message": "User doesn't have permission to access customer."}]}]}}"#;
        let failure = Failure::read("googleAds:search", 403, body.as_bytes());
        assert_eq!(failure.kind, FailureKind::Forbidden);
        match failure.into_error(0) {
            ConnectorError::Unauthorized(line) => {
                assert!(line.contains("User doesn't have permission to access customer."));
                assert!(line.contains("authorizationError: USER_PERMISSION_DENIED"));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn server_errors_are_retried_then_unreachable() {
        let failure = Failure::read("googleAds:search", 503, b"<html>Service Unavailable</html>");
        assert_eq!(failure.kind, FailureKind::Server);
        assert!(failure.retryable());
        assert_eq!(
            failure.line,
            "Google Ads answered 503 on googleAds:search: no error message"
        );
        assert!(matches!(
            failure.into_error(4),
            ConnectorError::Unreachable(_)
        ));
    }

    #[test]
    fn durations_read_as_protobuf_writes_them() {
        assert_eq!(parse_duration("30s"), Some(Duration::from_secs(30)));
        assert_eq!(parse_duration("1.5s"), Some(Duration::from_millis(1500)));
        assert_eq!(parse_duration("soon"), None);
        assert_eq!(parse_duration("-1s"), None);
    }
}
