//! Sync runs: a run holds its connection's lease (`store::connections::claim`, taken for this
//! instance, its heartbeat beaten while the run goes), opens the connection's
//! [`Source`](payback_connectors::Source) through the registry, reads the window the backfill
//! ladder says (as deep as the workspace's plan reads), writes the batch (`sync_batch`), and
//! books the outcome: success deepens the backfill and schedules the next run, at the next pass
//! while the ladder is unclimbed, then at the kind's cadence; failure records the error and backs off. A run killed with its process
//! stops beating, and another instance (a restarted process is one) runs the connection again
//! once the heartbeat is dead. Nothing here depends on the kind beyond its row of the kind table.
//!
//! The scheduler: every instance runs passes ([`run_due`]); a pass claims due connections one
//! by one into the instance's free [`SyncSlots`](crate::state::SyncSlots)
//! (`PAYBACK_SYNC_CONCURRENCY`) and runs them side by side, starting the next due one whenever
//! a run gives its slot back, so a slow or failing source holds one slot and nobody else. Instances sharing a database share the work the same
//! way: whoever claims a connection runs it, and nobody else can until it is booked.

use std::time::Duration;

use payback_connectors::{ConnectorError, SyncWindow};
use payback_domain::connection::{self, ConnectionKind, STALE_RUN_MS};
use payback_domain::{DAY_MS, MINUTE_MS, Timestamp};
use payback_store::connections::{self as store, ConnectionRow, RunOutcome};
use payback_store::products::{self, ProductRow};
use payback_store::{AccountScope, StoreError};
use tokio::task::JoinSet;
use tokio::time::Instant;

use crate::error::{ApiError, ApiResult};
use crate::jobs::heartbeat;
use crate::services::billing;
use crate::services::ingest::Source as IngestSource;
use crate::services::sync_batch::{self, IngestSink};
use crate::state::AppState;

/// How long a pass starts runs and waits for them. Its runs still going then go on in the
/// background, in their slots, and the pass returns; the next pass starts what is due.
const PASS_LIMIT: Duration = Duration::from_secs(5 * 60);

/// While its runs go on and nothing was due, a pass looks again this often: a connection that
/// falls due meanwhile (a database just activated) waits for a slot, never for a slow run.
const LOOK_AGAIN: Duration = Duration::from_secs(1);

/// A run still going after this is stopped and booked as failed: its lease is dead at
/// `STALE_RUN_MS`, when another pass may claim the connection again, and a run that never ends
/// would keep its slot for good.
const RUN_LIMIT_MS: i64 = STALE_RUN_MS - MINUTE_MS;

/// One pass on this instance: every connection due at `now` (or later, by the clock, while the
/// pass lasts) that this instance can claim is run, as many at once as it has free slots, most
/// overdue first and healthy ones before failing ones (`store::connections::due`). Returns once
/// its runs are booked (tests read what they wrote), or after [`PASS_LIMIT`], leaving runs still
/// going to finish in the background.
pub async fn run_due(state: &AppState, now: Timestamp) -> ApiResult<String> {
    let deadline = Instant::now() + PASS_LIMIT;
    let mut runs = JoinSet::new();
    let mut started = 0;
    let mut failure = None;
    // Whether the last look found nothing due that this instance could start.
    let mut drained = false;
    loop {
        let open = Instant::now() < deadline;
        if open && failure.is_none() && !drained {
            match start_due(state, now, &mut runs).await {
                Ok((count, all)) => {
                    started += count;
                    drained = all;
                }
                Err(err) => failure = Some(err),
            }
        }
        let done_starting = drained || failure.is_some() || !open;
        if !open || (done_starting && runs.is_empty()) {
            break;
        }
        tokio::select! {
            Some(joined) = runs.join_next(), if !runs.is_empty() => {
                if let Err(err) = joined {
                    // Its lease dies by itself; the connection is run again after it.
                    tracing::error!(error = %err, "a sync run panicked");
                }
                drained = false;
            }
            () = tokio::time::sleep(LOOK_AGAIN) => drained = false,
            () = tokio::time::sleep_until(deadline) => {}
        }
    }
    let going = runs.len();
    // Runs still going keep their slots and book themselves.
    runs.detach_all();
    if let Some(err) = failure {
        return Err(err.into());
    }
    Ok(match going {
        0 => format!("{started} sync runs"),
        going => format!("{started} sync runs, {going} still going"),
    })
}

/// Claims due connections into the free slots and starts them; answers how many started and
/// whether that was everything due (fewer were due than asked for, and a slot was left for each).
async fn start_due(
    state: &AppState,
    now: Timestamp,
    runs: &mut JoinSet<()>,
) -> Result<(usize, bool), StoreError> {
    let free = state.sync_slots.free();
    if free == 0 {
        return Ok((0, false));
    }
    // A few more than there are slots: another instance may claim some first.
    let asked = free * 2;
    let due_at = state.clock.now().max(now);
    let rows = store::due(
        &state.store,
        due_at,
        i64::try_from(asked).unwrap_or(i64::MAX),
    )
    .await?;
    let all = rows.len() < asked;
    let mut started = 0;
    for row in rows {
        let Some(slot) = state.sync_slots.take() else {
            return Ok((started, false));
        };
        if !store::claim(&state.store, &row.id, &state.instance_id, due_at).await? {
            continue;
        }
        let state = state.clone();
        runs.spawn(async move {
            let _slot = slot;
            run_claimed(&state, row).await;
        });
        started += 1;
    }
    Ok((started, all))
}

