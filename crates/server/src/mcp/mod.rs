//! The MCP server at `/mcp`: any agent that speaks the Model Context Protocol (desktop
//! assistants, coding agents) uses Payback's tool set (`tools/`) through the streamable HTTP
//! transport of the official Rust SDK (`rmcp`).
//!
//! Every request carries the bearer credentials the API takes (an API key or a session) and is
//! resolved with the API's checks before the protocol sees it: missing or bad credentials answer
//! the API's 401 (`auth.rs`). Each tool call then runs as that [`Caller`](crate::services::acting::Caller),
//! calling through `via: mcp`, so it is scoped to the caller's account exactly like the API and
//! every write is recorded in history as made through MCP.
//!
//! The server keeps no sessions: each POST is answered on its own (stateless streamable HTTP,
//! JSON answers), so any instance behind a load balancer can take any request and a credential
//! is checked on every one.

mod auth;
mod server;

use std::sync::Arc;

use axum::Router;
use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};

pub use server::PaybackMcp;

use crate::state::AppState;

/// Where the MCP endpoint is mounted.
pub const PATH: &str = "/mcp";

/// `/mcp`, authenticated, ready to merge into the application's router.
pub fn router(state: &AppState) -> Router {
    let config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(false)
        .with_json_response(true)
        .with_max_request_body_bytes(state.config.max_body_bytes)
        // The SDK refuses Host headers other than loopback by default, against DNS rebinding of
        // servers on a developer's machine that trust whoever reaches them. Payback trusts no
        // one who reaches it: every request must carry a bearer credential in a header, which a
        // rebinding page cannot send, and the API answers any Host as well.
        .disable_allowed_hosts();
    let service_state = state.clone();
    let service = StreamableHttpService::new(
        move || Ok(PaybackMcp::new(service_state.clone())),
        Arc::new(NeverSessionManager::default()),
        config,
    );
    Router::new()
        .route_service(PATH, service)
        .route_layer(axum::middleware::from_fn_with_state(
            state.clone(),
            auth::authenticate,
        ))
}
