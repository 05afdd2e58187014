//! The `social_ads_b` connection as a [`Source`](crate::Source), through the API kinds' shared
//! [`ApiSource`]: `test` reads the ad account, `sync` its spend; nothing is ever written to
//! LinkedIn.

use crate::api_source::{ApiConfig, ApiSource, ReadsMoney};
use crate::source::SourceFuture;
use crate::{SyncOutput, SyncWindow};

use super::SocialAdsBConfig;

/// One LinkedIn ad account, ready to read for one product. Spend in another currency fails the
/// run by name, never converted or mixed.
///
/// Disconnecting revokes nothing: the access token was pasted by the customer, who generated it
/// for their own LinkedIn app, so it stays theirs to revoke (in LinkedIn's developer portal) or
/// let expire. Payback forgets it when the connection is deleted.
pub type SocialAdsBSource = ApiSource<SocialAdsBConfig>;

impl ReadsMoney for SocialAdsBConfig {}

impl ApiConfig for SocialAdsBConfig {
    /// Proves the token reads the account and the account fits the product.
    fn test(source: &SocialAdsBSource) -> SourceFuture<'_, String> {
        Box::pin(super::test(&source.http, &source.config, &source.currency))
    }

    /// Spend is a few rows per creative and day: it comes back in the batch, which replaces the
    /// account's days in one transaction.
    fn read(source: &SocialAdsBSource, window: SyncWindow) -> SourceFuture<'_, SyncOutput> {
        Box::pin(super::sync(
            &source.http,
            &source.config,
            window,
            &source.currency,
        ))
    }
}
