//! Approved budget changes on their way to the ad network: written in the approval's
//! transaction, leased by one runner at a time, finished once. The lease is a conditional
//! UPDATE (the first runner wins, the others see zero rows), so two instances, or the approving
//! request and the job, never ask the network about the same card at once. The holder (its
//! instance) beats the lease's heartbeat while it asks; a lease whose heartbeat stopped (its
//! process died) is free before its expiry. Each lease counts an attempt, and the holder hands
//! the change back naming the attempt it leased ([`Lease`]): a holder that was taken over
//! cannot book over the attempt that took it.

use payback_domain::policy::{ApplicationState, Network};
use payback_domain::{Timestamp, Via, lease as leases};

use crate::error::StoreResult;
use crate::{Db, Tx};

#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct BudgetApplication {
    pub card_id: String,
    pub account_id: String,
    pub product_id: String,
    #[sqlx(try_from = "String")]
    pub network: Network,
    pub campaign_id: Option<String>,
    pub from_cents: Option<i64>,
    pub to_cents: i64,
    pub currency: String,
    pub approved_by: String,
    /// Read back typed: only [`insert`] writes it, from the domain's words, so any other word
    /// fails the read.
    #[sqlx(try_from = "String")]
    pub approved_via: Via,
    #[sqlx(try_from = "String")]
    pub state: ApplicationState,
    pub attempts: i64,
    pub next_attempt_at: i64,
    pub last_error: Option<String>,
    /// The budget the change started from, recorded at its first attempt (the proposal's
    /// `from_cents`): what history says the budget was when a retry finds the target already set.
    pub before_cents: Option<i64>,
    /// When the holder of the lease last beat; `None` when nobody holds it.
    pub heartbeat_at: Option<i64>,
}

/// Who holds a leased change: the instance and the attempt its lease counted.
#[derive(Debug, Clone, Copy)]
pub struct Lease<'a> {
    pub owner: &'a str,
    pub attempt: i64,
}

/// What a human approved, to be applied.
#[derive(Debug, Clone, Copy)]
pub struct NewApplication<'a> {
    pub card_id: &'a str,
    pub account_id: &'a str,
    pub product_id: &'a str,
    pub network: Network,
    pub campaign_id: Option<&'a str>,
    pub from_cents: Option<i64>,
    pub to_cents: i64,
    pub currency: &'a str,
    pub approved_by: &'a str,
    pub approved_via: Via,
}

const COLUMNS: &str = "card_id, account_id, product_id, network, campaign_id, from_cents, to_cents, \
     currency, approved_by, approved_via, state, attempts, next_attempt_at, last_error, before_cents, \
     heartbeat_at";

/// Records the change in the approval's transaction, due at once.
pub async fn insert(tx: &mut Tx, new: NewApplication<'_>, now: Timestamp) -> StoreResult<()> {
    on_tx!(tx, conn => sqlx::query(
        "INSERT INTO budget_applications (card_id, account_id, product_id, network, campaign_id, \
         from_cents, to_cents, currency, approved_by, approved_via, state, attempts, next_attempt_at, \
         created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'applying', 0, $11, $11, $11)")
        .bind(new.card_id)
        .bind(new.account_id)
        .bind(new.product_id)
        .bind(new.network.as_str())
        .bind(new.campaign_id)
        .bind(new.from_cents)
        .bind(new.to_cents)
        .bind(new.currency)
        .bind(new.approved_by)
        .bind(new.approved_via.as_str())
        .bind(now.millis())
        .execute(conn)
        .await.map(|done| done.rows_affected()))?;
    Ok(())
}

/// The card's change as it stands, whatever its state; `None` when the card has none.
pub async fn find(db: &Db, card_id: &str) -> StoreResult<Option<BudgetApplication>> {
    let sql = format!("SELECT {COLUMNS} FROM budget_applications WHERE card_id = $1");
    Ok(
        on_db!(db, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
        .bind(card_id)
        .fetch_optional(pool)
        .await)?,
    )
}

