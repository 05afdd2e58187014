//! Background jobs, leased through the database so any number of instances may run this loop
//! against one PostgreSQL (or one SQLite file): each due job is claimed by exactly one runner,
//! runs, and is handed back with its next due time. Failures back off (doubling, at most an
//! hour) and are recorded on the lease for health reports.
//!
//! Jobs only ever *raise* cards or apply what the clock decides (expiry, the end of a snooze);
//! they never resolve a card, and change spend only as a human approved it (`apply_budgets`
//! finishes what an approval wrote).
//!
//! Sync runs are not a leased job: every instance runs its own sync passes beside the jobs
//! (`services::sync::run_due`), because each connection is leased on its own when a pass claims
//! it. A lease on the whole pass would let one instance sync at a time, and hold every other
//! job behind a slow source.

mod alerts;
mod cards;
mod gates;
pub(crate) mod heartbeat;
mod rollbacks;

use std::time::Duration;

use payback_domain::{HOUR_MS, MINUTE_MS, Timestamp};
use payback_store::jobs;

use crate::error::ApiResult;
use crate::state::AppState;

/// The jobs there are, each with its cadence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Job {
    /// Proposals past their 72 hours become `expired`.
    ExpireCards,
    /// Snoozed cards whose time has come return to `pending`.
    WakeSnoozed,
    /// Approved changes whose `rollback_if` now holds get a proposal to revert.
    WatchRollbacks,
    /// Deterministic alerts: spend with no revenue, tracking gone silent.
    RaiseAlerts,
    /// Products whose gate date has come get a `gate_result` card.
    GateReviews,
    /// Approved budget changes still due are applied on their network (`services::budget_apply`).
    ApplyBudgets,
    /// Grants consented to but never turned into connections are revoked and forgotten
    /// (`services::grants::sweep_abandoned`).
    SweepGrants,
    /// Subscribed workspaces' Stripe quantity follows their billable products
    /// (`services::billing::quantity`).
    BillingQuantity,
}

impl Job {
    pub const ALL: [Job; 8] = [
        Job::ExpireCards,
        Job::WakeSnoozed,
        Job::WatchRollbacks,
        Job::RaiseAlerts,
        Job::GateReviews,
        Job::ApplyBudgets,
        Job::SweepGrants,
        Job::BillingQuantity,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Job::ExpireCards => "expire_cards",
            Job::WakeSnoozed => "wake_snoozed",
            Job::WatchRollbacks => "watch_rollbacks",
            Job::RaiseAlerts => "raise_alerts",
            Job::GateReviews => "gate_reviews",
            Job::ApplyBudgets => "apply_budgets",
            Job::SweepGrants => "sweep_grants",
            Job::BillingQuantity => "billing_quantity",
        }
    }

    /// How often the job runs when it succeeds.
    pub fn every_ms(self) -> i64 {
        match self {
            Job::ExpireCards | Job::WakeSnoozed => MINUTE_MS,
            // Every pass of the loop (30 s by default): a change whose holder died is due again
            // once its heartbeat is dead, and is then applied at the next pass, within 90 s.
            Job::ApplyBudgets | Job::BillingQuantity => MINUTE_MS / 2,
            Job::WatchRollbacks | Job::RaiseAlerts => 15 * MINUTE_MS,
            Job::GateReviews | Job::SweepGrants => HOUR_MS,
        }
    }

    async fn run(self, state: &AppState, now: Timestamp) -> ApiResult<String> {
        match self {
            Job::ExpireCards => cards::expire(state, now).await,
            Job::WakeSnoozed => cards::wake(state, now).await,
            Job::WatchRollbacks => rollbacks::watch(state, now).await,
            Job::RaiseAlerts => alerts::raise(state, now).await,
            Job::GateReviews => gates::review(state, now).await,
            Job::ApplyBudgets => crate::services::budget_apply::apply_due(state, now).await,
            Job::SweepGrants => crate::services::grants::sweep_abandoned(state, now).await,
            Job::BillingQuantity => crate::services::billing::quantity::sync_all(state, now).await,
        }
    }
}

