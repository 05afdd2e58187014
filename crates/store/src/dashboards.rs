//! Stored dashboards: a product's named widget specs. The spec is JSON text the service checked
//! before writing; this module only stores it. Every query filters on the caller's account, so
//! another account's dashboard is not found, whichever id is asked for.

use payback_domain::Timestamp;

use crate::error::StoreResult;
use crate::{AccountScope, Db, Tx, new_id};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct DashboardRow {
    pub id: String,
    pub account_id: String,
    pub product_id: String,
    pub name: String,
    pub description: Option<String>,
    /// The DashboardSpec as JSON text.
    pub spec: String,
    pub created_by: String,
    pub updated_by: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
}

const COLUMNS: &str = "id, account_id, product_id, name, description, spec, created_by, updated_by, \
    created_at, updated_at";

pub struct NewDashboard<'a> {
    pub product_id: &'a str,
    pub name: &'a str,
    pub description: Option<&'a str>,
    /// The checked spec as JSON text.
    pub spec: &'a str,
    pub created_by: &'a str,
}

/// Stores a dashboard unless the product already holds `max_per_product`; `None` then.
/// Creations for one product queue on a lock (PostgreSQL; SQLite writes one at a time
/// already), so two of them cannot both take the last place.
pub async fn insert(
    tx: &mut Tx,
    scope: &AccountScope,
    new: NewDashboard<'_>,
    max_per_product: i64,
    now: Timestamp,
) -> StoreResult<Option<DashboardRow>> {
    crate::locks::hold_until_commit(tx, &format!("dashboards:{}", new.product_id)).await?;
    let held: i64 = on_tx!(tx, conn => sqlx::query_scalar(
        "SELECT CAST(COUNT(*) AS BIGINT) FROM dashboards WHERE account_id = $1 AND product_id = $2")
        .bind(scope.account_id())
        .bind(new.product_id)
        .fetch_one(conn)
        .await)?;
    if held >= max_per_product {
        return Ok(None);
    }
    let sql = format!(
        "INSERT INTO dashboards (id, account_id, product_id, name, description, spec, created_by, \
         updated_by, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, NULL, $8, $8) \
         RETURNING {COLUMNS}"
    );
    let row = on_tx!(tx, conn => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
        .bind(new_id())
        .bind(scope.account_id())
        .bind(new.product_id)
        .bind(new.name)
        .bind(new.description)
        .bind(new.spec)
        .bind(new.created_by)
        .bind(now.millis())
        .fetch_one(conn)
        .await)?;
    Ok(Some(row))
}

/// A product's dashboards, oldest first (ids are UUID v7: creation order breaks ties).
pub async fn list(
    db: &Db,
    scope: &AccountScope,
    product_id: &str,
) -> StoreResult<Vec<DashboardRow>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM dashboards WHERE account_id = $1 AND product_id = $2 \
         ORDER BY created_at, id"
    );
    Ok(
        on_db!(db, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
        .bind(scope.account_id())
        .bind(product_id)
        .fetch_all(pool)
        .await)?,
    )
}

/// One dashboard of the caller's account.
pub async fn find(db: &Db, scope: &AccountScope, id: &str) -> StoreResult<Option<DashboardRow>> {
    let sql = format!("SELECT {COLUMNS} FROM dashboards WHERE id = $1 AND account_id = $2");
    Ok(
        on_db!(db, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
        .bind(id)
        .bind(scope.account_id())
        .fetch_optional(pool)
        .await)?,
    )
}

/// One dashboard of the caller's account, read inside the transaction that changes it and held
/// until it ends (PostgreSQL locks the row; SQLite's transaction holds the write lock already),
/// so what an edit records as "before" is what it replaced.
pub async fn find_for_change(
    tx: &mut Tx,
    scope: &AccountScope,
    id: &str,
) -> StoreResult<Option<DashboardRow>> {
    let select = format!("SELECT {COLUMNS} FROM dashboards WHERE id = $1 AND account_id = $2");
    let sql = match tx {
        Tx::Postgres(_) => format!("{select} FOR UPDATE"),
        Tx::Sqlite(_) => select,
    };
    Ok(
        on_tx!(tx, conn => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
        .bind(id)
        .bind(scope.account_id())
        .fetch_optional(conn)
        .await)?,
    )
}

/// What an edit changes; `None` leaves a field as it is.
pub struct DashboardEdit<'a> {
    pub name: Option<&'a str>,
    /// `Some(None)` clears the description.
    pub description: Option<Option<&'a str>>,
    /// The checked spec as JSON text.
    pub spec: Option<&'a str>,
    pub updated_by: &'a str,
}

/// Applies `edit` to the caller's dashboard; `None` when there is no such dashboard.
pub async fn update(
    tx: &mut Tx,
    scope: &AccountScope,
    id: &str,
    edit: DashboardEdit<'_>,
    now: Timestamp,
) -> StoreResult<Option<DashboardRow>> {
    let sql = format!(
        "UPDATE dashboards SET name = COALESCE($3, name), \
         description = CASE WHEN $4 THEN $5 ELSE description END, \
         spec = COALESCE($6, spec), updated_by = $7, updated_at = $8 \
         WHERE id = $1 AND account_id = $2 RETURNING {COLUMNS}"
    );
    let (set_description, description) = match edit.description {
        Some(value) => (true, value),
        None => (false, None),
    };
    Ok(
        on_tx!(tx, conn => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
        .bind(id)
        .bind(scope.account_id())
        .bind(edit.name)
        .bind(set_description)
        .bind(description)
        .bind(edit.spec)
        .bind(edit.updated_by)
        .bind(now.millis())
        .fetch_optional(conn)
        .await)?,
    )
}

/// Deletes the caller's dashboard for good, answering what it was; `None` when there is none.
pub async fn delete(
    tx: &mut Tx,
    scope: &AccountScope,
    id: &str,
) -> StoreResult<Option<DashboardRow>> {
    let sql =
        format!("DELETE FROM dashboards WHERE id = $1 AND account_id = $2 RETURNING {COLUMNS}");
    Ok(
        on_tx!(tx, conn => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
        .bind(id)
        .bind(scope.account_id())
        .fetch_optional(conn)
        .await)?,
    )
}
