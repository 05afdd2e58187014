//! A `sql_a`/`sql_b` connection as a [`Source`](crate::Source): its maps' rows are written to
//! the run's pages as they are read; the batch carries only the status line.

use payback_domain::event_map::EventMap;

use crate::source::{PageSink, Pages, Revocation, Source, SourceFuture};
use crate::{SyncOutput, SyncWindow};

use super::SqlConfig;

/// One relational database connection, ready to read for one product.
#[derive(Debug)]
pub struct SqlSource {
    config: SqlConfig,
    maps: Vec<EventMap>,
    product_currency: String,
}

impl SqlSource {
    pub fn new(config: SqlConfig, maps: Vec<EventMap>, product_currency: &str) -> Self {
        Self {
            config,
            maps,
            product_currency: product_currency.to_owned(),
        }
    }
}

impl Source for SqlSource {
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

    /// The credentials are the customer's database login: nothing to revoke.
    fn disconnect(&self) -> SourceFuture<'_, Revocation> {
        Box::pin(async { Ok(Revocation::NothingToRevoke) })
    }
}
