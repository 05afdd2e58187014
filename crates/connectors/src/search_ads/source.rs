//! The `search_ads` connection as a [`Source`](crate::Source) and a
//! [`BudgetWriter`](crate::BudgetWriter), through the API kinds' shared [`ApiSource`]: `test`
//! reads the account, `sync` its spend, `disconnect` revokes the grant's refresh token, and
//! approved budget changes go through [`budget::apply`].

use crate::api_source::{ApiBudgets, ApiConfig, ApiSource, ReadsMoney};
use crate::budget::{BudgetChange, BudgetOutcome, BudgetWriter};
use crate::source::{Revocation, SourceFuture};
use crate::{ConnectorError, SyncOutput, SyncWindow};

use super::customer::{self, UrlSuffixState};
use super::{SearchAdsConfig, budget};

/// One Google Ads account, ready to read for one product. Spend in another currency fails the
/// run by name, never converted or mixed.
pub type SearchAdsSource = ApiSource<SearchAdsConfig>;

impl SearchAdsSource {
    /// The account's final URL suffix and auto-tagging, read live.
    pub async fn read_url_suffix(&self) -> Result<UrlSuffixState, ConnectorError> {
        customer::read_url_suffix(&self.http, &self.config).await
    }

    /// Sets the account's final URL suffix (see [`customer::write_url_suffix`]).
    pub async fn write_url_suffix(&self, suffix: &str) -> Result<(), ConnectorError> {
        customer::write_url_suffix(&self.http, &self.config, suffix).await
    }
}

impl ReadsMoney for SearchAdsConfig {}

impl ApiConfig for SearchAdsConfig {
    fn test(source: &SearchAdsSource) -> SourceFuture<'_, String> {
        Box::pin(super::test(&source.http, &source.config, &source.currency))
    }

    /// Spend is a few rows per ad and day: it comes back in the batch, which replaces the
    /// account's days in one transaction.
    fn read(source: &SearchAdsSource, window: SyncWindow) -> SourceFuture<'_, SyncOutput> {
        Box::pin(super::sync(
            &source.http,
            &source.config,
            window,
            &source.currency,
        ))
    }

    /// Revokes the refresh token, which ends the whole grant at Google (every kind it served).
    fn disconnect(source: &SearchAdsSource) -> SourceFuture<'_, Revocation> {
        Box::pin(async move {
            let config = &source.config;
            config
                .oauth
                .revoke(&source.http, &config.refresh_token)
                .await?;
            Ok(Revocation::Revoked)
        })
    }

    fn budgets(source: &SearchAdsSource) -> Option<&dyn BudgetWriter> {
        Some(source)
    }
}

impl ApiBudgets for SearchAdsConfig {
    const NETWORK: &'static str = "google ads";

    fn apply<'a>(
        source: &'a SearchAdsSource,
        change: &'a BudgetChange,
    ) -> SourceFuture<'a, BudgetOutcome> {
        Box::pin(budget::apply(&source.http, &source.config, change))
    }
}
