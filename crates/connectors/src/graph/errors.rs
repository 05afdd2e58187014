//! A Graph error answer read into what Payback does with it (Meta's "Handling Errors" guide and
//! the Marketing API rate-limiting doc):
//!
//! - 190 (and 102, the older session code) `OAuthException`: the token expired or was revoked;
//!   ask for a reconnect.
//! - 4, 17, 32, 341, 613 and 80000..=80014 (app, user, page, ad-account and business-use-case
//!   throttling), or HTTP 429: wait as long as the usage headers say when that is at most 30 s,
//!   otherwise fail now as rate limited (the sync's own backoff tries later).
//! - 10 and 200..=299: a permission the token lacks; say which when Meta's message names it.
//! - 1, 2, `is_transient: true` and 5xx: Meta's trouble; retried.
//! - 100 with subcode 33 (or 803): the object does not exist for this token, which a budget
//!   change refuses rather than fails on; 100 with subcode 1487534: the report is too large to
//!   answer synchronously, which the insights read moves to an async report.
//!
//! Meta's messages name fields and ids, not the request's token; the token is still scrubbed
//! from every line in case a message quotes it.

use std::time::Duration;

use reqwest::header::HeaderMap;

use super::TOKEN_REVOKED;
use super::usage;
use super::wire::{ErrorBody, GraphErrorObject};
use crate::ConnectorError;

/// A throttle that asks for longer than this is not waited for: the run fails now and the
/// sync's backoff tries again later.
pub(crate) const LONGEST_HONORED_WAIT: Duration = Duration::from_secs(30);

/// The subcode Meta answers when a synchronous insights query asks for too much data.
const TOO_MUCH_DATA_SUBCODE: i64 = 1_487_534;

/// Permissions Payback asks for, as Meta's messages name them; the first found is the one the
/// error line points at.
const PERMISSIONS: &[&str] = &[
    "ads_management",
    "ads_read",
    "business_management",
    "pages_read_engagement",
    "pages_show_list",
    "read_insights",
    "instagram_manage_insights",
    "instagram_basic",
];

/// What kind of refusal an answer was.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FailureKind {
    /// 190: the token is dead.
    TokenRefused,
    /// A rate limit; `regain` says how long Meta asks to wait, if it says.
    Throttled,
    /// 10 / 200..=299: the token lacks a permission (or the person a role).
    Permission,
    /// 1, 2, `is_transient`, 5xx: retried.
    Transient,
    /// 100/33 or 803: no such object for this token.
    Missing,
    /// 100/1487534: a synchronous insights query over Meta's data-per-call limit.
    TooMuchData,
    /// Anything else (a bad parameter, a refused write): final.
    Other,
}

/// One error answer, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Failure {
    pub kind: FailureKind,
    /// `Meta answered 400 OAuthException #100 on GET act_1/insights: <message> (subcode 33)`.
    pub line: String,
    /// How long the usage headers ask a throttled caller to wait.
    pub regain: Option<Duration>,
    /// The permission Meta's message names, for a permission error.
    pub permission: Option<&'static str>,
}

impl Failure {
    /// Reads a non-2xx answer of `call` (e.g. `GET act_1/insights`); `token` is scrubbed from
    /// the line.
    pub(crate) fn read(
        call: &str,
        status: u16,
        headers: &HeaderMap,
        body: &[u8],
        token: &str,
    ) -> Self {
        let error = serde_json::from_slice::<ErrorBody>(body)
            .ok()
            .and_then(|body| body.error)
            .unwrap_or_default();
        let kind = classify(status, &error);
        let message = error
            .message
            .clone()
            .filter(|text| !text.trim().is_empty())
            .unwrap_or_else(|| "no error message".to_owned());
        let mut line = format!("Meta answered {status}");
        if let Some(kind) = error.kind.as_deref().filter(|kind| !kind.is_empty()) {
            line.push(' ');
            line.push_str(kind);
        }
        if let Some(code) = error.code {
            line.push_str(&format!(" #{code}"));
        }
        line.push_str(&format!(" on {call}: {message}"));
        if let Some(user_msg) = error
            .error_user_msg
            .as_deref()
            .filter(|text| !text.trim().is_empty() && *text != message)
        {
            line.push_str(&format!(" ({user_msg})"));
        }
        let mut notes = Vec::new();
        if let Some(subcode) = error.error_subcode {
            notes.push(format!("subcode {subcode}"));
        }
        if let Some(trace) = error.fbtrace_id.as_deref().filter(|id| !id.is_empty()) {
            notes.push(format!("fbtrace_id {trace}"));
        }
        if !notes.is_empty() {
            line.push_str(&format!(" [{}]", notes.join(", ")));
        }
        let permission = (kind == FailureKind::Permission)
            .then(|| named_permission(&message))
            .flatten();
        Self {
            kind,
            line: scrub(&line, token),
            regain: usage::regain_access(headers),
            permission,
        }
    }

