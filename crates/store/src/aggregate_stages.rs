//! Daily stage volumes that sources count rather than list (`aggregate_stage_days`): web
//! analytics sessions, a tool's signups per day. The funnel and product rows add them to the
//! volumes of events.

use payback_domain::Stage;

use crate::Tx;
use crate::error::StoreResult;

/// One stage's volume on one day.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StageVolume {
    pub day: String,
    pub stage: Stage,
    pub volume: i64,
}

/// Replaces what `source` counted for the days `first_day..=last_day` with `rows` (at most one
/// per day and stage, every one on those days): a re-read of a day the vendor recounted stores
/// its new count, and a stage that dropped to nothing is gone.
pub async fn replace_days(
    tx: &mut Tx,
    product_id: &str,
    source: &str,
    first_day: &str,
    last_day: &str,
    rows: &[StageVolume],
) -> StoreResult<()> {
    on_tx!(tx, conn => sqlx::query(
        "DELETE FROM aggregate_stage_days WHERE product_id = $1 AND day >= $2 AND day <= $3 AND source = $4")
        .bind(product_id)
        .bind(first_day)
        .bind(last_day)
        .bind(source)
        .execute(conn)
        .await.map(|done| done.rows_affected()))?;
    // 5 parameters a row.
    for chunk in rows.chunks(1000) {
        on_tx!(tx, conn => {
            let mut query = sqlx::QueryBuilder::new(
                "INSERT INTO aggregate_stage_days (product_id, day, stage, source, volume) ",
            );
            query.push_values(chunk, |mut row, volume| {
                row.push_bind(product_id)
                    .push_bind(&volume.day)
                    .push_bind(volume.stage.as_str())
                    .push_bind(source)
                    .push_bind(volume.volume);
            });
            query.build().execute(conn).await.map(|done| done.rows_affected())
        })?;
    }
    Ok(())
}
