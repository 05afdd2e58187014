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

use self::client::Source;
use crate::ConnectorError;
use crate::database::ReadLimits;
use crate::database::schema::SchemaSummary;

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
