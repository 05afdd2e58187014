//! The one trait every source kind implements. A `Source` is one connection made usable: its
//! credential opened, its settings and the product's currency in hand (the server builds it per
//! run). The server's sync run knows nothing else about a kind than this trait and its row of the
//! kind table.

use std::future::Future;
use std::pin::Pin;

use payback_domain::event::IncomingEvent;

use crate::database::EventSink;
use crate::{BudgetWriter, ConnectorError, SyncOutput, SyncWindow};

/// A boxed future of a source call: the trait is used as `dyn Source`, so a test can register
/// a fake through the same path as the real kinds.
pub type SourceFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, ConnectorError>> + Send + 'a>>;

/// What disconnecting did upstream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Revocation {
    /// The vendor revoked the grant's token.
    Revoked,
    /// Nothing to revoke: a key or a database credential stays the customer's.
    NothingToRevoke,
}

pub trait Source: Send + Sync {
    /// One cheap live read proving the credential; answers the line `test` shows.
    fn test(&self) -> SourceFuture<'_, String>;

    /// Reads `window`. Sources that list many rows (customer databases) hand events to `pages`
    /// as they read, so a deep backfill never holds more than a page; everything else comes
    /// back in the batch, written once the read is complete.
    fn sync<'a>(
        &'a self,
        window: SyncWindow,
        pages: &'a mut dyn PageSink,
    ) -> SourceFuture<'a, SyncOutput>;

    /// Ends Payback's access upstream where the vendor has a way to (a grant's token).
    fn disconnect(&self) -> SourceFuture<'_, Revocation>;

    /// The budget writer of an ad network whose kind row says it changes budgets; `None` for
    /// everything that only reads.
    fn budgets(&self) -> Option<&dyn BudgetWriter> {
        None
    }
}

/// Where a source delivers pages of events while it reads.
pub trait PageSink: Send {
    fn write(&mut self, events: Vec<IncomingEvent>) -> SourceFuture<'_, ()>;
}

/// A [`PageSink`] for the database readers, which take any [`EventSink`].
pub(crate) struct Pages<'a>(pub &'a mut dyn PageSink);

impl EventSink for Pages<'_> {
    fn write(
        &mut self,
        events: Vec<IncomingEvent>,
    ) -> impl Future<Output = Result<(), ConnectorError>> + Send {
        self.0.write(events)
    }
}
