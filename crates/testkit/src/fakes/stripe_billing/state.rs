//! The fake's memory: the one secret key it takes, the prices it sells, the customers, Checkout
//! and portal sessions and subscriptions made, the idempotency keys seen with what they
//! answered, the failures a test scheduled, and every request.

use std::collections::HashMap;

use crate::fakes::recorder::RequestLog;
use crate::fakes::schedule::FailureSchedule;

/// A failure a test schedules on a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fail {
    /// 429 `rate_limit_error` (Stripe's "Too many requests").
    RateLimited,
    /// 500 `api_error`.
    ApiError,
    /// 402 `card_error` with `card_declined`: not retried.
    CardDeclined,
}

#[derive(Debug, Clone)]
pub struct Customer {
    pub id: String,
    pub email: Option<String>,
    pub metadata: Vec<(String, String)>,
    pub created: i64,
}

#[derive(Debug, Clone)]
pub struct CheckoutSession {
    pub id: String,
    pub customer: String,
    pub mode: String,
    pub client_reference_id: Option<String>,
    pub price: String,
    pub quantity: i64,
    pub success_url: String,
    pub cancel_url: String,
    pub url: String,
    /// Set once the test completed it ([`super::FakeStripeBilling::complete_checkout`]).
    pub subscription: Option<String>,
}

#[derive(Debug, Clone)]
pub struct PortalSession {
    pub id: String,
    pub customer: String,
    pub return_url: String,
    pub url: String,
}

#[derive(Debug, Clone)]
pub struct Subscription {
    pub id: String,
    pub customer: String,
    /// `active`, `past_due`, `canceled`, ...
    pub status: String,
    pub item_id: String,
    pub price: String,
    pub quantity: i64,
    pub current_period_start: i64,
    pub current_period_end: i64,
}

/// What an idempotency key answered the first time, with the parameters it was sent with.
#[derive(Debug, Clone)]
pub(crate) struct Replay {
    pub path: String,
    pub body: String,
    pub status: u16,
    pub answer: String,
}

#[derive(Debug, Default)]
pub(crate) struct State {
    pub origin: String,
    pub secret_key: String,
    pub prices: Vec<String>,
    pub customers: Vec<Customer>,
    pub checkouts: Vec<CheckoutSession>,
    pub portals: Vec<PortalSession>,
    pub subscriptions: Vec<Subscription>,
    pub idempotency: HashMap<String, Replay>,
    /// Ids minted so far, for the next suffix.
    pub minted: u64,
    /// The fake's clock, epoch seconds (`created`, periods).
    pub now: i64,
    pub scheduled: FailureSchedule<Fail>,
    pub log: RequestLog,
}

impl State {
    /// A fresh id with Stripe's prefix (`cus`, `cs_test`, `bps`, `sub`, `si`).
    pub fn mint(&mut self, prefix: &str) -> String {
        self.minted += 1;
        format!("{prefix}_{:014}", self.minted)
    }
}
