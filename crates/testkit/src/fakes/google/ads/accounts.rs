//! What the fake holds of the Ads accounts, as the API reads and changes them, and the lookups
//! over them.

use super::seeds::{Breakdown, Channel, MatchType, Metrics, Status};
use crate::fakes::day::Day;
use crate::fakes::google::state::State;

#[derive(Debug, Clone)]
pub(crate) struct Customer {
    pub id: i64,
    pub name: String,
    pub currency: String,
    pub time_zone: String,
    pub manager: Option<i64>,
    pub is_manager: bool,
    pub final_url_suffix: Option<String>,
    pub auto_tagging: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BudgetStatus {
    Enabled,
    Removed,
}

#[derive(Debug, Clone)]
pub(crate) struct Budget {
    pub id: i64,
    pub customer: i64,
    pub name: String,
    pub amount_micros: i64,
    pub explicitly_shared: bool,
    pub status: BudgetStatus,
}

#[derive(Debug, Clone)]
pub(crate) struct Campaign {
    pub id: i64,
    pub customer: i64,
    pub name: String,
    pub status: Status,
    pub channel: Channel,
    pub budget: i64,
}

#[derive(Debug, Clone)]
pub(crate) struct AdGroup {
    pub id: i64,
    pub customer: i64,
    pub campaign: i64,
    pub name: String,
    pub status: Status,
}

#[derive(Debug, Clone)]
pub(crate) struct Ad {
    pub id: i64,
    pub customer: i64,
    pub ad_group: i64,
    pub name: Option<String>,
    pub status: Status,
}

#[derive(Debug, Clone)]
pub(crate) struct Keyword {
    pub criterion_id: i64,
    pub customer: i64,
    pub ad_group: i64,
    pub text: String,
    pub match_type: MatchType,
    pub status: Status,
}

/// Where a `nextPageToken` points.
#[derive(Debug, Clone)]
pub(crate) struct Cursor {
    pub customer: i64,
    pub query: String,
    pub offset: usize,
}

/// [`Breakdown`] in an orderable form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum BreakdownKey {
    Ad(i64, i64),
    Keyword(i64, i64),
    CampaignOnly(i64),
}

impl From<Breakdown> for BreakdownKey {
    fn from(breakdown: Breakdown) -> Self {
        match breakdown {
            Breakdown::Ad { ad_group, ad } => Self::Ad(ad_group, ad),
            Breakdown::Keyword {
                ad_group,
                criterion,
            } => Self::Keyword(ad_group, criterion),
            Breakdown::CampaignOnly { campaign } => Self::CampaignOnly(campaign),
        }
    }
}

impl BudgetStatus {
    pub(crate) fn wire(self) -> &'static str {
        match self {
            Self::Enabled => "ENABLED",
            Self::Removed => "REMOVED",
        }
    }
}

impl State {
    pub fn customer(&self, id: i64) -> Option<&Customer> {
        self.customers.iter().find(|c| c.id == id)
    }

    /// A manager: marked so, or named as the manager of another account.
    pub fn is_manager(&self, id: i64) -> bool {
        self.customer(id).is_some_and(|c| c.is_manager)
            || self.customers.iter().any(|c| c.manager == Some(id))
    }

    /// The account's managers, nearest first.
    pub fn managers_of(&self, id: i64) -> Vec<i64> {
        let mut chain = Vec::new();
        let mut at = self.customer(id).and_then(|c| c.manager);
        while let Some(manager) = at {
            if chain.contains(&manager) {
                break;
            }
            chain.push(manager);
            at = self.customer(manager).and_then(|c| c.manager);
        }
        chain
    }

    pub fn campaign(&self, customer: i64, id: i64) -> Option<&Campaign> {
        self.campaigns
            .iter()
            .find(|c| c.customer == customer && c.id == id)
    }

    pub fn budget(&self, customer: i64, id: i64) -> Option<&Budget> {
        self.budgets
            .iter()
            .find(|b| b.customer == customer && b.id == id)
    }

    pub fn ad_group(&self, customer: i64, id: i64) -> Option<&AdGroup> {
        self.ad_groups
            .iter()
            .find(|g| g.customer == customer && g.id == id)
    }

    /// Campaigns (not removed) using the budget.
    pub fn budget_references(&self, customer: i64, budget: i64) -> i64 {
        let count = self
            .campaigns
            .iter()
            .filter(|c| c.customer == customer && c.budget == budget)
            .filter(|c| c.status != Status::Removed)
            .count();
        i64::try_from(count).unwrap_or(i64::MAX)
    }

    /// The daily rows of a customer, each with its day and breakdown.
    pub fn daily_of(&self, customer: i64) -> impl Iterator<Item = (Day, BreakdownKey, Metrics)> {
        self.daily
            .range((customer, Day::MIN, BreakdownKey::Ad(i64::MIN, i64::MIN))..)
            .take_while(move |((c, _, _), _)| *c == customer)
            .map(|((_, day, key), metrics)| (*day, *key, *metrics))
    }
}

/// The id of a campaign's own (not shared) budget.
pub(crate) fn implicit_budget_id(campaign: i64) -> i64 {
    campaign.saturating_add(7_000_000_000)
}

/// The smallest amount a budget in `currency` can move by, in micros (a cent, or a whole unit in
/// currencies without minor units).
pub(crate) fn minimum_unit_micros(currency: &str) -> i64 {
    match currency {
        "JPY" | "KRW" | "VND" | "CLP" | "ISK" | "PYG" | "UGX" => 1_000_000,
        _ => 10_000,
    }
}
