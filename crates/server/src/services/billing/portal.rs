//! `POST /billing/portal`: a Stripe billing portal session for the workspace's customer, where
//! the card, invoices, plan and cancellation are managed.

use payback_store::billing as store;

use crate::error::{ApiError, ApiResult};
use crate::services::acting::Caller;
use crate::services::billing::checkout::RedirectUrl;
use crate::services::billing::stripe;
use crate::state::AppState;

/// The portal's url; 503 while billing is not configured, 409 before the first checkout made
/// the workspace's customer, 502 when Stripe fails.
pub async fn portal(state: &AppState, caller: &Caller) -> ApiResult<RedirectUrl> {
    let scope = caller.scope()?;
    let config = stripe::config(state)?;
    let row = store::find(&state.store, scope).await?.ok_or_else(|| {
        ApiError::Conflict(
            "this workspace has no billing customer yet: upgrade through checkout first".to_owned(),
        )
    })?;
    let client = stripe::client(state, &config)?;
    let return_url = format!("{}/#/billing", state.config.public_url());
    let key = format!("payback-portal-{}", uuid::Uuid::now_v7());
    let session = client
        .create_portal_session(&row.customer_id, &return_url, &key)
        .await
        .map_err(stripe::failed)?;
    let url = session.url.ok_or_else(|| {
        ApiError::BadGateway(format!(
            "billing: Stripe's portal session {} has no url",
            session.id
        ))
    })?;
    Ok(RedirectUrl { url })
}
