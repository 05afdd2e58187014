//! Sync runs: a run holds its connection's lease (`store::connections::claim`), reads the window
//! the backfill ladder says through the connector, writes what it read through the same
//! ingestion path as the events API (namespace `<kind>:<slug>`, so re-reads store nothing
//! twice), and books the outcome: success deepens the backfill and schedules the next run at the
//! kind's cadence; failure records the error and backs off.

use payback_connectors::payments::{self, PaymentStage, PaymentsConfig};
use payback_connectors::{SyncOutput, SyncWindow};
use payback_domain::connection::{self, ConnectionKind};
use payback_domain::{DAY_MS, Timestamp};
use payback_store::connections::{self as store, ConnectionRow, RunOutcome};
use payback_store::{AccountScope, products};
use serde::Deserialize;

use crate::error::{ApiError, ApiResult};
use crate::services::ingest::{self, Source};
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
            book(state, &row, RunOutcome::Succeeded { backfill_days }, now).await;
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
    let output: SyncOutput = match kind {
        ConnectionKind::Payments => {
            let config = payments_config(state, row)
                .await
                .map_err(|err| err.to_string())?;
            payments::sync(&state.http, &config, window, &product.currency)
                .await
                .map_err(|err| err.to_string())?
        }
    };
    let _ = store::set_phase(&state.store, &row.id, "writing").await;
    let source = Source::Connector(kind);
    for batch in output.events.chunks(source.max_batch()) {
        ingest::ingest(state, &product, source, batch.to_vec())
            .await
            .map_err(|err| err.to_string())?;
    }
    Ok(output.detail)
}

/// One live read with the stored credential: `Ok(Err(reason))` when the vendor refuses.
pub async fn probe(state: &AppState, row: &ConnectionRow) -> ApiResult<Result<String, String>> {
    match ConnectionKind::parse(&row.kind) {
        Some(ConnectionKind::Payments) => {
            let config = payments_config(state, row).await?;
            Ok(payments::test(&state.http, &config)
                .await
                .map_err(|err| err.to_string()))
        }
        None => Err(ApiError::bad_request(format!(
            "kind {}: no connector to test",
            row.kind
        ))),
    }
}

/// The sealed part of a payments connection.
#[derive(Deserialize)]
struct PaymentsSecret {
    secret_key: String,
}

/// The non-secret part, as stored in `config`.
#[derive(Deserialize)]
struct PaymentsSettings {
    default_stage: Option<String>,
}

async fn payments_config(state: &AppState, row: &ConnectionRow) -> ApiResult<PaymentsConfig> {
    let vault = state.credentials.as_ref().ok_or_else(|| {
        ApiError::ServiceUnavailable(
            "credential encryption is not configured (set PAYBACK_SECRET_KEY)".to_owned(),
        )
    })?;
    let credential_id = row
        .credential_id
        .as_deref()
        .ok_or_else(|| ApiError::Conflict("this connection has no credentials yet".to_owned()))?;
    let sealed = store::credential(&state.store, credential_id)
        .await?
        .ok_or_else(|| ApiError::Conflict("this connection has no credentials yet".to_owned()))?;
    let plain = vault.open(&row.account_id, &sealed)?;
    let secret: PaymentsSecret = serde_json::from_slice(&plain)
        .map_err(|_| ApiError::internal("a stored credential is malformed"))?;
    let settings: PaymentsSettings = serde_json::from_str(&row.config)
        .map_err(|_| ApiError::internal("a connection's config is malformed"))?;
    let stage = settings
        .default_stage
        .as_deref()
        .and_then(PaymentStage::parse)
        .unwrap_or_default();
    let mut config = PaymentsConfig::new(secret.secret_key, stage);
    config.base_url.clone_from(&state.config.stripe_api_base);
    Ok(config)
}