/// Cards whose change is due now and not held by a live lease, oldest first.
pub async fn due(db: &Db, now: Timestamp, limit: i64) -> StoreResult<Vec<String>> {
    let ids: Vec<(String,)> = on_db!(db, pool => sqlx::query_as(
        "SELECT card_id FROM budget_applications WHERE state = 'applying' AND next_attempt_at <= $1 \
         AND (lease_until IS NULL OR lease_until <= $1 OR heartbeat_at <= $3) \
         ORDER BY next_attempt_at, card_id LIMIT $2")
        .bind(now.millis())
        .bind(limit)
        .bind(leases::dead_before(now))
        .fetch_all(pool)
        .await)?;
    Ok(ids.into_iter().map(|(id,)| id).collect())
}

/// Leases the card's change for `runner` until `now + lease_ms` when it is due and nobody
/// holds a live lease on it (none, an expired one, or one whose heartbeat stopped); `None` when
/// another runner has it, it is not due, or it is finished. The first attempt records the
/// budget the change starts from (`before_cents`).
pub async fn lease(
    db: &Db,
    card_id: &str,
    runner: &str,
    now: Timestamp,
    lease_ms: i64,
) -> StoreResult<Option<BudgetApplication>> {
    let sql = format!(
        "UPDATE budget_applications SET lease_owner = $1, lease_until = $2, heartbeat_at = $3, \
         attempts = attempts + 1, before_cents = COALESCE(before_cents, from_cents), updated_at = $3 \
         WHERE card_id = $4 AND state = 'applying' AND next_attempt_at <= $3 \
         AND (lease_until IS NULL OR lease_until <= $3 OR heartbeat_at <= $5) RETURNING {COLUMNS}"
    );
    Ok(
        on_db!(db, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
        .bind(runner)
        .bind(now.millis() + lease_ms)
        .bind(now.millis())
        .bind(card_id)
        .bind(leases::dead_before(now))
        .fetch_optional(pool)
        .await)?,
    )
}

/// Refreshes the heartbeat of a lease `holder` still has; false when it was taken over or the
/// change was finished.
pub async fn heartbeat(
    db: &Db,
    card_id: &str,
    holder: Lease<'_>,
    now: Timestamp,
) -> StoreResult<bool> {
    let beat = on_db!(db, pool => sqlx::query(
        "UPDATE budget_applications SET heartbeat_at = $1 WHERE card_id = $2 AND state = 'applying' \
         AND lease_owner = $3 AND attempts = $4")
        .bind(now.millis())
        .bind(card_id)
        .bind(holder.owner)
        .bind(holder.attempt)
        .execute(pool)
        .await.map(|done| done.rows_affected()))?;
    Ok(beat == 1)
}

/// Ends the change in a final `state` (anything but `applying`), in the
/// transaction that records the outcome; false when `holder` no longer holds the lease.
pub async fn finish(
    tx: &mut Tx,
    card_id: &str,
    holder: Lease<'_>,
    state: ApplicationState,
    error: Option<&str>,
    now: Timestamp,
) -> StoreResult<bool> {
    let changed = on_tx!(tx, conn => sqlx::query(
        "UPDATE budget_applications SET state = $1, last_error = $2, lease_owner = NULL, \
         lease_until = NULL, heartbeat_at = NULL, updated_at = $3 \
         WHERE card_id = $4 AND lease_owner = $5 AND attempts = $6")
        .bind(state.as_str())
        .bind(error)
        .bind(now.millis())
        .bind(card_id)
        .bind(holder.owner)
        .bind(holder.attempt)
        .execute(conn)
        .await.map(|done| done.rows_affected()))?;
    Ok(changed == 1)
}

/// Hands the change back after a transient failure, due again at `next_attempt_at`.
pub async fn retry_later(
    tx: &mut Tx,
    card_id: &str,
    holder: Lease<'_>,
    error: &str,
    next_attempt_at: Timestamp,
    now: Timestamp,
) -> StoreResult<bool> {
    let changed = on_tx!(tx, conn => sqlx::query(
        "UPDATE budget_applications SET last_error = $1, next_attempt_at = $2, lease_owner = NULL, \
         lease_until = NULL, heartbeat_at = NULL, updated_at = $3 \
         WHERE card_id = $4 AND lease_owner = $5 AND attempts = $6")
        .bind(error)
        .bind(next_attempt_at.millis())
        .bind(now.millis())
        .bind(card_id)
        .bind(holder.owner)
        .bind(holder.attempt)
        .execute(conn)
        .await.map(|done| done.rows_affected()))?;
    Ok(changed == 1)
}
