//! Connections to sources: connecting (the credential sealed in the same transaction as the
//! connection and its history event), the inventory with redacted config, test, sync now and
//! disconnect. The runs themselves are `services::sync`.

use payback_connectors::Revocation;
use payback_domain::Timestamp;
use payback_domain::connection::{self, ConnectionKind, ConnectionStatus};
use payback_store::connections::{self as store, ConnectionRow};
use payback_store::products::ProductRow;
use serde::Serialize;
use serde_json::{Value, json};
use utoipa::ToSchema;

use crate::error::{ApiError, ApiResult};
use crate::services::acting::Caller;
use crate::services::{audit, products, sync};
use crate::state::AppState;

/// A connection as `GET /connections` shows it; secrets never appear.
#[derive(Debug, Serialize, ToSchema)]
pub struct ConnectionView {
    pub id: String,
    /// The kind's wire word (`sql_a`).
    #[schema(value_type = String)]
    pub kind: ConnectionKind,
    pub status: ConnectionStatus,
    /// What the connection was set up with, without secrets.
    #[schema(value_type = Option<Object>)]
    pub config: Option<Value>,
    pub last_sync_at: Option<String>,
    pub last_error: Option<String>,
    /// What the last successful run read, e.g. `shop.orders: 120 rows, 118 events, 2 skipped
    /// (first: row 17: email: ...)`.
    pub last_detail: Option<String>,
    /// How deep the source has read: 0 (never), 30, 365, then 3650 (everything).
    pub backfill_days: i64,
    /// A run is in progress; a stamp older than 15 minutes, or a run whose heartbeat stopped 45
    /// seconds ago (its process died), reads false.
    pub syncing: bool,
    pub sync_phase: Option<String>,
    pub product_slug: String,
    /// When the next run is due (after a failure: when the backoff ends).
    pub next_sync_at: Option<String>,
    /// Database kinds: how tables become events; `analytics_a`, once it has maps: which GA4
    /// events count as which stage (`null` otherwise).
    #[schema(value_type = Option<Vec<Object>>)]
    pub event_maps: Option<Value>,
}

impl ConnectionView {
    pub fn new(row: ConnectionRow, now: Timestamp) -> Self {
        let syncing = connection::is_running(
            row.syncing_since.map(Timestamp::from_millis),
            row.sync_heartbeat_at.map(Timestamp::from_millis),
            now,
        );
        let stamp = |at: Option<i64>| at.map(|ms| Timestamp::from_millis(ms).to_rfc3339());
        // Another kind's maps (web analytics' event names) show once it has some.
        let has_maps = row.kind.is_database() || row.event_maps.trim() != "[]";
        Self {
            event_maps: has_maps
                .then(|| serde_json::from_str(&row.event_maps).ok())
                .flatten(),
            status: row.status,
            config: serde_json::from_str(&row.config).ok(),
            last_sync_at: stamp(row.last_sync_at),
            next_sync_at: stamp(row.next_sync_at),
            sync_phase: row.sync_phase.filter(|_| syncing),
            syncing,
            id: row.id,
            kind: row.kind,
            last_error: row.last_error,
            last_detail: row.last_detail,
            backfill_days: row.backfill_days,
            product_slug: row.product_slug,
        }
    }
}

/// The first `limit` connections the caller may see, oldest first.
pub async fn list(state: &AppState, caller: &Caller, limit: i64) -> ApiResult<Vec<ConnectionView>> {
    let now = state.clock.now();
    let rows = store::list_first(&state.store, &caller.visibility()?, limit).await?;
    Ok(rows
        .into_iter()
        .map(|row| ConnectionView::new(row, now))
        .collect())
}

