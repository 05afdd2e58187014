//! Values typed into a scorecard's manual rows: one per (product, row key, ISO week).

use payback_domain::Timestamp;

use crate::error::StoreResult;
use crate::{Db, Tx};

/// One typed cell; `value` `None` is a cell cleared on purpose.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct ManualCell {
    pub metric: String,
    /// `YYYY-Www`.
    pub week: String,
    pub value: Option<f64>,
}

/// Writes `cells` (each (metric, week) once), replacing what was typed before, in the caller's
/// transaction: a batch lands whole or not at all.
pub async fn upsert(
    tx: &mut Tx,
    product_id: &str,
    cells: &[ManualCell],
    now: Timestamp,
) -> StoreResult<()> {
    // 5 parameters a cell: far under SQLite's 32766 for the 500 a batch may hold.
    for chunk in cells.chunks(1_000) {
        on_tx!(tx, conn => {
            let mut query = sqlx::QueryBuilder::new(
                "INSERT INTO scorecard_manual_cells (product_id, metric, week, value, updated_at) ",
            );
            query.push_values(chunk, |mut row, cell| {
                row.push_bind(product_id)
                    .push_bind(&cell.metric)
                    .push_bind(&cell.week)
                    .push_bind(cell.value)
                    .push_bind(now.millis());
            });
            query.push(
                " ON CONFLICT (product_id, metric, week) DO UPDATE SET \
                 value = excluded.value, updated_at = excluded.updated_at",
            );
            query.build().execute(conn).await.map(|done| done.rows_affected())
        })?;
    }
    Ok(())
}

/// The cells typed for weeks `first_week..=last_week` (keys `YYYY-Www` sort in time order).
pub async fn between(
    db: &Db,
    product_id: &str,
    first_week: &str,
    last_week: &str,
) -> StoreResult<Vec<ManualCell>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT metric, week, value FROM scorecard_manual_cells \
         WHERE product_id = $1 AND week >= $2 AND week <= $3")
        .bind(product_id)
        .bind(first_week)
        .bind(last_week)
        .fetch_all(pool)
        .await)?)
}
