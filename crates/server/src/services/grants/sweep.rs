//! The sweep of abandoned grants: a consented grant nobody selected within a day is revoked
//! at its provider and forgotten.

use payback_domain::{MINUTE_MS, Timestamp};
use payback_store::connections::{self as connection_store};
use payback_store::grant_states::{self as store, GrantState};
use serde_json::Value;

use super::Revokers;
use crate::error::ApiResult;
use crate::services::source_config;
use crate::state::AppState;

/// The sealed secret of a grant's credential, opened; `None` when it cannot be (no sealing
/// key, a malformed credential): a sweep then only forgets it.
pub async fn open_grant_secret(
    state: &AppState,
    grant: &GrantState,
    credential_id: &str,
) -> Option<Value> {
    let vault = source_config::vault(state).ok()?;
    let sealed = connection_store::credential(&state.store, credential_id)
        .await
        .ok()??;
    let plain = vault.open(&grant.account_id, &sealed).ok()?;
    serde_json::from_slice(&plain).ok()
}

/// How long a consented grant waits for its selection before its token is revoked.
pub(super) const SELECTION_WINDOW_MS: i64 = 24 * 60 * MINUTE_MS;

/// Abandoned grants one sweep handles.
pub(super) const SWEEP_BATCH: i64 = 50;

/// The `sweep_grants` job: a grant consented to but not selected within a day holds a sealed
/// token nobody uses; it is revoked at its provider, its credential deleted, and the state
/// marked `error` (a late `select` is refused). Revocation failures are logged and the token
/// forgotten all the same: keeping it would keep the access.
pub async fn sweep_abandoned(state: &AppState, now: Timestamp) -> ApiResult<String> {
    let before = now.minus_millis(SELECTION_WINDOW_MS);
    let abandoned = store::abandoned(&state.store, before, SWEEP_BATCH).await?;
    let mut revoked = 0;
    for grant in &abandoned {
        let Some(credential_id) = grant.credential_id.as_deref() else {
            continue;
        };
        if let Some(secret) = open_grant_secret(state, grant, credential_id).await {
            match Revokers::revoke(state, &grant.provider, &secret).await {
                Ok(true) => revoked += 1,
                Ok(false) => {}
                Err(err) => {
                    tracing::warn!(state = %grant.state, error = %err, "revoking an abandoned grant failed");
                }
            }
        }
        let mut tx = state.store.begin().await?;
        store::forget_credential(
            &mut tx,
            &grant.state,
            "no account was selected within a day; Payback revoked its access; start again",
        )
        .await?;
        connection_store::delete_credential_if_unused(&mut tx, credential_id).await?;
        tx.commit().await?;
    }
    Ok(format!(
        "{} abandoned grant(s) forgotten, {revoked} revoked upstream",
        abandoned.len()
    ))
}
