//! The payments connection as a [`Source`](crate::Source), through the API kinds' shared
//! [`ApiSource`]: `test` and `sync` as the module's functions answer them; a key is the
//! customer's, so disconnecting revokes nothing.

use crate::api_source::{ApiConfig, ApiSource, ReadsMoney};
use crate::source::SourceFuture;
use crate::{SyncOutput, SyncWindow};

use super::PaymentsConfig;

/// One payments connection, ready to read for one product. Records in any other currency are
/// skipped and counted, never converted.
pub type PaymentsSource = ApiSource<PaymentsConfig>;

impl ReadsMoney for PaymentsConfig {}

impl ApiConfig for PaymentsConfig {
    fn test(source: &PaymentsSource) -> SourceFuture<'_, String> {
        Box::pin(super::test(&source.http, &source.config))
    }

    /// A window of charges is small next to a database's tables, and its events are written
    /// after the read, as before.
    fn read(source: &PaymentsSource, window: SyncWindow) -> SourceFuture<'_, SyncOutput> {
        Box::pin(super::sync(
            &source.http,
            &source.config,
            window,
            &source.currency,
        ))
    }
}
