//! A `docdb` connection as a [`Source`](crate::Source): its maps' documents are written to
//! the run's pages as they are read; the batch carries only the status line.

use payback_domain::event_map::EventMap;

use crate::source::{PageSink, Pages, Revocation, Source, SourceFuture};
use crate::{SyncOutput, SyncWindow};

use super::DocdbConfig;

/// One MongoDB connection, ready to read for one product.
#[derive(Debug)]
pub struct DocdbSource {
    config: DocdbConfig,
    maps: Vec<EventMap>,
    product_currency: String,
}

impl DocdbSource {
    pub fn new(config: DocdbConfig, maps: Vec<EventMap>, product_currency: &str) -> Self {
        Self {
            config,
            maps,
            product_currency: product_currency.to_owned(),
        }
    }
}

impl Source for DocdbSource {
    fn test(&self) -> SourceFuture<'_, String> {
        Box::pin(super::test(&self.config))
    }

    fn sync<'a>(
        &'a self,
        window: SyncWindow,
        pages: &'a mut dyn PageSink,
    ) -> SourceFuture<'a, SyncOutput> {
        Box::pin(async move {
            let mut pages = Pages(pages);
            let detail = super::sync(
                &self.config,
                &self.maps,
                window,
                &self.product_currency,
                &mut pages,
            )
            .await?;
            Ok(SyncOutput {
                detail,
                ..SyncOutput::default()
            })
        })
    }

    /// The credentials are the customer's MongoDB login: nothing to revoke.
    fn disconnect(&self) -> SourceFuture<'_, Revocation> {
        Box::pin(async { Ok(Revocation::NothingToRevoke) })
    }
}
