//! The `social_ads_b` connection as a [`Source`]: `test` reads the ad account, `sync` its
//! spend; nothing is ever written to LinkedIn.

use crate::source::{PageSink, Revocation, Source, SourceFuture};
use crate::{ConnectorError, SyncOutput, SyncWindow};

use super::SocialAdsBConfig;

/// One LinkedIn ad account, ready to read for one product.
#[derive(Debug)]
pub struct SocialAdsBSource {
    http: reqwest::Client,
    config: SocialAdsBConfig,
    /// Spend in another currency fails the run by name, never converted or mixed.
    product_currency: String,
}

impl SocialAdsBSource {
    pub fn new(http: reqwest::Client, config: SocialAdsBConfig, product_currency: &str) -> Self {
        Self {
            http,
            config,
            product_currency: product_currency.to_owned(),
        }
    }

    /// Proves the token reads the account and the account fits the product.
    async fn run_test(&self) -> Result<String, ConnectorError> {
        super::test(&self.http, &self.config, &self.product_currency).await
    }
}

impl Source for SocialAdsBSource {
    fn test(&self) -> SourceFuture<'_, String> {
        Box::pin(self.run_test())
    }

    /// Spend is a few rows per creative and day: it comes back in the batch, which replaces the
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

    /// Revokes nothing: the access token was pasted by the customer, who generated it for their
    /// own LinkedIn app, so it stays theirs to revoke (in LinkedIn's developer portal) or let
    /// expire. Payback forgets it when the connection is deleted.
    fn disconnect(&self) -> SourceFuture<'_, Revocation> {
        Box::pin(async { Ok(Revocation::NothingToRevoke) })
    }
}
