//! The MCP handler: lists Payback's tool set (`tools/`) and runs a call as the caller the request
//! authenticated as (`auth.rs` put it on the request; the SDK hands the request's parts to each
//! call). A tool's failure is a tool error whose content is the API's error body with its status
//! (`ToolError`), so the agent reads it; only a call the protocol cannot route (an unknown tool)
//! is a protocol error.

use std::sync::Arc;

use axum::http::request::Parts;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
    ToolAnnotations,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ErrorData, ServerHandler};
use serde_json::Value;

use crate::services::acting::Caller;
use crate::state::AppState;
use crate::tools::{self, Access, ToolError};

/// What the server tells an agent when it connects.
const INSTRUCTIONS: &str = "Payback measures what each product's channels and ads bring in \
    (attribution, funnel, payback, spend) and keeps every spend change behind a human. Start with \
    list_products for the slugs. Amounts are integer cents of the product's currency. Everything \
    you can read is scoped to the account of your credentials. propose_spend_change only queues a \
    card: a human approves or rejects it in Payback, and no tool can. Errors are JSON {error, \
    status, policy_code?} as the HTTP API answers them.";

/// The MCP server of one request: the application's state, and the tool set.
#[derive(Clone)]
pub struct PaybackMcp {
    state: AppState,
}

impl PaybackMcp {
    pub fn new(state: AppState) -> Self {
        Self { state }
    }
}

/// A tool of the set as MCP declares it.
fn declared(tool: &tools::Tool) -> Tool {
    let annotations = match tool.access {
        Access::Read => ToolAnnotations::new().read_only(true),
        // Writes add a record (a card, an entry) and never overwrite; calling twice adds two.
        Access::Write => ToolAnnotations::new()
            .read_only(false)
            .destructive(false)
            .idempotent(false),
    }
    .open_world(false);
    Tool::new(tool.name, tool.description, Arc::new(tool.input_schema())).annotate(annotations)
}

/// A tool's answer as MCP carries it: the JSON as text, and as structured content when it is an
/// object (MCP's structured content is one).
fn answered(result: Result<Value, ToolError>) -> CallToolResult {
    match result {
        Ok(value) if value.is_object() => CallToolResult::structured(value),
        Ok(value) => CallToolResult::success(vec![ContentBlock::text(value.to_string())]),
        Err(err) => match serde_json::to_value(&err) {
            Ok(body) => CallToolResult::structured_error(body),
            Err(_) => CallToolResult::error(vec![ContentBlock::text(err.error)]),
        },
    }
}

impl ServerHandler for PaybackMcp {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("payback", env!("CARGO_PKG_VERSION")))
            .with_instructions(INSTRUCTIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(
            tools::all().iter().map(declared).collect(),
        ))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let tool = tools::find(&request.name).ok_or_else(|| {
            ErrorData::invalid_params(format!("unknown tool: {}", request.name), None)
        })?;
        // `auth.rs` refused the request unless it resolved a caller; one missing here is a
        // request that did not come through the router, which nothing should serve.
        let caller = context
            .extensions
            .get::<Parts>()
            .and_then(|parts| parts.extensions.get::<Caller>())
            .ok_or_else(|| ErrorData::internal_error("the request carries no caller", None))?;
        let arguments = request.arguments.map_or(Value::Null, Value::Object);
        let result = tool.call(&self.state, caller, arguments).await;
        Ok(answered(result).into())
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // a failing unwrap is the test's failure message
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn declares_every_tool_with_its_schema_and_access() {
        for tool in tools::all() {
            let declared = declared(tool);
            assert_eq!(declared.name, tool.name);
            assert_eq!(declared.description.as_deref(), Some(tool.description));
            assert_eq!(*declared.input_schema, tool.input_schema());
            let annotations = declared.annotations.unwrap();
            assert_eq!(
                annotations.read_only_hint,
                Some(tool.access == Access::Read)
            );
        }
    }

    #[test]
    fn errors_are_tool_errors_carrying_the_api_body() {
        let refused = answered(Err(ToolError {
            error: "over the cap".to_owned(),
            status: 422,
            policy_code: Some("daily_cap_exceeded".to_owned()),
        }));
        assert_eq!(refused.is_error, Some(true));
        assert_eq!(
            refused.structured_content,
            Some(
                json!({"error": "over the cap", "status": 422, "policy_code": "daily_cap_exceeded"})
            )
        );
        let rows = answered(Ok(json!([{"day": "2026-01-01"}])));
        assert_eq!(rows.is_error, Some(false));
        assert_eq!(rows.structured_content, None);
        match &rows.content[0] {
            ContentBlock::Text(text) => assert_eq!(text.text, r#"[{"day":"2026-01-01"}]"#),
            other => panic!("{other:?}"),
        }
    }
}
