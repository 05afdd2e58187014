//! Clarity's 10 export requests per project per UTC day, kept by the server: the connector
//! sends exactly one request per test or run, and this wrapper takes that request from the
//! project's day in the store (`payback_store::replay_requests`) before letting it go. A day
//! spent answers a test `{ok:false}` and fails a run by name (its backoff retries later);
//! nothing reaches Clarity. Disconnecting sends nothing, so it takes nothing.

use std::sync::Arc;

use payback_connectors::replay_a::{DAILY_REQUESTS, ReplayASource};
use payback_connectors::{
    ConnectorError, PageSink, Revocation, Source, SourceFuture, SyncOutput, SyncWindow,
};
use payback_domain::Clock;
use payback_store::{Db, replay_requests};

/// A `replay_a` source whose every request is counted first.
pub struct Budgeted {
    pub inner: ReplayASource,
    pub store: Db,
    pub clock: Arc<dyn Clock>,
    pub project_id: String,
}

impl Budgeted {
    /// Takes one of today's requests, or says the day is spent.
    async fn take(&self) -> Result<(), ConnectorError> {
        let now = self.clock.now();
        let day = now.day();
        let taken = replay_requests::take(&self.store, &self.project_id, &day, DAILY_REQUESTS, now)
            .await
            .map_err(|err| {
                ConnectorError::Vendor(format!("the request budget could not be read: {err}"))
            })?;
        if taken {
            Ok(())
        } else {
            Err(ConnectorError::RateLimited(format!(
                "Clarity project {}: today's {DAILY_REQUESTS} export requests ({day}, UTC) are \
                 spent; nothing was sent, the next day's budget starts at midnight UTC",
                self.project_id
            )))
        }
    }
}

impl Source for Budgeted {
    fn test(&self) -> SourceFuture<'_, String> {
        Box::pin(async move {
            self.take().await?;
            self.inner.test().await
        })
    }

    fn sync<'a>(
        &'a self,
        window: SyncWindow,
        pages: &'a mut dyn PageSink,
    ) -> SourceFuture<'a, SyncOutput> {
        Box::pin(async move {
            self.take().await?;
            self.inner.sync(window, pages).await
        })
    }

    fn disconnect(&self) -> SourceFuture<'_, Revocation> {
        self.inner.disconnect()
    }
}
