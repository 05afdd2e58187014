//! Traffic per landing path and UTC day, from wherever the product's visits are counted: the
//! first-party visits the fold keeps (`landing_path_days`) or the `landing_sessions` snapshots
//! an analytics source wrote. Each read walks an index by product (and path or metric), so its
//! cost follows the window's days and the paths asked, never the raw events.

use payback_domain::snapshot_metric::LANDING_SESSIONS;

use crate::Db;
use crate::error::StoreResult;

/// One path's visits on one day.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct PathDay {
    pub path: String,
    pub day: String,
    pub visits: i64,
}

/// One path's sessions over a span.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct PathTotal {
    pub path: String,
    pub sessions: f64,
}

/// First-party visits of each of `paths` per day from `first_day` to `last_day` inclusive;
/// days without any are absent.
pub async fn visit_days(
    db: &Db,
    product_id: &str,
    paths: &[&str],
    first_day: &str,
    last_day: &str,
) -> StoreResult<Vec<PathDay>> {
    if paths.is_empty() {
        return Ok(Vec::new());
    }
    Ok(on_db!(db, pool => {
        let mut query = sqlx::QueryBuilder::new(
            "SELECT path, day, visits FROM landing_path_days WHERE product_id = ",
        );
        query.push_bind(product_id);
        query.push(" AND path IN (");
        let mut list = query.separated(", ");
        for path in paths {
            list.push_bind(*path);
        }
        query.push(") AND day >= ");
        query.push_bind(first_day);
        query.push(" AND day <= ");
        query.push_bind(last_day);
        query.build_query_as().fetch_all(pool).await
    })?)
}

/// The `landing_sessions` a source `kind` wrote for each of `paths` (its dimension) per day
/// from `first_day` to `last_day` inclusive, rounded to whole sessions; days without any are
/// absent. Walks `snapshots_by_metric`.
pub async fn session_days(
    db: &Db,
    product_id: &str,
    kind: &str,
    paths: &[&str],
    first_day: &str,
    last_day: &str,
) -> StoreResult<Vec<PathDay>> {
    if paths.is_empty() {
        return Ok(Vec::new());
    }
    Ok(on_db!(db, pool => {
        let mut query = sqlx::QueryBuilder::new(
            "SELECT dimension AS path, day, CAST(ROUND(SUM(value)) AS BIGINT) AS visits \
             FROM snapshots WHERE product_id = ",
        );
        query.push_bind(product_id);
        query.push(" AND metric = ");
        query.push_bind(LANDING_SESSIONS);
        query.push(" AND kind = ");
        query.push_bind(kind);
        query.push(" AND dimension IN (");
        let mut list = query.separated(", ");
        for path in paths {
            list.push_bind(*path);
        }
        query.push(") AND day >= ");
        query.push_bind(first_day);
        query.push(" AND day <= ");
        query.push_bind(last_day);
        query.push(" GROUP BY dimension, day");
        query.build_query_as().fetch_all(pool).await
    })?)
}

/// The paths with the most `landing_sessions` a source `kind` wrote from `first_day` to
/// `last_day` inclusive, at least `min_sessions` each, most first (ties by path), at most
/// `limit`.
pub async fn top_session_paths(
    db: &Db,
    product_id: &str,
    kind: &str,
    first_day: &str,
    last_day: &str,
    min_sessions: f64,
    limit: i64,
) -> StoreResult<Vec<PathTotal>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT dimension AS path, CAST(SUM(value) AS DOUBLE PRECISION) AS sessions FROM snapshots \
         WHERE product_id = $1 AND metric = $2 AND kind = $3 AND day >= $4 AND day <= $5 \
         GROUP BY dimension HAVING SUM(value) >= $6 ORDER BY SUM(value) DESC, dimension LIMIT $7")
        .bind(product_id)
        .bind(LANDING_SESSIONS)
        .bind(kind)
        .bind(first_day)
        .bind(last_day)
        .bind(min_sessions)
        .bind(limit)
        .fetch_all(pool)
        .await)?)
}

/// Whether a source `kind` ever wrote `landing_sessions` for the product.
pub async fn has_sessions(db: &Db, product_id: &str, kind: &str) -> StoreResult<bool> {
    let found: Option<i64> = on_db!(db, pool => sqlx::query_scalar(
        "SELECT CAST(1 AS BIGINT) FROM snapshots WHERE product_id = $1 AND metric = $2 AND kind = $3 LIMIT 1")
        .bind(product_id)
        .bind(LANDING_SESSIONS)
        .bind(kind)
        .fetch_optional(pool)
        .await)?;
    Ok(found.is_some())
}
