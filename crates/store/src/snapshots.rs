//! Snapshots: dated metric values that are not events (search clicks per query, AI visibility,
//! followers), one per (product, source kind, day, metric, dimension). A sync upserts what it
//! read (`upsert`, in the run's transaction); reports read a metric's value per day by the rule
//! its word carries in `payback_domain::snapshot_metric` (`daily_values`).

use payback_domain::Timestamp;
use payback_domain::snapshot_metric::{DayValue, SnapshotMetric};

use crate::error::StoreResult;
use crate::{Db, Tx};

/// One value of one day.
#[derive(Debug, Clone, PartialEq)]
pub struct SnapshotRow {
    pub day: String,
    /// A word of `payback_domain::snapshot_metric`.
    pub metric: String,
    /// What the value is about; `''` for the whole property.
    pub dimension: String,
    pub value: f64,
}

/// Inserts `rows` of a source `kind`, replacing the value of every key already stored (a
/// restated day); keys it does not name are left as they are. One statement per 1,000 rows,
/// inside the caller's transaction. Each (day, metric, dimension) must appear once in `rows`
/// (PostgreSQL refuses to update one row twice in a statement).
pub async fn upsert(
    tx: &mut Tx,
    product_id: &str,
    kind: &str,
    rows: &[SnapshotRow],
    now: Timestamp,
) -> StoreResult<()> {
    // 7 parameters a row: under SQLite's 32766.
    for chunk in rows.chunks(1_000) {
        on_tx!(tx, conn => {
            let mut query = sqlx::QueryBuilder::new(
                "INSERT INTO snapshots (product_id, kind, day, metric, dimension, value, updated_at) ",
            );
            query.push_values(chunk, |mut row, snapshot| {
                row.push_bind(product_id)
                    .push_bind(kind)
                    .push_bind(&snapshot.day)
                    .push_bind(&snapshot.metric)
                    .push_bind(&snapshot.dimension)
                    .push_bind(snapshot.value)
                    .push_bind(now.millis());
            });
            query.push(
                " ON CONFLICT (product_id, kind, day, metric, dimension) DO UPDATE SET \
                 value = excluded.value, updated_at = excluded.updated_at",
            );
            query.build().execute(conn).await.map(|done| done.rows_affected())
        })?;
    }
    Ok(())
}

/// A metric's value on one day, as its [`DayValue`] rule makes it.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct DailyValue {
    pub day: String,
    pub metric: String,
    pub value: f64,
}

/// Each of `metrics`' value per day from `first_day` to `last_day` inclusive, over every source
/// kind: [`DayValue::SumOfDimensions`] sums every dimension, [`DayValue::SumOfWholes`] sums the
/// values at dimension `''`, [`DayValue::Whole`] is their mean. Days without a value are absent.
/// One statement; each branch walks `snapshots_by_metric`.
pub async fn daily_values(
    db: &Db,
    product_id: &str,
    first_day: &str,
    last_day: &str,
    metrics: &[SnapshotMetric],
) -> StoreResult<Vec<DailyValue>> {
    let rules = [
        (DayValue::SumOfDimensions, "SUM(value)", ""),
        (DayValue::SumOfWholes, "SUM(value)", " AND dimension = ''"),
        (DayValue::Whole, "AVG(value)", " AND dimension = ''"),
    ];
    let branches: Vec<_> = rules
        .into_iter()
        .filter_map(|(rule, fold, filter)| {
            let words: Vec<&str> = metrics
                .iter()
                .filter(|metric| metric.day_value == rule)
                .map(|metric| metric.word)
                .collect();
            (!words.is_empty()).then_some((fold, filter, words))
        })
        .collect();
    if branches.is_empty() {
        return Ok(Vec::new());
    }
    Ok(on_db!(db, pool => {
        let mut query = sqlx::QueryBuilder::new("");
        for (at, (fold, filter, words)) in branches.iter().enumerate() {
            if at > 0 {
                query.push(" UNION ALL ");
            }
            query.push(format!(
                "SELECT day, metric, CAST({fold} AS DOUBLE PRECISION) AS value FROM snapshots WHERE product_id = "
            ));
            query.push_bind(product_id);
            query.push(" AND metric IN (");
            let mut list = query.separated(", ");
            for word in words {
                list.push_bind(*word);
            }
            query.push(") AND day >= ");
            query.push_bind(first_day);
            query.push(" AND day <= ");
            query.push_bind(last_day);
            query.push(*filter);
            query.push(" GROUP BY day, metric");
        }
        query.build_query_as().fetch_all(pool).await
    })?)
}
