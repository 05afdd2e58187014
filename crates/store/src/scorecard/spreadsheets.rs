//! The spreadsheet a product's scorecard syncs to.

use payback_domain::Timestamp;

use crate::Db;
use crate::error::StoreResult;

#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct SpreadsheetRow {
    pub spreadsheet_id: String,
    pub spreadsheet_url: String,
    pub synced_at: i64,
}

/// The product's linked spreadsheet, if a sync made one.
pub async fn for_product(db: &Db, product_id: &str) -> StoreResult<Option<SpreadsheetRow>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT spreadsheet_id, spreadsheet_url, synced_at FROM scorecard_spreadsheets \
         WHERE product_id = $1")
        .bind(product_id)
        .fetch_optional(pool)
        .await)?)
}

/// Links (or re-links) the product to a spreadsheet after a sync wrote it.
pub async fn link(
    db: &Db,
    product_id: &str,
    spreadsheet_id: &str,
    spreadsheet_url: &str,
    now: Timestamp,
) -> StoreResult<()> {
    on_db!(db, pool => sqlx::query(
        "INSERT INTO scorecard_spreadsheets (product_id, spreadsheet_id, spreadsheet_url, synced_at) \
         VALUES ($1, $2, $3, $4) ON CONFLICT (product_id) DO UPDATE SET \
         spreadsheet_id = excluded.spreadsheet_id, spreadsheet_url = excluded.spreadsheet_url, \
         synced_at = excluded.synced_at")
        .bind(product_id)
        .bind(spreadsheet_id)
        .bind(spreadsheet_url)
        .bind(now.millis())
        .execute(pool)
        .await
        .map(|done| done.rows_affected()))?;
    Ok(())
}
