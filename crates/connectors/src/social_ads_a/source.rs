//! The `social_ads_a` connection as a [`Source`] and a [`BudgetWriter`]: `test` reads the ad
//! account, `sync` its spend, `disconnect` ends the grant at Meta, and approved budget changes go
//! through [`BudgetWriter::apply_budget`].

use crate::budget::{BudgetChange, BudgetOutcome, BudgetWriter};
use crate::graph;
use crate::source::{PageSink, Revocation, Source, SourceFuture};
use crate::{SyncOutput, SyncWindow};

use super::{SocialAdsAConfig, budget};

/// One Meta ad account, ready to read for one product.
#[derive(Debug)]
pub struct SocialAdsASource {
    http: reqwest::Client,
    pub(super) config: SocialAdsAConfig,
    /// Spend in another currency fails the run by name, never converted or mixed.
    product_currency: String,
}

impl SocialAdsASource {
    pub fn new(http: reqwest::Client, config: SocialAdsAConfig, product_currency: &str) -> Self {
        Self {
            http,
            config,
            product_currency: product_currency.to_owned(),
        }
    }
}

impl Source for SocialAdsASource {
    fn test(&self) -> SourceFuture<'_, String> {
        Box::pin(super::test(
            &self.http,
            &self.config,
            &self.product_currency,
        ))
    }

    /// Spend is a row per ad and day: it comes back in the batch, which replaces the account's
    /// days in one transaction.
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

    /// `DELETE /me/permissions` with the grant's token, which ends the whole grant at Meta
    /// (every kind it served); a pasted token (`revoke_on_disconnect` false) stays the
    /// customer's.
    fn disconnect(&self) -> SourceFuture<'_, Revocation> {
        Box::pin(async {
            if !self.config.revoke_on_disconnect {
                return Ok(Revocation::NothingToRevoke);
            }
            graph::revoke(
                &self.http,
                &self.config.graph_base_url,
                &self.config.access_token,
            )
            .await?;
            Ok(Revocation::Revoked)
        })
    }

    fn budgets(&self) -> Option<&dyn BudgetWriter> {
        Some(self)
    }
}

impl BudgetWriter for SocialAdsASource {
    fn apply_budget<'a>(&'a self, change: &'a BudgetChange) -> SourceFuture<'a, BudgetOutcome> {
        Box::pin(async move { Ok(budget::apply(&self.http, &self.config, change).await) })
    }
}
