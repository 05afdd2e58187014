//! Everything a request handler may touch, passed explicitly; there is no global state.
//!
//! The state's own parts live here or below it (configuration, limiters, mail), never in
//! `services`: the services are what the state is handed to. The two that services fill or
//! drain are defined here for that reason: the [`SourceRegistry`] (`crate::kinds` registers each
//! kind's opener) and the [`SyncSlots`] (`services::sync` runs in them); what else the kinds
//! register for the services that serve them travels in [`AppState::plugins`], typed.

use std::collections::HashMap;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use axum::http::Extensions;
use payback_connectors::Source;
use payback_domain::Clock;
use payback_domain::connection::ConnectionKind;
use payback_store::Db;
use payback_store::connections::ConnectionRow;
use payback_store::ingest::IngestWriter;
use payback_store::products::ProductRow;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::config::Config;
use crate::crypto::Passwords;
use crate::error::{ApiError, ApiResult};
use crate::mail::Mailer;
use crate::rate_limit::Limiters;
use crate::secrets::CredentialBox;

#[derive(Clone, Debug)]
pub struct AppState {
    /// This process's id as a holder of leases (budget changes, jobs, sync runs): minted when
    /// the state is built, so a restarted process is a new holder, and another instance takes
    /// over a lease whose holder stopped beating (`payback_domain::lease`).
    pub instance_id: String,
    pub store: Db,
    /// Where events are written: batches that arrive together share one transaction.
    pub ingest: IngestWriter,
    pub config: Arc<Config>,
    pub clock: Arc<dyn Clock>,
    pub mailer: Mailer,
    /// The source kinds this process can read, each with how its connections are opened (an
    /// ad network's source also changes its budgets: `services::budget_apply`).
    pub sources: SourceRegistry,
    /// What the kinds' plug-ins registered for the services that serve them (each grant
    /// provider's kinds, the confirmation page's words, the providers' revocations), typed by
    /// what they are, so this file names no service (`crate::kinds::register`).
    pub plugins: Extensions,
    /// This instance's sync runs under way, at most `sync_concurrency` (`services::sync`).
    pub sync_slots: SyncSlots,
    /// Seals and opens source credentials; `None` without `PAYBACK_SECRET_KEY`.
    pub credentials: Option<Arc<CredentialBox>>,
    /// Password hashing with a bound on concurrent hashes (public routes hash for anyone).
    pub passwords: Passwords,
    /// The one HTTP client connectors share (connection pooling, one TLS setup).
    pub http: reqwest::Client,
    /// The in-memory rate limiters (per address, per write key, per login email).
    pub limiters: Limiters,
    /// The SSO provider's discovery document and keys, read when first needed (`services::sso`).
    pub sso: payback_connectors::oidc::DiscoveryCache,
}

pub type OpenFuture<'a> = Pin<Box<dyn Future<Output = ApiResult<Box<dyn Source>>> + Send + 'a>>;

/// Opens one kind's stored connections.
pub trait OpenSource: Send + Sync {
    fn open<'a>(
        &'a self,
        state: &'a AppState,
        product: &'a ProductRow,
        row: &'a ConnectionRow,
    ) -> OpenFuture<'a>;
}

/// The kinds this process can read, each with its opener: for each kind that has a connector,
/// how a stored connection becomes a [`Source`]. Sync runs, tests and disconnects reach a kind
/// only through here, so a new kind is one registration (`crate::kinds`), and a
/// test can register a fake through the same path.
#[derive(Clone, Default)]
pub struct SourceRegistry {
    by_kind: HashMap<ConnectionKind, Arc<dyn OpenSource>>,
}

impl fmt::Debug for SourceRegistry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut kinds: Vec<&str> = self.by_kind.keys().map(|kind| kind.as_str()).collect();
        kinds.sort_unstable();
        f.debug_struct("SourceRegistry")
            .field("kinds", &kinds)
            .finish()
    }
}

impl SourceRegistry {
    /// Whether this process has a connector for `kind`.
    pub fn reads(&self, kind: ConnectionKind) -> bool {
        self.by_kind.contains_key(&kind)
    }

    /// Registers `opener` for `kind`, replacing any other.
    pub fn register(&mut self, kind: ConnectionKind, opener: Arc<dyn OpenSource>) {
        self.by_kind.insert(kind, opener);
    }

    /// The connection made usable; 400 when no connector reads its kind.
    pub async fn open(
        &self,
        state: &AppState,
        product: &ProductRow,
        row: &ConnectionRow,
        kind: ConnectionKind,
    ) -> ApiResult<Box<dyn Source>> {
        let opener = self
            .by_kind
            .get(&kind)
            .ok_or_else(|| ApiError::bad_request(format!("no connector for kind {kind}")))?;
        opener.open(state, product, row).await
    }
}

/// This instance's sync runs under way: at most `PAYBACK_SYNC_CONCURRENCY` at once, whichever
/// pass started them (a run a pass left going still holds its slot). "Sync now" starts its run
/// outside them: one click, one run, and the connection's lease keeps it single.
#[derive(Clone, Debug)]
pub struct SyncSlots(Arc<Semaphore>);

impl SyncSlots {
    /// `concurrency` slots, at least one.
    pub fn new(concurrency: usize) -> Self {
        Self(Arc::new(Semaphore::new(concurrency.max(1))))
    }

    /// Slots free now.
    pub(crate) fn free(&self) -> usize {
        self.0.available_permits()
    }

    /// A free slot, held until the permit is dropped; `None` when all are taken.
    pub(crate) fn take(&self) -> Option<OwnedSemaphorePermit> {
        Arc::clone(&self.0).try_acquire_owned().ok()
    }
}
