//! Memberships: a person's place (role and status) in one account.

use payback_domain::{MemberRole, MemberStatus, Timestamp};

use crate::error::StoreResult;
use crate::{AccountScope, Db, Reader, Tx};

/// A member of one account, joined with the person.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct MemberRow {
    pub user_id: String,
    pub email: String,
    pub name: Option<String>,
    #[sqlx(try_from = "String")]
    pub member_role: MemberRole,
    #[sqlx(try_from = "String")]
    pub status: MemberStatus,
    pub accepted_at: Option<i64>,
    pub created_at: i64,
    pub last_seen_at: Option<i64>,
    pub has_password: bool,
}

impl MemberRow {
    pub fn role(&self) -> MemberRole {
        self.member_role
    }
    pub fn status(&self) -> MemberStatus {
        self.status
    }
}

/// One of a person's workspaces.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct WorkspaceRow {
    pub account_id: String,
    pub name: String,
    #[sqlx(try_from = "String")]
    pub role: payback_domain::AccountRole,
    #[sqlx(try_from = "String")]
    pub member_role: MemberRole,
}

const MEMBER_SELECT: &str = "SELECT m.user_id, u.email, u.name, m.member_role, m.status, m.accepted_at, \
     m.created_at, u.last_seen_at, (u.password_hash IS NOT NULL) AS has_password \
     FROM memberships m JOIN users u ON u.id = m.user_id";

pub async fn insert(
    tx: &mut Tx,
    scope: &AccountScope,
    user_id: &str,
    role: MemberRole,
    status: MemberStatus,
    now: Timestamp,
) -> StoreResult<()> {
    let accepted_at = (status == MemberStatus::Active).then_some(now.millis());
    on_tx!(tx, conn => sqlx::query(
        "INSERT INTO memberships (account_id, user_id, member_role, status, accepted_at, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6)")
        .bind(scope.account_id())
        .bind(user_id)
        .bind(role.as_str())
        .bind(status.as_str())
        .bind(accepted_at)
        .bind(now.millis())
        .execute(conn)
        .await.map(|done| done.rows_affected()))?;
    Ok(())
}

/// The account's members, oldest first, at most `limit` of them.
pub async fn list(db: &Db, scope: &AccountScope, limit: i64) -> StoreResult<Vec<MemberRow>> {
    let sql =
        format!("{MEMBER_SELECT} WHERE m.account_id = $1 ORDER BY m.created_at, u.email LIMIT $2");
    Ok(
        on_db!(db, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str())).bind(scope.account_id()).bind(limit).fetch_all(pool).await)?,
    )
}

pub async fn find_in(
    tx: &mut Tx,
    scope: &AccountScope,
    user_id: &str,
) -> StoreResult<Option<MemberRow>> {
    let sql = format!("{MEMBER_SELECT} WHERE m.account_id = $1 AND m.user_id = $2");
    Ok(
        on_tx!(tx, conn => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str())).bind(scope.account_id()).bind(user_id).fetch_optional(conn).await)?,
    )
}

/// Owners whose membership is active; the guard rails keep this from reaching zero.
pub async fn count_active_owners(tx: &mut Tx, scope: &AccountScope) -> StoreResult<i64> {
    Ok(on_tx!(tx, conn => sqlx::query_scalar(
        "SELECT COUNT(*) FROM memberships WHERE account_id = $1 AND member_role = 'owner' AND status = 'active'")
        .bind(scope.account_id())
        .fetch_one(conn)
        .await)?)
}

pub async fn set_status(
    tx: &mut Tx,
    scope: &AccountScope,
    user_id: &str,
    status: MemberStatus,
) -> StoreResult<()> {
    on_tx!(tx, conn => sqlx::query("UPDATE memberships SET status = $1 WHERE account_id = $2 AND user_id = $3")
        .bind(status.as_str())
        .bind(scope.account_id())
        .bind(user_id)
        .execute(conn)
        .await.map(|done| done.rows_affected()))?;
    Ok(())
}

/// Marks an invitation accepted: active, with the moment it happened.
pub async fn accept(
    tx: &mut Tx,
    scope: &AccountScope,
    user_id: &str,
    now: Timestamp,
) -> StoreResult<()> {
    on_tx!(tx, conn => sqlx::query(
        "UPDATE memberships SET status = 'active', accepted_at = $1 WHERE account_id = $2 AND user_id = $3")
        .bind(now.millis())
        .bind(scope.account_id())
        .bind(user_id)
        .execute(conn)
        .await.map(|done| done.rows_affected()))?;
    Ok(())
}

