//! Small body limits for the public routes. The global limit (`PAYBACK_MAX_BODY_BYTES`, 16 MiB
//! by default) is sized for server-side event batches; a route anyone may call without a
//! credential should not read that much before it can refuse the caller. These limits apply
//! before the handler: an announced `Content-Length` over the limit is refused without reading
//! the body, and a body without one is read only up to the limit.

use axum::body::Body;
use axum::extract::Request;
use axum::http::header::CONTENT_LENGTH;
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use http_body_util::{BodyExt, LengthLimitError, Limited};
use utoipa_axum::router::OpenApiRouter;

use crate::error::ApiError;

/// Signup, login, lead capture, claims and invites: a few short fields.
pub const AUTH_BODY_LIMIT: usize = 16 * 1024;

/// `POST /t/events`: a browser batch of at most 25 events.
pub const BROWSER_EVENTS_BODY_LIMIT: usize = 64 * 1024;

/// Refuses bodies over `limit` bytes on `routes` with 413 naming the limit; `advice` follows
/// the message (what to do instead).
pub fn limit_body<S>(
    routes: OpenApiRouter<S>,
    limit: usize,
    advice: &'static str,
) -> OpenApiRouter<S>
where
    S: Clone + Send + Sync + 'static,
{
    routes.layer(middleware::from_fn(move |req: Request, next: Next| {
        read_capped(req, next, limit, advice)
    }))
}

async fn read_capped(req: Request, next: Next, limit: usize, advice: &'static str) -> Response {
    match capped(req, limit, advice).await {
        Ok(req) => next.run(req).await,
        Err(err) => err.into_response(),
    }
}

/// The request with its body read whole, at most `limit` bytes of it.
async fn capped(req: Request, limit: usize, advice: &'static str) -> Result<Request, ApiError> {
    let too_large = ApiError::PayloadTooLarge(format!(
        "request body too large: {} takes at most {limit} bytes{advice}",
        req.uri().path()
    ));
    let announced = req
        .headers()
        .get(CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.trim().parse::<u64>().ok());
    if announced.is_some_and(|length| length > limit as u64) {
        return Err(too_large);
    }
    let (parts, body) = req.into_parts();
    let bytes = match Limited::new(body, limit).collect().await {
        Ok(collected) => collected.to_bytes(),
        Err(err) if err.downcast_ref::<LengthLimitError>().is_some() => return Err(too_large),
        Err(err) => {
            return Err(ApiError::BadRequest(format!(
                "could not read the request body: {err}"
            )));
        }
    };
    Ok(Request::from_parts(parts, Body::from(bytes)))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // a failing unwrap is the test's failure message
mod tests {
    use super::*;
    use axum::http::StatusCode;
    use axum::routing::post;
    use tower::ServiceExt as _;

    async fn echo_length(body: axum::body::Bytes) -> String {
        body.len().to_string()
    }

    fn app() -> axum::Router {
        let routes: OpenApiRouter<()> = OpenApiRouter::new().route("/echo", post(echo_length));
        let (router, _) = limit_body(routes, 8, "; split it").split_for_parts();
        router
    }

    async fn call(body: Body, length: Option<usize>) -> (StatusCode, String) {
        let mut request = Request::post("/echo");
        if let Some(length) = length {
            request = request.header(CONTENT_LENGTH, length);
        }
        let response = app().oneshot(request.body(body).unwrap()).await.unwrap();
        let status = response.status();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        (status, String::from_utf8(bytes.to_vec()).unwrap())
    }

    fn chunks(parts: &[&'static str]) -> Body {
        let parts: Vec<Result<&'static str, std::io::Error>> =
            parts.iter().map(|part| Ok(*part)).collect();
        Body::from_stream(futures_util::stream::iter(parts))
    }

    #[tokio::test]
    async fn bodies_up_to_the_limit_pass_whole() {
        assert_eq!(
            call(Body::from("12345678"), Some(8)).await,
            (StatusCode::OK, "8".to_owned())
        );
        assert_eq!(
            call(chunks(&["1234", "5678"]), None).await,
            (StatusCode::OK, "8".to_owned())
        );
    }

    #[tokio::test]
    async fn larger_bodies_answer_413_naming_the_limit() {
        let expected =
            r#"{"error":"request body too large: /echo takes at most 8 bytes; split it"}"#;
        // Announced too large: refused before reading.
        assert_eq!(
            call(Body::from("123456789"), Some(9)).await,
            (StatusCode::PAYLOAD_TOO_LARGE, expected.to_owned())
        );
        // Streamed without a length: refused once the limit is passed.
        assert_eq!(
            call(chunks(&["1234", "5678", "9"]), None).await,
            (StatusCode::PAYLOAD_TOO_LARGE, expected.to_owned())
        );
    }
}
