//! A loopback fake of Stripe Billing's API on the operator's own account, written from Stripe's
//! API reference ("Create a customer", "Create a Checkout Session", "Create a portal session",
//! "Update a subscription item", "Idempotent requests", "Errors", "Webhooks: verify signatures
//! manually"), not from Payback's client, so tests prove the client speaks the documented
//! contract.
//!
//! One server on `127.0.0.1:0` answers (`api.rs`), with `Authorization: Bearer <secret key>`
//! and form-encoded bodies:
//! - `POST /v1/customers` (`email`, `metadata[...]`): a `customer`;
//! - `POST /v1/checkout/sessions` (`mode`, `customer`, `client_reference_id`,
//!   `line_items[0][price]` (a price the fake sells), `line_items[0][quantity]`,
//!   `success_url`, `cancel_url`): an open `checkout.session` with its `url`;
//! - `POST /v1/billing_portal/sessions` (`customer`, `return_url`): a `billing_portal.session`;
//! - `POST /v1/subscription_items/{id}` (`quantity`): the `subscription_item`;
//! - `GET` of a session's `url`: a page naming the session (a browser sent there lands).
//!
//! Errors are Stripe's `{"error": {type, code, message, param}}` (`errors.rs`); an
//! `Idempotency-Key` seen before replays its first answer, or answers 400 `idempotency_error`
//! with other parameters. What Stripe does outside the API the test does through the fake: a
//! person paying at Checkout ([`FakeStripeBilling::complete_checkout`]), a subscription's
//! status changing ([`FakeStripeBilling::set_status`]), and the events Stripe then sends, built
//! from the fake's objects ([`FakeStripeBilling::subscription_event`]) and signed as Stripe
//! signs them ([`signature_header`]).
//!
//! ```ignore
//! let stripe = FakeStripeBilling::spawn("sk_test_billing", &["price_indie", "price_growth"]).await;
//! // PAYBACK_BILLING_API_URL = stripe.base_url()
//! ```

mod api;
mod errors;
mod signing;
mod state;

use std::sync::{Arc, Mutex, MutexGuard};

use axum::Router;
use axum::response::Response;
use serde_json::{Value, json};

pub use super::recorder::RecordedRequest;
pub use signing::{signature, signature_header};
pub use state::{CheckoutSession, Customer, Fail, PortalSession, Subscription};

use super::loopback::{Loopback, LoopbackServer};
use super::{lock, recorder};

pub(crate) type Shared = Arc<Mutex<state::State>>;

/// A month of a subscription's period, in seconds.
const PERIOD_SECS: i64 = 30 * 86_400;

/// The running fake; the server stops when this is dropped.
pub struct FakeStripeBilling {
    server: LoopbackServer,
    shared: Shared,
}

impl std::fmt::Debug for FakeStripeBilling {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.server.describe("FakeStripeBilling", f)
    }
}

impl FakeStripeBilling {
    /// The account of `secret_key`, selling `prices` (monthly, per unit).
    pub async fn spawn(secret_key: &str, prices: &[&str]) -> Self {
        let loopback = Loopback::bind("Stripe Billing").await;
        let shared: Shared = Arc::new(Mutex::new(state::State {
            origin: loopback.origin().to_owned(),
            secret_key: secret_key.to_owned(),
            prices: prices.iter().map(|price| (*price).to_owned()).collect(),
            now: 1_795_262_400,
            ..state::State::default()
        }));
        let app = recorder::recording(Router::new().fallback(api::dispatch), shared.clone());
        Self {
            server: loopback.serve(app),
            shared,
        }
    }

