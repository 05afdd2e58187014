//! Stripe Billing on Payback's own Stripe account: the calls that bill the workspaces (a
//! customer per workspace, Checkout sessions, billing portal sessions, the subscription item's
//! quantity). Nothing here is the tenants' `payments` connection, which reads their own Stripe
//! accounts.
//!
//! One file per concern: `client` (form-encoded POSTs with the bearer key over `keyed_http`,
//! `Idempotency-Key` on every create, Stripe's error object mapped to [`ConnectorError`]) and
//! `wire` (the objects' documented fields Payback reads).
//!
//! Every request pins [`API_VERSION`] in `Stripe-Version` (docs.stripe.com/api/versioning: a
//! request without it gets the account's default version, which the account's owner may
//! upgrade at any time), so the objects answered have the shape read here whatever the
//! account's default. From 2025-03-31.basil a subscription's billing period is its items'
//! (`items.data[].current_period_end`; docs.stripe.com/changelog/basil/2025-03-31/
//! deprecate-subscription-current-period-start-and-end). Webhook events are rendered in the
//! webhook endpoint's own API version, not this one: the endpoint is to be created with this
//! version, and the webhook handler reads the period from either place.

mod client;
mod wire;

pub use client::{CheckoutRequest, StripeBilling};
pub use wire::{Customer, Session, SubscriptionItem};

use std::fmt;

use crate::payments::RetryPolicy;

/// The Stripe API version every billing request asks for (`Stripe-Version`).
pub const API_VERSION: &str = "2025-03-31.basil";

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
