//! Budget changes through an [`ApiSource`], written once: a kind answers how it applies a change,
//! and every error on the way becomes the same kind of [`BudgetOutcome::Failed`].

use crate::ConnectorError;
use crate::budget::{BudgetChange, BudgetOutcome, BudgetWriter};
use crate::source::SourceFuture;

use super::{ApiConfig, ApiSource};

/// A kind that changes campaign budgets.
pub trait ApiBudgets: ApiConfig {
    /// The network as the log line of a failed change names it.
    const NETWORK: &'static str;

    /// Applies `change`: read first, decide, write, read back. An error is any failure on the
    /// way; the writer turns it into an outcome.
    fn apply<'a>(
        source: &'a ApiSource<Self>,
        change: &'a BudgetChange,
    ) -> SourceFuture<'a, BudgetOutcome>;
}

impl<C: ApiBudgets> BudgetWriter for ApiSource<C> {
    /// Every failure becomes an outcome, transient when a later try may help.
    fn apply_budget<'a>(&'a self, change: &'a BudgetChange) -> SourceFuture<'a, BudgetOutcome> {
        Box::pin(async move {
            let outcome = C::apply(self, change).await.unwrap_or_else(|err| {
                // A rate limit or an unreachable network may pass; anything else will not.
                let transient = matches!(
                    err,
                    ConnectorError::RateLimited(_) | ConnectorError::Unreachable(_)
                );
                tracing::warn!(%err, transient, "{} budget change failed", C::NETWORK);
                BudgetOutcome::Failed {
                    error: err.to_string(),
                    transient,
                }
            });
            Ok(outcome)
        })
    }
}
