//! A customer database connection (`sql_a`, `sql_b`, `docdb`) as a [`Source`]: its maps' rows
//! are written to the run's pages as they are read, so a deep backfill never holds more than a
//! page; the batch carries only the status line. The engines differ only in how they test and
//! read, which is what [`Database`] names.

use std::fmt::Debug;
use std::future::Future;

use payback_domain::event_map::EventMap;

use crate::database::EventSink;
use crate::source::{PageSink, Pages, Revocation, Source, SourceFuture};
use crate::{ConnectorError, SyncOutput, SyncWindow};

/// One engine's connection settings, able to prove the credential and to read maps' rows.
pub trait Database: Debug + Send + Sync {
    /// One cheap live read; answers the line `test` shows.
    fn test(&self) -> impl Future<Output = Result<String, ConnectorError>> + Send;

    /// Reads every map over `window` into `sink`; answers the run's status line.
    fn read(
        &self,
        maps: &[EventMap],
        window: SyncWindow,
        product_currency: &str,
        sink: &mut impl EventSink,
    ) -> impl Future<Output = Result<String, ConnectorError>> + Send;
}

/// One database connection, ready to read for one product.
#[derive(Debug)]
pub struct DatabaseSource<D> {
    config: D,
    maps: Vec<EventMap>,
    product_currency: String,
}

impl<D: Database> DatabaseSource<D> {
    pub fn new(config: D, maps: Vec<EventMap>, product_currency: &str) -> Self {
        Self {
            config,
            maps,
            product_currency: product_currency.to_owned(),
        }
    }
}

impl<D: Database> Source for DatabaseSource<D> {
    fn test(&self) -> SourceFuture<'_, String> {
        Box::pin(self.config.test())
    }

    fn sync<'a>(
        &'a self,
        window: SyncWindow,
        pages: &'a mut dyn PageSink,
    ) -> SourceFuture<'a, SyncOutput> {
        Box::pin(async move {
            let mut pages = Pages(pages);
            let detail = self
                .config
                .read(&self.maps, window, &self.product_currency, &mut pages)
                .await?;
            Ok(SyncOutput {
                detail,
                ..SyncOutput::default()
            })
        })
    }

    /// The credentials are the customer's database login: nothing to revoke.
    fn disconnect(&self) -> SourceFuture<'_, Revocation> {
        Box::pin(async { Ok(Revocation::NothingToRevoke) })
    }
}
