//! Accounts (tenants).

use payback_domain::{AccountRole, Timestamp};

use crate::error::StoreResult;
use crate::{Db, Tx, new_id};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct AccountRow {
    pub id: String,
    pub name: String,
    #[sqlx(try_from = "String")]
    pub role: payback_domain::AccountRole,
    pub created_at: i64,
}

impl AccountRow {
    pub fn role(&self) -> AccountRole {
        self.role
    }
}

pub async fn insert(tx: &mut Tx, name: &str, now: Timestamp) -> StoreResult<String> {
    let id = new_id();
    on_tx!(tx, conn => sqlx::query("INSERT INTO accounts (id, name, role, created_at) VALUES ($1, $2, $3, $4)")
        .bind(&id)
        .bind(name)
        .bind(AccountRole::Customer.as_str())
        .bind(now.millis())
        .execute(conn)
        .await.map(|done| done.rows_affected()))?;
    Ok(id)
}

pub async fn find(db: &Db, id: &str) -> StoreResult<Option<AccountRow>> {
    Ok(
        on_db!(db, pool => sqlx::query_as("SELECT id, name, role, created_at FROM accounts WHERE id = $1")
        .bind(id)
        .fetch_optional(pool)
        .await)?,
    )
}

pub async fn set_role(tx: &mut Tx, id: &str, role: AccountRole) -> StoreResult<()> {
    on_tx!(tx, conn => sqlx::query("UPDATE accounts SET role = $1 WHERE id = $2")
        .bind(role.as_str())
        .bind(id)
        .execute(conn)
        .await.map(|done| done.rows_affected()))?;
    Ok(())
}
