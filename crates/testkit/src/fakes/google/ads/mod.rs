//! The Google Ads API's REST interface, any version (`/v{N}/…`):
//! - `GET  /vN/customers:listAccessibleCustomers`
//! - `POST /vN/customers/{customerId}/googleAds:search` (pages of the fake's page size)
//! - `POST /vN/customers/{customerId}/googleAds:searchStream` (a JSON array of batches)
//! - `POST /vN/customers/{customerId}/campaignBudgets:mutate` (updates of `amount_micros`, `name`)
//! - `POST /vN/customers/{customerId}:mutate` (updates of `final_url_suffix`,
//!   `auto_tagging_enabled`)
//!
//! Every call needs `Authorization: Bearer <access token the fake issued, with the adwords
//! scope>` and the configured `developer-token`; a customer reached through a manager needs that
//! manager (or one above it) in `login-customer-id`, digits only. Bodies are the request messages
//! in proto3 JSON: camelCase or the proto's snake_case names, unknown names refused as Google's
//! front end refuses them.

// A refusal here is the whole HTTP answer, carried up as the `Err` of the helpers that build it;
// boxing it would buy nothing on a test fake's error path.
#![allow(clippy::result_large_err)]

mod accounts;
mod auth;
mod body;
mod budgets;
mod controls;
mod customer;
mod dispatch;
mod errors;
mod search;
mod seeding;
mod seeds;

pub(crate) use accounts::{Ad, AdGroup, BreakdownKey, Budget, Campaign, Cursor, Customer, Keyword};
pub(crate) use dispatch::dispatch;
pub(crate) use errors::scheduled_ads;
pub use seeds::{
    AdGroupSeed, AdSeed, Breakdown, CampaignSeed, Channel, CustomerSeed, KeywordSeed, MatchType,
    Metrics, Status,
};

/// The OAuth scope the Google Ads API requires.
pub const ADWORDS_SCOPE: &str = "https://www.googleapis.com/auth/adwords";

/// `v` followed by digits.
pub(crate) fn is_version(segment: &str) -> bool {
    segment.len() > 1
        && segment.starts_with('v')
        && segment[1..].bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod mutate_tests;
#[cfg(test)]
mod tests;
