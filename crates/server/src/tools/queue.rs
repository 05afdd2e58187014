//! The approval queue, read only (`GET /queue`), and the audit history (`GET /history`). Cards
//! are resolved by humans in Payback; no tool approves, rejects, snoozes or restores one.

use payback_store::cards::QueueView;
use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::Deserialize;
use serde_json::Value;

use crate::input::{Window, limits};
use crate::services::acting::Caller;
use crate::services::audit::{self, HistoryScope};
use crate::services::products;
use crate::services::queue::{self, QueueStatus};
use crate::state::AppState;
use crate::tools::args;
use crate::tools::{Access, Tool, ToolFuture, json};

pub const QUEUE: Tool = Tool {
    name: "list_queue",
    description: "Cards in the approval queue, newest first (GET /queue): `pending` (default) \
        the cards waiting for a human, `snoozed` and `expired` the ones set aside, `approved` \
        the approved ones with what applying their spend change came to (`execution`). Read \
        only: a human resolves cards in Payback.",
    access: Access::Read,
    schema: args::schema::<QueueArgs>,
    run: list_queue,
};

pub const HISTORY: Tool = Tool {
    name: "list_history",
    description: "The audit history of the account's products, newest first (GET /history): \
        each event's time, actor (a person's email, `keeper` for an API key, `system`, \
        `policy`), door (`via`: dashboard, api, mcp, chat, job), action, product and card.",
    access: Access::Read,
    schema: args::schema::<HistoryArgs>,
    run: list_history,
};

/// The words of `status`, as `GET /queue` takes them.
const QUEUE_STATUSES: &[&str] = &["pending", "snoozed", "expired", "approved"];

/// `GET /queue`.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct QueueArgs {
    /// `pending` (default), `snoozed`, `expired` or `approved`.
    #[serde(default)]
    #[schemars(schema_with = "queue_status_schema")]
    status: Option<QueueStatus>,
    /// At most this many cards, the newest; 1-500, default 100.
    #[schemars(range(min = 1, max = limits::QUEUE.max))]
    limit: Option<i64>,
}

fn queue_status_schema(_: &mut SchemaGenerator) -> Schema {
    args::one_of(
        QUEUE_STATUSES,
        "`pending` (default), `snoozed`, `expired` or `approved`.",
    )
}

/// `GET /history`, the products' events (the account's own events, `include=account`, are
/// the owners' business in the dashboard, not an agent's).
#[derive(Debug, Deserialize, JsonSchema)]
pub struct HistoryArgs {
    /// Only the events of this product (slug).
    product: Option<String>,
    /// Days back, 1-3650; default 30.
    #[schemars(range(min = 1, max = Window::MAX_DAYS))]
    days: Option<i64>,
    /// At most this many events, 1-1000; default 100.
    #[schemars(range(min = 1, max = Window::MAX_LIMIT))]
    limit: Option<i64>,
}

fn list_queue<'a>(state: &'a AppState, caller: &'a Caller, arguments: Value) -> ToolFuture<'a> {
    Box::pin(async move {
        let args: QueueArgs = args::parse(arguments)?;
        let limit = limits::QUEUE.check(args.limit)?;
        let view = match args.status.unwrap_or_default() {
            QueueStatus::Pending => QueueView::Pending,
            QueueStatus::Snoozed => QueueView::Snoozed,
            QueueStatus::Expired => QueueView::Expired,
            QueueStatus::Approved => QueueView::Approved,
        };
        json(queue::listed(state, caller, view, limit).await?)
    })
}

fn list_history<'a>(state: &'a AppState, caller: &'a Caller, arguments: Value) -> ToolFuture<'a> {
    Box::pin(async move {
        let args: HistoryArgs = args::parse(arguments)?;
        let window = Window::new(args.days, args.limit)?;
        let product = match &args.product {
            Some(slug) => Some(products::find(state, caller.scope()?, slug).await?),
            None => None,
        };
        let visibility = caller.visibility()?;
        let product_id = product.as_ref().map(|product| product.id.as_str());
        json(
            audit::list(
                state,
                &visibility,
                product_id,
                HistoryScope::Products,
                window,
            )
            .await?,
        )
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // a failing unwrap is the test's failure message
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_status_words_are_the_routes() {
        for word in QUEUE_STATUSES {
            let args: QueueArgs = args::parse(json!({ "status": word })).unwrap();
            assert!(args.status.is_some(), "{word}");
        }
        let wrong = args::parse::<QueueArgs>(json!({"status": "approve"})).unwrap_err();
        assert_eq!(wrong.status, 400);
        assert!(
            wrong.error.starts_with("status: unknown variant `approve`"),
            "{}",
            wrong.error
        );
        let schema = args::schema::<QueueArgs>();
        assert_eq!(
            schema["properties"]["status"]["enum"],
            json!(QUEUE_STATUSES)
        );
        assert_eq!(schema["properties"]["limit"]["maximum"], limits::QUEUE.max);
    }
}
