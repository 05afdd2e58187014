//! Products (also called projects): what spend, funnels and revenue hang off.

use payback_domain::Timestamp;

use crate::error::{StoreError, StoreResult};
use crate::{AccountScope, Db, Tx, Visibility, new_id};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ProductRow {
    pub id: String,
    pub account_id: String,
    pub slug: String,
    pub name: String,
    pub currency: String,
    pub domain: Option<String>,
    /// Read back typed: a spelling outside the vocabulary fails the read, never defaults.
    #[sqlx(try_from = "String")]
    pub stage: payback_domain::ProductStage,
    #[sqlx(try_from = "crate::words::NullableWord")]
    pub gate_result: Option<payback_domain::GateResult>,
    pub gate_due_date: Option<String>,
    pub onboarded_at: Option<i64>,
    pub created_at: i64,
}

const COLUMNS: &str = "id, account_id, slug, name, currency, domain, stage, gate_result, gate_due_date, onboarded_at, created_at";

pub struct NewProduct<'a> {
    pub slug: &'a str,
    pub name: &'a str,
    pub currency: &'a str,
    pub domain: Option<&'a str>,
}

/// Creates a product in `validation`; a slug already used in the account is a conflict.
pub async fn insert(
    tx: &mut Tx,
    scope: &AccountScope,
    product: NewProduct<'_>,
    now: Timestamp,
) -> StoreResult<ProductRow> {
    let sql = format!(
        "INSERT INTO products (id, account_id, slug, name, currency, domain, stage, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, 'validation', $7) RETURNING {COLUMNS}"
    );
    on_tx!(tx, conn => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
        .bind(new_id())
        .bind(scope.account_id())
        .bind(product.slug)
        .bind(product.name)
        .bind(product.currency)
        .bind(product.domain)
        .bind(now.millis())
        .fetch_one(conn)
        .await)
    .map_err(|err| StoreError::conflict_on_unique(err, "slug taken"))
}

pub async fn find_by_slug(
    db: &Db,
    scope: &AccountScope,
    slug: &str,
) -> StoreResult<Option<ProductRow>> {
    let sql = format!("SELECT {COLUMNS} FROM products WHERE account_id = $1 AND slug = $2");
    Ok(
        on_db!(db, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str())).bind(scope.account_id()).bind(slug).fetch_optional(pool).await)?,
    )
}

pub async fn find_by_id(
    db: &Db,
    scope: &AccountScope,
    id: &str,
) -> StoreResult<Option<ProductRow>> {
    let sql = format!("SELECT {COLUMNS} FROM products WHERE account_id = $1 AND id = $2");
    Ok(
        on_db!(db, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str())).bind(scope.account_id()).bind(id).fetch_optional(pool).await)?,
    )
}

/// Products visible to the caller, oldest first.
pub async fn list(db: &Db, visibility: &Visibility) -> StoreResult<Vec<ProductRow>> {
    list_first(db, visibility, i64::MAX).await
}

/// The first `limit` products of [`list`], oldest first.
pub async fn list_first(
    db: &Db,
    visibility: &Visibility,
    limit: i64,
) -> StoreResult<Vec<ProductRow>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM products WHERE ($1 IS NULL OR account_id = $1) \
         ORDER BY created_at, id LIMIT $2"
    );
    Ok(
        on_db!(db, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str())).bind(visibility.account_filter()).bind(limit).fetch_all(pool).await)?,
    )
}

/// Fields an edit may change; `None` leaves a field alone. `Some(None)` clears a nullable one.
#[derive(Debug, Default)]
pub struct ProductPatch<'a> {
    pub name: Option<&'a str>,
    pub currency: Option<&'a str>,
    pub domain: Option<Option<&'a str>>,
    pub stage: Option<&'a str>,
    pub gate_due_date: Option<Option<&'a str>>,
    pub gate_result: Option<Option<&'a str>>,
}

/// Whether the product has any revenue row: its amounts are in the product's currency, so the
/// currency may only change while there are none.
pub async fn has_revenue(tx: &mut Tx, product_id: &str) -> StoreResult<bool> {
    Ok(on_tx!(tx, conn => sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM transactions WHERE product_id = $1)")
        .bind(product_id)
        .fetch_one(conn)
        .await)?)
}

pub async fn update(
    tx: &mut Tx,
    scope: &AccountScope,
    id: &str,
    patch: &ProductPatch<'_>,
) -> StoreResult<ProductRow> {
    let sql = format!(
        "UPDATE products SET name = COALESCE($1, name), currency = COALESCE($2, currency), \
         domain = CASE WHEN $3 THEN $4 ELSE domain END, stage = COALESCE($5, stage), \
         gate_due_date = CASE WHEN $6 THEN $7 ELSE gate_due_date END, \
         gate_result = CASE WHEN $8 THEN $9 ELSE gate_result END \
         WHERE id = $10 AND account_id = $11 RETURNING {COLUMNS}"
    );
    Ok(
        on_tx!(tx, conn => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
        .bind(patch.name)
        .bind(patch.currency)
        .bind(patch.domain.is_some())
        .bind(patch.domain.flatten())
        .bind(patch.stage)
        .bind(patch.gate_due_date.is_some())
        .bind(patch.gate_due_date.flatten())
        .bind(patch.gate_result.is_some())
        .bind(patch.gate_result.flatten())
        .bind(id)
        .bind(scope.account_id())
        .fetch_one(conn)
        .await)?,
    )
}

/// Records a product's gate verdict.
pub async fn set_gate_result(
    tx: &mut Tx,
    scope: &AccountScope,
    id: &str,
    gate_result: Option<&str>,
) -> StoreResult<ProductRow> {
    let patch = ProductPatch {
        gate_result: Some(gate_result),
        ..ProductPatch::default()
    };
    update(tx, scope, id, &patch).await
}

/// Products of every account with a gate due on or before `day` and no verdict yet.
pub async fn gates_due(db: &Db, day: &str) -> StoreResult<Vec<ProductRow>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM products WHERE gate_due_date IS NOT NULL AND gate_due_date <= $1 \
         AND gate_result IS NULL AND stage <> 'killed' ORDER BY created_at, id"
    );
    Ok(
        on_db!(db, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str())).bind(day).fetch_all(pool).await)?,
    )
}

/// Every product of every account, for jobs that sweep them all.
pub async fn all(db: &Db) -> StoreResult<Vec<ProductRow>> {
    list(db, &Visibility::AllAccounts).await
}

/// Stamps onboarding complete; true only the first time.
pub async fn mark_onboarded(
    tx: &mut Tx,
    scope: &AccountScope,
    id: &str,
    now: Timestamp,
) -> StoreResult<bool> {
    let done = on_tx!(tx, conn => sqlx::query(
        "UPDATE products SET onboarded_at = $1 WHERE id = $2 AND account_id = $3 AND onboarded_at IS NULL")
        .bind(now.millis())
        .bind(id)
        .bind(scope.account_id())
        .execute(conn)
        .await.map(|done| done.rows_affected()))?;
    Ok(done == 1)
}

/// A product by id with no account scope. Only for credentials that name the product
/// themselves (a publishable write key); everything else goes through [`find_by_slug`].
pub async fn find_for_write_key(db: &Db, product_id: &str) -> StoreResult<Option<ProductRow>> {
    let sql = format!("SELECT {COLUMNS} FROM products WHERE id = $1");
    Ok(
        on_db!(db, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str())).bind(product_id).fetch_optional(pool).await)?,
    )
}
