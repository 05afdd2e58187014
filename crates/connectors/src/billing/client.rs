//! HTTP against Stripe's API for billing: `POST {origin}/v1/...` with form-encoded bodies
//! (`line_items[0][price]`, `metadata[account_id]`), `Authorization: Bearer KEY`, an
//! `Idempotency-Key` on every create and update (so the retries of one call, and two callers
//! racing for one workspace's customer, make one object), 429 and 5xx retried with backoff as
//! Stripe advises, and Stripe's error object mapped to [`ConnectorError`]. Every request
//! carries `Stripe-Version: {API_VERSION}`: the answers' shape is the pinned version's, never
//! the account's default.
//!
//! The key travels only in the header; every message is scrubbed of it all the same.

use reqwest::StatusCode;
use serde::de::DeserializeOwned;

use super::wire::{Customer, Session, SubscriptionItem, error_text};
use super::{API_VERSION, BillingConfig};
use crate::ConnectorError;
use crate::keyed_http::{Failure, KeyedHttp, Vendor, throttled_or_failed};

/// Stripe, as messages name it and its key.
pub(crate) enum Stripe {}

impl Vendor for Stripe {
    const NAME: &'static str = "Stripe";
    const KEY_FIELD: &'static str = "PAYBACK_BILLING_STRIPE_KEY";
    const KEY_LABEL: &'static str = "Stripe secret key";
}

/// One Checkout session to create: a subscription to one price for `quantity` products.
#[derive(Debug, Clone)]
pub struct CheckoutRequest<'a> {
    pub customer: &'a str,
    /// The workspace's account id (`client_reference_id`).
    pub account_id: &'a str,
    pub price: &'a str,
    pub quantity: i64,
    pub success_url: &'a str,
    pub cancel_url: &'a str,
}

/// Payback's session with its own Stripe account.
pub struct StripeBilling<'a> {
    http: KeyedHttp<'a, Stripe>,
}

impl std::fmt::Debug for StripeBilling<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StripeBilling")
            .field("origin", &self.http.origin())
            .finish_non_exhaustive()
    }
}

impl<'a> StripeBilling<'a> {
    /// A session with `config`'s account; a blank key fails here, naming its variable.
    pub fn new(
        http: &'a reqwest::Client,
        config: &'a BillingConfig,
    ) -> Result<Self, ConnectorError> {
        Ok(Self {
            http: KeyedHttp::new(http, &config.base_url, &config.secret_key, config.retry)?,
        })
    }

    /// `POST /v1/customers`: the workspace's customer, with the paying person's email (when the
    /// caller has one) and the account id in its metadata (what Payback matches is the id it
    /// keeps, never the email).
    pub async fn create_customer(
        &self,
        email: Option<&str>,
        account_id: &str,
        idempotency_key: &str,
    ) -> Result<Customer, ConnectorError> {
        let mut form = vec![("metadata[account_id]", account_id)];
        if let Some(email) = email {
            form.push(("email", email));
        }
        self.post("customers", &form, idempotency_key).await
    }

    /// `POST /v1/checkout/sessions` in `subscription` mode, without a trial (the workspace had
    /// its own).
    pub async fn create_checkout_session(
        &self,
        request: &CheckoutRequest<'_>,
        idempotency_key: &str,
    ) -> Result<Session, ConnectorError> {
        let quantity = request.quantity.to_string();
        let form = [
            ("mode", "subscription"),
            ("customer", request.customer),
            ("client_reference_id", request.account_id),
            ("line_items[0][price]", request.price),
            ("line_items[0][quantity]", quantity.as_str()),
            ("success_url", request.success_url),
            ("cancel_url", request.cancel_url),
        ];
        self.post("checkout/sessions", &form, idempotency_key).await
    }

    /// `POST /v1/billing_portal/sessions`: the customer's portal, returning to `return_url`.
    pub async fn create_portal_session(
        &self,
        customer: &str,
        return_url: &str,
        idempotency_key: &str,
    ) -> Result<Session, ConnectorError> {
        let form = [("customer", customer), ("return_url", return_url)];
        self.post("billing_portal/sessions", &form, idempotency_key)
            .await
    }

    /// `POST /v1/subscription_items/{id}` with the new quantity (prorated, Stripe's default).
    pub async fn update_item_quantity(
        &self,
        item_id: &str,
        quantity: i64,
        idempotency_key: &str,
    ) -> Result<SubscriptionItem, ConnectorError> {
        let quantity = quantity.to_string();
        let form = [("quantity", quantity.as_str())];
        let path = format!("subscription_items/{item_id}");
        self.post(&path, &form, idempotency_key).await
    }

    /// `POST /v1/{path}` with `form`, answering the object as `T`.
    async fn post<T: DeserializeOwned>(
        &self,
        path: &str,
        form: &[(&str, &str)],
        idempotency_key: &str,
    ) -> Result<T, ConnectorError> {
        let url = format!("{}/v1/{path}", self.http.origin());
        let build = |http: &reqwest::Client| {
            http.post(&url)
                .bearer_auth(self.http.key())
                .header("Idempotency-Key", idempotency_key)
                .header("Stripe-Version", API_VERSION)
                .form(form)
        };
        // With the idempotency key, a retried create makes one object.
        let retryable = |status: StatusCode, _: &[u8]| throttled_or_failed(status);
        let what = path.split('/').next().unwrap_or(path);
        let (status, body) = self.http.send(what, build, retryable).await?;
        if status.is_success() {
            return serde_json::from_slice::<T>(&body).map_err(|err| {
                ConnectorError::Vendor(format!(
                    "Stripe {what} answered a shape Payback does not read: {err}"
                ))
            });
        }
        let message = error_text(&body)
            .map(|text| self.http.scrub(&text))
            .unwrap_or_else(|| format!("HTTP {}", status.as_u16()));
        Err(self
            .http
            .failure(what, status, Failure::of_status(status), message))
    }
}
