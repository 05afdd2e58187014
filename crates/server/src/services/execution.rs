//! Applying an approved spend change on its ad network. Connectors implement [`SpendExecutor`]
//! per network; until one is registered (or can act for the product) the approval stands and
//! history says the change was not applied and why. Nothing here is reachable without a human
//! approval: the queue service is the only caller.

use std::collections::HashMap;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use payback_domain::money::format_cents;
use payback_domain::policy::Network;
use serde_json::{Value, json};

/// The change a human approved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApprovedSpendChange {
    pub card_id: String,
    pub account_id: String,
    pub product_id: String,
    pub product_slug: String,
    pub currency: String,
    pub network: Network,
    pub campaign_id: Option<String>,
    pub from_cents: Option<i64>,
    pub to_cents: i64,
}

/// What applying a change came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExecutionOutcome {
    /// The network accepted the new daily budget.
    Applied { detail: String },
    /// Nothing was sent: no connector can act for this product on this network.
    NotApplied { reason: String },
    /// The network was asked and refused or failed.
    Failed { error: String },
}

impl ExecutionOutcome {
    /// The history action recording this outcome.
    pub fn action(&self) -> &'static str {
        match self {
            ExecutionOutcome::Applied { .. } => "spend.applied",
            ExecutionOutcome::NotApplied { .. } => "spend.not_applied",
            ExecutionOutcome::Failed { .. } => "spend.failed",
        }
    }

    pub fn applied(&self) -> bool {
        matches!(self, ExecutionOutcome::Applied { .. })
    }

    /// Stored on the card and in the history payload.
    pub fn to_json(&self) -> Value {
        match self {
            ExecutionOutcome::Applied { detail } => json!({ "applied": true, "detail": detail }),
            ExecutionOutcome::NotApplied { reason } => {
                json!({ "applied": false, "reason": reason })
            }
            ExecutionOutcome::Failed { error } => json!({ "applied": false, "error": error }),
        }
    }
}

pub type ExecutionFuture<'a> = Pin<Box<dyn Future<Output = ExecutionOutcome> + Send + 'a>>;

/// Applies approved daily-budget changes on one network.
pub trait SpendExecutor: Send + Sync {
    fn network(&self) -> Network;

    /// Applies `change`, or answers `NotApplied` when this product has no usable connection.
    fn apply<'a>(&'a self, change: &'a ApprovedSpendChange) -> ExecutionFuture<'a>;
}

/// The executors of this process, one per network at most.
#[derive(Clone, Default)]
pub struct SpendExecutors {
    by_network: HashMap<Network, Arc<dyn SpendExecutor>>,
}

impl fmt::Debug for SpendExecutors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let networks: Vec<&str> = self.by_network.keys().map(|n| n.as_str()).collect();
        f.debug_struct("SpendExecutors")
            .field("networks", &networks)
            .finish()
    }
}

impl SpendExecutors {
    /// Registers `executor` for its network, replacing any other.
    pub fn register(&mut self, executor: Arc<dyn SpendExecutor>) {
        self.by_network.insert(executor.network(), executor);
    }

    pub async fn apply(&self, change: &ApprovedSpendChange) -> ExecutionOutcome {
        match self.by_network.get(&change.network) {
            Some(executor) => executor.apply(change).await,
            None => ExecutionOutcome::NotApplied {
                reason: format!(
                    "no {} connection can change budgets for {} yet; set the daily budget to {} in {} by hand",
                    change.network.label(),
                    change.product_slug,
                    format_cents(change.to_cents, &change.currency),
                    change.network.label(),
                ),
            },
        }
    }
}
