//! The export requests sent to one Clarity project per UTC day (`replay_a`; migration
//! `0036_replay_requests`). A request is taken before it is sent, by one conditional upsert,
//! so two instances racing for the last request of a day cannot both have it.

use payback_domain::Timestamp;

use crate::Db;
use crate::error::StoreResult;

/// Counts one request of `project_id` on `day` if fewer than `limit` were taken; answers
/// whether it was (false: the day's requests are spent, send nothing).
pub async fn take(
    db: &Db,
    project_id: &str,
    day: &str,
    limit: i64,
    now: Timestamp,
) -> StoreResult<bool> {
    if limit <= 0 {
        return Ok(false);
    }
    let taken = on_db!(db, pool => sqlx::query(
        "INSERT INTO replay_requests (project_id, day, requests, updated_at) VALUES ($1, $2, 1, $3) \
         ON CONFLICT (project_id, day) DO UPDATE SET requests = replay_requests.requests + 1, \
         updated_at = excluded.updated_at WHERE replay_requests.requests < $4")
        .bind(project_id)
        .bind(day)
        .bind(now.millis())
        .bind(limit)
        .execute(pool)
        .await
        .map(|done| done.rows_affected()))?;
    Ok(taken == 1)
}

/// The requests taken for `project_id` on `day`.
pub async fn used(db: &Db, project_id: &str, day: &str) -> StoreResult<i64> {
    let used: Option<(i64,)> = on_db!(db, pool => sqlx::query_as(
        "SELECT requests FROM replay_requests WHERE project_id = $1 AND day = $2")
        .bind(project_id)
        .bind(day)
        .fetch_optional(pool)
        .await)?;
    Ok(used.map_or(0, |(requests,)| requests))
}
