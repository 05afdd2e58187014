//! The tag audit as the connection's [`Source`]: `test` reads the container, a sync reads its
//! live version and keeps whether the product's snippet is in it (`tag_manager_states`), and
//! `disconnect` revokes the grant (a service account has nothing to revoke). The audit is the
//! server's to keep, not a batch of the connector's: nothing of it is funnel data.

use payback_connectors::tagmgr::{self, TagManagerConfig};
use payback_connectors::{
    ConnectorError, PageSink, Revocation, Source, SourceFuture, SyncOutput, SyncWindow,
};
use payback_store::AccountScope;
use payback_store::connections::ConnectionRow;
use payback_store::products::ProductRow;
use payback_store::{tag_manager, tracking_keys};

use crate::state::AppState;

/// One tag manager connection, ready to audit.
pub(super) struct AuditSource {
    state: AppState,
    scope: AccountScope,
    connection_id: String,
    product_id: String,
    config: TagManagerConfig,
}

impl AuditSource {
    pub(super) fn new(
        state: &AppState,
        product: &ProductRow,
        row: &ConnectionRow,
        config: TagManagerConfig,
    ) -> Self {
        Self {
            state: state.clone(),
            scope: AccountScope::trusted(row.account_id.clone()),
            connection_id: row.id.clone(),
            product_id: product.id.clone(),
            config,
        }
    }

    /// Audits the live version against the product's live write key and keeps the answer.
    async fn audit(&self) -> Result<SyncOutput, ConnectorError> {
        let store_failed = |err: payback_store::StoreError| {
            ConnectorError::Config(format!("storing the audit: {err}"))
        };
        let key = tracking_keys::live_for_product(&self.state.store, &self.product_id)
            .await
            .map_err(store_failed)?;
        let audit = tagmgr::audit(
            &self.state.http,
            &self.config,
            key.as_ref().map(|row| row.key.as_str()),
        )
        .await?;
        tag_manager::record_audit(
            &self.state.store,
            &self.scope,
            &self.connection_id,
            &self.config.container_path,
            audit.snippet_live,
            self.state.clock.now(),
        )
        .await
        .map_err(store_failed)?;
        let detail = audit.detail(&self.config.container_path);
        tracing::info!(detail = %detail, "tag manager audit");
        Ok(SyncOutput {
            detail,
            ..SyncOutput::default()
        })
    }
}

impl Source for AuditSource {
    fn test(&self) -> SourceFuture<'_, String> {
        Box::pin(tagmgr::test(&self.state.http, &self.config))
    }

    /// The audit; the window does not matter (only the live version is read).
    fn sync<'a>(
        &'a self,
        _window: SyncWindow,
        _pages: &'a mut dyn PageSink,
    ) -> SourceFuture<'a, SyncOutput> {
        Box::pin(self.audit())
    }

    fn disconnect(&self) -> SourceFuture<'_, Revocation> {
        Box::pin(self.config.auth.revoke(&self.state.http))
    }
}
