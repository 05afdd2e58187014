//! Routes: billing (issue 41). The summary, Checkout and the billing portal for any bearer of
//! the workspace; the webhook public, its raw body checked against Stripe's signature.

use axum::body::Bytes;
use axum::extract::State;
use axum::http::HeaderMap;
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiResult, ErrorBody};
use crate::extract::{Caller, Json};
use crate::routes::tags;
use crate::services::billing::checkout::{self, PaidPlan, RedirectUrl};
use crate::services::billing::summary::{self, BillingSummary};
use crate::services::billing::webhook::{self, Received};
use crate::services::billing::{portal, signature};
use crate::state::AppState;

/// The largest webhook body read: Stripe's events are a few kilobytes; the route is public.
pub const WEBHOOK_BODY_LIMIT: usize = 512 * 1024;

/// The routes a bearer calls.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(billing_summary))
        .routes(routes!(start_checkout))
        .routes(routes!(open_portal))
}

/// The webhook Stripe calls: no bearer, its signature is the credential.
pub fn public() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(receive_webhook))
}

/// The workspace's billing summary: the effective plan (the top plan during the no-card trial,
/// every feature when this server does not bill), the subscription, the products and which of
/// them are billable (each is free for its first `PAYBACK_PRODUCT_FREE_DAYS`), the quantity the
/// subscription pays for (at least 1), and the plan table.
#[utoipa::path(get, path = "/billing", tag = tags::BILLING, security(("bearer" = [])),
    responses((status = 200, body = BillingSummary), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
async fn billing_summary(
    State(state): State<AppState>,
    caller: Caller,
) -> ApiResult<Json<BillingSummary>> {
    Ok(Json(summary::summary(&state, &caller).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct CheckoutBody {
    /// The plan to subscribe to. Read as text and checked by name, so any other value (a
    /// number included) answers 400 naming `plan`.
    #[schema(value_type = PaidPlan)]
    plan: String,
}

/// A Stripe Checkout session subscribing the workspace to `plan` for the products it pays for
/// now (`quantity`), without a trial; `{url}` is where to send the person. The workspace's
/// Stripe customer is made at its first checkout (with the caller's email) and reused after.
#[utoipa::path(post, path = "/billing/checkout", tag = tags::BILLING, security(("bearer" = [])), request_body = CheckoutBody,
    responses((status = 200, body = RedirectUrl), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 502, description = "Stripe refused or failed", body = ErrorBody),
        (status = 503, description = "billing is not configured on this server", body = ErrorBody)))]
async fn start_checkout(
    State(state): State<AppState>,
    caller: Caller,
    Json(body): Json<CheckoutBody>,
) -> ApiResult<Json<RedirectUrl>> {
    let plan = PaidPlan::parse(&body.plan)?;
    Ok(Json(checkout::checkout(&state, &caller, plan).await?))
}

/// A Stripe billing portal session for the workspace's customer (card, invoices, plan,
/// cancellation), returning to the dashboard's billing page.
#[utoipa::path(post, path = "/billing/portal", tag = tags::BILLING, security(("bearer" = [])),
    responses((status = 200, body = RedirectUrl), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 409, description = "no customer yet: checkout first", body = ErrorBody),
        (status = 502, description = "Stripe refused or failed", body = ErrorBody),
        (status = 503, description = "billing is not configured on this server", body = ErrorBody)))]
async fn open_portal(
    State(state): State<AppState>,
    caller: Caller,
) -> ApiResult<Json<RedirectUrl>> {
    Ok(Json(portal::portal(&state, &caller).await?))
}

/// Stripe's events (`checkout.session.completed`, `customer.subscription.created`, `.updated`,
/// `.deleted`), signed in `Stripe-Signature` (`t=...,v1=...`: HMAC-SHA256 of `"{t}.{raw
/// body}"`, at most 300 s old). Every verified event answers `{ok: true}`; other types, unknown
/// customers, redeliveries and events older than the last applied one change nothing.
#[utoipa::path(post, path = "/billing/webhook", tag = tags::BILLING,
    request_body(content = Object, description = "a Stripe event, as Stripe sends it", content_type = "application/json"),
    params(("Stripe-Signature" = String, Header, description = "t=<unix seconds>,v1=<hex HMAC-SHA256>")),
    responses((status = 200, body = Received),
        (status = 400, description = "missing, stale or wrong signature, or not a JSON event", body = ErrorBody),
        (status = 503, description = "billing or its webhook secret is not configured", body = ErrorBody)))]
async fn receive_webhook(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult<Json<Received>> {
    let signature = headers
        .get(signature::HEADER)
        .and_then(|value| value.to_str().ok());
    Ok(Json(webhook::receive(&state, signature, &body).await?))
}