    fn state(&self) -> MutexGuard<'_, state::State> {
        lock(&self.shared)
    }

    /// `http://127.0.0.1:PORT`, the fake's `https://api.stripe.com`.
    pub fn base_url(&self) -> String {
        self.server.origin().to_owned()
    }

    /// Sets the fake's clock (epoch seconds), which stamps `created` and periods.
    pub fn set_now(&self, seconds: i64) {
        self.state().now = seconds;
    }

    /// The next `times` requests whose path contains `path_contains` answer `fail`.
    pub fn fail_next(&self, path_contains: &str, times: u32, fail: Fail) {
        self.state().scheduled.push(path_contains, times, fail);
    }

    // ---- what the API made ------------------------------------------------------------------

    pub fn customers(&self) -> Vec<Customer> {
        self.state().customers.clone()
    }

    pub fn checkouts(&self) -> Vec<CheckoutSession> {
        self.state().checkouts.clone()
    }

    pub fn portals(&self) -> Vec<PortalSession> {
        self.state().portals.clone()
    }

    pub fn subscription(&self, id: &str) -> Subscription {
        self.state()
            .subscriptions
            .iter()
            .find(|subscription| subscription.id == id)
            .cloned()
            .unwrap_or_else(|| panic!("no subscription {id}"))
    }

    /// Every request received, in order.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.state().log.all()
    }

    /// The requests whose path contains `path_contains`.
    pub fn requests_to(&self, path_contains: &str) -> Vec<RecordedRequest> {
        self.state().log.to(path_contains)
    }

    // ---- what happens at Stripe outside the API ---------------------------------------------

    /// The person pays at Checkout: the session completes and its subscription starts, active,
    /// with one item of the session's price and quantity. Answers the subscription's id.
    pub fn complete_checkout(&self, session_id: &str) -> String {
        let mut state = self.state();
        let Some(at) = state
            .checkouts
            .iter()
            .position(|session| session.id == session_id)
        else {
            panic!("no checkout session {session_id}");
        };
        let id = state.mint("sub");
        let item_id = state.mint("si");
        let session = state.checkouts[at].clone();
        let now = state.now;
        state.subscriptions.push(Subscription {
            id: id.clone(),
            customer: session.customer,
            status: "active".to_owned(),
            item_id,
            price: session.price,
            quantity: session.quantity,
            current_period_start: now,
            current_period_end: now + PERIOD_SECS,
        });
        state.checkouts[at].subscription = Some(id.clone());
        id
    }

    /// The subscription's status changes at Stripe (a failed renewal: `past_due`; the end:
    /// `canceled`).
    pub fn set_status(&self, subscription_id: &str, status: &str) {
        let mut state = self.state();
        if let Some(subscription) = state
            .subscriptions
            .iter_mut()
            .find(|subscription| subscription.id == subscription_id)
        {
            subscription.status = status.to_owned();
        }
    }

    /// The subscription object as the API and its events show it (API version 2025-03-31 and
    /// later: the period on the item).
    pub fn subscription_json(&self, id: &str) -> Value {
        let subscription = self.subscription(id);
        json!({
            "id": subscription.id,
            "object": "subscription",
            "customer": subscription.customer,
            "status": subscription.status,
            "items": {
                "object": "list",
                "data": [{
                    "id": subscription.item_id,
                    "object": "subscription_item",
                    "price": { "id": subscription.price, "object": "price", "recurring": { "interval": "month" } },
                    "quantity": subscription.quantity,
                    "subscription": subscription.id,
                    "current_period_start": subscription.current_period_start,
                    "current_period_end": subscription.current_period_end,
                }],
                "has_more": false,
            },
            "livemode": false,
        })
    }

    /// The subscription as an endpoint on a version before 2025-03-31.basil receives it: the
    /// period on the subscription, none on its items (Stripe renders an event in the webhook
    /// endpoint's API version, not the requests').
    pub fn subscription_json_before_basil(&self, id: &str) -> Value {
        let mut object = self.subscription_json(id);
        let item = &mut object["items"]["data"][0];
        let (start, end) = (
            item["current_period_start"].take(),
            item["current_period_end"].take(),
        );
        if let Some(item) = item.as_object_mut() {
            item.remove("current_period_start");
            item.remove("current_period_end");
        }
        object["current_period_start"] = start;
        object["current_period_end"] = end;
        object
    }

    /// An event of `kind` about `object`, as Stripe delivers it.
    pub fn event(event_id: &str, kind: &str, created: i64, object: Value) -> Value {
        json!({
            "id": event_id,
            "object": "event",
            "api_version": "2025-03-31.basil",
            "created": created,
            "data": { "object": object },
            "livemode": false,
            "pending_webhooks": 1,
            "request": { "id": null, "idempotency_key": null },
            "type": kind,
        })
    }

    /// `customer.subscription.created|updated|deleted` about the subscription as it is now.
    pub fn subscription_event(
        &self,
        event_id: &str,
        kind: &str,
        subscription_id: &str,
        created: i64,
    ) -> Value {
        Self::event(
            event_id,
            kind,
            created,
            self.subscription_json(subscription_id),
        )
    }

    /// `checkout.session.completed` of a session [`Self::complete_checkout`] completed.
    pub fn checkout_completed_event(
        &self,
        event_id: &str,
        session_id: &str,
        created: i64,
    ) -> Value {
        let session = self
            .checkouts()
            .into_iter()
            .find(|session| session.id == session_id)
            .unwrap_or_else(|| panic!("no checkout session {session_id}"));
        Self::event(
            event_id,
            "checkout.session.completed",
            created,
            api::checkout_json(&session, "complete"),
        )
    }
}

impl recorder::Recorded for state::State {
    const BODY_LIMIT: usize = 64 * 1024;

    fn log(&mut self) -> &mut recorder::RequestLog {
        &mut self.log
    }

    fn scheduled_answer(&mut self, request: &RecordedRequest) -> Option<Response> {
        self.scheduled.take(&request.path).map(errors::scheduled)
    }
}

#[cfg(test)]
mod tests;
