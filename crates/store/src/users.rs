//! People who can sign in. A person may belong to several accounts (see `members`).

use payback_domain::Timestamp;

use crate::error::{StoreError, StoreResult};
use crate::{Db, Tx, new_id};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct UserRow {
    pub id: String,
    pub email: String,
    pub password_hash: Option<String>,
    pub name: Option<String>,
    pub verified: bool,
    /// The mailbox owner opened a link only ever mailed to them (see migration 0012).
    pub mailbox_proven: bool,
    pub created_at: i64,
    pub last_seen_at: Option<i64>,
}

const COLUMNS: &str =
    "id, email, password_hash, name, verified, mailbox_proven, created_at, last_seen_at";

pub struct NewUser<'a> {
    pub email: &'a str,
    pub password_hash: Option<&'a str>,
    pub name: Option<&'a str>,
    pub verified: bool,
    /// Only for people whose mailbox someone trusted vouches for (the demo); everyone else
    /// proves it by opening a verification link.
    pub mailbox_proven: bool,
    pub signup_meta: Option<&'a str>,
}

/// Inserts a person; a taken email is a [`StoreError::Conflict`].
pub async fn insert(tx: &mut Tx, user: NewUser<'_>, now: Timestamp) -> StoreResult<String> {
    let id = new_id();
    on_tx!(tx, conn => sqlx::query(
        "INSERT INTO users (id, email, password_hash, name, verified, mailbox_proven, signup_meta, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)")
        .bind(&id)
        .bind(user.email)
        .bind(user.password_hash)
        .bind(user.name)
        .bind(user.verified)
        .bind(user.mailbox_proven)
        .bind(user.signup_meta)
        .bind(now.millis())
        .execute(conn)
        .await.map(|done| done.rows_affected()))
    .map_err(|err| StoreError::conflict_on_unique(err, "email already has a login"))?;
    Ok(id)
}

pub async fn find_by_email(db: &Db, email: &str) -> StoreResult<Option<UserRow>> {
    let sql = format!("SELECT {COLUMNS} FROM users WHERE email = $1");
    Ok(
        on_db!(db, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str())).bind(email).fetch_optional(pool).await)?,
    )
}

pub async fn find_by_email_in(tx: &mut Tx, email: &str) -> StoreResult<Option<UserRow>> {
    let sql = format!("SELECT {COLUMNS} FROM users WHERE email = $1");
    Ok(
        on_tx!(tx, conn => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str())).bind(email).fetch_optional(conn).await)?,
    )
}

pub async fn find_in(tx: &mut Tx, id: &str) -> StoreResult<Option<UserRow>> {
    let sql = format!("SELECT {COLUMNS} FROM users WHERE id = $1");
    Ok(
        on_tx!(tx, conn => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str())).bind(id).fetch_optional(conn).await)?,
    )
}

pub async fn find(db: &Db, id: &str) -> StoreResult<Option<UserRow>> {
    let sql = format!("SELECT {COLUMNS} FROM users WHERE id = $1");
    Ok(
        on_db!(db, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str())).bind(id).fetch_optional(pool).await)?,
    )
}

pub async fn set_verified(tx: &mut Tx, id: &str) -> StoreResult<()> {
    on_tx!(tx, conn => sqlx::query("UPDATE users SET verified = TRUE WHERE id = $1").bind(id).execute(conn).await.map(|done| done.rows_affected()))?;
    Ok(())
}

/// The mailbox owner opened a verification link: they may sign in, and their email is proven.
pub async fn set_mailbox_proven(tx: &mut Tx, id: &str) -> StoreResult<()> {
    on_tx!(tx, conn => sqlx::query("UPDATE users SET verified = TRUE, mailbox_proven = TRUE WHERE id = $1").bind(id).execute(conn).await.map(|done| done.rows_affected()))?;
    Ok(())
}

pub async fn set_password_hash(tx: &mut Tx, id: &str, hash: &str) -> StoreResult<()> {
    on_tx!(tx, conn => sqlx::query("UPDATE users SET password_hash = $1 WHERE id = $2")
        .bind(hash)
        .bind(id)
        .execute(conn)
        .await.map(|done| done.rows_affected()))?;
    Ok(())
}

pub async fn set_name(tx: &mut Tx, id: &str, name: Option<&str>) -> StoreResult<()> {
    on_tx!(tx, conn => sqlx::query("UPDATE users SET name = $1 WHERE id = $2").bind(name).bind(id).execute(conn).await.map(|done| done.rows_affected()))?;
    Ok(())
}

/// Records a sign-in as activity, inside the transaction that opens the session.
pub async fn seen_at_sign_in(tx: &mut Tx, id: &str, now: Timestamp) -> StoreResult<()> {
    on_tx!(tx, conn => sqlx::query("UPDATE users SET last_seen_at = $1 WHERE id = $2")
        .bind(now.millis())
        .bind(id)
        .execute(conn)
        .await.map(|done| done.rows_affected()))?;
    Ok(())
}

/// Records activity; callers throttle it so a busy session does not write on every request.
pub async fn touch_last_seen(db: &Db, id: &str, now: Timestamp) -> StoreResult<()> {
    on_db!(db, pool => sqlx::query("UPDATE users SET last_seen_at = $1 WHERE id = $2")
        .bind(now.millis())
        .bind(id)
        .execute(pool)
        .await.map(|done| done.rows_affected()))?;
    Ok(())
}
