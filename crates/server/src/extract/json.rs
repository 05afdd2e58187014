//! JSON bodies. An empty body reads as `{}` (so `POST /auth/keys` with no body works), a body
//! with a non-JSON content type answers 415, an oversized one 413, and a body that does not fit
//! the type answers 400 naming the field (`name: invalid type: ...`).

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::header::CONTENT_TYPE;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;

use crate::error::ApiError;

/// A JSON body deserialized into `T`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Json<T>(pub T);

/// A JSON body deserialized into `T` and then checked by its `garde` rules.
#[derive(Debug, Clone, Copy, Default)]
pub struct ValidJson<T>(pub T);

impl<T, S> FromRequest<S> for Json<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let bytes = read_json_body(req, state).await?;
        parse_json(&bytes).map(Json)
    }
}

impl<T, S> FromRequest<S> for ValidJson<T>
where
    T: DeserializeOwned + garde::Validate<Context = ()>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let Json(value) = Json::<T>::from_request(req, state).await?;
        value
            .validate()
            .map_err(|report| ApiError::BadRequest(describe_report(&report)))?;
        Ok(ValidJson(value))
    }
}

/// A JSON body that may also arrive as `text/plain`: browsers send beacons that way, because a
/// `text/plain` POST needs no CORS preflight.
#[derive(Debug, Clone, Copy, Default)]
pub struct BeaconJson<T>(pub T);

impl<T, S> FromRequest<S> for BeaconJson<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let bytes = read_body(req, state, true).await?;
        parse_json(&bytes).map(BeaconJson)
    }
}

impl<T: serde::Serialize> IntoResponse for Json<T> {
    fn into_response(self) -> Response {
        axum::Json(self.0).into_response()
    }
}

async fn read_json_body<S: Send + Sync>(req: Request, state: &S) -> Result<Bytes, ApiError> {
    read_body(req, state, false).await
}

/// Reads the body, refusing content types other than JSON (and, with `allow_text`, `text/plain`).
async fn read_body<S: Send + Sync>(
    req: Request,
    state: &S,
    allow_text: bool,
) -> Result<Bytes, ApiError> {
    let content_type_ok =
        is_json_or_absent(req.headers()) || (allow_text && is_text_plain(req.headers()));
    let bytes = Bytes::from_request(req, state).await.map_err(|rejection| {
        if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::PayloadTooLarge("request body too large".to_owned())
        } else {
            ApiError::BadRequest(format!(
                "could not read the request body: {}",
                rejection.body_text()
            ))
        }
    })?;
    if !bytes.is_empty() && !content_type_ok {
        return Err(ApiError::UnsupportedMediaType(
            "expected a JSON body with Content-Type: application/json".to_owned(),
        ));
    }
    Ok(bytes)
}

fn is_text_plain(headers: &HeaderMap) -> bool {
    headers
        .get(CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| {
            value
                .split(';')
                .next()
                .unwrap_or_default()
                .trim()
                .eq_ignore_ascii_case("text/plain")
        })
}

fn is_json_or_absent(headers: &HeaderMap) -> bool {
    let Some(value) = headers.get(CONTENT_TYPE) else {
        return true;
    };
    let Ok(value) = value.to_str() else {
        return false;
    };
    let essence = value
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    essence == "application/json" || essence.ends_with("+json")
}

/// Deserializes JSON, naming the path of the offending field in the error.
pub fn parse_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    let bytes: &[u8] = if bytes.iter().all(u8::is_ascii_whitespace) {
        b"{}"
    } else {
        bytes
    };
    super::nul::refuse_nul(bytes)?;
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let value = serde_path_to_error::deserialize(&mut deserializer).map_err(|err| {
        let path = err.path().to_string();
        let inner = err.into_inner();
        // A syntax error is about the document, not a field: inside an object the path is a
        // bare `?` (the key could not be read), which names nothing. Say where in the text.
        if matches!(
            inner.classify(),
            serde_json::error::Category::Syntax | serde_json::error::Category::Eof
        ) {
            return ApiError::BadRequest(format!("invalid JSON body: {inner}"));
        }
        let message = strip_position(&inner);
        if path == "." || path.is_empty() {
            ApiError::BadRequest(format!("invalid JSON body: {message}"))
        } else {
            ApiError::BadRequest(format!("{path}: {message}"))
        }
    })?;
    // A body is one JSON value: `{...} garbage` or two objects back to back is malformed, not
    // the first value with the rest silently dropped.
    deserializer
        .end()
        .map_err(|err| ApiError::BadRequest(format!("invalid JSON body: {err}")))?;
    Ok(value)
}

/// serde_json appends " at line 1 column 7"; the field path already says where.
fn strip_position(err: &serde_json::Error) -> String {
    let text = err.to_string();
    match text.rfind(" at line ") {
        Some(at) if err.line() > 0 => text[..at].to_owned(),
        _ => text,
    }
}

/// `name: length is greater than 120; slug: ...`
pub fn describe_report(report: &garde::Report) -> String {
    report
        .iter()
        .map(|(path, error)| {
            let path = path.to_string();
            if path.is_empty() {
                error.to_string()
            } else {
                format!("{path}: {error}")
            }
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// `deserialize_with` helper distinguishing an absent field (`None`) from an explicit `null`
/// (`Some(None)`), for edits where null clears a value.
pub fn double_option<'de, D, T>(deserializer: D) -> Result<Option<Option<T>>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::Deserialize<'de>,
{
    serde::Deserialize::deserialize(deserializer).map(Some)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // a failing unwrap is the test's failure message
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    struct Sample {
        #[allow(dead_code)]
        name: String,
    }

    #[test]
    fn names_the_field_and_drops_positions() {
        let err = parse_json::<Sample>(br#"{"name": 5}"#).unwrap_err();
        assert_eq!(
            err.to_string(),
            "name: invalid type: integer `5`, expected a string"
        );
        let err = parse_json::<Sample>(b"{}").unwrap_err();
        assert_eq!(err.to_string(), "invalid JSON body: missing field `name`");
        let err = parse_json::<Sample>(b"{nope").unwrap_err();
        assert!(
            err.to_string()
                .starts_with("invalid JSON body: key must be a string"),
            "{err}"
        );
        // Inside an object the key path is `?`; the error still speaks of the document.
        let err = parse_json::<Sample>(br#"{"name": "x", nope"#).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("invalid JSON body: key must be a string"),
            "{err}"
        );
        let err = parse_json::<Sample>(br#"{"name": "x"} trailing"#).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("invalid JSON body: trailing characters"),
            "{err}"
        );
        assert!(parse_json::<Sample>(b"{\"name\": \"x\"}\n").is_ok());
    }
}
