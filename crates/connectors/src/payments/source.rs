//! The payments connection as a [`Source`]: `test` and `sync` as the module's functions answer
//! them; a key is the customer's, so disconnecting revokes nothing.

use crate::source::{PageSink, Revocation, Source, SourceFuture};
use crate::{SyncOutput, SyncWindow};

use super::PaymentsConfig;

/// One payments connection, ready to read for one product.
#[derive(Debug)]
pub struct PaymentsSource {
    http: reqwest::Client,
    config: PaymentsConfig,
    /// Records in any other currency are skipped and counted, never converted.
    product_currency: String,
}

impl PaymentsSource {
    pub fn new(http: reqwest::Client, config: PaymentsConfig, product_currency: &str) -> Self {
        Self {
            http,
            config,
            product_currency: product_currency.to_owned(),
        }
    }
}

impl Source for PaymentsSource {
    fn test(&self) -> SourceFuture<'_, String> {
        Box::pin(super::test(&self.http, &self.config))
    }

    /// Everything comes back in the batch: a window of charges is small next to a database's
    /// tables, and its events are written after the read, as before.
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

    fn disconnect(&self) -> SourceFuture<'_, Revocation> {
        Box::pin(async { Ok(Revocation::NothingToRevoke) })
    }
}
