//! Everything a request handler may touch, passed explicitly; there is no global state.

use std::sync::Arc;

use payback_domain::Clock;
use payback_store::Db;
use payback_store::ingest::IngestWriter;

use crate::config::Config;
use crate::crypto::Passwords;
use crate::mail::Mailer;
use crate::rate_limit::Limiters;
use crate::secrets::CredentialBox;
use crate::services::sources::SourceRegistry;
use crate::services::sync::SyncSlots;

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
}
