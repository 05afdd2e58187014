//! The relational-database connector: `sql_a` (PostgreSQL) and `sql_b` (MySQL or MariaDB).
//!
//! Every call opens one connection of its own, to an address checked before the call (see
//! [`SqlConfig::addresses`]), makes the session read-only, UTC and time-limited, and closes it
//! when done. The connector only ever sends SELECTs it builds from catalog names (quoted per
//! dialect) and bound parameters; see `query.rs` for how a map's window is paged exactly.

mod credentials;
mod dialect;
mod errors;
mod introspect;
mod query;
mod read;
mod session;
mod source;
mod statement;

pub use credentials::{SqlCredentials, SslMode};
pub use dialect::Dialect;
pub use errors::Naming;
pub use session::SessionSettings;
pub use source::SqlSource;

use std::net::IpAddr;

use crate::ConnectorError;
use crate::database::ReadLimits;
use crate::database::schema::SchemaSummary;
use session::Session;

/// What one connection of `sql_a` or `sql_b` reads with.
#[derive(Debug, Clone)]
pub struct SqlConfig {
    pub dialect: Dialect,
    pub credentials: SqlCredentials,
    /// The addresses `credentials.host` resolved to when it was checked (the server's
    /// `host_guard`), tried in order. The connector dials these and never resolves the name
    /// itself: a name that resolved to a public address a moment ago may resolve to a private
    /// one now (DNS rebinding).
    pub addresses: Vec<IpAddr>,
    /// How messages name the host, user and database.
    pub naming: Naming,
    pub limits: ReadLimits,
}

/// How the connector's session is set up on this server: the check every read starts with
/// (a session the server does not call read-only is refused), and what `test` reports.
pub async fn session_settings(config: &SqlConfig) -> Result<SessionSettings, ConnectorError> {
    let session = Session::open(config).await?;
    let settings = session.settings.clone();
    session.close().await;
    Ok(settings)
}

/// The tables `suggest-mappings` shows: the first [`DEFAULT_TABLES`] (and how many more
/// there are), or the named ones (`table` or `schema.table`); unknown names are refused.
///
/// [`DEFAULT_TABLES`]: crate::database::schema::DEFAULT_TABLES
pub async fn describe(
    config: &SqlConfig,
    tables: Option<&[String]>,
) -> Result<SchemaSummary, ConnectorError> {
    let mut session = Session::open(config).await?;
    let summary = introspect::describe(&mut session, tables).await;
    session.close().await;
    summary
}
