//! Publishable write keys (`svc_pub_...`) for browser ingestion. They are safe in page source,
//! so they are stored as they are and shown again; rotating revokes the old key at once.

use payback_domain::Timestamp;

use crate::error::{StoreError, StoreResult};
use crate::{Db, Tx};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct TrackingKeyRow {
    pub key: String,
    pub product_id: String,
    pub created_at: i64,
}

/// The product's live key, if any.
pub async fn live_for_product(db: &Db, product_id: &str) -> StoreResult<Option<TrackingKeyRow>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT key, product_id, created_at FROM tracking_keys WHERE product_id = $1 AND revoked_at IS NULL \
         ORDER BY created_at DESC LIMIT 1")
        .bind(product_id)
        .fetch_optional(pool)
        .await)?)
}

/// Resolves a live key to its product; revoked and unknown keys are `None`.
pub async fn find_live(db: &Db, key: &str) -> StoreResult<Option<TrackingKeyRow>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT key, product_id, created_at FROM tracking_keys WHERE key = $1 AND revoked_at IS NULL")
        .bind(key)
        .fetch_optional(pool)
        .await)?)
}

/// Revokes the product's live keys; returns how many there were.
pub async fn revoke_all(tx: &mut Tx, product_id: &str, now: Timestamp) -> StoreResult<u64> {
    on_tx!(tx, conn => sqlx::query("UPDATE tracking_keys SET revoked_at = $1 WHERE product_id = $2 AND revoked_at IS NULL")
        .bind(now.millis())
        .bind(product_id)
        .execute(conn)
        .await.map(|done| done.rows_affected()))
    .map_err(Into::into)
}

/// Stores a new live key; a conflict when the product already has one (revoke it first to
/// rotate).
pub async fn insert(tx: &mut Tx, product_id: &str, key: &str, now: Timestamp) -> StoreResult<()> {
    on_tx!(tx, conn => sqlx::query("INSERT INTO tracking_keys (key, product_id, created_at) VALUES ($1, $2, $3)")
        .bind(key)
        .bind(product_id)
        .bind(now.millis())
        .execute(conn)
        .await.map(|done| done.rows_affected()))
    .map_err(|err| StoreError::conflict_on_unique(err, "the write key was replaced at the same moment; read it again"))?;
    Ok(())
}
