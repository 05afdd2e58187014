//! Connections to sources, their sealed credentials, and the lease and bookkeeping of their sync
//! runs. Sealing and opening credentials is the server's job; this module stores bytes.

use payback_domain::connection::STALE_RUN_MS;
use payback_domain::{Timestamp, lease};

use crate::error::StoreResult;
use crate::{AccountScope, Db, Reader, Tx, Visibility, new_id};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ConnectionRow {
    pub id: String,
    pub account_id: String,
    pub product_id: String,
    pub product_slug: String,
    /// Read back typed: a word outside the kind table or the status vocabulary fails the read.
    #[sqlx(try_from = "String")]
    pub kind: payback_domain::connection::ConnectionKind,
    #[sqlx(try_from = "String")]
    pub status: payback_domain::connection::ConnectionStatus,
    pub config: String,
    pub credential_id: Option<String>,
    pub backfill_days: i64,
    pub last_sync_at: Option<i64>,
    pub last_error: Option<String>,
    pub consecutive_failures: i64,
    pub next_sync_at: Option<i64>,
    pub syncing_since: Option<i64>,
    /// When the run's holder last beat (`None` when no run holds the connection): a run whose
    /// heartbeat stopped is dead before `STALE_RUN_MS`.
    pub sync_heartbeat_at: Option<i64>,
    pub sync_phase: Option<String>,
    pub created_at: i64,
    /// JSON array of event maps (database kinds); `[]` otherwise.
    pub event_maps: String,
    /// The last successful run's status line.
    pub last_detail: Option<String>,
}

const SELECT: &str = "SELECT c.id, c.account_id, c.product_id, p.slug AS product_slug, c.kind, \
    c.status, c.config, c.credential_id, c.backfill_days, c.last_sync_at, c.last_error, \
    c.consecutive_failures, c.next_sync_at, c.syncing_since, c.sync_heartbeat_at, c.sync_phase, c.created_at, \
    c.event_maps, c.last_detail FROM connections c JOIN products p ON p.id = c.product_id";

/// A sealed credential: what `open` needs besides the key.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct SealedCredential {
    pub nonce: Vec<u8>,
    pub ciphertext: Vec<u8>,
}

pub async fn insert_credential(
    tx: &mut Tx,
    scope: &AccountScope,
    sealed: &SealedCredential,
    now: Timestamp,
) -> StoreResult<String> {
    let id = new_id();
    on_tx!(tx, conn => sqlx::query(
        "INSERT INTO credentials (id, account_id, nonce, ciphertext, created_at) VALUES ($1, $2, $3, $4, $5)")
        .bind(&id)
        .bind(scope.account_id())
        .bind(&sealed.nonce)
        .bind(&sealed.ciphertext)
        .bind(now.millis())
        .execute(conn)
        .await.map(|done| done.rows_affected()))?;
    Ok(id)
}

pub async fn credential(db: &Db, id: &str) -> StoreResult<Option<SealedCredential>> {
    Ok(
        on_db!(db, pool => sqlx::query_as("SELECT nonce, ciphertext FROM credentials WHERE id = $1")
        .bind(id)
        .fetch_optional(pool)
        .await)?,
    )
}

/// Deletes the credential unless another connection still uses it; answers whether it went.
pub async fn delete_credential_if_unused(tx: &mut Tx, id: &str) -> StoreResult<bool> {
    let deleted = on_tx!(tx, conn => sqlx::query(
        "DELETE FROM credentials WHERE id = $1 \
         AND NOT EXISTS (SELECT 1 FROM connections WHERE credential_id = $1)")
        .bind(id)
        .execute(conn)
        .await.map(|done| done.rows_affected()))?;
    Ok(deleted > 0)
}

/// What a connect call stores.
pub struct NewConnection<'a> {
    pub product_id: &'a str,
    pub kind: &'a str,
    pub status: &'a str,
    pub config: &'a str,
    pub credential_id: Option<&'a str>,
    /// `None` keeps the maps a re-connect finds; new connections start with none.
    pub event_maps: Option<&'a str>,
}

