//! The credentials of `/mcp`: the API's bearer (an API key or a session), resolved with the
//! API's own checks before any MCP processing. The resolved caller rides on the request's
//! extensions, where the SDK hands it to each tool call (`server.rs`).

use axum::extract::{FromRequestParts, Request, State};
use axum::http::HeaderValue;
use axum::http::header::WWW_AUTHENTICATE;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use payback_domain::Via;

use crate::services::acting::Caller;
use crate::state::AppState;

/// Resolves the bearer as the API does (the HTTP door's `Caller` extractor, which runs
/// `caller_for_token`: unknown, revoked and idle credentials are refused) and names the MCP door.
/// Without valid credentials: the API's 401 `{error}`, with `WWW-Authenticate: Bearer` so MCP
/// clients know to send one.
pub async fn authenticate(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let (mut parts, body) = request.into_parts();
    match Caller::from_request_parts(&mut parts, &state).await {
        Ok(caller) => {
            parts.extensions.insert(caller.through(Via::Mcp));
            next.run(Request::from_parts(parts, body)).await
        }
        Err(err) => {
            let unauthorized = err.status().as_u16() == 401;
            let mut response = err.into_response();
            if unauthorized {
                response
                    .headers_mut()
                    .insert(WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
            }
            response
        }
    }
}
