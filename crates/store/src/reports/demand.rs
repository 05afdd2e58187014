//! Report queries of the demand report: search queries summed over a window per source, and the
//! latest reading of dated metrics (keyword ranks, authority, AI visibility) per source. Both
//! walk the snapshots' primary key or `snapshots_by_metric`.

use payback_domain::snapshot_metric::{SEARCH_CLICKS, SEARCH_IMPRESSIONS, SEARCH_POSITION};

use crate::Db;
use crate::error::StoreResult;

/// One search query of one source over a window.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct QueryTotal {
    /// The source kind's wire word (`search_console`, `search_b`).
    pub kind: String,
    pub query: String,
    pub clicks: f64,
    pub impressions: f64,
}

/// A query's position over a window: Σ (day's position × day's impressions) and the impressions
/// of the days with a position, so the window's position is their ratio.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct QueryPosition {
    pub kind: String,
    pub query: String,
    pub weighted: f64,
    pub impressions: f64,
}

/// Clicks and impressions per (source, query) over `first_day..=last_day`.
pub async fn query_totals(
    db: &Db,
    product_id: &str,
    first_day: &str,
    last_day: &str,
) -> StoreResult<Vec<QueryTotal>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT kind, dimension AS query, \
         CAST(SUM(CASE WHEN metric = $2 THEN value ELSE 0 END) AS DOUBLE PRECISION) AS clicks, \
         CAST(SUM(CASE WHEN metric = $3 THEN value ELSE 0 END) AS DOUBLE PRECISION) AS impressions \
         FROM snapshots WHERE product_id = $1 AND metric IN ($2, $3) AND day >= $4 AND day <= $5 \
         GROUP BY kind, dimension")
        .bind(product_id)
        .bind(SEARCH_CLICKS)
        .bind(SEARCH_IMPRESSIONS)
        .bind(first_day)
        .bind(last_day)
        .fetch_all(pool)
        .await)?)
}

/// Each (source, query)'s impression-weighted position parts over `first_day..=last_day`: a day's
/// position joined to the same day's impressions.
pub async fn query_positions(
    db: &Db,
    product_id: &str,
    first_day: &str,
    last_day: &str,
) -> StoreResult<Vec<QueryPosition>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT p.kind, p.dimension AS query, \
         CAST(SUM(p.value * i.value) AS DOUBLE PRECISION) AS weighted, \
         CAST(SUM(i.value) AS DOUBLE PRECISION) AS impressions \
         FROM snapshots p JOIN snapshots i ON i.product_id = p.product_id AND i.kind = p.kind \
         AND i.day = p.day AND i.metric = $3 AND i.dimension = p.dimension \
         WHERE p.product_id = $1 AND p.metric = $2 AND p.day >= $4 AND p.day <= $5 \
         GROUP BY p.kind, p.dimension")
        .bind(product_id)
        .bind(SEARCH_POSITION)
        .bind(SEARCH_IMPRESSIONS)
        .bind(first_day)
        .bind(last_day)
        .fetch_all(pool)
        .await)?)
}

/// One stored value as a source wrote it.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct SourceValue {
    pub kind: String,
    pub day: String,
    pub metric: String,
    pub dimension: String,
    pub value: f64,
    pub detail: Option<String>,
}

/// For each source and each of `metrics`, every value of the latest day on or before `last_day`
/// the source wrote that metric: a source's latest reading (its ranks of that run, its
/// authority figures, its engines' visibility), never mixed with older runs' keywords.
pub async fn latest_readings(
    db: &Db,
    product_id: &str,
    metrics: &[&str],
    last_day: &str,
) -> StoreResult<Vec<SourceValue>> {
    if metrics.is_empty() {
        return Ok(Vec::new());
    }
    Ok(on_db!(db, pool => {
        let mut query = sqlx::QueryBuilder::new(
            "SELECT s.kind, s.day, s.metric, s.dimension, s.value, s.detail FROM snapshots s \
             JOIN (SELECT kind, metric, MAX(day) AS day FROM snapshots WHERE product_id = ",
        );
        query.push_bind(product_id);
        query.push(" AND metric IN (");
        let mut list = query.separated(", ");
        for metric in metrics {
            list.push_bind(*metric);
        }
        query.push(") AND day <= ");
        query.push_bind(last_day);
        query.push(
            " GROUP BY kind, metric) latest ON s.kind = latest.kind AND s.metric = latest.metric \
             AND s.day = latest.day WHERE s.product_id = ",
        );
        query.push_bind(product_id);
        query.push(" ORDER BY s.kind, s.metric, s.dimension");
        query.build_query_as().fetch_all(pool).await
    })?)
}
