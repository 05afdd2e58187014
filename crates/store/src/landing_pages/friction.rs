//! Friction per landing path: the rage clicks, dead clicks and script errors a session-replay or
//! product-analytics source counted on a path (`rage_clicks`, `dead_clicks`, `js_errors`
//! snapshots, the dimension the path as `landing_path` spells it). Both reads walk
//! `snapshots_by_metric` (product, metric, day), so their cost follows the window's days and the
//! paths asked, never the raw events.

use payback_domain::snapshot_metric::{DEAD_CLICKS, JS_ERRORS, RAGE_CLICKS};

use crate::Db;
use crate::error::StoreResult;

/// The three friction metrics, in the order the landing pages show them.
pub const FRICTION_METRICS: [&str; 3] = [RAGE_CLICKS, DEAD_CLICKS, JS_ERRORS];

/// One source kind's count of one friction metric on one path over a span.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct PathFriction {
    pub path: String,
    pub kind: String,
    pub metric: String,
    pub value: f64,
}

/// One path a source kind counted friction on, with its total over a span.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct FrictionPath {
    pub path: String,
    pub total: f64,
}

/// The friction `kinds` counted on each of `paths` from `first_day` to `last_day` inclusive,
/// summed per (path, kind, metric); combinations without any row are absent.
pub async fn totals(
    db: &Db,
    product_id: &str,
    kinds: &[&str],
    paths: &[&str],
    first_day: &str,
    last_day: &str,
) -> StoreResult<Vec<PathFriction>> {
    if paths.is_empty() || kinds.is_empty() {
        return Ok(Vec::new());
    }
    Ok(on_db!(db, pool => {
        let mut query = sqlx::QueryBuilder::new(
            "SELECT dimension AS path, kind, metric, CAST(SUM(value) AS DOUBLE PRECISION) AS value \
             FROM snapshots WHERE product_id = ",
        );
        query.push_bind(product_id);
        query.push(" AND metric IN (");
        let mut metrics = query.separated(", ");
        for metric in FRICTION_METRICS {
            metrics.push_bind(metric);
        }
        query.push(") AND day >= ");
        query.push_bind(first_day);
        query.push(" AND day <= ");
        query.push_bind(last_day);
        query.push(" AND kind IN (");
        let mut kind_list = query.separated(", ");
        for kind in kinds {
            kind_list.push_bind(*kind);
        }
        query.push(") AND dimension IN (");
        let mut path_list = query.separated(", ");
        for path in paths {
            path_list.push_bind(*path);
        }
        query.push(") GROUP BY dimension, kind, metric");
        query.build_query_as().fetch_all(pool).await
    })?)
}

/// The paths a source `kind` counted friction on from `first_day` to `last_day` inclusive, the
/// most friction first (ties by path), at most `limit`: the URLs a replay tool saw, which
/// discovery tracks.
pub async fn paths_seen(
    db: &Db,
    product_id: &str,
    kind: &str,
    first_day: &str,
    last_day: &str,
    limit: i64,
) -> StoreResult<Vec<FrictionPath>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT dimension AS path, CAST(SUM(value) AS DOUBLE PRECISION) AS total FROM snapshots \
         WHERE product_id = $1 AND metric IN ($2, $3, $4) AND kind = $5 AND day >= $6 AND day <= $7 \
         GROUP BY dimension ORDER BY SUM(value) DESC, dimension LIMIT $8")
        .bind(product_id)
        .bind(RAGE_CLICKS)
        .bind(DEAD_CLICKS)
        .bind(JS_ERRORS)
        .bind(kind)
        .bind(first_day)
        .bind(last_day)
        .bind(limit)
        .fetch_all(pool)
        .await)?)
}
