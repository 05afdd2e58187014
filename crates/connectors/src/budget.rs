//! Changing a campaign's daily budget on its ad network: the capability an ad-network source
//! offers next to reading. Only the server's apply job calls it, and only for a change a human
//! approved; a writer reads the live budget first, so applying twice changes nothing twice.

use crate::SourceFuture;

/// The change to make: a campaign's new daily budget in the ad account's currency.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BudgetChange {
    /// The campaign the proposal named; `None` when it named none (a writer may then act only
    /// when the account has exactly one campaign).
    pub campaign_id: Option<String>,
    pub to_cents: i64,
    /// The product's currency; a writer refuses an account in another one.
    pub currency: String,
}

/// What asking the network came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BudgetOutcome {
    /// The budget now reads `after_cents` (equal to the target); `before_cents` is what it was.
    /// A budget already at the target is applied with nothing sent.
    Applied {
        campaign_id: String,
        before_cents: i64,
        after_cents: i64,
    },
    /// The network was not asked, and asking again will not help: a shared budget, a removed
    /// campaign, no campaign named on an account with several.
    Refused { reason: String },
    /// The network was asked or could not be reached; `transient` says a later try may succeed
    /// (a timeout, a 5xx, a rate limit), otherwise the error is final (credentials refused).
    Failed { error: String, transient: bool },
}

/// An ad-network source that can change budgets.
pub trait BudgetWriter: Send + Sync {
    fn apply_budget<'a>(&'a self, change: &'a BudgetChange) -> SourceFuture<'a, BudgetOutcome>;
}
