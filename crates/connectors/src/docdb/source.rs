//! A `docdb` connection as a [`Source`](crate::Source), through the databases' shared
//! [`DatabaseSource`].

use bson::doc;
use payback_domain::event_map::EventMap;

use crate::database::EventSink;
use crate::database::source::{Database, DatabaseSource};
use crate::{ConnectorError, SyncWindow};

use super::client::Source;
use super::{DocdbConfig, introspect, read};

/// One MongoDB connection, ready to read for one product.
pub type DocdbSource = DatabaseSource<DocdbConfig>;

impl Database for DocdbConfig {
    /// Pings the server and lists the database's collections:
    /// `MongoDB answers; database shop, 4 collections`.
    async fn test(&self) -> Result<String, ConnectorError> {
        let source = Source::connect(self).await?;
        source
            .call("a ping", source.database().run_command(doc! { "ping": 1 }))
            .await?;
        let collections = introspect::collection_names(&source).await?.len();
        let noun = if collections == 1 {
            "collection"
        } else {
            "collections"
        };
        Ok(format!(
            "MongoDB answers; database {}, {collections} {noun}",
            source.database().name()
        ))
    }

    /// Reads every map's documents in the window into the sink; answers one status line per map
    /// joined by `; ` (`orders: 120 rows, 118 events; users: 40 rows, 40 events`).
    async fn read(
        &self,
        maps: &[EventMap],
        window: SyncWindow,
        product_currency: &str,
        sink: &mut impl EventSink,
    ) -> Result<String, ConnectorError> {
        let source = Source::connect(self).await?;
        let mut lines = Vec::with_capacity(maps.len());
        for map in maps {
            lines.push(read::read_map(&source, map, window, product_currency, sink).await?);
        }
        Ok(lines.join("; "))
    }
}