/// Creates the product's connection of this kind, or replaces its configuration and credential
/// (keeping how deep it has read). Either way it is due at once, with no failures counted.
/// Answers the connection id and the credential it used before, if any.
pub async fn upsert(
    tx: &mut Tx,
    scope: &AccountScope,
    new: NewConnection<'_>,
    now: Timestamp,
) -> StoreResult<(String, Option<String>)> {
    lock_kind(tx, new.product_id, new.kind).await?;
    let existing: Option<(String, Option<String>)> = on_tx!(tx, conn => sqlx::query_as(
        "SELECT id, credential_id FROM connections WHERE product_id = $1 AND kind = $2")
        .bind(new.product_id)
        .bind(new.kind)
        .fetch_optional(conn)
        .await)?;
    if let Some((id, previous)) = existing {
        on_tx!(tx, conn => sqlx::query(
            "UPDATE connections SET status = $1, config = $2, credential_id = $3, last_error = NULL, \
             consecutive_failures = 0, next_sync_at = $4, event_maps = COALESCE($5, event_maps) WHERE id = $6")
            .bind(new.status)
            .bind(new.config)
            .bind(new.credential_id)
            .bind(now.millis())
            .bind(new.event_maps)
            .bind(&id)
            .execute(conn)
            .await.map(|done| done.rows_affected()))?;
        return Ok((id, previous));
    }
    let id = new_id();
    on_tx!(tx, conn => sqlx::query(
        "INSERT INTO connections (id, account_id, product_id, kind, status, config, credential_id, next_sync_at, created_at, event_maps) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8, COALESCE($9, '[]'))")
        .bind(&id)
        .bind(scope.account_id())
        .bind(new.product_id)
        .bind(new.kind)
        .bind(new.status)
        .bind(new.config)
        .bind(new.credential_id)
        .bind(now.millis())
        .bind(new.event_maps)
        .execute(conn)
        .await.map(|done| done.rows_affected()))?;
    Ok((id, None))
}

/// Replaces a connection's event maps, and its status when one is given (a staged database
/// connection goes `active` with its maps). Active connections are due at once, so new maps
/// are read without waiting for the hour.
pub async fn set_event_maps(
    tx: &mut Tx,
    id: &str,
    event_maps: &str,
    status: Option<&str>,
    now: Timestamp,
) -> StoreResult<()> {
    on_tx!(tx, conn => sqlx::query(
        "UPDATE connections SET event_maps = $1, status = COALESCE($2, status), next_sync_at = $3 WHERE id = $4")
        .bind(event_maps)
        .bind(status)
        .bind(now.millis())
        .bind(id)
        .execute(conn)
        .await.map(|done| done.rows_affected()))?;
    Ok(())
}

/// Replaces a connection's non-secret settings (`config`, JSON).
pub async fn set_config(tx: &mut Tx, id: &str, config: &str) -> StoreResult<()> {
    on_tx!(tx, conn => sqlx::query("UPDATE connections SET config = $1 WHERE id = $2")
        .bind(config)
        .bind(id)
        .execute(conn)
        .await.map(|done| done.rows_affected()))?;
    Ok(())
}

/// Every connection of one product, oldest first.
pub async fn for_product(db: &Db, product_id: &str) -> StoreResult<Vec<ConnectionRow>> {
    let sql = format!("{SELECT} WHERE c.product_id = $1 ORDER BY c.created_at, c.id");
    Ok(
        on_db!(db, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
        .bind(product_id)
        .fetch_all(pool)
        .await)?,
    )
}

/// Every connection the caller may see, oldest first.
pub async fn list(db: &Db, visibility: &Visibility) -> StoreResult<Vec<ConnectionRow>> {
    list_first(db, visibility, i64::MAX).await
}

/// The first `limit` connections of [`list`], oldest first.
pub async fn list_first(
    db: &Db,
    visibility: &Visibility,
    limit: i64,
) -> StoreResult<Vec<ConnectionRow>> {
    let sql = format!(
        "{SELECT} WHERE ($1 IS NULL OR c.account_id = $1) ORDER BY c.created_at, c.id LIMIT $2"
    );
    Ok(
        on_db!(db, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
        .bind(visibility.account_filter())
        .bind(limit)
        .fetch_all(pool)
        .await)?,
    )
}

