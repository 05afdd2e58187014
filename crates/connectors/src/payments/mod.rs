//! The `payments` connection: reads charges, refunds and disputes from the Stripe API and answers
//! them as events in the ingestion schema (successful charges as stage events with revenue,
//! refunds and disputes as negative `payment` rows).
//!
//! One file per concern: `key` (shape checks and redaction of the secret), `client` (HTTP,
//! pagination, retries, error mapping), `wire` (Stripe's JSON shapes), `currency` (minor units),
//! `mapping` (Stripe objects -> events and the status line).

mod client;
mod currency;
mod key;
mod mapping;
mod source;
mod wire;

pub use source::PaymentsSource;

use std::fmt;
use std::time::Duration;

use payback_domain::Stage;
use serde::{Deserialize, Serialize};

use crate::ConnectorError;

/// Stripe's API origin; `/v1/...` paths are appended.
pub const DEFAULT_BASE_URL: &str = "https://api.stripe.com";

/// The stage a successful charge is recorded as (refunds and disputes are always `payment`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PaymentStage {
    Converted,
    /// Every charge is a payment; whether it was the first one is the reports' business.
    #[default]
    Payment,
}

impl PaymentStage {
    pub fn as_str(self) -> &'static str {
        self.stage().as_str()
    }

    pub fn stage(self) -> Stage {
        match self {
            PaymentStage::Converted => Stage::Converted,
            PaymentStage::Payment => Stage::Payment,
        }
    }

    /// `converted` or `payment`, as the connect body spells it.
    pub fn parse(text: &str) -> Option<Self> {
        match text.trim() {
            "converted" => Some(PaymentStage::Converted),
            "payment" => Some(PaymentStage::Payment),
            _ => None,
        }
    }
}

/// How often a 429 is retried, waiting `base_delay * 2^n` before the n-th retry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    pub retries: u32,
    pub base_delay: Duration,
}

impl Default for RetryPolicy {
    /// 0.5 + 1 + 2 + 4 s: long enough for Stripe's per-second limits to refill, short enough
    /// that a sync job does not hold its lease for minutes.
    fn default() -> Self {
        Self {
            retries: 4,
            base_delay: Duration::from_millis(500),
        }
    }
}

/// One payments connection, decrypted. `Debug` never prints the key.
#[derive(Clone)]
pub struct PaymentsConfig {
    /// `sk_live_`, `sk_test_`, `rk_live_` or `rk_test_`.
    pub secret_key: String,
    /// Default [`DEFAULT_BASE_URL`]; tests point it at a fake.
    pub base_url: String,
    pub default_stage: PaymentStage,
    pub retry: RetryPolicy,
}

impl PaymentsConfig {
    /// A config against the real Stripe origin with the default retry policy.
    pub fn new(secret_key: impl Into<String>, default_stage: PaymentStage) -> Self {
        Self {
            secret_key: secret_key.into(),
            base_url: DEFAULT_BASE_URL.to_owned(),
            default_stage,
            retry: RetryPolicy::default(),
        }
    }
}

impl fmt::Debug for PaymentsConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PaymentsConfig")
            .field("secret_key", &"[redacted]")
            .field("base_url", &self.base_url)
            .field("default_stage", &self.default_stage)
            .field("retry", &self.retry)
            .finish()
    }
}

/// The shape `describe_key`, `test` and `sync` accept, as a regular expression (for the
/// machine-readable description of the connect body).
pub fn key_pattern() -> String {
    key::pattern()
}

/// What the key is, for the connection's redacted config, e.g. `secret key (test mode)`; the
/// same shape check as `test` and `sync`, without a request.
pub fn describe_key(secret_key: &str) -> Result<String, ConnectorError> {
    let kind = key::check(secret_key)?;
    Ok(format!("{} ({} mode)", kind.describe(), kind.mode()))
}

/// How far before the window disputes are re-read. A dispute is decided weeks after it opens (the
/// card networks take up to ~75 days after evidence), long after the 7-day re-sync has moved on
/// from its creation; without this a dispute stored while open and won later would stay a loss
/// forever. Re-reading is harmless: every row is deduplicated by its Stripe id.
pub const DISPUTE_LOOKBACK_MS: i64 = 120 * payback_domain::DAY_MS;
