//! The tracked pages of a product, one per path.

use payback_domain::Timestamp;

use crate::error::StoreResult;
use crate::{AccountScope, Db, Tx, new_id};

/// The most pages a product's list reads: discovery adds at most a page per top path, and a
/// list read stays bounded whatever was stored.
pub const MAX_PAGES: i64 = 500;

#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct PageRow {
    pub id: String,
    pub account_id: String,
    pub product_id: String,
    pub path: String,
    pub url: String,
    /// `manual`, or the source kind that discovered the page.
    pub source: String,
    pub created_at: i64,
}

const COLUMNS: &str = "id, account_id, product_id, path, url, source, created_at";

/// A page to track.
#[derive(Debug, Clone)]
pub struct NewPage<'a> {
    pub path: &'a str,
    pub url: &'a str,
}

/// Tracks a page; `None` when the product tracks its path already.
pub async fn insert(
    tx: &mut Tx,
    scope: &AccountScope,
    product_id: &str,
    page: NewPage<'_>,
    source: &str,
    now: Timestamp,
) -> StoreResult<Option<PageRow>> {
    let sql = format!(
        "INSERT INTO landing_pages (id, account_id, product_id, path, url, source, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (product_id, path) DO NOTHING \
         RETURNING {COLUMNS}"
    );
    Ok(
        on_tx!(tx, conn => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
        .bind(new_id())
        .bind(scope.account_id())
        .bind(product_id)
        .bind(page.path)
        .bind(page.url)
        .bind(source)
        .bind(now.millis())
        .fetch_optional(conn)
        .await)?,
    )
}

/// Tracks each of `pages` whose path the product does not track yet, in one statement;
/// answers how many it added. Running it again with the same pages adds nothing.
pub async fn insert_missing(
    db: &Db,
    scope: &AccountScope,
    product_id: &str,
    pages: &[NewPage<'_>],
    source: &str,
    now: Timestamp,
) -> StoreResult<u64> {
    if pages.is_empty() {
        return Ok(0);
    }
    Ok(on_db!(db, pool => {
        let mut query = sqlx::QueryBuilder::new(
            "INSERT INTO landing_pages (id, account_id, product_id, path, url, source, created_at) ",
        );
        query.push_values(pages, |mut row, page| {
            row.push_bind(new_id())
                .push_bind(scope.account_id())
                .push_bind(product_id)
                .push_bind(page.path)
                .push_bind(page.url)
                .push_bind(source)
                .push_bind(now.millis());
        });
        query.push(" ON CONFLICT (product_id, path) DO NOTHING");
        query.build().execute(pool).await.map(|done| done.rows_affected())
    })?)
}

/// The product's pages, oldest first (ids are UUID v7: creation order breaks ties), at most
/// [`MAX_PAGES`].
pub async fn list(db: &Db, scope: &AccountScope, product_id: &str) -> StoreResult<Vec<PageRow>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM landing_pages WHERE account_id = $1 AND product_id = $2 \
         ORDER BY created_at, id LIMIT $3"
    );
    Ok(
        on_db!(db, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
        .bind(scope.account_id())
        .bind(product_id)
        .bind(MAX_PAGES)
        .fetch_all(pool)
        .await)?,
    )
}

/// Every path the product tracks (discovery's "already tracked").
pub async fn paths(db: &Db, scope: &AccountScope, product_id: &str) -> StoreResult<Vec<String>> {
    Ok(on_db!(db, pool => sqlx::query_scalar(
        "SELECT path FROM landing_pages WHERE account_id = $1 AND product_id = $2")
        .bind(scope.account_id())
        .bind(product_id)
        .fetch_all(pool)
        .await)?)
}

/// One page of the product.
pub async fn find(
    db: &Db,
    scope: &AccountScope,
    product_id: &str,
    id: &str,
) -> StoreResult<Option<PageRow>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM landing_pages WHERE id = $1 AND account_id = $2 AND product_id = $3"
    );
    Ok(
        on_db!(db, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
        .bind(id)
        .bind(scope.account_id())
        .bind(product_id)
        .fetch_optional(pool)
        .await)?,
    )
}

/// Deletes the page and its analyses (explicitly: SQLite connections need not enforce the
/// foreign key's cascade), answering what it was; `None` when there is no such page. The
/// traffic of its path stays: it belongs to the path.
pub async fn delete(
    tx: &mut Tx,
    scope: &AccountScope,
    product_id: &str,
    id: &str,
) -> StoreResult<Option<PageRow>> {
    let sql = format!(
        "DELETE FROM landing_pages WHERE id = $1 AND account_id = $2 AND product_id = $3 \
         RETURNING {COLUMNS}"
    );
    let deleted: Option<PageRow> = on_tx!(tx, conn => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
        .bind(id)
        .bind(scope.account_id())
        .bind(product_id)
        .fetch_optional(conn)
        .await)?;
    if let Some(page) = &deleted {
        on_tx!(tx, conn => sqlx::query("DELETE FROM landing_page_analyses WHERE page_id = $1")
            .bind(&page.id)
            .execute(conn)
            .await
            .map(|done| done.rows_affected()))?;
    }
    Ok(deleted)
}
