//! U+0000 in request strings. PostgreSQL cannot store it in text, so such a value failed as a
//! database error (a 500) on one backend while the other stored it; no field of this API has a
//! use for it. Refused up front with a 400 naming the field, in JSON bodies and in the path or
//! query of any request.

use axum::extract::Request;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde_json::Value;

use crate::error::ApiError;

/// Middleware: a path or query holding `%00` (the only way a URI carries U+0000) answers 400
/// before any route reads it as a slug, an id or a parameter.
pub async fn refuse_nul_in_uri(request: Request, next: Next) -> Response {
    let uri = request.uri();
    let holds_nul = |text: &str| memchr::memmem::find(text.as_bytes(), b"%00").is_some();
    if holds_nul(uri.path()) {
        return ApiError::bad_request("path: must not contain the NUL character (%00)")
            .into_response();
    }
    if uri.query().is_some_and(holds_nul) {
        return ApiError::bad_request("query: must not contain the NUL character (%00)")
            .into_response();
    }
    next.run(request).await
}

/// Answers 400 when a string (or key) of the JSON document `bytes` holds U+0000. JSON can only
/// spell it as the escape `\u0000`, so a scan of the raw bytes finds candidates at no real
/// cost; only then is the document parsed again to name the field.
pub(super) fn refuse_nul(bytes: &[u8]) -> Result<(), ApiError> {
    let escaped_nul = memchr::memmem::find_iter(bytes, br"\u0000").any(|at| {
        // `\\u0000` is a backslash followed by the text "u0000": an escape only when an even
        // number of backslashes come before this one.
        let preceding = bytes[..at]
            .iter()
            .rev()
            .take_while(|&&b| b == b'\\')
            .count();
        preceding % 2 == 0
    });
    if !escaped_nul {
        return Ok(());
    }
    // Malformed JSON is the deserializer's to report, with its own message.
    let Ok(document) = serde_json::from_slice::<Value>(bytes) else {
        return Ok(());
    };
    match path_of_nul(&document, String::new()) {
        Some(path) if path.is_empty() => Err(ApiError::bad_request(
            "invalid JSON body: must not contain the NUL character (\\u0000)",
        )),
        Some(path) => Err(ApiError::bad_request(format!(
            "{path}: must not contain the NUL character (\\u0000)"
        ))),
        None => Ok(()),
    }
}

/// The path (`events[3].name`) of the first string or key holding U+0000.
fn path_of_nul(value: &Value, path: String) -> Option<String> {
    match value {
        Value::String(text) => text.contains('\0').then_some(path),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .find_map(|(index, item)| path_of_nul(item, format!("{path}[{index}]"))),
        Value::Object(fields) => fields.iter().find_map(|(key, item)| {
            // A key holding NUL cannot be printed as a name: the object it is in is named.
            if key.contains('\0') {
                return Some(path.clone());
            }
            let field = if path.is_empty() {
                key.clone()
            } else {
                format!("{path}.{key}")
            };
            path_of_nul(item, field)
        }),
        Value::Null | Value::Bool(_) | Value::Number(_) => None,
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // a failing unwrap is the test's failure message
mod tests {
    use super::*;

    fn refusal(body: &str) -> Option<String> {
        refuse_nul(body.as_bytes()).err().map(|err| err.to_string())
    }

    #[test]
    fn names_the_field_holding_nul() {
        assert_eq!(
            refusal(r#"{"events": [{"name": "ok"}, {"name": "a\u0000b"}]}"#).unwrap(),
            "events[1].name: must not contain the NUL character (\\u0000)"
        );
        assert_eq!(
            refusal(r#"{"props": {"k\u0000": 1}}"#).unwrap(),
            "props: must not contain the NUL character (\\u0000)"
        );
        assert_eq!(
            refusal(r#""\u0000""#).unwrap(),
            "invalid JSON body: must not contain the NUL character (\\u0000)"
        );
    }

    #[test]
    fn leaves_everything_else_alone() {
        // An escaped backslash followed by the text u0000 is not a NUL.
        assert_eq!(refusal(r#"{"name": "C:\\u0000"}"#), None);
        assert!(refusal(r#"{"name": "\\\u0000"}"#).is_some());
        assert_eq!(refusal(r#"{"name": "\u0001 fine"}"#), None);
        // Malformed JSON is left to the deserializer's own message.
        assert_eq!(refusal(r#"{"name": "\u0000"#), None);
    }
}
