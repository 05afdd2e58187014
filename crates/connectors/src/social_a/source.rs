//! The `social_a` connection as a [`Source`](crate::Source), through the API kinds' shared
//! [`ApiSource`]: `test` opens the page and reads its insights, `sync` reads the snapshots,
//! `disconnect` ends the social grant at Meta when the token is the grant's.

use crate::api_source::{ApiConfig, ApiSource};
use crate::graph;
use crate::source::{Revocation, SourceFuture};
use crate::{SyncOutput, SyncWindow};

use super::SocialAConfig;

/// One Facebook page (and its linked Instagram account), ready to read.
pub type SocialASource = ApiSource<SocialAConfig>;

impl SocialASource {
    /// Snapshots are counts, not money: no product currency.
    pub fn new(http: reqwest::Client, config: SocialAConfig) -> Self {
        Self::open(http, config, "")
    }
}

impl ApiConfig for SocialAConfig {
    fn test(source: &SocialASource) -> SourceFuture<'_, String> {
        Box::pin(super::test(&source.http, &source.config))
    }

    /// Snapshots are a few values per day: they come back in the batch.
    fn read(source: &SocialASource, window: SyncWindow) -> SourceFuture<'_, SyncOutput> {
        Box::pin(super::sync(&source.http, &source.config, window))
    }

    /// The grant's user token: `DELETE /me/permissions`, which ends the whole grant (every kind
    /// it served). A pasted token (`revoke_on_disconnect` false, e.g. a page token) is the
    /// customer's: nothing is revoked.
    fn disconnect(source: &SocialASource) -> SourceFuture<'_, Revocation> {
        let config = &source.config;
        let grant = config.revoke_on_disconnect.then_some(&*config.access_token);
        let graph_base_url = &config.graph_base_url;
        Box::pin(graph::disconnect(&source.http, graph_base_url, grant))
    }
}