/// The product's connection of the kind named in the path (`payments`, `sql-a`, ...).
async fn find(
    state: &AppState,
    caller: &Caller,
    slug: &str,
    kind_word: &str,
) -> ApiResult<(ProductRow, ConnectionKind, ConnectionRow)> {
    let product = products::find(state, caller.scope()?, slug).await?;
    let not_found = || ApiError::NotFound(format!("no {kind_word} connection for this product"));
    let kind = ConnectionKind::from_path(kind_word).ok_or_else(not_found)?;
    let row = store::find(&state.store, &product.id, kind.as_str())
        .await?
        .ok_or_else(not_found)?;
    Ok((product, kind, row))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct TestOutcome {
    pub ok: bool,
    pub detail: String,
}

/// One live read with the stored credential. A refusal is an answer (`ok: false` with the
/// vendor's reason), not an error of this call.
pub async fn test(
    state: &AppState,
    caller: &Caller,
    slug: &str,
    kind: &str,
) -> ApiResult<TestOutcome> {
    let (product, _, row) = find(state, caller, slug, kind).await?;
    Ok(match sync::probe(state, &product, &row).await? {
        Ok(detail) => TestOutcome { ok: true, detail },
        Err(reason) => TestOutcome {
            ok: false,
            detail: reason,
        },
    })
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SyncStarted {
    pub ok: bool,
    /// False when a run is already going.
    pub started: bool,
    /// The days this run reads: the next ladder rung, or the recent days once complete.
    pub days: i64,
    pub detail: String,
}

/// Starts a run now (clearing any backoff) and returns at once; poll `GET /connections`.
pub async fn sync_now(
    state: &AppState,
    caller: &Caller,
    slug: &str,
    kind: &str,
) -> ApiResult<SyncStarted> {
    let (_, _, row) = find(state, caller, slug, kind).await?;
    if row.status == ConnectionStatus::Disabled {
        return Err(ApiError::Conflict("this connection is disabled".to_owned()));
    }
    if row.status == ConnectionStatus::Pending {
        return Err(ApiError::Conflict(
            "this connection is staged (pending): activate it with its event maps first".to_owned(),
        ));
    }
    let now = state.clock.now();
    let days = crate::services::sync::next_window_days(state, &row).await;
    store::make_due(&state.store, &row.id, now).await?;
    if !store::claim(&state.store, &row.id, &state.instance_id, now).await? {
        return Ok(SyncStarted {
            ok: true,
            started: false,
            days,
            detail: "a sync is already running".to_owned(),
        });
    }
    let background = state.clone();
    tokio::spawn(async move { sync::run_claimed(&background, row).await });
    Ok(SyncStarted {
        ok: true,
        started: true,
        days,
        detail: format!("reading the last {days} days"),
    })
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Disconnected {
    pub ok: bool,
    /// False when another connection still uses the credential.
    pub credential_deleted: bool,
    /// True when the vendor revoked the grant's token; keys and database credentials are the
    /// customer's and have nothing to revoke.
    pub revoked_upstream: bool,
}

/// Removes the connection and its credential (unless shared); ingested data stays. A grant's
/// token is revoked upstream once its last connection is gone: the source is opened before the
/// credential is deleted (revoking needs it), and asked only after the deletion committed, so a
/// token another connection still uses is never revoked.
pub async fn disconnect(
    state: &AppState,
    caller: &Caller,
    slug: &str,
    kind: &str,
) -> ApiResult<Disconnected> {
    let (product, kind, row) = find(state, caller, slug, kind).await?;
    let grant = if kind.family().revokes_upstream() {
        // A grant that cannot be opened (no connector, no sealing key) still disconnects: the
        // answer then says nothing was revoked.
        match state.sources.open(state, &product, &row, kind).await {
            Ok(source) => Some(source),
            Err(err) => {
                tracing::warn!(connection = %row.id, kind = %kind, error = %err, "a grant could not be opened to revoke it");
                None
            }
        }
    } else {
        None
    };
    let now = state.clock.now();
    let actor = caller.actor();
    let mut tx = state.store.begin().await?;
    let credential = store::delete(&mut tx, &row.id).await?;
    let credential_deleted = match credential {
        Some(id) => store::delete_credential_if_unused(&mut tx, &id).await?,
        None => false,
    };
    let payload = json!({ "connection_id": row.id, "kind": kind.as_str(), "credential_deleted": credential_deleted });
    audit::record_product(
        &mut tx,
        &actor,
        &product,
        "connection.disconnect",
        payload,
        now,
    )
    .await?;
    tx.commit().await?;
    let revoked_upstream = match grant {
        Some(source) if credential_deleted => match source.disconnect().await {
            Ok(revocation) => revocation == Revocation::Revoked,
            Err(err) => {
                // The connection is gone either way; the token then lapses at the vendor, or
                // the customer revokes it there. The answer says it was not revoked.
                tracing::warn!(connection = %row.id, kind = %kind, error = %err, "revoking a grant upstream failed");
                false
            }
        },
        _ => false,
    };
    Ok(Disconnected {
        ok: true,
        credential_deleted,
        revoked_upstream,
    })
}
