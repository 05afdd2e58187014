//! Leases for background jobs. Any number of instances may run the job loop against one
//! database: a runner claims a due job with one conditional UPDATE (the first wins, the others
//! see zero rows), runs it, and hands it back with its next due time. A runner beats the lease's
//! heartbeat while the job runs ([`heartbeat`]); a runner that dies stops beating, and another
//! takes the job over once the heartbeat is dead (`lease::HEARTBEAT_STALE_MS`) or, at the
//! latest, once the lease expires.

use payback_domain::{Timestamp, lease};

use crate::Db;
use crate::error::StoreResult;

/// A job a runner holds until it finishes or the lease ends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claim {
    pub job: String,
    /// The due time this run serves; unique per job (see `job_runs`).
    pub due_at: i64,
    pub runner: String,
    /// Failures in a row before this run, for backing off.
    pub consecutive_failures: i64,
}

/// Makes sure `job` has a lease row, first due at `first_due`.
pub async fn register(db: &Db, job: &str, first_due: Timestamp) -> StoreResult<()> {
    on_db!(db, pool => sqlx::query(
        "INSERT INTO job_leases (job, next_run_at) VALUES ($1, $2) ON CONFLICT (job) DO NOTHING")
        .bind(job)
        .bind(first_due.millis())
        .execute(pool)
        .await.map(|done| done.rows_affected()))?;
    Ok(())
}

/// Claims `job` for `runner` when it is due and nobody holds a live lease on it: none, an
/// expired one, or one whose heartbeat stopped.
pub async fn claim(
    db: &Db,
    job: &str,
    runner: &str,
    now: Timestamp,
    lease_ms: i64,
) -> StoreResult<Option<Claim>> {
    let due: Option<(i64, i64)> = on_db!(db, pool => sqlx::query_as(
        "UPDATE job_leases SET lease_owner = $1, lease_until = $2, last_started_at = $3, heartbeat_at = $3 \
         WHERE job = $4 AND next_run_at <= $3 \
         AND (lease_until IS NULL OR lease_until <= $3 OR heartbeat_at <= $5) \
         RETURNING next_run_at, consecutive_failures")
        .bind(runner)
        .bind(now.millis() + lease_ms)
        .bind(now.millis())
        .bind(job)
        .bind(lease::dead_before(now))
        .fetch_optional(pool)
        .await)?;
    let Some((due_at, consecutive_failures)) = due else {
        return Ok(None);
    };
    // The second guard: a scheduled run is recorded once, so two runners never both start it
    // from a fresh lease; a run whose lease expired before it finished is taken over below
    // (every job is written to be safe to repeat: conditional updates, one card per key).
    let recorded = on_db!(db, pool => sqlx::query(
        "INSERT INTO job_runs (job, due_at, runner, started_at) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (job, due_at) DO NOTHING")
        .bind(job)
        .bind(due_at)
        .bind(runner)
        .bind(now.millis())
        .execute(pool)
        .await.map(|done| done.rows_affected()))?;
    if recorded == 0 {
        // This scheduled run was started before by a runner whose lease then expired (it died,
        // or ran past the lease): the run is taken over when it never finished. A finished one
        // always moved `next_run_at` on, so it cannot be due again.
        let taken_over = on_db!(db, pool => sqlx::query(
            "UPDATE job_runs SET runner = $1, started_at = $2 WHERE job = $3 AND due_at = $4 AND finished_at IS NULL")
            .bind(runner)
            .bind(now.millis())
            .bind(job)
            .bind(due_at)
            .execute(pool)
            .await.map(|done| done.rows_affected()))?;
        if taken_over == 0 {
            return Ok(None);
        }
    }
    Ok(Some(Claim {
        job: job.to_owned(),
        due_at,
        runner: runner.to_owned(),
        consecutive_failures,
    }))
}

/// Refreshes the heartbeat of `claim`'s lease; false when the runner no longer holds it (it
/// was taken over, or the run was finished).
pub async fn heartbeat(db: &Db, claim: &Claim, now: Timestamp) -> StoreResult<bool> {
    let beat = on_db!(db, pool => sqlx::query(
        "UPDATE job_leases SET heartbeat_at = $1 WHERE job = $2 AND lease_owner = $3 AND next_run_at = $4")
        .bind(now.millis())
        .bind(&claim.job)
        .bind(&claim.runner)
        .bind(claim.due_at)
        .execute(pool)
        .await.map(|done| done.rows_affected()))?;
    Ok(beat == 1)
}

/// Hands the job back: records the run's outcome and when the job is next due. Failures count
/// up `consecutive_failures` (the caller backs off through `next_due`); a success resets it.
pub async fn finish(
    db: &Db,
    claim: &Claim,
    outcome: Result<&str, &str>,
    next_due: Timestamp,
    now: Timestamp,
) -> StoreResult<()> {
    let (ok, detail) = match outcome {
        Ok(detail) => (true, detail),
        Err(error) => (false, error),
    };
    on_db!(db, pool => sqlx::query(
        "UPDATE job_runs SET finished_at = $1, ok = $2, detail = $3 WHERE job = $4 AND due_at = $5")
        .bind(now.millis())
        .bind(ok)
        .bind(detail)
        .bind(&claim.job)
        .bind(claim.due_at)
        .execute(pool)
        .await.map(|done| done.rows_affected()))?;
    on_db!(db, pool => sqlx::query(
        "UPDATE job_leases SET lease_owner = NULL, lease_until = NULL, heartbeat_at = NULL, next_run_at = $1, last_finished_at = $2, \
         last_ok_at = CASE WHEN $3 THEN $2 ELSE last_ok_at END, \
         consecutive_failures = CASE WHEN $3 THEN 0 ELSE consecutive_failures + 1 END, \
         last_error = CASE WHEN $3 THEN NULL ELSE $4 END \
         WHERE job = $5 AND next_run_at = $6")
        .bind(next_due.millis())
        .bind(now.millis())
        .bind(ok)
        .bind(if ok { None } else { Some(detail) })
        .bind(&claim.job)
        .bind(claim.due_at)
        .execute(pool)
        .await.map(|done| done.rows_affected()))?;
    Ok(())
}

/// A job's standing, for health reports and for backing off.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct LeaseRow {
    pub job: String,
    pub next_run_at: i64,
    pub lease_owner: Option<String>,
    pub heartbeat_at: Option<i64>,
    pub last_ok_at: Option<i64>,
    pub consecutive_failures: i64,
    pub last_error: Option<String>,
}

pub async fn leases(db: &Db) -> StoreResult<Vec<LeaseRow>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT job, next_run_at, lease_owner, heartbeat_at, last_ok_at, consecutive_failures, last_error FROM job_leases ORDER BY job")
        .fetch_all(pool)
        .await)?)
}

/// One finished or running run.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct RunRow {
    pub job: String,
    pub due_at: i64,
    pub runner: String,
    pub ok: Option<bool>,
    pub detail: Option<String>,
}

/// Every recorded run, oldest first.
pub async fn runs(db: &Db) -> StoreResult<Vec<RunRow>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT job, due_at, runner, ok, detail FROM job_runs ORDER BY id")
        .fetch_all(pool)
        .await)?)
}