/// The product's connection of `kind`.
pub async fn find(db: &Db, product_id: &str, kind: &str) -> StoreResult<Option<ConnectionRow>> {
    by_kind(Reader::Db(db), product_id, kind).await
}

async fn by_kind(
    reader: Reader<'_>,
    product_id: &str,
    kind: &str,
) -> StoreResult<Option<ConnectionRow>> {
    let sql = format!("{SELECT} WHERE c.product_id = $1 AND c.kind = $2");
    Ok(
        on_reader!(reader, conn => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
        .bind(product_id)
        .bind(kind)
        .fetch_optional(conn)
        .await)?,
    )
}

/// [`find`] inside a connect's transaction, after taking the lock [`upsert`] takes: what the
/// connect decides from the row (credentials to keep, maps) cannot change before it commits.
pub async fn find_locked(
    tx: &mut Tx,
    product_id: &str,
    kind: &str,
) -> StoreResult<Option<ConnectionRow>> {
    lock_kind(tx, product_id, kind).await?;
    by_kind(Reader::Tx(tx), product_id, kind).await
}

/// Connects of one product and kind queue here until the first commits: otherwise two would
/// both find no row and both insert, or one would keep a credential the other just replaced.
async fn lock_kind(tx: &mut Tx, product_id: &str, kind: &str) -> StoreResult<()> {
    crate::locks::hold_until_commit(tx, &format!("connection:{product_id}:{kind}")).await
}

/// Connections due for a run at `now` and not leased by a live run (none, a stamp older than
/// `STALE_RUN_MS`, or a run whose heartbeat stopped), across accounts: those
/// whose last run succeeded (or that never ran) first, then those failing in a row, each most
/// overdue first. A failing source (a dropped database timing out) is the likeliest to hold a
/// slot for long, and it already waits out its backoff: new and healthy connections never queue
/// behind it.
pub async fn due(db: &Db, now: Timestamp, limit: i64) -> StoreResult<Vec<ConnectionRow>> {
    let sql = format!(
        "{SELECT} WHERE c.status IN ('active', 'error') AND (c.next_sync_at IS NULL OR c.next_sync_at <= $1) \
         AND (c.syncing_since IS NULL OR c.syncing_since <= $2 OR c.sync_heartbeat_at <= $4) \
         ORDER BY CASE WHEN c.consecutive_failures > 0 THEN 1 ELSE 0 END, COALESCE(c.next_sync_at, 0), c.id \
         LIMIT $3"
    );
    Ok(
        on_db!(db, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
        .bind(now.millis())
        .bind(now.millis() - STALE_RUN_MS)
        .bind(limit)
        .bind(lease::dead_before(now))
        .fetch_all(pool)
        .await)?,
    )
}

/// Takes the run lease for `owner` (an instance): true for exactly one caller while no live run
/// holds it and the connection is due. A conditional update, so instances sharing one
/// PostgreSQL never sync the same connection at once, and a pass that read [`due`] before
/// another instance ran and booked a connection does not run it again. A run is live while its
/// stamp is younger than `STALE_RUN_MS` and its holder beats ([`heartbeat`]): a run killed with
/// its process is taken over once its heartbeat is dead.
pub async fn claim(db: &Db, id: &str, owner: &str, now: Timestamp) -> StoreResult<bool> {
    let taken = on_db!(db, pool => sqlx::query(
        "UPDATE connections SET syncing_since = $1, sync_phase = 'starting', sync_owner = $4, \
         sync_heartbeat_at = $1 \
         WHERE id = $2 AND status IN ('active', 'error') \
         AND (next_sync_at IS NULL OR next_sync_at <= $1) \
         AND (syncing_since IS NULL OR syncing_since <= $3 OR sync_heartbeat_at <= $5)")
        .bind(now.millis())
        .bind(id)
        .bind(now.millis() - STALE_RUN_MS)
        .bind(owner)
        .bind(lease::dead_before(now))
        .execute(pool)
        .await.map(|done| done.rows_affected()))?;
    Ok(taken == 1)
}