/// A claimed lease is this long at most; a runner that dies mid-run stops beating its heartbeat
/// and frees the job once that is dead (`lease::HEARTBEAT_STALE_MS`), well before.
const LEASE_MS: i64 = 10 * MINUTE_MS;

/// When a job that failed `failures` times in a row (this run included) runs next.
fn backoff_ms(job: Job, failures: i64) -> i64 {
    let doublings = u32::try_from(failures.clamp(0, 10)).unwrap_or(10);
    job.every_ms()
        .saturating_mul(1 << doublings)
        .min(HOUR_MS)
        .max(job.every_ms())
}

/// What one pass did for one job.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JobReport {
    pub job: Job,
    pub outcome: Result<String, String>,
}

/// Runs every job that is due and not leased by another runner, then this instance's sync pass
/// (its runs booked when it returns, or left going after the pass's limit). Returns what ran of
/// the leased jobs.
pub async fn run_due(state: &AppState, runner: &str) -> ApiResult<Vec<JobReport>> {
    let reports = run_leased(state, runner).await?;
    sync_pass(state).await;
    Ok(reports)
}

/// One sync pass of this instance; what it did goes to the log.
async fn sync_pass(state: &AppState) {
    match crate::services::sync::run_due(state, state.clock.now()).await {
        Ok(done) => tracing::debug!(%done, "sync pass"),
        Err(error) => tracing::warn!(%error, "sync pass failed"),
    }
}

async fn run_leased(state: &AppState, runner: &str) -> ApiResult<Vec<JobReport>> {
    let mut reports = Vec::new();
    for job in Job::ALL {
        let now = state.clock.now();
        jobs::register(&state.store, job.name(), now).await?;
        let Some(claim) = jobs::claim(&state.store, job.name(), runner, now, LEASE_MS).await?
        else {
            continue;
        };
        let held = &claim;
        let beating = heartbeat::while_beating(
            state.clock.as_ref(),
            now,
            job.name(),
            job.run(state, now),
            move |at| jobs::heartbeat(&state.store, held, at),
        );
        let outcome = beating.await.map_err(|err| err.to_string());
        let done = state.clock.now();
        let next = match &outcome {
            // From the claim, not the end: the loop's passes come every `jobs_every_secs` from
            // their start, so a job of that cadence runs at every pass instead of every other.
            Ok(_) => now.plus_millis(job.every_ms()),
            Err(_) => done.plus_millis(backoff_ms(job, claim.consecutive_failures + 1)),
        };
        if let Err(error) = &outcome {
            tracing::warn!(job = job.name(), %error, "job failed; backing off");
        }
        let recorded = outcome.as_deref().map_err(String::as_str);
        jobs::finish(&state.store, &claim, recorded, next, done).await?;
        reports.push(JobReport { job, outcome });
    }
    Ok(reports)
}

/// The loop `payback serve` runs: a pass of the leased jobs every `every`, and beside it a sync
/// pass every `every` (a pass waiting on slow runs holds up no job), until the task is aborted.
pub async fn run_forever(state: AppState, runner: String, every: Duration) {
    let ticks = || {
        let mut tick = tokio::time::interval(every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        tick
    };
    let jobs = async {
        let mut tick = ticks();
        loop {
            tick.tick().await;
            if let Err(error) = run_leased(&state, &runner).await {
                tracing::error!(%error, "job pass failed");
            }
        }
    };
    let syncs = async {
        let mut tick = ticks();
        loop {
            tick.tick().await;
            sync_pass(&state).await;
        }
    };
    tokio::join!(jobs, syncs);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failures_back_off_doubling_up_to_an_hour() {
        assert_eq!(backoff_ms(Job::ExpireCards, 1), 2 * MINUTE_MS);
        assert_eq!(backoff_ms(Job::ExpireCards, 3), 8 * MINUTE_MS);
        assert_eq!(backoff_ms(Job::ExpireCards, 40), HOUR_MS);
        assert_eq!(backoff_ms(Job::GateReviews, 2), HOUR_MS);
    }
}
