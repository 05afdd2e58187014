//! The live share link of a product's scorecard: at most one per product, found by the public
//! route through the SHA-256 of its token.

use payback_domain::Timestamp;

use crate::error::StoreResult;
use crate::{Db, Tx};

#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct ShareRow {
    pub product_id: String,
    pub token: String,
    pub created_at: i64,
}

/// The product's live link, if any.
pub async fn for_product(db: &Db, product_id: &str) -> StoreResult<Option<ShareRow>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT product_id, token, created_at FROM scorecard_shares WHERE product_id = $1")
        .bind(product_id)
        .fetch_optional(pool)
        .await)?)
}

/// `(product id, account id)` of the product a live token shares, looked up by the token's
/// hash.
pub async fn product_of(db: &Db, token_hash: &str) -> StoreResult<Option<(String, String)>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT p.id, p.account_id FROM scorecard_shares s JOIN products p ON p.id = s.product_id \
         WHERE s.token_hash = $1")
        .bind(token_hash)
        .fetch_optional(pool)
        .await)?)
}

/// Stores a new link unless the product has one already, and answers the live one: two shares
/// racing answer the same link.
pub async fn mint(
    tx: &mut Tx,
    product_id: &str,
    token: &str,
    token_hash: &str,
    created_by: &str,
    now: Timestamp,
) -> StoreResult<(ShareRow, bool)> {
    let inserted = on_tx!(tx, conn => sqlx::query(
        "INSERT INTO scorecard_shares (product_id, token_hash, token, created_by, created_at) \
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (product_id) DO NOTHING")
        .bind(product_id)
        .bind(token_hash)
        .bind(token)
        .bind(created_by)
        .bind(now.millis())
        .execute(conn)
        .await
        .map(|done| done.rows_affected()))?;
    let row: ShareRow = on_tx!(tx, conn => sqlx::query_as(
        "SELECT product_id, token, created_at FROM scorecard_shares WHERE product_id = $1")
        .bind(product_id)
        .fetch_one(conn)
        .await)?;
    Ok((row, inserted == 1))
}

/// Deletes the product's link; whether there was one.
pub async fn revoke(tx: &mut Tx, product_id: &str) -> StoreResult<bool> {
    let deleted = on_tx!(tx, conn => sqlx::query(
        "DELETE FROM scorecard_shares WHERE product_id = $1")
        .bind(product_id)
        .execute(conn)
        .await
        .map(|done| done.rows_affected()))?;
    Ok(deleted > 0)
}
