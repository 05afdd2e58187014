//! `POST /billing/webhook`: Stripe's events about the workspaces' subscriptions, the only way a
//! workspace's plan changes. The signature is checked first (`signature.rs`), then the event is
//! matched to a workspace by the customer id Payback made for it (never by an email), and
//! applied once, in order: a redelivery (same event id) and an event older than the newest one
//! applied change nothing. An applied event that moves the plan or its status writes its
//! account history event (`plan_history.rs`); the others write none. Events of other types and
//! of unknown customers are acknowledged and ignored, so Stripe stops redelivering them.

use payback_domain::Timestamp;
use payback_store::accounts;
use payback_store::billing::{self as store, Applied, Change, Event};
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

use crate::error::{ApiError, ApiResult};
use crate::services::billing::plan::Plan;
use crate::services::billing::plan_history::{self, RowChange};
use crate::services::billing::{signature, stripe};
use crate::state::AppState;

/// The event types Payback reads.
pub const CHECKOUT_COMPLETED: &str = "checkout.session.completed";
pub const SUBSCRIPTION_CREATED: &str = "customer.subscription.created";
pub const SUBSCRIPTION_UPDATED: &str = "customer.subscription.updated";
pub const SUBSCRIPTION_DELETED: &str = "customer.subscription.deleted";

/// The webhook's answer: `{ok: true}` for every verified event, used or not.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Received {
    pub ok: bool,
}

/// Verifies and applies one delivery. 503 while billing or the signing secret is not set; 400
/// when the signature is missing, stale or wrong, or the body is not a JSON event (nothing
/// changes then).
pub async fn receive(
    state: &AppState,
    signature: Option<&str>,
    body: &[u8],
) -> ApiResult<Received> {
    if !state.config.billing_available() {
        return Err(stripe::not_configured());
    }
    let secret = state
        .config
        .billing_webhook_secret
        .as_ref()
        .map(|secret| secret.expose().trim())
        .filter(|secret| !secret.is_empty())
        .ok_or_else(|| {
            ApiError::ServiceUnavailable(
                "billing webhooks are not configured on this server \
                 (PAYBACK_BILLING_WEBHOOK_SECRET)"
                    .to_owned(),
            )
        })?;
    let now = state.clock.now();
    signature::verify(signature, body, secret, now.millis().div_euclid(1_000))?;
    let event: Value =
        serde_json::from_slice(body).map_err(|_| ApiError::bad_request("body: not JSON"))?;
    let (Some(id), Some(kind), Some(created)) = (
        event["id"].as_str(),
        event["type"].as_str(),
        event["created"].as_i64(),
    ) else {
        return Err(ApiError::bad_request(
            "body: not a Stripe event (id, type and created are required)",
        ));
    };
    let object = &event["data"]["object"];
    let Some(customer) = id_of(&object["customer"]) else {
        return Ok(Received { ok: true });
    };
    let Some(change) = change_of(state, kind, object) else {
        return Ok(Received { ok: true });
    };
    // Only the customer Payback made for a workspace names it.
    let Some(row) = store::find_by_customer(&state.store, customer).await? else {
        tracing::info!(
            event = id,
            kind,
            "billing event of an unknown customer ignored"
        );
        return Ok(Received { ok: true });
    };
    let account = accounts::find(&state.store, &row.account_id)
        .await?
        .ok_or_else(|| ApiError::internal("a billing row's workspace is gone"))?;
    // The change and its history event commit together, or neither does (Stripe then
    // redelivers, and the redelivery is applied as the first delivery would have been).
    let mut tx = state.store.begin().await?;
    let applied = store::apply(
        &mut tx,
        &row.account_id,
        Event {
            id,
            event_type: kind,
            created,
        },
        change,
        now,
    )
    .await?;
    let outcome = match &applied {
        Applied::Changed { before, after } => {
            let change = RowChange {
                account_id: &row.account_id,
                created_at: Timestamp::from_millis(account.created_at),
                before,
                after,
            };
            plan_history::record(&mut tx, &state.config, change, now).await?;
            "applied"
        }
        Applied::Redelivery => "a redelivery, ignored",
        Applied::Stale => "older than the last applied, ignored",
    };
    tx.commit().await?;
    tracing::info!(account = %row.account_id, event = id, kind, outcome, "billing event");
    Ok(Received { ok: true })
}

/// What an event of `kind` says, when Payback uses it.
fn change_of<'a>(state: &AppState, kind: &str, object: &'a Value) -> Option<Change<'a>> {
    match kind {
        CHECKOUT_COMPLETED => Some(Change::CheckoutCompleted {
            subscription_id: id_of(&object["subscription"])?,
        }),
        SUBSCRIPTION_CREATED | SUBSCRIPTION_UPDATED | SUBSCRIPTION_DELETED => {
            let status = if kind == SUBSCRIPTION_DELETED {
                "canceled"
            } else {
                status_of(object["status"].as_str()?)?
            };
            let item = &object["items"]["data"][0];
            let price = id_of(&item["price"]).or_else(|| id_of(&item["plan"]));
            // `current_period_end` moved from the subscription to its items in API version
            // 2025-03-31; either is read.
            let period_end = object["current_period_end"]
                .as_i64()
                .or_else(|| item["current_period_end"].as_i64())
                .map(|seconds| Timestamp::from_millis(seconds.saturating_mul(1_000)).millis());
            Some(Change::Subscription {
                subscription_id: object["id"].as_str()?,
                item_id: item["id"].as_str(),
                stored_plan: price.and_then(|price| tier_of(state, price)).map(Plan::key),
                status,
                period_end,
                quantity: item["quantity"].as_i64(),
            })
        }
        _ => None,
    }
}

/// Stripe's subscription status as the workspace's: paying (`active`, `trialing`), owing and
/// keeping the plan (`past_due`, `unpaid`, `paused`), or over (`canceled`,
/// `incomplete_expired`). `incomplete` (the first payment not made yet) is no subscription yet:
/// such an event changes nothing, and the trial goes on until one that is.
fn status_of(stripe: &str) -> Option<&'static str> {
    match stripe {
        "active" | "trialing" => Some("active"),
        "past_due" | "unpaid" | "paused" => Some("past_due"),
        "canceled" | "incomplete_expired" => Some("canceled"),
        _ => None,
    }
}

/// The plan whose configured price is `price`.
fn tier_of(state: &AppState, price: &str) -> Option<Plan> {
    let is = |configured: &Option<String>| configured.as_deref().map(str::trim) == Some(price);
    if is(&state.config.billing_price_growth) {
        Some(Plan::Growth)
    } else if is(&state.config.billing_price_indie) {
        Some(Plan::Indie)
    } else {
        None
    }
}

/// An object's id, whether the field holds the id or the expanded object.
fn id_of(value: &Value) -> Option<&str> {
    value.as_str().or_else(|| value["id"].as_str())
}
