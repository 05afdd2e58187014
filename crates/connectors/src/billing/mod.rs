//! Stripe Billing on Payback's own Stripe account: the calls that bill the workspaces (a
//! customer per workspace, Checkout sessions, billing portal sessions, the subscription item's
//! quantity). Nothing here is the tenants' `payments` connection, which reads their own Stripe
//! accounts.
//!
//! One file per concern: `client` (form-encoded POSTs with the bearer key over `keyed_http`,
//! `Idempotency-Key` on every create, Stripe's error object mapped to [`ConnectorError`]) and
//! `wire` (the objects' documented fields Payback reads).

mod client;
mod wire;

pub use client::{CheckoutRequest, StripeBilling};
pub use wire::{Customer, Session, SubscriptionItem};

use std::fmt;

use crate::payments::RetryPolicy;

/// Stripe's API origin; `/v1/...` paths are appended.
pub const DEFAULT_BASE_URL: &str = "https://api.stripe.com";

/// Payback's own Stripe account, as the billing calls need it. `Debug` never prints the key.
#[derive(Clone)]
pub struct BillingConfig {
    /// Payback's secret key (`sk_live_...`/`sk_test_...`, or a restricted `rk_` key).
    pub secret_key: String,
    /// Default [`DEFAULT_BASE_URL`]; tests point it at a fake.
    pub base_url: String,
    pub retry: RetryPolicy,
}

impl fmt::Debug for BillingConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BillingConfig")
            .field("secret_key", &"<redacted>")
            .field("base_url", &self.base_url)
            .field("retry", &self.retry)
            .finish()
    }
}
