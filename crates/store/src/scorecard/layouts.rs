//! A product's scorecard layout: its sections and rows as JSON text the service checked, and
//! the template last applied. One row per product.

use payback_domain::Timestamp;

use crate::error::StoreResult;
use crate::{AccountScope, Db, Tx};

#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct LayoutRow {
    /// The checked sections as JSON text.
    pub sections: String,
    /// The template last applied; `None` after a custom save.
    pub template: Option<String>,
    pub updated_at: i64,
}

/// The product's stored layout, if it has one.
pub async fn find(
    db: &Db,
    scope: &AccountScope,
    product_id: &str,
) -> StoreResult<Option<LayoutRow>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT sections, template, updated_at FROM scorecard_layouts \
         WHERE product_id = $1 AND account_id = $2")
        .bind(product_id)
        .bind(scope.account_id())
        .fetch_optional(pool)
        .await)?)
}

/// Stores the first layout unless one is there already (two first reads racing keep the
/// first), and answers the stored one.
pub async fn provision(
    db: &Db,
    scope: &AccountScope,
    product_id: &str,
    sections: &str,
    template: &str,
    now: Timestamp,
) -> StoreResult<LayoutRow> {
    on_db!(db, pool => sqlx::query(
        "INSERT INTO scorecard_layouts (product_id, account_id, sections, template, updated_at) \
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (product_id) DO NOTHING")
        .bind(product_id)
        .bind(scope.account_id())
        .bind(sections)
        .bind(template)
        .bind(now.millis())
        .execute(pool)
        .await
        .map(|done| done.rows_affected()))?;
    let stored = find(db, scope, product_id).await?;
    stored.ok_or_else(|| crate::StoreError::Conflict("scorecard layout".to_owned()))
}

/// Replaces the layout inside the caller's transaction and answers the one it replaced, read
/// under the same lock (PostgreSQL: the product row; SQLite's transaction holds the write lock),
/// so the history's "before" is what this save replaced.
pub async fn replace(
    tx: &mut Tx,
    scope: &AccountScope,
    product_id: &str,
    sections: &str,
    template: Option<&str>,
    now: Timestamp,
) -> StoreResult<Option<LayoutRow>> {
    if let Tx::Postgres(conn) = tx {
        sqlx::query("SELECT id FROM products WHERE id = $1 FOR UPDATE")
            .bind(product_id)
            .fetch_optional(&mut **conn)
            .await?;
    }
    let previous: Option<LayoutRow> = on_tx!(tx, conn => sqlx::query_as(
        "SELECT sections, template, updated_at FROM scorecard_layouts \
         WHERE product_id = $1 AND account_id = $2")
        .bind(product_id)
        .bind(scope.account_id())
        .fetch_optional(conn)
        .await)?;
    on_tx!(tx, conn => sqlx::query(
        "INSERT INTO scorecard_layouts (product_id, account_id, sections, template, updated_at) \
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (product_id) DO UPDATE SET \
         sections = excluded.sections, template = excluded.template, updated_at = excluded.updated_at")
        .bind(product_id)
        .bind(scope.account_id())
        .bind(sections)
        .bind(template)
        .bind(now.millis())
        .execute(conn)
        .await
        .map(|done| done.rows_affected()))?;
    Ok(previous)
}
