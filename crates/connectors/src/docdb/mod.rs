//! `docdb`: a tenant's MongoDB, read through the official driver.
//!
//! Reads only: `ping`, `listCollections`, `find` (with `getMore`) and the collection count
//! estimate; no aggregation, no writes. Each map names a collection and dot paths inside its
//! documents; a run reads the documents whose timestamp (a BSON date) falls in the sync window,
//! oldest first, and writes them to the sink a page at a time through the shared
//! [`MapReader`](crate::database::record::MapReader). How BSON values become cells is in
//! [`mapping`]'s table; how filters become query operators in `query`.

mod client;
mod credentials;
mod introspect;
pub mod mapping;
mod query;
mod read;
mod seeds;
mod source;

pub use credentials::DocdbCredentials;
pub use seeds::{Seed, seed_hosts};
pub use source::DocdbSource;

use bson::doc;
use payback_domain::event_map::EventMap;

use self::client::Source;
use crate::database::schema::SchemaSummary;
use crate::database::{EventSink, ReadLimits};
use crate::{ConnectorError, SyncWindow};

/// One `docdb` connection as a run sees it.
#[derive(Debug, Clone)]
pub struct DocdbConfig {
    pub credentials: DocdbCredentials,
    /// The servers a run may dial, each checked when the run began (the server's
    /// `host_guard`): the connection string's hosts, or its SRV record's targets (see
    /// [`seed_hosts`]). The driver is given nothing else to dial.
    pub seeds: Vec<Seed>,
    pub limits: ReadLimits,
}

/// Pings the server and lists the database's collections:
/// `MongoDB answers; database shop, 4 collections`.
pub async fn test(config: &DocdbConfig) -> Result<String, ConnectorError> {
    let source = Source::connect(config).await?;
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

/// The first 30 collections by name (the rest counted in `more_tables`), or the named ones
/// (unknown names fail as [`ConnectorError::Config`] naming them), each sampled for up to 50
/// documents: field paths in dot notation (sub-documents flattened to depth 3), `data_type` the
/// BSON type names seen (`int|long`), and a coarse kind.
pub async fn describe(
    config: &DocdbConfig,
    collections: Option<&[String]>,
) -> Result<SchemaSummary, ConnectorError> {
    let source = Source::connect(config).await?;
    introspect::summarize(&source, collections).await
}

/// Reads every map's documents in the window into the sink; answers one status line per map
/// joined by `; ` (`orders: 120 rows, 118 events; users: 40 rows, 40 events`).
pub async fn sync(
    config: &DocdbConfig,
    maps: &[EventMap],
    window: SyncWindow,
    product_currency: &str,
    sink: &mut impl EventSink,
) -> Result<String, ConnectorError> {
    let source = Source::connect(config).await?;
    let mut lines = Vec::with_capacity(maps.len());
    for map in maps {
        lines.push(read::read_map(&source, map, window, product_currency, sink).await?);
    }
    Ok(lines.join("; "))
}
