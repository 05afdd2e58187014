//! Sampled session recordings, as sources store them: `recording` snapshots
//! (`payback_domain::snapshot_metric::RECORDING`: dimension the session id, value the duration
//! in seconds, detail the playback pointer's JSON), read for `GET /products/{slug}/recordings`
//! through `snapshots_by_metric`.

use crate::Db;
use crate::error::StoreResult;
use payback_domain::snapshot_metric::RECORDING;

/// One stored recording.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct RecordingRow {
    /// The source kind that sampled it.
    pub kind: String,
    /// The day it started.
    pub day: String,
    /// The vendor's session id.
    pub session_id: String,
    /// Seconds.
    pub duration_s: f64,
    /// The playback pointer's JSON.
    pub detail: Option<String>,
}

/// The recordings of `kinds` that started from `first_day` to `last_day` inclusive, newest day
/// first (the caller orders within a day by start time).
pub async fn in_days(
    db: &Db,
    product_id: &str,
    kinds: &[&str],
    first_day: &str,
    last_day: &str,
) -> StoreResult<Vec<RecordingRow>> {
    if kinds.is_empty() {
        return Ok(Vec::new());
    }
    Ok(on_db!(db, pool => {
        let mut query = sqlx::QueryBuilder::new(
            "SELECT kind, day, dimension AS session_id, CAST(value AS DOUBLE PRECISION) AS duration_s, \
             detail FROM snapshots WHERE product_id = ",
        );
        query.push_bind(product_id);
        query.push(" AND metric = ");
        query.push_bind(RECORDING);
        query.push(" AND kind IN (");
        let mut list = query.separated(", ");
        for kind in kinds {
            list.push_bind(*kind);
        }
        query.push(") AND day >= ");
        query.push_bind(first_day);
        query.push(" AND day <= ");
        query.push_bind(last_day);
        query.push(" ORDER BY day DESC, dimension");
        query.build_query_as().fetch_all(pool).await
    })?)
}
