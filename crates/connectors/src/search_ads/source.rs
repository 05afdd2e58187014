//! The `search_ads` connection as a [`Source`] and a [`BudgetWriter`]: `test` reads the account,
//! `sync` its spend, `disconnect` revokes the grant's refresh token, and approved budget changes
//! go through [`BudgetWriter::apply_budget`].

use crate::budget::{BudgetChange, BudgetOutcome, BudgetWriter};
use crate::source::{PageSink, Revocation, Source, SourceFuture};
use crate::{ConnectorError, SyncOutput, SyncWindow};

use super::customer::{self, UrlSuffixState};
use super::{SearchAdsConfig, budget};

/// One Google Ads account, ready to read for one product.
#[derive(Debug)]
pub struct SearchAdsSource {
    http: reqwest::Client,
    config: SearchAdsConfig,
    /// Spend in another currency fails the run by name, never converted or mixed.
    product_currency: String,
}

impl SearchAdsSource {
    pub fn new(http: reqwest::Client, config: SearchAdsConfig, product_currency: &str) -> Self {
        Self {
            http,
            config,
            product_currency: product_currency.to_owned(),
        }
    }

    /// The account's final URL suffix and auto-tagging, read live.
    pub async fn read_url_suffix(&self) -> Result<UrlSuffixState, ConnectorError> {
        customer::read_url_suffix(&self.http, &self.config).await
    }

    /// Sets the account's final URL suffix (see [`customer::write_url_suffix`]).
    pub async fn write_url_suffix(&self, suffix: &str) -> Result<(), ConnectorError> {
        customer::write_url_suffix(&self.http, &self.config, suffix).await
    }
}

impl Source for SearchAdsSource {
    fn test(&self) -> SourceFuture<'_, String> {
        Box::pin(super::test(
            &self.http,
            &self.config,
            &self.product_currency,
        ))
    }

    /// Spend is a few rows per ad and day: it comes back in the batch, which replaces the
    /// account's days in one transaction.
    fn sync<'a>(
        &'a self,
        window: SyncWindow,
        _pages: &'a mut dyn PageSink,
    ) -> SourceFuture<'a, SyncOutput> {
        Box::pin(super::sync(
            &self.http,
            &self.config,
            window,
            &self.product_currency,
        ))
    }

    /// Revokes the refresh token, which ends the whole grant at Google (every kind it served).
    fn disconnect(&self) -> SourceFuture<'_, Revocation> {
        Box::pin(async {
            self.config
                .oauth
                .revoke(&self.http, &self.config.refresh_token)
                .await?;
            Ok(Revocation::Revoked)
        })
    }

    fn budgets(&self) -> Option<&dyn BudgetWriter> {
        Some(self)
    }
}

impl BudgetWriter for SearchAdsSource {
    fn apply_budget<'a>(&'a self, change: &'a BudgetChange) -> SourceFuture<'a, BudgetOutcome> {
        Box::pin(async move { Ok(budget::apply(&self.http, &self.config, change).await) })
    }
}
