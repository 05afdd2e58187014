//! Small reads the alert jobs ask of every product: when it last saw an event or revenue, and
//! what it spent. Each is one indexed lookup.

use payback_domain::Stage;
use payback_domain::span::Span;

use crate::Db;
use crate::error::StoreResult;

/// When the product's latest event occurred (epoch ms), if it has any: the latest of each
/// stage, each one probe of the `(product_id, stage, occurred_at)` index (raw events keep no
/// index on time alone; ingestion pays for every index).
pub async fn last_event_at(db: &Db, product_id: &str) -> StoreResult<Option<i64>> {
    let per_stage: Vec<String> = (0..Stage::ALL.len())
        .map(|index| {
            format!(
                "SELECT (SELECT MAX(occurred_at) FROM events WHERE product_id = $1 AND stage = ${}) AS latest",
                index + 2
            )
        })
        .collect();
    let sql = format!(
        "SELECT MAX(latest) FROM ({}) AS stages",
        per_stage.join(" UNION ALL ")
    );
    Ok(on_db!(db, pool => {
        let mut query = sqlx::query_scalar(sqlx::AssertSqlSafe(sql.as_str())).bind(product_id);
        for stage in Stage::ALL {
            query = query.bind(stage.as_str());
        }
        query.fetch_one(pool).await
    })?)
}

/// When the product's latest revenue row occurred (epoch ms), if it has any.
pub async fn last_revenue_at(db: &Db, product_id: &str) -> StoreResult<Option<i64>> {
    Ok(on_db!(db, pool => sqlx::query_scalar(
        "SELECT MAX(occurred_at) FROM transactions WHERE product_id = $1")
        .bind(product_id)
        .fetch_one(pool)
        .await)?)
}

/// Total spend over the span's days.
pub async fn spend_in(db: &Db, product_id: &str, span: Span) -> StoreResult<i64> {
    let cents: Option<i64> = on_db!(db, pool => sqlx::query_scalar(
        "SELECT CAST(SUM(spend_cents) AS BIGINT) FROM spend_rows WHERE product_id = $1 AND day >= $2 AND day <= $3")
        .bind(product_id)
        .bind(span.first_day())
        .bind(span.last_day())
        .fetch_one(pool)
        .await)?;
    Ok(cents.unwrap_or(0))
}

/// Accepted batches of the product the database refused while folding them, set aside in
/// `ingest_failures`: how many, and the newest one's error.
pub async fn ingest_failures(db: &Db, product_id: &str) -> StoreResult<(i64, Option<String>)> {
    let newest: Option<(i64, String)> = on_db!(db, pool => sqlx::query_as(
        "SELECT COUNT(*) OVER (), error FROM ingest_failures WHERE product_id = $1 \
         ORDER BY inbox_id DESC LIMIT 1")
        .bind(product_id)
        .fetch_optional(pool)
        .await)?;
    Ok(newest.map_or((0, None), |(count, error)| (count, Some(error))))
}
