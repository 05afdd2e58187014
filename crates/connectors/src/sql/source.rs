//! A `sql_a`/`sql_b` connection as a [`Source`](crate::Source), through the databases' shared
//! [`DatabaseSource`].

use std::future::Future;

use payback_domain::event_map::EventMap;

use crate::database::EventSink;
use crate::database::source::{Database, DatabaseSource};
use crate::{ConnectorError, SyncWindow};

use super::SqlConfig;

/// One relational database connection, ready to read for one product.
pub type SqlSource = DatabaseSource<SqlConfig>;

impl Database for SqlConfig {
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
