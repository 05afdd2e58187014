//! Sign in with SSO (migration 0030): the single-use states of `start`, who each provider
//! subject is (issuer and `sub`), and the one-time tickets the callback hands the dashboard.
//! Each single use is a conditional update, so two concurrent uses cannot both succeed.

use payback_domain::Timestamp;

use crate::error::{StoreError, StoreResult};
use crate::{Db, Tx};

/// What `start` sent the provider, read back by the callback that consumed the state.
#[derive(Clone, sqlx::FromRow)]
pub struct StateRow {
    pub nonce: String,
    pub pkce_verifier: String,
    pub expires_at: i64,
}

impl std::fmt::Debug for StateRow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StateRow")
            .field("nonce", &self.nonce)
            .field("pkce_verifier", &"[redacted]")
            .field("expires_at", &self.expires_at)
            .finish()
    }
}

/// A state as `start` stores it.
pub struct NewState<'a> {
    pub state: &'a str,
    pub nonce: &'a str,
    pub pkce_verifier: &'a str,
    pub expires_at: Timestamp,
}

/// Stores a fresh state, and forgets the states that expired before `now` (`start` is public:
/// abandoned states must not pile up).
pub async fn insert_state(db: &Db, state: NewState<'_>, now: Timestamp) -> StoreResult<()> {
    on_db!(db, pool => sqlx::query("DELETE FROM sso_states WHERE expires_at <= $1")
        .bind(now.millis())
        .execute(pool)
        .await
        .map(|done| done.rows_affected()))?;
    on_db!(db, pool => sqlx::query(
        "INSERT INTO sso_states (state, nonce, pkce_verifier, created_at, expires_at) \
         VALUES ($1, $2, $3, $4, $5)")
        .bind(state.state)
        .bind(state.nonce)
        .bind(state.pkce_verifier)
        .bind(now.millis())
        .bind(state.expires_at.millis())
        .execute(pool)
        .await
        .map(|done| done.rows_affected()))?;
    Ok(())
}

/// Consumes a state not consumed before, expired or not (the first callback naming a state
/// uses it up, whatever the outcome); `None` when it is unknown or already used. The caller
/// refuses an expired one.
pub async fn consume_state(db: &Db, state: &str, now: Timestamp) -> StoreResult<Option<StateRow>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "UPDATE sso_states SET consumed_at = $2 WHERE state = $1 AND consumed_at IS NULL \
         RETURNING nonce, pkce_verifier, expires_at")
        .bind(state)
        .bind(now.millis())
        .fetch_optional(pool)
        .await)?)
}

/// A provider subject linked to a person.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct IdentityRow {
    pub issuer: String,
    pub sub: String,
    pub user_id: String,
    pub email: String,
    pub created_at: i64,
}

const IDENTITY_COLUMNS: &str = "issuer, sub, user_id, email, created_at";

/// The person `sub` of `issuer` is linked to.
pub async fn find_identity(
    tx: &mut Tx,
    issuer: &str,
    sub: &str,
) -> StoreResult<Option<IdentityRow>> {
    let sql =
        format!("SELECT {IDENTITY_COLUMNS} FROM sso_identities WHERE issuer = $1 AND sub = $2");
    Ok(
        on_tx!(tx, conn => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
        .bind(issuer)
        .bind(sub)
        .fetch_optional(conn)
        .await)?,
    )
}

/// The subject of `issuer` a person is linked to, if any (at most one).
pub async fn identity_of_user(
    tx: &mut Tx,
    issuer: &str,
    user_id: &str,
) -> StoreResult<Option<IdentityRow>> {
    let sql =
        format!("SELECT {IDENTITY_COLUMNS} FROM sso_identities WHERE issuer = $1 AND user_id = $2");
    Ok(
        on_tx!(tx, conn => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
        .bind(issuer)
        .bind(user_id)
        .fetch_optional(conn)
        .await)?,
    )
}

/// A subject to link, with the email the provider vouched for.
pub struct NewIdentity<'a> {
    pub issuer: &'a str,
    pub sub: &'a str,
    pub user_id: &'a str,
    pub email: &'a str,
}

/// Links a subject to a person; [`StoreError::Conflict`] when the subject is linked already or
/// the person already holds a subject of that issuer (a concurrent sign-in won).
pub async fn link(tx: &mut Tx, identity: NewIdentity<'_>, now: Timestamp) -> StoreResult<()> {
    on_tx!(tx, conn => sqlx::query(
        "INSERT INTO sso_identities (issuer, sub, user_id, email, created_at) VALUES ($1, $2, $3, $4, $5)")
        .bind(identity.issuer)
        .bind(identity.sub)
        .bind(identity.user_id)
        .bind(identity.email)
        .bind(now.millis())
        .execute(conn)
        .await
        .map(|done| done.rows_affected()))
    .map_err(|err| StoreError::conflict_on_unique(err, "the sign-in identity is linked already"))?;
    Ok(())
}

/// The provider proved the mailbox of a person whose sign-up was never confirmed: they are
/// verified, and the password that sign-up chose is dropped, since its author never proved
/// the mailbox (the caller also voids the confirmation links that would set it).
pub async fn prove_unconfirmed_mailbox(tx: &mut Tx, user_id: &str) -> StoreResult<()> {
    on_tx!(tx, conn => sqlx::query(
        "UPDATE users SET verified = TRUE, mailbox_proven = TRUE, password_hash = NULL WHERE id = $1")
        .bind(user_id)
        .execute(conn)
        .await
        .map(|done| done.rows_affected()))?;
    Ok(())
}

/// A ticket as the callback stores it (its hash, never the ticket).
pub struct NewTicket<'a> {
    pub ticket_hash: &'a str,
    pub user_id: &'a str,
    pub is_new: bool,
    pub expires_at: Timestamp,
}

pub async fn insert_ticket(tx: &mut Tx, ticket: NewTicket<'_>, now: Timestamp) -> StoreResult<()> {
    on_tx!(tx, conn => sqlx::query("DELETE FROM sso_tickets WHERE expires_at <= $1")
        .bind(now.millis())
        .execute(conn)
        .await
        .map(|done| done.rows_affected()))?;
    on_tx!(tx, conn => sqlx::query(
        "INSERT INTO sso_tickets (ticket_hash, user_id, is_new, created_at, expires_at) \
         VALUES ($1, $2, $3, $4, $5)")
        .bind(ticket.ticket_hash)
        .bind(ticket.user_id)
        .bind(ticket.is_new)
        .bind(now.millis())
        .bind(ticket.expires_at.millis())
        .execute(conn)
        .await
        .map(|done| done.rows_affected()))?;
    Ok(())
}

/// Whom a used ticket signs in.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct TicketRow {
    pub user_id: String,
    pub is_new: bool,
}

/// Uses an unused, unexpired ticket; `None` when it is unknown, used or expired.
pub async fn consume_ticket(
    tx: &mut Tx,
    ticket_hash: &str,
    now: Timestamp,
) -> StoreResult<Option<TicketRow>> {
    Ok(on_tx!(tx, conn => sqlx::query_as(
        "UPDATE sso_tickets SET used_at = $2 \
         WHERE ticket_hash = $1 AND used_at IS NULL AND expires_at > $2 \
         RETURNING user_id, is_new")
        .bind(ticket_hash)
        .bind(now.millis())
        .fetch_optional(conn)
        .await)?)
}
