//! The exclude filters of a product's landing pages: patterns over paths (the matching rule is
//! the server's `services/landing_pages/filters.rs`).

use payback_domain::Timestamp;

use crate::error::StoreResult;
use crate::{AccountScope, Db, Tx, new_id};

/// The most filters a product's list reads.
pub const MAX_FILTERS: i64 = 500;

#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct FilterRow {
    pub id: String,
    pub account_id: String,
    pub product_id: String,
    pub pattern: String,
    pub enabled: bool,
    pub created_at: i64,
    pub updated_at: i64,
}

const COLUMNS: &str = "id, account_id, product_id, pattern, enabled, created_at, updated_at";

pub async fn insert(
    tx: &mut Tx,
    scope: &AccountScope,
    product_id: &str,
    pattern: &str,
    enabled: bool,
    now: Timestamp,
) -> StoreResult<FilterRow> {
    let sql = format!(
        "INSERT INTO landing_page_filters (id, account_id, product_id, pattern, enabled, \
         created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $6) RETURNING {COLUMNS}"
    );
    Ok(
        on_tx!(tx, conn => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
        .bind(new_id())
        .bind(scope.account_id())
        .bind(product_id)
        .bind(pattern)
        .bind(enabled)
        .bind(now.millis())
        .fetch_one(conn)
        .await)?,
    )
}

/// The product's filters, oldest first, at most [`MAX_FILTERS`].
pub async fn list(db: &Db, scope: &AccountScope, product_id: &str) -> StoreResult<Vec<FilterRow>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM landing_page_filters WHERE account_id = $1 AND product_id = $2 \
         ORDER BY created_at, id LIMIT $3"
    );
    Ok(
        on_db!(db, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
        .bind(scope.account_id())
        .bind(product_id)
        .bind(MAX_FILTERS)
        .fetch_all(pool)
        .await)?,
    )
}

/// Sets the filter's pattern and/or switch (`None` leaves one as it is); `None` when the product
/// has no such filter.
pub async fn update(
    tx: &mut Tx,
    scope: &AccountScope,
    product_id: &str,
    id: &str,
    pattern: Option<&str>,
    enabled: Option<bool>,
    now: Timestamp,
) -> StoreResult<Option<FilterRow>> {
    let sql = format!(
        "UPDATE landing_page_filters SET pattern = COALESCE($4, pattern), \
         enabled = COALESCE($5, enabled), updated_at = $6 \
         WHERE id = $1 AND account_id = $2 AND product_id = $3 RETURNING {COLUMNS}"
    );
    Ok(
        on_tx!(tx, conn => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
        .bind(id)
        .bind(scope.account_id())
        .bind(product_id)
        .bind(pattern)
        .bind(enabled)
        .bind(now.millis())
        .fetch_optional(conn)
        .await)?,
    )
}

/// Deletes the filter, answering what it was; `None` when the product has no such filter.
pub async fn delete(
    tx: &mut Tx,
    scope: &AccountScope,
    product_id: &str,
    id: &str,
) -> StoreResult<Option<FilterRow>> {
    let sql = format!(
        "DELETE FROM landing_page_filters WHERE id = $1 AND account_id = $2 AND product_id = $3 \
         RETURNING {COLUMNS}"
    );
    Ok(
        on_tx!(tx, conn => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
        .bind(id)
        .bind(scope.account_id())
        .bind(product_id)
        .fetch_optional(conn)
        .await)?,
    )
}