pub async fn set_role(
    tx: &mut Tx,
    scope: &AccountScope,
    user_id: &str,
    role: MemberRole,
) -> StoreResult<()> {
    on_tx!(tx, conn => sqlx::query("UPDATE memberships SET member_role = $1 WHERE account_id = $2 AND user_id = $3")
        .bind(role.as_str())
        .bind(scope.account_id())
        .bind(user_id)
        .execute(conn)
        .await.map(|done| done.rows_affected()))?;
    Ok(())
}

/// The most workspaces a person's list shows (`GET /auth/accounts`, the login response): the
/// oldest ones, so the read stays bounded however many a person joins or creates.
pub const WORKSPACES_LISTED: i64 = 500;

/// The person's accepted, non-disabled memberships, oldest first, at most
/// [`WORKSPACES_LISTED`].
pub async fn workspaces_of(db: &Db, user_id: &str) -> StoreResult<Vec<WorkspaceRow>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT a.id AS account_id, a.name, a.role, m.member_role FROM memberships m \
         JOIN accounts a ON a.id = m.account_id \
         WHERE m.user_id = $1 AND m.status = 'active' ORDER BY m.created_at, a.id LIMIT $2")
        .bind(user_id)
        .bind(WORKSPACES_LISTED)
        .fetch_all(pool)
        .await)?)
}

/// Accounts in which the person is an active owner (for `payback operator grant`).
pub async fn owned_accounts(tx: &mut Tx, user_id: &str) -> StoreResult<Vec<String>> {
    Ok(on_tx!(tx, conn => sqlx::query_scalar(
        "SELECT account_id FROM memberships WHERE user_id = $1 AND member_role = 'owner' AND status = 'active' \
         ORDER BY created_at")
        .bind(user_id)
        .fetch_all(conn)
        .await)?)
}

/// Whether the person belongs to an account other than `account_id`: a membership there that is
/// or was ever more than an open invitation (an unclaimed agent-created account counts: its
/// owner membership is active). An invite link may set a password only for someone who does not.
pub async fn belongs_elsewhere(
    reader: Reader<'_>,
    user_id: &str,
    account_id: &str,
) -> StoreResult<bool> {
    let count: i64 = on_reader!(reader, conn => sqlx::query_scalar(
        "SELECT COUNT(*) FROM memberships WHERE user_id = $1 AND account_id <> $2 \
         AND (status <> 'invited' OR accepted_at IS NOT NULL)")
        .bind(user_id)
        .bind(account_id)
        .fetch_one(conn)
        .await)?;
    Ok(count > 0)
}

/// The account's first owner, for claim links of agent-created accounts.
pub async fn first_owner(db: &Db, scope: &AccountScope) -> StoreResult<Option<MemberRow>> {
    let sql = format!(
        "{MEMBER_SELECT} WHERE m.account_id = $1 AND m.member_role = 'owner' ORDER BY m.created_at LIMIT 1"
    );
    Ok(
        on_db!(db, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
        .bind(scope.account_id())
        .fetch_optional(pool)
        .await)?,
    )
}

/// Serializes changes that could leave an account without an active owner: two owners
/// disabling or demoting each other at once must not both see "two owners left". On PostgreSQL
/// this locks the account's membership rows until the transaction ends (across every instance
/// sharing the database); on SQLite the transaction already holds the database write lock
/// (`BEGIN IMMEDIATE`).
pub async fn lock_account(tx: &mut Tx, scope: &AccountScope) -> StoreResult<()> {
    match tx {
        Tx::Sqlite(_) => Ok(()),
        Tx::Postgres(conn) => {
            sqlx::query("SELECT user_id FROM memberships WHERE account_id = $1 FOR UPDATE")
                .bind(scope.account_id())
                .fetch_all(&mut **conn)
                .await?;
            Ok(())
        }
    }
}

/// The member, read outside any transaction.
pub async fn find(db: &Db, scope: &AccountScope, user_id: &str) -> StoreResult<Option<MemberRow>> {
    let sql = format!("{MEMBER_SELECT} WHERE m.account_id = $1 AND m.user_id = $2");
    Ok(
        on_db!(db, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
        .bind(scope.account_id())
        .bind(user_id)
        .fetch_optional(pool)
        .await)?,
    )
}
