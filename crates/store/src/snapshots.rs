//! Snapshots: dated metric values that are not events (search clicks per query, AI visibility,
//! followers), one per (product, source kind, day, metric, dimension). A sync upserts what it
//! read (`upsert`, in the run's transaction); reports read a metric's value per day by the rule
//! its word carries in `payback_domain::snapshot_metric` (`daily_values`), or one dimension's
//! values as they are (`dimension_days`, `latest_before`: the social report's networks).

use payback_domain::Timestamp;
use payback_domain::snapshot_metric::{self, DayValue};

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
    /// Text that goes with the value (a keyword position's ranking URL); `None` otherwise.
    pub detail: Option<String>,
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
    // 8 parameters a row: under SQLite's 32766.
    for chunk in rows.chunks(1_000) {
        on_tx!(tx, conn => {
            let mut query = sqlx::QueryBuilder::new(
                "INSERT INTO snapshots \
                 (product_id, kind, day, metric, dimension, value, detail, updated_at) ",
            );
            query.push_values(chunk, |mut row, snapshot| {
                row.push_bind(product_id)
                    .push_bind(kind)
                    .push_bind(&snapshot.day)
                    .push_bind(&snapshot.metric)
                    .push_bind(&snapshot.dimension)
                    .push_bind(snapshot.value)
                    .push_bind(&snapshot.detail)
                    .push_bind(now.millis());
            });
            query.push(
                " ON CONFLICT (product_id, kind, day, metric, dimension) DO UPDATE SET \
                 value = excluded.value, detail = excluded.detail, updated_at = excluded.updated_at",
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
/// kind (a word that is not a metric, or whose days are [`DayValue::Details`], reads nothing): [`DayValue::SumOfDimensions`] sums every dimension, [`DayValue::SumOfWholes`] sums the
/// values at dimension `''`, [`DayValue::Whole`] is their mean. Days without a value are absent.
/// One statement; each branch walks `snapshots_by_metric`.
pub async fn daily_values(
    db: &Db,
    product_id: &str,
    first_day: &str,
    last_day: &str,
    metrics: &[&str],
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
                .filter(|word| {
                    snapshot_metric::find(word).is_some_and(|metric| metric.day_value == rule)
                })
                .copied()
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

/// One dimension's value of a metric on one day, summed over source kinds.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct DimensionValue {
    pub day: String,
    pub metric: String,
    pub dimension: String,
    pub value: f64,
}

/// The values of `metrics` at each of `dimensions`, per day from `first_day` to `last_day`
/// inclusive, each summed over source kinds; days without a value are absent. Walks
/// `snapshots_by_metric`.
pub async fn dimension_days(
    db: &Db,
    product_id: &str,
    metrics: &[&str],
    dimensions: &[&str],
    first_day: &str,
    last_day: &str,
) -> StoreResult<Vec<DimensionValue>> {
    if metrics.is_empty() || dimensions.is_empty() {
        return Ok(Vec::new());
    }
    Ok(on_db!(db, pool => {
        let mut query = sqlx::QueryBuilder::new(
            "SELECT day, metric, dimension, CAST(SUM(value) AS DOUBLE PRECISION) AS value \
             FROM snapshots WHERE product_id = ",
        );
        query.push_bind(product_id);
        push_list(&mut query, " AND metric IN (", metrics);
        push_list(&mut query, " AND dimension IN (", dimensions);
        query.push(" AND day >= ");
        query.push_bind(first_day);
        query.push(" AND day <= ");
        query.push_bind(last_day);
        query.push(" GROUP BY day, metric, dimension ORDER BY day, metric, dimension");
        query.build_query_as().fetch_all(pool).await
    })?)
}

/// For each of `dimensions`, `metric`'s latest value on a day before `day` (summed over the
/// source kinds that wrote that day); a dimension without one is absent. What a count such as
/// followers stood at when a window began.
pub async fn latest_before(
    db: &Db,
    product_id: &str,
    metric: &str,
    dimensions: &[&str],
    day: &str,
) -> StoreResult<Vec<DimensionValue>> {
    if dimensions.is_empty() {
        return Ok(Vec::new());
    }
    Ok(on_db!(db, pool => {
        let mut query = sqlx::QueryBuilder::new(
            "SELECT s.day, s.metric, s.dimension, CAST(SUM(s.value) AS DOUBLE PRECISION) AS value \
             FROM snapshots s JOIN (SELECT dimension, MAX(day) AS day FROM snapshots \
             WHERE product_id = ",
        );
        query.push_bind(product_id);
        query.push(" AND metric = ");
        query.push_bind(metric);
        push_list(&mut query, " AND dimension IN (", dimensions);
        query.push(" AND day < ");
        query.push_bind(day);
        query.push(
            " GROUP BY dimension) latest ON s.dimension = latest.dimension AND s.day = latest.day \
             WHERE s.product_id = ",
        );
        query.push_bind(product_id);
        query.push(" AND s.metric = ");
        query.push_bind(metric);
        query.push(" GROUP BY s.day, s.metric, s.dimension ORDER BY s.dimension");
        query.build_query_as().fetch_all(pool).await
    })?)
}

/// `{prefix}$a, $b, ...)`: one bound parameter per value.
fn push_list<DB: sqlx::Database>(query: &mut sqlx::QueryBuilder<DB>, prefix: &str, values: &[&str])
where
    for<'a> &'a str: sqlx::Encode<'a, DB> + sqlx::Type<DB>,
{
    query.push(prefix);
    let mut list = query.separated(", ");
    for value in values {
        list.push_bind(*value);
    }
    query.push(")");
}
