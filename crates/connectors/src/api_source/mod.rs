//! The [`Source`] of every kind that reads a vendor's HTTP API (`search_ads`, `social_ads_a`,
//! `social_ads_b`, `social_a`, `payments`, the search consoles and every key-based kind after
//! them), written once: the run's HTTP client, the
//! connection's config and the product's currency are held here, and what differs per kind (how
//! it tests, reads and disconnects, whether it changes budgets) is its config's [`ApiConfig`]
//! (and [`ApiBudgets`]).

mod budgets;

pub use budgets::ApiBudgets;

use std::fmt::Debug;

use crate::budget::BudgetWriter;
use crate::source::{PageSink, Revocation, Source, SourceFuture};
use crate::{ConnectorError, SyncOutput, SyncWindow};

/// One kind's connection settings, with the calls that make a [`Source`] of them: a kind writes
/// its test and its read here, once. Each call gets the whole source, so it reaches the HTTP
/// client and the product's currency too.
pub trait ApiConfig: Debug + Send + Sync + Sized {
    /// One cheap live read proving the credential; answers the line `test` shows.
    fn test(
        source: &ApiSource<Self>,
    ) -> impl Future<Output = Result<String, ConnectorError>> + Send;

    /// Reads `window`. An API answers a window's rows in pages far smaller than a database's
    /// tables, so everything comes back in the batch, written once the read is complete.
    fn read(
        source: &ApiSource<Self>,
        window: SyncWindow,
    ) -> impl Future<Output = Result<SyncOutput, ConnectorError>> + Send;

    /// Ends Payback's access upstream. By default nothing is revoked: a key or a token the
    /// customer pasted stays theirs.
    fn disconnect(
        _source: &ApiSource<Self>,
    ) -> impl Future<Output = Result<Revocation, ConnectorError>> + Send {
        async { Ok(Revocation::NothingToRevoke) }
    }

    /// The budget writer of a kind that changes budgets (`Some(source)` where the config is also
    /// [`ApiBudgets`]); by default `None` (it only reads).
    fn budgets(_source: &ApiSource<Self>) -> Option<&dyn BudgetWriter> {
        None
    }
}

/// One API connection, ready to read for one product.
#[derive(Debug)]
pub struct ApiSource<C> {
    pub(crate) http: reqwest::Client,
    pub(crate) config: C,
    /// The product's currency. What a kind does with rows in another one is its own rule (ad
    /// spend fails the run by name, payments are skipped and counted); none converts. Empty for
    /// a kind that reads no money (`social_a`).
    pub(crate) currency: String,
}

/// A kind whose reads carry money, so its source is opened with the product's currency: every
/// API kind but `social_a`, whose snapshots are counts. `SocialAConfig` not being one is what
/// lets `SocialASource` have its own `new` without a currency beside this one.
pub trait ReadsMoney: ApiConfig {}

impl<C: ReadsMoney> ApiSource<C> {
    pub fn new(http: reqwest::Client, config: C, product_currency: &str) -> Self {
        Self::open(http, config, product_currency)
    }
}

impl<C: ApiConfig> ApiSource<C> {
    pub(crate) fn open(http: reqwest::Client, config: C, currency: &str) -> Self {
        Self {
            http,
            config,
            currency: currency.to_owned(),
        }
    }
}

impl<C: ApiConfig> Source for ApiSource<C> {
    fn test(&self) -> SourceFuture<'_, String> {
        Box::pin(C::test(self))
    }

    fn sync<'a>(
        &'a self,
        window: SyncWindow,
        _pages: &'a mut dyn PageSink,
    ) -> SourceFuture<'a, SyncOutput> {
        Box::pin(C::read(self, window))
    }

    fn disconnect(&self) -> SourceFuture<'_, Revocation> {
        Box::pin(C::disconnect(self))
    }

    fn budgets(&self) -> Option<&dyn BudgetWriter> {
        C::budgets(self)
    }
}
