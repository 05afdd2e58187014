//! What the customer-database connectors (`sql_a` PostgreSQL, `sql_b` MySQL/MariaDB, `docdb`
//! MongoDB) share: the sink pages of events are written to, the limits every read keeps, the
//! row-to-event mapping of an [`EventMap`](payback_domain::event_map::EventMap), the schema
//! summary and the presets `suggest-mappings` proposes from.
//!
//! Reads are read-only and incremental: each map reads the rows whose timestamp falls in the
//! sync window, a page at a time, each statement under a timeout, at most
//! [`ReadLimits::max_rows_per_map`] rows per map and run.

pub mod presets;
pub mod record;
pub mod schema;
pub mod source;

use std::future::Future;
use std::time::Duration;

use payback_domain::event::IncomingEvent;

use crate::ConnectorError;

/// Where a database read delivers its events, a page at a time, so a deep backfill never holds
/// more than one page in memory.
pub trait EventSink: Send {
    fn write(
        &mut self,
        events: Vec<IncomingEvent>,
    ) -> impl Future<Output = Result<(), ConnectorError>> + Send;
}

/// The bounds of one read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadLimits {
    /// Rows fetched by one statement (and written as one page).
    pub page_rows: usize,
    /// A map with more rows than this in one window fails the run with a message asking for a
    /// filter, rather than reading without end.
    pub max_rows_per_map: usize,
    /// Each statement (and the connect) is cut off after this.
    pub statement_timeout: Duration,
}

impl Default for ReadLimits {
    fn default() -> Self {
        Self {
            page_rows: 5_000,
            max_rows_per_map: 500_000,
            statement_timeout: Duration::from_secs(30),
        }
    }
}
