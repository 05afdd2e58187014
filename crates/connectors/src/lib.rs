//! Connectors: every source kind speaks one vendor's documented API (base URL configurable, so
//! tests run against HTTP fakes on loopback) and answers records the sync engine writes through
//! the same ingestion path as the events API.

pub mod database;
pub mod docdb;
pub mod error;
pub mod payments;
pub mod sql;
mod window;

pub use error::ConnectorError;
pub use window::SyncWindow;

use payback_domain::event::IncomingEvent;

/// What one sync pass read: events in the ingestion schema (their `dedupe_id`s are the vendor's
/// ids, so a re-sync stores nothing twice) and a line for the connection's status.
#[derive(Debug, Default)]
pub struct SyncOutput {
    pub events: Vec<IncomingEvent>,
    pub detail: String,
}
