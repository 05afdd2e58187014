//! The `social_ads_a` connection as a [`Source`](crate::Source) and a
//! [`BudgetWriter`](crate::BudgetWriter), through the API kinds' shared [`ApiSource`]: `test`
//! reads the ad account, `sync` its spend, `disconnect` ends the grant at Meta, and approved
//! budget changes go through [`budget::apply`].

use crate::api_source::{ApiBudgets, ApiConfig, ApiSource, ReadsMoney};
use crate::budget::{BudgetChange, BudgetOutcome, BudgetWriter};
use crate::graph;
use crate::source::{Revocation, SourceFuture};
use crate::{SyncOutput, SyncWindow};

use super::{SocialAdsAConfig, budget};

/// One Meta ad account, ready to read for one product. Spend in another currency fails the run
/// by name, never converted or mixed.
pub type SocialAdsASource = ApiSource<SocialAdsAConfig>;

impl ReadsMoney for SocialAdsAConfig {}

impl ApiConfig for SocialAdsAConfig {
    fn test(source: &SocialAdsASource) -> SourceFuture<'_, String> {
        Box::pin(super::test(&source.http, &source.config, &source.currency))
    }

    /// Spend is a row per ad and day: it comes back in the batch, which replaces the account's
    /// days in one transaction.
    fn read(source: &SocialAdsASource, window: SyncWindow) -> SourceFuture<'_, SyncOutput> {
        Box::pin(super::sync(
            &source.http,
            &source.config,
            window,
            &source.currency,
        ))
    }

    /// `DELETE /me/permissions` with the grant's token, which ends the whole grant at Meta
    /// (every kind it served); a pasted token (`revoke_on_disconnect` false) stays the
    /// customer's.
    fn disconnect(source: &SocialAdsASource) -> SourceFuture<'_, Revocation> {
        let config = &source.config;
        let grant = config.revoke_on_disconnect.then_some(&*config.access_token);
        let graph_base_url = &config.graph_base_url;
        Box::pin(graph::disconnect(&source.http, graph_base_url, grant))
    }

    fn budgets(source: &SocialAdsASource) -> Option<&dyn BudgetWriter> {
        Some(source)
    }
}

impl ApiBudgets for SocialAdsAConfig {
    const NETWORK: &'static str = "meta";

    fn apply<'a>(
        source: &'a SocialAdsASource,
        change: &'a BudgetChange,
    ) -> SourceFuture<'a, BudgetOutcome> {
        Box::pin(budget::apply(&source.http, &source.config, change))
    }
}
