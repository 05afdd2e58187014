//! The MCP server at `/mcp` through a real MCP client (the official Rust SDK, `rmcp`, over its
//! streamable HTTP client transport), on both backends.
//!
//! - `protocol`: initialize (and the 2026-07-28 revision's discovery without it), the tool list
//!   (names, descriptions, input schemas; nothing that approves or changes policy), credentials
//!   (none or bad: 401 before any MCP; a key and a session both work).
//! - `reads`: every read tool answers the HTTP API's JSON for the same request; inputs the API
//!   refuses are tool errors naming the field; another account's product is the API's 404.
//! - `writes`: the proposal tool queues a pending card and nothing else, a policy refusal is a
//!   tool error carrying `policy_code`, distribution is recorded, and history records each
//!   write `via: mcp` with the key's `keeper` or the person's email.

use payback_testkit::{Session, TestApp, backend_tests};
use rmcp::model::{CallToolRequestParams, CallToolResult, ClientConfig, ContentBlock};
use rmcp::service::{RoleClient, RunningService, ServiceExt};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use serde_json::{Value, json};

mod protocol;
mod reads;
mod writes;

const OWNER: &str = "owner@example.com";

/// A connected MCP client.
type Agent = RunningService<RoleClient, ClientConfig>;

/// The client transport to `/mcp`, sending `token` as the bearer (none when `None`).
fn transport(app: &TestApp, token: Option<&str>) -> StreamableHttpClientTransport<reqwest::Client> {
    let mut config = StreamableHttpClientTransportConfig::with_uri(app.url("/mcp"));
    if let Some(token) = token {
        config = config.auth_header(token);
    }
    StreamableHttpClientTransport::from_config(config)
}

/// An MCP client that has initialized with `/mcp` as `token`.
async fn connect(app: &TestApp, token: &str) -> Agent {
    ClientConfig::default()
        .serve(transport(app, Some(token)))
        .await
        .expect("the MCP client initializes")
}

/// Calls `name` with `arguments` (an object).
async fn call(agent: &Agent, name: &str, arguments: Value) -> CallToolResult {
    let arguments = arguments.as_object().cloned().unwrap_or_default();
    agent
        .call_tool(CallToolRequestParams::new(name.to_owned()).with_arguments(arguments))
        .await
        .unwrap_or_else(|err| panic!("calling {name}: {err}"))
}

/// The JSON a tool result carries as text.
fn text_json(result: &CallToolResult) -> Value {
    match result.content.as_slice() {
        [ContentBlock::Text(text)] => serde_json::from_str(&text.text).expect("the text is JSON"),
        other => panic!("expected one text block, got {other:?}"),
    }
}

/// A successful tool's answer (checked against its structured copy when it has one).
fn answer(result: &CallToolResult) -> Value {
    assert_eq!(result.is_error, Some(false), "{result:?}");
    let value = text_json(result);
    if let Some(structured) = &result.structured_content {
        assert_eq!(structured, &value);
    }
    value
}

/// A tool error's body: `{error, status, policy_code?}`.
fn tool_error(result: &CallToolResult) -> Value {
    assert_eq!(result.is_error, Some(true), "{result:?}");
    let value = text_json(result);
    assert_eq!(result.structured_content.as_ref(), Some(&value));
    value
}

/// An owner with a product `shop` and an agent key.
async fn founder(app: &TestApp) -> (Session, String) {
    let owner = app.signup_verified(OWNER).await;
    app.create_product(&owner.token, "shop").await;
    let key = app.api_key(&owner).await;
    (owner, key)
}

fn proposal(to_cents: i64) -> Value {
    json!({
        "slug": "shop",
        "network": "google",
        "campaign_id": "cmp-1",
        "from_cents": 2_000,
        "to_cents": to_cents,
        "rationale": "CAC on search is well under target; room to grow.",
        "rollback_if": { "cac_ceiling_cents": 4_000, "window_days": 7 },
    })
}

/// `(action, actor, via)` of the events of `card_id` as the owner reads history over HTTP,
/// oldest first.
async fn card_history(app: &TestApp, owner: &str, card_id: &str) -> Vec<(String, String, String)> {
    let word = |event: &Value, field: &str| event[field].as_str().unwrap_or_default().to_owned();
    app.history_where(owner, |event| event["subject_ref"] == card_id)
        .await
        .iter()
        .map(|event| {
            (
                word(event, "action"),
                word(event, "actor"),
                word(event, "via"),
            )
        })
        .collect()
}
