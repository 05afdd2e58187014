//! Payback's own Stripe account as the billing services reach it: the client built from the
//! billing settings (503 while they are not set) and Stripe's failures as 502s.

use payback_connectors::ConnectorError;
use payback_connectors::billing::{BillingConfig, StripeBilling};
use payback_connectors::payments::RetryPolicy;

use crate::error::{ApiError, ApiResult};
use crate::state::AppState;

/// The 503 of every billing call while the settings are missing.
pub fn not_configured() -> ApiError {
    ApiError::ServiceUnavailable(
        "billing is not configured on this server (PAYBACK_BILLING_STRIPE_KEY, \
         PAYBACK_BILLING_PRICE_INDIE and PAYBACK_BILLING_PRICE_GROWTH)"
            .to_owned(),
    )
}

/// The billing settings as the connector takes them; 503 without them.
pub fn config(state: &AppState) -> ApiResult<BillingConfig> {
    if !state.config.billing_available() {
        return Err(not_configured());
    }
    let key = state
        .config
        .billing_stripe_key
        .as_ref()
        .ok_or_else(not_configured)?;
    Ok(BillingConfig {
        secret_key: key.expose().to_owned(),
        base_url: state.config.billing_api_url.clone(),
        retry: RetryPolicy::default(),
    })
}

/// A session with Payback's Stripe account.
pub fn client<'a>(state: &'a AppState, config: &'a BillingConfig) -> ApiResult<StripeBilling<'a>> {
    StripeBilling::new(&state.http, config).map_err(failed)
}

/// Stripe's failure as a 502 saying why (connector messages carry no key).
pub fn failed(error: ConnectorError) -> ApiError {
    ApiError::BadGateway(format!("billing: {error}"))
}
