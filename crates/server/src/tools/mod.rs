//! The one tool set agents use, defined once over the services and shared by every agent door:
//! the MCP server (`mcp/`) declares these tools as they are, and the chat assistant will hand the
//! same list to the model. Each [`Tool`] is a name, a description, a JSON schema of its input and
//! a call that takes the door's [`Caller`], so a tool is tenant-scoped, validated and audited
//! exactly like the HTTP route it mirrors: inputs go through the same checks (`Window::new`, the
//! route's field rules and constants), results are the route's JSON, and failures are the route's
//! error with its HTTP status (`ToolError`).
//!
//! What is absent is the point: an agent reads everything in its account, raises spend proposals
//! (which only queue a card a human must approve) and records distribution. No tool resolves,
//! snoozes or restores a card, or changes policy, keys, team or billing; the services would refuse
//! an API key anyway, but a session's door must not be able to try either.

pub mod args;
mod connections;
mod distribution;
mod error;
mod growth;
mod health_report;
mod products;
mod queue;
mod reports;
mod spend;

use std::future::Future;
use std::pin::Pin;

use serde::Serialize;
use serde_json::{Map, Value};

pub use error::ToolError;

use crate::services::acting::Caller;
use crate::state::AppState;

/// What a tool's call comes to: the API's JSON, or the API's error.
pub type ToolResult = Result<Value, ToolError>;

/// A tool's call in flight, borrowing the state and the caller.
pub type ToolFuture<'a> = Pin<Box<dyn Future<Output = ToolResult> + Send + 'a>>;

/// Whether calling a tool can leave anything behind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Reads only.
    Read,
    /// Adds a record (a proposal card, a distribution entry), audited with the door's `via`. No
    /// tool's write changes spend, policy or people.
    Write,
}

/// One tool: what an agent sees of it (name, description, input schema) and its call.
#[derive(Clone, Copy)]
pub struct Tool {
    pub name: &'static str,
    pub description: &'static str,
    pub access: Access,
    schema: fn() -> Map<String, Value>,
    run: for<'a> fn(&'a AppState, &'a Caller, Value) -> ToolFuture<'a>,
}

impl std::fmt::Debug for Tool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tool")
            .field("name", &self.name)
            .field("access", &self.access)
            .finish_non_exhaustive()
    }
}

impl Tool {
    /// The JSON schema (draft 2020-12) of the tool's arguments: always an object.
    pub fn input_schema(&self) -> Map<String, Value> {
        (self.schema)()
    }

    /// Runs the tool for `caller` with `arguments` (a JSON object; `null` reads as `{}`).
    pub async fn call(&self, state: &AppState, caller: &Caller, arguments: Value) -> ToolResult {
        (self.run)(state, caller, arguments).await
    }
}

/// Every tool, reads first, in the order a person would look: products, reports, spend and the
/// queue, history, connections; then the two writes.
static TOOLS: &[Tool] = &[
    products::LIST_PRODUCTS,
    products::GET_PRODUCT,
    reports::ATTRIBUTION,
    reports::SALES,
    reports::ADS,
    reports::TIMESERIES,
    reports::FUNNEL,
    reports::PAYBACK,
    reports::CONVERSIONS,
    spend::SPEND,
    queue::QUEUE,
    queue::HISTORY,
    connections::CONNECTIONS,
    connections::HEALTH,
    health_report::HEALTH_REPORT,
    growth::GROWTH_ACTIONS,
    distribution::LIST_DISTRIBUTION,
    spend::PROPOSE,
    distribution::RECORD_DISTRIBUTION,
];

/// The whole tool set.
pub fn all() -> &'static [Tool] {
    TOOLS
}

/// The tool called `name`, if there is one.
pub fn find(name: &str) -> Option<&'static Tool> {
    TOOLS.iter().find(|tool| tool.name == name)
}

/// A service's answer as the JSON the route sends.
fn json(answer: impl Serialize) -> ToolResult {
    serde_json::to_value(answer).map_err(|err| ToolError::from(crate::ApiError::internal(err)))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // a failing unwrap is the test's failure message
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    #[test]
    fn names_are_unique_and_each_tool_says_what_it_does() {
        let names: BTreeSet<&str> = all().iter().map(|tool| tool.name).collect();
        assert_eq!(names.len(), all().len());
        for tool in all() {
            // Names MCP clients and chat models both take: lowercase words and underscores.
            assert!(
                tool.name
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c == '_'),
                "{}",
                tool.name
            );
            assert!(tool.description.len() > 40, "{} says too little", tool.name);
            let schema = tool.input_schema();
            assert_eq!(schema["type"], "object", "{}", tool.name);
            assert!(!schema.contains_key("$schema"), "{}", tool.name);
            assert!(find(tool.name).is_some());
        }
        assert!(find("approve_card").is_none());
    }

    #[test]
    fn no_tool_decides_for_a_human() {
        let forbidden = [
            "approve", "reject", "resolve", "snooze", "restore", "policy", "key", "team",
            "billing", "invite",
        ];
        for tool in all() {
            for word in forbidden {
                assert!(!tool.name.contains(word), "{} looks like {word}", tool.name);
            }
        }
        let writes: Vec<&str> = all()
            .iter()
            .filter(|tool| tool.access == Access::Write)
            .map(|tool| tool.name)
            .collect();
        assert_eq!(writes, ["propose_spend_change", "record_distribution"]);
    }

    #[test]
    fn the_proposal_tool_says_a_human_approves() {
        let propose = find("propose_spend_change").unwrap();
        assert!(propose.description.contains("human"));
        assert!(propose.description.contains("approve"));
        assert!(propose.description.contains("policy_code"));
    }

    #[test]
    fn product_tools_require_the_slug() {
        for tool in all() {
            let schema = tool.input_schema();
            let required: Vec<&str> = schema
                .get("required")
                .and_then(Value::as_array)
                .map(|names| names.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            let properties = schema["properties"]
                .as_object()
                .cloned()
                .unwrap_or_default();
            if properties.contains_key("slug") {
                assert!(required.contains(&"slug"), "{}: {required:?}", tool.name);
            }
            // Every other argument is optional or named in `required`, never silently needed.
            for name in properties.keys() {
                let described = properties[name].get("description").is_some();
                assert!(
                    described,
                    "{}: argument {name} has no description",
                    tool.name
                );
            }
        }
    }
}
