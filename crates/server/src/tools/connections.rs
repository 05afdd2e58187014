//! Connections as `GET /connections` shows them (redacted: secrets never appear) and the
//! pipeline's health (`GET /health`). Connecting, testing, syncing and disconnecting stay with
//! the people of the account.

use serde_json::Value;

use crate::input::limits;
use crate::services::acting::Caller;
use crate::services::{connections, health};
use crate::state::AppState;
use crate::tools::args::{self, LimitArgs, NoArgs};
use crate::tools::{Access, Tool, ToolFuture, json};

pub const CONNECTIONS: Tool = Tool {
    name: "list_connections",
    description: "Every data connection of the account, oldest first (GET /connections): kind, \
        product, status, redacted configuration (secrets never appear), last sync, last error, \
        sync progress and how deep the backfill has read.",
    access: Access::Read,
    schema: args::schema::<LimitArgs>,
    run: list_connections,
};

pub const HEALTH: Tool = Tool {
    name: "get_health",
    description: "Pipeline health (GET /health): background jobs failing, each source's \
        freshness, the queue's backlog, per product the share of the last 30 days' revenue \
        that cannot be attributed, and each product's worst status.",
    access: Access::Read,
    schema: args::schema::<NoArgs>,
    run: pipeline_health,
};

fn list_connections<'a>(
    state: &'a AppState,
    caller: &'a Caller,
    arguments: Value,
) -> ToolFuture<'a> {
    Box::pin(async move {
        let args: LimitArgs = args::parse(arguments)?;
        let limit = limits::CONNECTIONS.check(args.limit)?;
        json(connections::list(state, caller, limit).await?)
    })
}

fn pipeline_health<'a>(
    state: &'a AppState,
    caller: &'a Caller,
    arguments: Value,
) -> ToolFuture<'a> {
    Box::pin(async move {
        let NoArgs {} = args::parse(arguments)?;
        json(health::report(state, caller).await?)
    })
}
