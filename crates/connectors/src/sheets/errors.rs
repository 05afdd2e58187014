//! Google's error answers (`{"error": {"code", "message", "status"}}`, as Sheets and Drive both
//! send them) into `ConnectorError`: 401/403 the service account refused, 429 a quota, 5xx
//! Google's trouble, anything else (404 included) the vendor's answer.

use serde::Deserialize;

use crate::ConnectorError;

#[derive(Debug, Default, Deserialize)]
struct Body {
    #[serde(default)]
    error: Detail,
}

#[derive(Debug, Default, Deserialize)]
struct Detail {
    message: Option<String>,
    status: Option<String>,
}

/// The marker of a 404 in the message, which [`is_not_found`] reads back.
const NOT_FOUND: &str = "answered 404";

pub(super) fn refusal(api: &str, call: &str, status: u16, body: &[u8]) -> ConnectorError {
    let detail = serde_json::from_slice::<Body>(body)
        .unwrap_or_default()
        .error;
    let message = detail
        .message
        .filter(|m| !m.trim().is_empty())
        .unwrap_or_else(|| "no error message".to_owned());
    let mut line = format!("{api} answered {status}");
    if let Some(rpc) = detail.status.filter(|s| !s.is_empty()) {
        line.push(' ');
        line.push_str(&rpc);
    }
    line.push_str(&format!(" on {call}: {message}"));
    match status {
        401 | 403 => ConnectorError::Unauthorized(line),
        429 => ConnectorError::RateLimited(line),
        500..=599 => ConnectorError::Unreachable(line),
        _ => ConnectorError::Vendor(line),
    }
}

/// Whether `err` is a 404 of [`refusal`].
pub(super) fn is_not_found(err: &ConnectorError) -> bool {
    matches!(err, ConnectorError::Vendor(line) if line.contains(NOT_FOUND))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn google_errors_are_read() {
        let body = br#"{"error":{"code":404,"message":"Requested entity was not found.","status":"NOT_FOUND"}}"#;
        let err = refusal("Google Sheets", "values.clear", 404, body);
        assert!(is_not_found(&err));
        assert_eq!(
            err.to_string(),
            "the vendor answered: Google Sheets answered 404 NOT_FOUND on values.clear: Requested entity was not found."
        );
        assert!(matches!(
            refusal("Google Drive", "permissions.create", 403, b"{}"),
            ConnectorError::Unauthorized(_)
        ));
        assert!(!is_not_found(&refusal(
            "Google Sheets",
            "values.update",
            500,
            b""
        )));
    }
}