    /// Whether waiting and asking again may help: a throttle whose announced wait is short
    /// enough (or unannounced), or Meta's own trouble.
    pub(crate) fn retryable(&self) -> bool {
        match self.kind {
            FailureKind::Throttled => self.regain.is_none_or(|wait| wait <= LONGEST_HONORED_WAIT),
            FailureKind::Transient => true,
            _ => false,
        }
    }

    /// The error Payback reports, once `retries` retries did not help.
    pub(crate) fn into_error(self, retries: u32) -> ConnectorError {
        let Failure {
            kind,
            line,
            regain,
            permission,
        } = self;
        match kind {
            FailureKind::TokenRefused => {
                tracing::warn!(%line, "meta refused the access token");
                ConnectorError::Unauthorized(TOKEN_REVOKED.to_owned())
            }
            FailureKind::Throttled => {
                let wait = match regain {
                    Some(wait) if wait > LONGEST_HONORED_WAIT => format!(
                        "Meta asks to wait about {} before calling again",
                        describe_wait(wait)
                    ),
                    _ => format!("still throttled after {retries} retries"),
                };
                ConnectorError::RateLimited(format!(
                    "{line}; {wait}; the run stored nothing and will try again"
                ))
            }
            FailureKind::Permission => ConnectorError::Unauthorized(match permission {
                Some(permission) => format!(
                    "{line}; the grant lacks the `{permission}` permission: reconnect and allow it"
                ),
                None => format!(
                    "{line}; the token lacks a permission or role this call needs: reconnect and \
                     allow every permission asked"
                ),
            }),
            FailureKind::Transient => {
                ConnectorError::Unreachable(format!("{line} (after {retries} retries)"))
            }
            FailureKind::Missing | FailureKind::TooMuchData | FailureKind::Other => {
                ConnectorError::Vendor(line)
            }
        }
    }
}

fn classify(status: u16, error: &GraphErrorObject) -> FailureKind {
    let code = error.code.unwrap_or(0);
    let subcode = error.error_subcode.unwrap_or(0);
    match code {
        190 | 102 => FailureKind::TokenRefused,
        4 | 17 | 32 | 341 | 613 | 80_000..=80_014 => FailureKind::Throttled,
        10 | 200..=299 => FailureKind::Permission,
        100 if subcode == 33 => FailureKind::Missing,
        803 => FailureKind::Missing,
        100 if subcode == TOO_MUCH_DATA_SUBCODE => FailureKind::TooMuchData,
        1 | 2 => FailureKind::Transient,
        _ if error.is_transient == Some(true) => FailureKind::Transient,
        _ => match status {
            401 => FailureKind::TokenRefused,
            403 => FailureKind::Permission,
            429 => FailureKind::Throttled,
            500..=599 => FailureKind::Transient,
            _ => FailureKind::Other,
        },
    }
}

/// The first permission Payback asks for that `message` names (`(#200) Requires
/// ads_management permission to manage the object`).
fn named_permission(message: &str) -> Option<&'static str> {
    let words: Vec<&str> = message
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .collect();
    PERMISSIONS
        .iter()
        .copied()
        .find(|permission| words.contains(permission))
}

