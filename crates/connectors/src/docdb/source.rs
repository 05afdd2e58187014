//! A `docdb` connection as a [`Source`](crate::Source), through the databases' shared
//! [`DatabaseSource`].

use std::future::Future;

use payback_domain::event_map::EventMap;

use crate::database::EventSink;
use crate::database::source::{Database, DatabaseSource};
use crate::{ConnectorError, SyncWindow};

use super::DocdbConfig;

/// One MongoDB connection, ready to read for one product.
pub type DocdbSource = DatabaseSource<DocdbConfig>;

impl Database for DocdbConfig {
    fn test(&self) -> impl Future<Output = Result<String, ConnectorError>> + Send {
        super::test(self)
    }

    fn read(
        &self,
        maps: &[EventMap],
        window: SyncWindow,
        product_currency: &str,
        sink: &mut impl EventSink,
    ) -> impl Future<Output = Result<String, ConnectorError>> + Send {
        super::sync(self, maps, window, product_currency, sink)
    }
}
