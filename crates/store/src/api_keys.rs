//! Account API keys, stored only as SHA-256 hashes; the full key is shown once at creation.

use payback_domain::Timestamp;

use crate::error::StoreResult;
use crate::{AccountScope, Db, Tx, new_id};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ApiKeyRow {
    pub id: String,
    pub name: String,
    pub prefix: String,
    pub created_at: i64,
    pub last_used_at: Option<i64>,
}

/// A live key as the account's list shows it, with the person who created it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ListedKeyRow {
    pub id: String,
    pub name: String,
    pub prefix: String,
    pub created_at: i64,
    pub last_used_at: Option<i64>,
    /// The creator's user id; `None` for keys of an agent's sign-up and keys they minted.
    pub created_by: Option<String>,
    pub created_by_email: Option<String>,
}

/// A live key resolved for authentication.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct KeyAuthRow {
    pub id: String,
    pub account_id: String,
    /// The person at the root of the key's chain of minting, if any.
    pub created_by: Option<String>,
    pub last_used_at: Option<i64>,
}

pub struct NewApiKey<'a> {
    pub name: &'a str,
    pub prefix: &'a str,
    pub key_hash: &'a str,
    /// The person the key acts for in history and whose disabling stops it; `None` for keys
    /// no person created (an agent's sign-up, or a key minted by such a key).
    pub created_by: Option<&'a str>,
}

pub async fn insert(
    tx: &mut Tx,
    scope: &AccountScope,
    key: NewApiKey<'_>,
    now: Timestamp,
) -> StoreResult<String> {
    let id = new_id();
    on_tx!(tx, conn => sqlx::query(
        "INSERT INTO api_keys (id, account_id, name, prefix, key_hash, created_at, created_by) \
         VALUES ($1, $2, $3, $4, $5, $6, $7)")
        .bind(&id)
        .bind(scope.account_id())
        .bind(key.name)
        .bind(key.prefix)
        .bind(key.key_hash)
        .bind(now.millis())
        .bind(key.created_by)
        .execute(conn)
        .await.map(|done| done.rows_affected()))?;
    Ok(id)
}

/// Live keys of the account with their creators, oldest first.
/// Live keys of the account with their creators, oldest first, at most `limit` of them.
pub async fn list(db: &Db, scope: &AccountScope, limit: i64) -> StoreResult<Vec<ListedKeyRow>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT k.id, k.name, k.prefix, k.created_at, k.last_used_at, k.created_by, \
         u.email AS created_by_email FROM api_keys k LEFT JOIN users u ON u.id = k.created_by \
         WHERE k.account_id = $1 AND k.revoked_at IS NULL ORDER BY k.created_at, k.id LIMIT $2")
        .bind(scope.account_id())
        .bind(limit)
        .fetch_all(pool)
        .await)?)
}

/// Revokes a live key of the account; false when there is none with that id.
pub async fn revoke(
    tx: &mut Tx,
    scope: &AccountScope,
    id: &str,
    now: Timestamp,
) -> StoreResult<Option<ApiKeyRow>> {
    let row: Option<ApiKeyRow> = on_tx!(tx, conn => sqlx::query_as(
        "UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND account_id = $3 AND revoked_at IS NULL \
         RETURNING id, name, prefix, created_at, last_used_at")
        .bind(now.millis())
        .bind(id)
        .bind(scope.account_id())
        .fetch_optional(conn)
        .await)?;
    Ok(row)
}

/// Revokes every live key of the account with this name (the demo rotates its key this way).
pub async fn revoke_named(
    tx: &mut Tx,
    scope: &AccountScope,
    name: &str,
    now: Timestamp,
) -> StoreResult<u64> {
    let done = on_tx!(tx, conn => sqlx::query(
        "UPDATE api_keys SET revoked_at = $1 WHERE account_id = $2 AND name = $3 AND revoked_at IS NULL")
        .bind(now.millis())
        .bind(scope.account_id())
        .bind(name)
        .execute(conn)
        .await.map(|done| done.rows_affected()))?;
    Ok(done)
}

/// Revokes every live key of the account that this person created (directly, or through a key
/// of theirs); answers how many. Disabling a member calls it so their keys die with their access.
pub async fn revoke_created_by(
    tx: &mut Tx,
    scope: &AccountScope,
    user_id: &str,
    now: Timestamp,
) -> StoreResult<u64> {
    let done = on_tx!(tx, conn => sqlx::query(
        "UPDATE api_keys SET revoked_at = $1 WHERE account_id = $2 AND created_by = $3 AND revoked_at IS NULL")
        .bind(now.millis())
        .bind(scope.account_id())
        .bind(user_id)
        .execute(conn)
        .await.map(|done| done.rows_affected()))?;
    Ok(done)
}

/// The live key with this hash, unless a person created it and their membership in the key's
/// account is not active: a disabled member's keys stop at once, even if revoking them was
/// missed. Keys no person created (`created_by` NULL) depend on no membership.
pub async fn find_live_by_hash(db: &Db, key_hash: &str) -> StoreResult<Option<KeyAuthRow>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT k.id, k.account_id, k.created_by, k.last_used_at FROM api_keys k \
         LEFT JOIN memberships m ON m.account_id = k.account_id AND m.user_id = k.created_by \
         WHERE k.key_hash = $1 AND k.revoked_at IS NULL \
         AND (k.created_by IS NULL OR m.status = 'active')")
        .bind(key_hash)
        .fetch_optional(pool)
        .await)?)
}

pub async fn touch(db: &Db, id: &str, now: Timestamp) -> StoreResult<()> {
    on_db!(db, pool => sqlx::query("UPDATE api_keys SET last_used_at = $1 WHERE id = $2")
        .bind(now.millis())
        .bind(id)
        .execute(pool)
        .await.map(|done| done.rows_affected()))?;
    Ok(())
}