/// Runs a sync whose lease the caller holds (claimed for `state.instance_id`) and books its
/// outcome; never fails itself, so a background task can own it.
pub async fn run_claimed(state: &AppState, row: ConnectionRow) {
    let now = state.clock.now();
    let kind = row.kind;
    let max_days = history_days(state, &row).await;
    let days = connection::next_window_days_within(kind, row.backfill_days, max_days);
    let window = SyncWindow {
        from: now.minus_millis(days * DAY_MS),
        to: now,
    };
    let limit = Duration::from_millis(u64::try_from(RUN_LIMIT_MS).unwrap_or(0));
    let (db, owner, id) = (&state.store, state.instance_id.as_str(), row.id.as_str());
    let beating = heartbeat::while_beating(
        state.clock.as_ref(),
        now,
        "sync run",
        read_and_write(state, &row, kind, window),
        move |at| store::heartbeat(db, id, owner, at),
    );
    let read = tokio::time::timeout(limit, beating)
        .await
        .unwrap_or_else(|_| {
            Err(format!(
                "stopped after {} minutes without finishing",
                RUN_LIMIT_MS / MINUTE_MS
            ))
        });
    match read {
        Ok(detail) => {
            tracing::info!(connection = %row.id, kind = %kind, days, %detail, "sync run done");
            let backfill_days = connection::backfill_after(row.backfill_days, days);
            let outcome = RunOutcome::Succeeded {
                backfill_days,
                detail: &detail,
            };
            book(state, &row, outcome, now, max_days).await;
        }
        Err(error) => {
            tracing::warn!(connection = %row.id, kind = %kind, days, %error, "sync run failed");
            let outcome = RunOutcome::Failed { error: &error };
            book(state, &row, outcome, now, max_days).await;
        }
    }
}

/// How deep the connection's workspace may read (its plan's `history_days`, issue 41). When the
/// plan cannot be read, the free plan's: a shorter run now is harmless, the ladder climbs on
/// at a later run.
/// The days a run of `row` reads next: its ladder's next rung (or its recent days), within the
/// history its workspace's plan allows. `sync now` answers it, and the run reads it.
pub async fn next_window_days(state: &AppState, row: &ConnectionRow) -> i64 {
    let max_days = history_days(state, row).await;
    connection::next_window_days_within(row.kind, row.backfill_days, max_days)
}

async fn history_days(state: &AppState, row: &ConnectionRow) -> i64 {
    let scope = AccountScope::trusted(row.account_id.clone());
    billing::plan::history_days(state, &scope)
        .await
        .unwrap_or_else(|error| {
            tracing::warn!(connection = %row.id, %error, "plan unreadable; reading the free plan's history");
            billing::Plan::Free.history_days()
        })
}

async fn book(
    state: &AppState,
    row: &ConnectionRow,
    outcome: RunOutcome<'_>,
    now: Timestamp,
    max_days: i64,
) {
    let next = match &outcome {
        RunOutcome::Succeeded { backfill_days, .. } => {
            connection::next_run_after_success(row.kind, now, *backfill_days, max_days)
        }
        RunOutcome::Failed { .. } => connection::retry_at(now, row.consecutive_failures + 1),
    };
    match store::finish(
        &state.store,
        &row.id,
        &state.instance_id,
        outcome,
        now,
        next,
    )
    .await
    {
        Ok(true) => {}
        // The connection was disabled or removed meanwhile, or another instance took the run
        // over (this one stopped beating for long) and books its own.
        Ok(false) => {
            tracing::warn!(connection = %row.id, "sync run not booked: the connection was disabled, removed or taken over")
        }
        // The lease dies by itself once its heartbeat does; the next pass picks the run up again.
        Err(err) => {
            tracing::error!(connection = %row.id, error = %err, "booking a sync run failed")
        }
    }
}

/// Reads the window and writes it; the error is the line `last_error` shows.
async fn read_and_write(
    state: &AppState,
    row: &ConnectionRow,
    kind: ConnectionKind,
    window: SyncWindow,
) -> Result<String, String> {
    let scope = AccountScope::trusted(row.account_id.clone());
    let product = products::find_by_id(&state.store, &scope, &row.product_id)
        .await
        .map_err(|err| err.to_string())?
        .ok_or_else(|| "the product is gone".to_owned())?;
    let _ = store::set_phase(&state.store, &row.id, "reading").await;
    let source = state
        .sources
        .open(state, &product, row, kind)
        .await
        .map_err(|err| err.to_string())?;
    let mut sink = IngestSink {
        state,
        product: &product,
        source: IngestSource::Connector(kind),
    };
    // Sources that page (databases) write as they read, so the phase reads `reading` until the
    // rest of the batch is written.
    let batch = source
        .sync(window, &mut sink)
        .await
        .map_err(|err: ConnectorError| err.to_string())?;
    let _ = store::set_phase(&state.store, &row.id, "writing").await;
    sync_batch::write(&mut sink, kind, batch).await
}

/// One live read with the stored credential: `Ok(Err(reason))` when the source refuses or
/// cannot be used as configured.
pub async fn probe(
    state: &AppState,
    product: &ProductRow,
    row: &ConnectionRow,
) -> ApiResult<Result<String, String>> {
    let kind = row.kind;
    let source = match state.sources.open(state, product, row, kind).await {
        Ok(source) => source,
        // An operator's environment variable that is not set is an answer, not an error.
        Err(ApiError::Conflict(reason)) if kind.is_database() && row.credential_id.is_none() => {
            return Ok(Err(reason));
        }
        Err(err) => return Err(err),
    };
    Ok(source.test().await.map_err(|err| err.to_string()))
}
