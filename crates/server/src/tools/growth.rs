//! The product's ranked growth actions, as `GET /products/{slug}/growth-actions` answers them.
//! Reading them changes nothing: an action that moves budget only links to raising a proposal.

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::Deserialize;
use serde_json::Value;

use crate::services::acting::Caller;
use crate::services::growth::{self, AGENT_TOOLS, MAX_DAYS};
use crate::state::AppState;
use crate::tools::args;
use crate::tools::{Access, Tool, ToolFuture, json};

pub const GROWTH_ACTIONS: Tool = Tool {
    name: "list_growth_actions",
    description: "The product's growth actions, ranked (GET /products/{slug}/growth-actions): \
        tracking gaps, identity stitching, budget to move from channels whose CAC exceeds LTV, \
        empty funnel steps, the URL suffix, missing sources; each with a stable id, the numbers \
        behind it, an estimated revenue impact in cents (null when it cannot be estimated) and \
        the endpoints to act. Nothing is executed: moving budget means raising a proposal a \
        human approves.",
    access: Access::Read,
    schema: args::schema::<GrowthArgs>,
    run: growth_actions,
};

/// `GET /products/{slug}/growth-actions`.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct GrowthArgs {
    /// The product's slug (as listed by `list_products`).
    slug: String,
    /// The N UTC days ending today, 1-365; default 30.
    #[schemars(range(min = 1, max = MAX_DAYS))]
    days: Option<i64>,
    /// The coding agent whose prompts will be asked for; it only tags the actions.
    #[schemars(schema_with = "tool_schema")]
    tool: Option<String>,
}

fn tool_schema(_: &mut SchemaGenerator) -> Schema {
    args::one_of(
        &AGENT_TOOLS,
        "`agent_a` (Claude Code), `agent_b` (OpenAI Codex CLI), `agent_c` (Cursor), `agent_d` \
         (GitHub Copilot coding agent) or `agent_e` (Aider).",
    )
}

fn growth_actions<'a>(state: &'a AppState, caller: &'a Caller, arguments: Value) -> ToolFuture<'a> {
    Box::pin(async move {
        let args: GrowthArgs = args::parse(arguments)?;
        json(growth::list(state, caller, &args.slug, args.days, args.tool.as_deref()).await?)
    })
}