/// `line` with every occurrence of `token` replaced (tokens shorter than 8 characters are not
/// real Meta tokens, and replacing them would mangle the line).
pub(crate) fn scrub(line: &str, token: &str) -> String {
    if token.len() < 8 {
        return line.to_owned();
    }
    line.replace(token, "[redacted]")
}

/// `40 s`, `4 min`, `2 h`.
fn describe_wait(wait: Duration) -> String {
    let seconds = wait.as_secs();
    if seconds < 120 {
        format!("{seconds} s")
    } else if seconds < 2 * 3600 {
        format!("{} min", seconds.div_ceil(60))
    } else {
        format!("{} h", seconds.div_ceil(3600))
    }
}

#[cfg(test)]
mod tests {
    use reqwest::header::HeaderValue;

    use super::*;

    const TOKEN: &str = "EAAB-secret-token-value";

    fn read(status: u16, body: &str) -> Failure {
        Failure::read(
            "GET me/adaccounts",
            status,
            &HeaderMap::new(),
            body.as_bytes(),
            TOKEN,
        )
    }

    #[test]
    fn an_expired_token_asks_for_a_reconnect() {
        let failure = read(
            400,
            r#"{"error": {"message": "Error validating access token: Session has expired on Friday.",
              "type": "OAuthException", "code": 190, "error_subcode": 463, "fbtrace_id": "EJplcsCHuLu"}}"#,
        );
        assert_eq!(failure.kind, FailureKind::TokenRefused);
        assert_eq!(
            failure.line,
            "Meta answered 400 OAuthException #190 on GET me/adaccounts: Error validating access \
             token: Session has expired on Friday. [subcode 463, fbtrace_id EJplcsCHuLu]"
        );
        assert!(!failure.retryable());
        match failure.into_error(0) {
            ConnectorError::Unauthorized(line) => assert_eq!(line, TOKEN_REVOKED),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_user_throttle_without_usage_headers_is_retried() {
        let failure = read(
            400,
            r#"{"error": {"message": "(#17) User request limit reached", "type": "OAuthException",
              "is_transient": true, "code": 17, "error_subcode": 2446079, "fbtrace_id": "A1"}}"#,
        );
        assert_eq!(failure.kind, FailureKind::Throttled);
        assert_eq!(failure.regain, None);
        assert!(failure.retryable());
        match failure.into_error(4) {
            ConnectorError::RateLimited(line) => {
                assert!(line.contains("(#17) User request limit reached"), "{line}");
                assert!(line.contains("subcode 2446079"), "{line}");
                assert!(line.contains("still throttled after 4 retries"), "{line}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_business_use_case_throttle_waits_only_when_the_wait_is_short() {
        let body = r#"{"error": {"message": "(#80004) There have been too many calls to this ad-account. Wait a bit and try again.",
          "type": "OAuthException", "code": 80004, "error_subcode": 2446079, "fbtrace_id": "B2"}}"#;
        let mut headers = HeaderMap::new();
        headers.insert(
            usage::BUSINESS_USE_CASE,
            HeaderValue::from_static(
                r#"{"1234": [{"type": "ads_management", "call_count": 100, "total_cputime": 10, "total_time": 12, "estimated_time_to_regain_access": 7}]}"#,
            ),
        );
        let failure = Failure::read("POST 42", 400, &headers, body.as_bytes(), TOKEN);
        assert_eq!(failure.kind, FailureKind::Throttled);
        assert_eq!(failure.regain, Some(Duration::from_secs(420)));
        assert!(!failure.retryable(), "7 minutes is not waited for");
        match failure.into_error(0) {
            ConnectorError::RateLimited(line) => {
                assert!(line.contains("#80004"), "{line}");
                assert!(line.contains("wait about 7 min"), "{line}");
            }
            other => panic!("{other:?}"),
        }
        let mut short = HeaderMap::new();
        short.insert(
            usage::AD_ACCOUNT,
            HeaderValue::from_static(r#"{"acc_id_util_pct": 100, "reset_time_duration": 12}"#),
        );
        let failure = Failure::read("POST 42", 400, &short, body.as_bytes(), TOKEN);
        assert_eq!(failure.regain, Some(Duration::from_secs(12)));
        assert!(failure.retryable());
    }

    #[test]
    fn a_bad_parameter_is_the_vendors_word_and_missing_objects_are_told_apart() {
        let failure = read(
            400,
            r#"{"error": {"message": "(#100) Tried accessing nonexisting field (budget) on node type (Campaign)",
              "type": "OAuthException", "code": 100, "fbtrace_id": "C3"}}"#,
        );
        assert_eq!(failure.kind, FailureKind::Other);
        assert!(!failure.retryable());
        assert!(matches!(failure.into_error(0), ConnectorError::Vendor(line)
            if line.contains("nonexisting field (budget)")));

        let missing = read(
            400,
            r#"{"error": {"message": "Unsupported get request. Object with ID '999' does not exist, cannot be loaded due to missing permissions, or does not support this operation.",
              "type": "GraphMethodException", "code": 100, "error_subcode": 33, "fbtrace_id": "D4"}}"#,
        );
        assert_eq!(missing.kind, FailureKind::Missing);
        let too_much = read(
            400,
            r#"{"error": {"message": "Please reduce the amount of data you're asking for, then retry your request",
              "type": "OAuthException", "code": 100, "error_subcode": 1487534}}"#,
        );
        assert_eq!(too_much.kind, FailureKind::TooMuchData);
    }

    #[test]
    fn permission_errors_name_the_permission() {
        let failure = read(
            403,
            r#"{"error": {"message": "(#200) Requires ads_management permission to manage the object",
              "type": "OAuthException", "code": 200, "fbtrace_id": "E5"}}"#,
        );
        assert_eq!(failure.kind, FailureKind::Permission);
        assert_eq!(failure.permission, Some("ads_management"));
        match failure.into_error(0) {
            ConnectorError::Unauthorized(line) => {
                assert!(
                    line.contains("lacks the `ads_management` permission"),
                    "{line}"
                )
            }
            other => panic!("{other:?}"),
        }
        let unnamed = read(
            400,
            r#"{"error": {"message": "(#10) Application does not have permission for this action",
              "type": "OAuthException", "code": 10}}"#,
        );
        assert_eq!(unnamed.kind, FailureKind::Permission);
        assert_eq!(unnamed.permission, None);
        assert!(
            matches!(unnamed.into_error(0), ConnectorError::Unauthorized(line)
            if line.contains("allow every permission asked"))
        );
    }

    #[test]
    fn server_trouble_is_retried_then_unreachable() {
        let failure = read(500, "<html>oops</html>");
        assert_eq!(failure.kind, FailureKind::Transient);
        assert_eq!(
            failure.line,
            "Meta answered 500 on GET me/adaccounts: no error message"
        );
        assert!(failure.retryable());
        assert!(
            matches!(failure.into_error(3), ConnectorError::Unreachable(line)
            if line.ends_with("(after 3 retries)"))
        );
        let unknown = read(
            500,
            r#"{"error": {"message": "An unknown error occurred", "type": "OAuthException", "code": 1, "error_subcode": 99}}"#,
        );
        assert_eq!(unknown.kind, FailureKind::Transient);
        let flagged = read(
            400,
            r#"{"error": {"message": "Service temporarily unavailable", "code": 9999, "is_transient": true}}"#,
        );
        assert_eq!(flagged.kind, FailureKind::Transient);
    }

    #[test]
    fn a_token_quoted_by_meta_never_reaches_the_line() {
        let failure = read(
            400,
            &format!(
                r#"{{"error": {{"message": "Malformed access token {TOKEN}", "type": "OAuthException", "code": 100}}}}"#
            ),
        );
        assert!(!failure.line.contains(TOKEN), "{}", failure.line);
        assert!(failure.line.contains("Malformed access token [redacted]"));
    }
}
