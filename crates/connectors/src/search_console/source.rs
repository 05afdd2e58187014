//! The `search_console` connection as a [`Source`](crate::Source), through the API kinds'
//! shared [`ApiSource`]: `test` reads the site, `sync` its search analytics, `disconnect`
//! revokes the grant's refresh token.

use crate::api_source::{ApiConfig, ApiSource};
use crate::source::{Revocation, SourceFuture};
use crate::{SyncOutput, SyncWindow};

use super::SearchConsoleConfig;

/// One Search Console site, ready to read for one product.
pub type SearchConsoleSource = ApiSource<SearchConsoleConfig>;

impl SearchConsoleSource {
    /// Clicks and impressions are counts, not money: no product currency.
    pub fn new(http: reqwest::Client, config: SearchConsoleConfig) -> Self {
        Self::open(http, config, "")
    }
}

impl ApiConfig for SearchConsoleConfig {
    fn test(source: &SearchConsoleSource) -> SourceFuture<'_, String> {
        Box::pin(super::test(&source.http, &source.config))
    }

    /// A few thousand rows a day at most: they come back in the batch.
    fn read(source: &SearchConsoleSource, window: SyncWindow) -> SourceFuture<'_, SyncOutput> {
        Box::pin(super::sync(&source.http, &source.config, window))
    }

    /// Revokes the refresh token, which ends the whole grant at Google (every kind it served).
    fn disconnect(source: &SearchConsoleSource) -> SourceFuture<'_, Revocation> {
        Box::pin(async move {
            let config = &source.config;
            config
                .oauth
                .revoke(&source.http, &config.refresh_token)
                .await?;
            Ok(Revocation::Revoked)
        })
    }
}
