//! The `social_a` connection as a [`Source`]: `test` opens the page and reads its insights,
//! `sync` reads the snapshots, `disconnect` ends the social grant at Meta when the token is the
//! grant's.

use crate::graph;
use crate::source::{PageSink, Revocation, Source, SourceFuture};
use crate::{SyncOutput, SyncWindow};

use super::SocialAConfig;

/// One Facebook page (and its linked Instagram account), ready to read.
#[derive(Debug)]
pub struct SocialASource {
    http: reqwest::Client,
    pub(super) config: SocialAConfig,
}

impl SocialASource {
    pub fn new(http: reqwest::Client, config: SocialAConfig) -> Self {
        Self { http, config }
    }
}

impl Source for SocialASource {
    fn test(&self) -> SourceFuture<'_, String> {
        Box::pin(super::test(&self.http, &self.config))
    }

    /// Snapshots are a few values per day: they come back in the batch.
    fn sync<'a>(
        &'a self,
        window: SyncWindow,
        _pages: &'a mut dyn PageSink,
    ) -> SourceFuture<'a, SyncOutput> {
        Box::pin(super::sync(&self.http, &self.config, window))
    }

    /// The grant's user token: `DELETE /me/permissions`, which ends the whole grant (every kind
    /// it served). A pasted token (`revoke_on_disconnect` false, e.g. a page token) is the
    /// customer's: nothing is revoked.
    fn disconnect(&self) -> SourceFuture<'_, Revocation> {
        Box::pin(async {
            if !self.config.revoke_on_disconnect {
                return Ok(Revocation::NothingToRevoke);
            }
            graph::revoke(
                &self.http,
                &self.config.graph_base_url,
                &self.config.access_token,
            )
            .await?;
            Ok(Revocation::Revoked)
        })
    }
}