/// Refreshes the heartbeat of the run `owner` holds; false when it holds none (the run was
/// taken over, or booked).
pub async fn heartbeat(db: &Db, id: &str, owner: &str, now: Timestamp) -> StoreResult<bool> {
    let beat = on_db!(db, pool => sqlx::query(
        "UPDATE connections SET sync_heartbeat_at = $1 \
         WHERE id = $2 AND sync_owner = $3 AND syncing_since IS NOT NULL")
        .bind(now.millis())
        .bind(id)
        .bind(owner)
        .execute(pool)
        .await.map(|done| done.rows_affected()))?;
    Ok(beat == 1)
}

/// Records what a running sync is doing, for `sync_phase`.
pub async fn set_phase(db: &Db, id: &str, phase: &str) -> StoreResult<()> {
    on_db!(db, pool => sqlx::query("UPDATE connections SET sync_phase = $1 WHERE id = $2 AND syncing_since IS NOT NULL")
        .bind(phase)
        .bind(id)
        .execute(pool)
        .await.map(|done| done.rows_affected()))?;
    Ok(())
}

/// How a run ended.
pub enum RunOutcome<'a> {
    Succeeded { backfill_days: i64, detail: &'a str },
    Failed { error: &'a str },
}

/// Releases `owner`'s lease and books the run: a success deepens the backfill and clears
/// failures, a failure counts one more and records the error. `next_sync_at` is when the next
/// run is due. Nothing is booked when another holder took the run over (its run books itself):
/// answers whether this one was.
pub async fn finish(
    db: &Db,
    id: &str,
    owner: &str,
    outcome: RunOutcome<'_>,
    now: Timestamp,
    next_sync_at: Timestamp,
) -> StoreResult<bool> {
    let booked = match outcome {
        RunOutcome::Succeeded {
            backfill_days,
            detail,
        } => on_db!(db, pool => sqlx::query(
                "UPDATE connections SET status = 'active', backfill_days = $1, last_sync_at = $2, last_error = NULL, \
                 consecutive_failures = 0, next_sync_at = $3, syncing_since = NULL, sync_phase = NULL, last_detail = $5, \
                 sync_owner = NULL, sync_heartbeat_at = NULL \
                 WHERE id = $4 AND status <> 'disabled' AND (sync_owner IS NULL OR sync_owner = $6)")
                .bind(backfill_days)
                .bind(now.millis())
                .bind(next_sync_at.millis())
                .bind(id)
                .bind(detail)
                .bind(owner)
                .execute(pool)
                .await.map(|done| done.rows_affected() == 1))?,
        RunOutcome::Failed { error } => on_db!(db, pool => sqlx::query(
                "UPDATE connections SET status = 'error', last_error = $1, consecutive_failures = consecutive_failures + 1, \
                 next_sync_at = $2, syncing_since = NULL, sync_phase = NULL, sync_owner = NULL, sync_heartbeat_at = NULL \
                 WHERE id = $3 AND status <> 'disabled' AND (sync_owner IS NULL OR sync_owner = $4)")
                .bind(error)
                .bind(next_sync_at.millis())
                .bind(id)
                .bind(owner)
                .execute(pool)
                .await.map(|done| done.rows_affected() == 1))?,
    };
    Ok(booked)
}

/// "Sync now": due at once, and the backoff of earlier failures forgotten.
pub async fn make_due(db: &Db, id: &str, now: Timestamp) -> StoreResult<()> {
    on_db!(db, pool => sqlx::query(
        "UPDATE connections SET next_sync_at = $1, consecutive_failures = 0 WHERE id = $2")
        .bind(now.millis())
        .bind(id)
        .execute(pool)
        .await.map(|done| done.rows_affected()))?;
    Ok(())
}

/// Removes the connection; answers the credential it used. Ingested data is untouched.
pub async fn delete(tx: &mut Tx, id: &str) -> StoreResult<Option<String>> {
    let credential: Option<(Option<String>,)> = on_tx!(tx, conn => sqlx::query_as(
        "DELETE FROM connections WHERE id = $1 RETURNING credential_id")
        .bind(id)
        .fetch_optional(conn)
        .await)?;
    Ok(credential.and_then(|(id,)| id))
}
