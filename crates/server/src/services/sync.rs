//! Sync runs: a run holds its connection's lease (`store::connections::claim`), opens the
//! connection's [`Source`](payback_connectors::Source) through the registry, reads the window
//! the backfill ladder says, writes the batch (`sync_batch`), and books the outcome: success
//! deepens the backfill and schedules the next run at the kind's cadence; failure records the
//! error and backs off. Nothing here depends on the kind beyond its row of the kind table.

use payback_connectors::{ConnectorError, SyncWindow};
use payback_domain::connection::{self, ConnectionKind};
use payback_domain::{DAY_MS, Timestamp};
use payback_store::AccountScope;
use payback_store::connections::{self as store, ConnectionRow, RunOutcome};
use payback_store::products::{self, ProductRow};

use crate::error::{ApiError, ApiResult};
use crate::services::ingest::Source as IngestSource;
use crate::services::sync_batch::{self, IngestSink};
use crate::state::AppState;

/// Runs started by one job pass at most; the rest wait for the next pass.
const RUNS_PER_PASS: i64 = 5;

/// The job: every due connection this instance can claim, one after another.
pub async fn run_due(state: &AppState, now: Timestamp) -> ApiResult<String> {
    let due = store::due(&state.store, now, RUNS_PER_PASS).await?;
    let mut ran = 0;
    for row in due {
        if store::claim(&state.store, &row.id, now).await? {
            run_claimed(state, row).await;
            ran += 1;
        }
    }
    Ok(format!("{ran} sync runs"))
}

/// Runs a sync whose lease the caller holds and books its outcome; never fails itself, so a
/// background task can own it.
pub async fn run_claimed(state: &AppState, row: ConnectionRow) {
    let now = state.clock.now();
    let Some(kind) = ConnectionKind::parse(&row.kind) else {
        let error = format!("no connector for kind {}", row.kind);
        book(state, &row, RunOutcome::Failed { error: &error }, now).await;
        return;
    };
    let days = connection::next_window_days(kind, row.backfill_days);
    let window = SyncWindow {
        from: now.minus_millis(days * DAY_MS),
        to: now,
    };
    match read_and_write(state, &row, kind, window).await {
        Ok(detail) => {
            tracing::info!(connection = %row.id, kind = %kind, days, %detail, "sync run done");
            let backfill_days = connection::backfill_after(row.backfill_days, days);
            let outcome = RunOutcome::Succeeded {
                backfill_days,
                detail: &detail,
            };
            book(state, &row, outcome, now).await;
        }
        Err(error) => {
            tracing::warn!(connection = %row.id, kind = %kind, days, %error, "sync run failed");
            book(state, &row, RunOutcome::Failed { error: &error }, now).await;
        }
    }
}

async fn book(state: &AppState, row: &ConnectionRow, outcome: RunOutcome<'_>, now: Timestamp) {
    let next = match &outcome {
        RunOutcome::Succeeded { .. } => {
            ConnectionKind::parse(&row.kind).map_or(now, |kind| now.plus_millis(kind.cadence_ms()))
        }
        RunOutcome::Failed { .. } => connection::retry_at(now, row.consecutive_failures + 1),
    };
    if let Err(err) = store::finish(&state.store, &row.id, outcome, now, next).await {
        // The lease runs out by itself after 15 minutes; the next pass picks the run up again.
        tracing::error!(connection = %row.id, error = %err, "booking a sync run failed");
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
    let Some(kind) = ConnectionKind::parse(&row.kind) else {
        return Err(ApiError::bad_request(format!(
            "kind {}: no connector to test",
            row.kind
        )));
    };
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
