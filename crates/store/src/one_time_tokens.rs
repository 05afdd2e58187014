//! Single-use tokens (email verification, invites, claims), stored as hashes with an expiry.

use payback_domain::Timestamp;

use crate::error::StoreResult;
use crate::{Db, Tx};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    VerifyEmail,
    Invite,
    Claim,
}

impl Purpose {
    fn as_str(self) -> &'static str {
        match self {
            Purpose::VerifyEmail => "verify_email",
            Purpose::Invite => "invite",
            Purpose::Claim => "claim",
        }
    }
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct TokenRow {
    pub user_id: String,
    pub account_id: Option<String>,
    pub expires_at: i64,
    /// The password a sign-up chose, set when its verification link is opened.
    pub password_hash: Option<String>,
}

pub struct NewToken<'a> {
    pub token_hash: &'a str,
    pub purpose: Purpose,
    pub user_id: &'a str,
    pub account_id: Option<&'a str>,
    pub expires_at: Timestamp,
    pub password_hash: Option<&'a str>,
}

pub async fn insert(tx: &mut Tx, token: NewToken<'_>, now: Timestamp) -> StoreResult<()> {
    on_tx!(tx, conn => sqlx::query(
        "INSERT INTO one_time_tokens (token_hash, purpose, user_id, account_id, created_at, expires_at, password_hash) \
         VALUES ($1, $2, $3, $4, $5, $6, $7)")
        .bind(token.token_hash)
        .bind(token.purpose.as_str())
        .bind(token.user_id)
        .bind(token.account_id)
        .bind(now.millis())
        .bind(token.expires_at.millis())
        .bind(token.password_hash)
        .execute(conn)
        .await.map(|done| done.rows_affected()))?;
    Ok(())
}

const VALID: &str = "SELECT user_id, account_id, expires_at, password_hash FROM one_time_tokens \
     WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > $3";

/// An unused, unexpired token, read without consuming it.
pub async fn peek(
    db: &Db,
    token_hash: &str,
    purpose: Purpose,
    now: Timestamp,
) -> StoreResult<Option<TokenRow>> {
    Ok(on_db!(db, pool => sqlx::query_as(VALID)
        .bind(token_hash)
        .bind(purpose.as_str())
        .bind(now.millis())
        .fetch_optional(pool)
        .await)?)
}

/// Consumes an unused, unexpired token; `None` when it is invalid, used or expired. The update
/// is conditional, so two concurrent uses cannot both succeed.
pub async fn consume(
    tx: &mut Tx,
    token_hash: &str,
    purpose: Purpose,
    now: Timestamp,
) -> StoreResult<Option<TokenRow>> {
    Ok(on_tx!(tx, conn => sqlx::query_as(
        "UPDATE one_time_tokens SET used_at = $3 \
         WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > $3 \
         RETURNING user_id, account_id, expires_at, password_hash")
        .bind(token_hash)
        .bind(purpose.as_str())
        .bind(now.millis())
        .fetch_optional(conn)
        .await)?)
}

/// Voids a person's outstanding tokens of one purpose (in one account, when given), so only the
/// newest link works.
pub async fn void_outstanding(
    tx: &mut Tx,
    user_id: &str,
    account_id: Option<&str>,
    purpose: Purpose,
    now: Timestamp,
) -> StoreResult<()> {
    on_tx!(tx, conn => sqlx::query(
        "UPDATE one_time_tokens SET used_at = $1 WHERE user_id = $2 AND purpose = $3 AND used_at IS NULL \
         AND ($4 IS NULL OR account_id = $4)")
        .bind(now.millis())
        .bind(user_id)
        .bind(purpose.as_str())
        .bind(account_id)
        .execute(conn)
        .await.map(|done| done.rows_affected()))?;
    Ok(())
}
