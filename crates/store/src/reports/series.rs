//! Report queries: the daily timeseries (spend, net revenue, customers acquired, snapshot
//! metrics). Stage volumes per day come from [`super::funnel::daily_stage_volumes`].

use payback_domain::span::Span;

use crate::Db;
use crate::error::StoreResult;
use crate::snapshots::{self, DailyValue};

/// Each of `metrics`' value per day of `span`, by its word's rule
/// (`payback_domain::snapshot_metric`); days without a value are absent.
pub async fn snapshot_metrics_by_day(
    db: &Db,
    product_id: &str,
    span: Span,
    metrics: &[&str],
) -> StoreResult<Vec<DailyValue>> {
    snapshots::daily_values(db, product_id, &span.first_day(), &span.last_day(), metrics).await
}

/// Spend per day of `span` (all networks), days with rows only.
pub async fn spend_by_day(
    db: &Db,
    product_id: &str,
    span: Span,
) -> StoreResult<Vec<(String, i64)>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT day, CAST(SUM(spend_cents) AS BIGINT) FROM spend_rows \
         WHERE product_id = $1 AND day >= $2 AND day <= $3 GROUP BY day")
        .bind(product_id)
        .bind(span.first_day())
        .bind(span.last_day())
        .fetch_all(pool)
        .await)?)
}

/// Net revenue per day of `span`: every revenue row (sales, refunds and disputes negative),
/// with or without an identity; days with rows only. Read from `revenue_days` (migration 0020).
pub async fn revenue_by_day(
    db: &Db,
    product_id: &str,
    span: Span,
) -> StoreResult<Vec<(String, i64)>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT day, CAST(SUM(cents) AS BIGINT) FROM revenue_days \
         WHERE product_id = $1 AND day >= $2 AND day <= $3 GROUP BY day HAVING SUM(rows) <> 0")
        .bind(product_id)
        .bind(span.first_day())
        .bind(span.last_day())
        .fetch_all(pool)
        .await)?)
}

/// Customers acquired per day of `span` (an identity's first converted or payment event);
/// days with customers only. Read from `identity_days` (migration 0020).
pub async fn customers_by_day(
    db: &Db,
    product_id: &str,
    span: Span,
) -> StoreResult<Vec<(String, i64)>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT day, CAST(SUM(acquired) AS BIGINT) FROM identity_days \
         WHERE product_id = $1 AND day >= $2 AND day <= $3 GROUP BY day HAVING SUM(acquired) <> 0")
        .bind(product_id)
        .bind(span.first_day())
        .bind(span.last_day())
        .fetch_all(pool)
        .await)?)
}
