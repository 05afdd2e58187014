//! Dashboard sessions, stored only as SHA-256 hashes of their tokens.

use payback_domain::Timestamp;

use crate::error::StoreResult;
use crate::{Db, Tx};

/// Everything the auth extractor needs about a session, read in one query.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct SessionAuthRow {
    pub user_id: String,
    pub email: String,
    pub account_id: String,
    #[sqlx(try_from = "String")]
    pub account_role: payback_domain::AccountRole,
    #[sqlx(try_from = "String")]
    pub member_role: payback_domain::MemberRole,
    #[sqlx(try_from = "String")]
    pub member_status: payback_domain::MemberStatus,
    pub last_used_at: i64,
}

pub async fn insert(
    tx: &mut Tx,
    token_hash: &str,
    user_id: &str,
    account_id: &str,
    now: Timestamp,
) -> StoreResult<()> {
    on_tx!(tx, conn => sqlx::query(
        "INSERT INTO sessions (token_hash, user_id, account_id, created_at, last_used_at) VALUES ($1, $2, $3, $4, $4)")
        .bind(token_hash)
        .bind(user_id)
        .bind(account_id)
        .bind(now.millis())
        .execute(conn)
        .await.map(|done| done.rows_affected()))?;
    Ok(())
}

pub async fn find_for_auth(db: &Db, token_hash: &str) -> StoreResult<Option<SessionAuthRow>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT s.user_id, u.email, s.account_id, a.role AS account_role, m.member_role, \
                m.status AS member_status, s.last_used_at \
         FROM sessions s \
         JOIN users u ON u.id = s.user_id \
         JOIN accounts a ON a.id = s.account_id \
         JOIN memberships m ON m.account_id = s.account_id AND m.user_id = s.user_id \
         WHERE s.token_hash = $1")
        .bind(token_hash)
        .fetch_optional(pool)
        .await)?)
}

/// Slides the idle expiry forward.
pub async fn touch(db: &Db, token_hash: &str, now: Timestamp) -> StoreResult<()> {
    on_db!(db, pool => sqlx::query("UPDATE sessions SET last_used_at = $1 WHERE token_hash = $2")
        .bind(now.millis())
        .bind(token_hash)
        .execute(pool)
        .await.map(|done| done.rows_affected()))?;
    Ok(())
}

pub async fn delete(db: &Db, token_hash: &str) -> StoreResult<()> {
    on_db!(db, pool => sqlx::query("DELETE FROM sessions WHERE token_hash = $1").bind(token_hash).execute(pool).await.map(|done| done.rows_affected()))?;
    Ok(())
}

/// Revokes a person's sessions in one account (their membership there was disabled).
pub async fn delete_for_member(tx: &mut Tx, user_id: &str, account_id: &str) -> StoreResult<u64> {
    let done = on_tx!(tx, conn => sqlx::query("DELETE FROM sessions WHERE user_id = $1 AND account_id = $2")
        .bind(user_id)
        .bind(account_id)
        .execute(conn)
        .await.map(|done| done.rows_affected()))?;
    Ok(done)
}

/// Revokes every session of a person (a password set by someone else was replaced).
pub async fn delete_for_user(tx: &mut Tx, user_id: &str) -> StoreResult<u64> {
    let done = on_tx!(tx, conn => sqlx::query("DELETE FROM sessions WHERE user_id = $1")
        .bind(user_id)
        .execute(conn)
        .await.map(|done| done.rows_affected()))?;
    Ok(done)
}

/// Revokes every session of a person except `keep` (their password changed).
pub async fn delete_others(tx: &mut Tx, user_id: &str, keep_hash: &str) -> StoreResult<u64> {
    let done = on_tx!(tx, conn => sqlx::query("DELETE FROM sessions WHERE user_id = $1 AND token_hash <> $2")
        .bind(user_id)
        .bind(keep_hash)
        .execute(conn)
        .await.map(|done| done.rows_affected()))?;
    Ok(done)
}

/// Points a session at another of the person's workspaces.
pub async fn repoint(tx: &mut Tx, token_hash: &str, account_id: &str) -> StoreResult<()> {
    on_tx!(tx, conn => sqlx::query("UPDATE sessions SET account_id = $1 WHERE token_hash = $2")
        .bind(account_id)
        .bind(token_hash)
        .execute(conn)
        .await.map(|done| done.rows_affected()))?;
    Ok(())
}
