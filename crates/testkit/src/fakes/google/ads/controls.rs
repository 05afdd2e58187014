//! What a test does with the Ads API: where it listens, the accounts it seeds (with their daily
//! metrics), and what mutates changed.

use super::seeds::{
    AdGroupSeed, AdSeed, Breakdown, CampaignSeed, CustomerSeed, KeywordSeed, Metrics,
};
use crate::fakes::google::{FakeGoogle, seed_day};

impl FakeGoogle {
    /// The Ads API origin (`https://googleads.googleapis.com`), without a version: calls go to
    /// `{ads_base_url}/v21/customers/...` (any `v{N}`).
    pub fn ads_base_url(&self) -> String {
        self.base().to_owned()
    }

    pub fn add_customer(&self, seed: CustomerSeed) {
        self.state().add_customer(seed);
    }

    /// Adds a campaign (and its budget) to `customer`.
    pub fn add_campaign(&self, customer: i64, seed: CampaignSeed) {
        self.state().add_campaign(customer, seed);
    }

    pub fn add_ad_group(&self, customer: i64, seed: AdGroupSeed) {
        self.state().add_ad_group(customer, seed);
    }

    pub fn add_ad(&self, customer: i64, seed: AdSeed) {
        self.state().add_ad(customer, seed);
    }

    pub fn add_keyword(&self, customer: i64, seed: KeywordSeed) {
        self.state().add_keyword(customer, seed);
    }

    /// Sets one day's metrics of an ad, a keyword or a campaign's own spend (`day` is
    /// `YYYY-MM-DD`); a later call for the same day and breakdown replaces the row, as Google
    /// restates recent days. How the breakdowns add up is in `seeds.rs`: ad rows
    /// make ad groups, campaigns and customers; campaign-only rows add to their campaign;
    /// keyword rows are a second view of ad-group spend and add to nothing.
    pub fn add_daily(&self, customer: i64, day: &str, at: Breakdown, metrics: Metrics) {
        let day = seed_day(day, "add_daily");
        self.state().add_daily(customer, day, at, metrics);
    }

    /// The day `DURING` ranges count back from (default: today, UTC).
    pub fn set_today(&self, day: &str) {
        let day = seed_day(day, "set_today");
        self.state().today = Some(day);
    }

    pub fn set_page_size(&self, rows: usize) {
        self.state().page_size = rows.max(1);
    }

    /// Leaves zero metric values out of rows, as proto3 JSON may (to prove a reader tolerates
    /// absent metrics).
    pub fn omit_zero_metrics(&self, omit: bool) {
        self.state().omit_zero_metrics = omit;
    }

    /// The amount of the budget campaign `campaign` uses now.
    pub fn budget_micros(&self, customer: i64, campaign: i64) -> Option<i64> {
        let state = self.state();
        let campaign = state.campaign(customer, campaign)?;
        state
            .budget(customer, campaign.budget)
            .map(|b| b.amount_micros)
    }

    /// The id of the budget campaign `campaign` uses.
    pub fn budget_id(&self, customer: i64, campaign: i64) -> Option<i64> {
        self.state().campaign(customer, campaign).map(|c| c.budget)
    }

    pub fn final_url_suffix(&self, customer: i64) -> Option<String> {
        self.state()
            .customer(customer)
            .and_then(|c| c.final_url_suffix.clone())
    }

    pub fn auto_tagging(&self, customer: i64) -> Option<bool> {
        self.state().customer(customer).map(|c| c.auto_tagging)
    }
}
