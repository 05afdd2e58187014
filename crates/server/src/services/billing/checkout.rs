//! `POST /billing/checkout`: a Stripe Checkout session subscribing the workspace to a paid plan
//! for the products it pays for. The workspace's customer is made at its first checkout and
//! reused after.

use payback_connectors::billing::{CheckoutRequest, StripeBilling};
use payback_store::AccountScope;
use payback_store::billing as store;
use payback_store::users;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::error::{ApiError, ApiResult};
use crate::services::acting::{Caller, Principal};
use crate::services::billing::plan::Plan;
use crate::services::billing::{quantity, stripe};
use crate::state::AppState;

/// A plan a checkout may subscribe to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum PaidPlan {
    Indie,
    Growth,
}

impl PaidPlan {
    /// `indie` or `growth`, exactly; else 400 naming `plan`.
    pub fn parse(text: &str) -> ApiResult<PaidPlan> {
        match text {
            "indie" => Ok(PaidPlan::Indie),
            "growth" => Ok(PaidPlan::Growth),
            _ => Err(ApiError::bad_request("plan: must be `indie` or `growth`")),
        }
    }

    pub fn plan(self) -> Plan {
        match self {
            PaidPlan::Indie => Plan::Indie,
            PaidPlan::Growth => Plan::Growth,
        }
    }
}

/// Where to send the person: a Stripe-hosted page.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RedirectUrl {
    pub url: String,
}

/// A Checkout session for `plan` at the quantity the workspace pays for now; 503 while billing
/// is not configured, 502 when Stripe fails.
pub async fn checkout(state: &AppState, caller: &Caller, plan: PaidPlan) -> ApiResult<RedirectUrl> {
    let scope = caller.scope()?;
    let config = stripe::config(state)?;
    let price = match plan {
        PaidPlan::Indie => state.config.billing_price_indie.as_deref(),
        PaidPlan::Growth => state.config.billing_price_growth.as_deref(),
    }
    .ok_or_else(stripe::not_configured)?;
    let client = stripe::client(state, &config)?;
    let customer = customer_of(state, caller, scope, &client).await?;
    let quantity = quantity::quantity_of(state, scope).await?;
    let base = state.config.public_url();
    let success_url = format!("{base}/#/billing?checkout=success");
    let cancel_url = format!("{base}/#/billing?checkout=canceled");
    let request = CheckoutRequest {
        customer: &customer,
        account_id: scope.account_id(),
        price: price.trim(),
        quantity,
        success_url: &success_url,
        cancel_url: &cancel_url,
    };
    let key = format!("payback-checkout-{}", uuid::Uuid::now_v7());
    let session = client
        .create_checkout_session(&request, &key)
        .await
        .map_err(stripe::failed)?;
    let url = session.url.ok_or_else(|| {
        ApiError::BadGateway(format!(
            "billing: Stripe's checkout session {} has no url",
            session.id
        ))
    })?;
    Ok(RedirectUrl { url })
}

/// The workspace's customer: the one kept, or one made now with the caller's email and the
/// account id. Its idempotency key is the account's, so two first checkouts at once make one
/// customer at Stripe, and the store keeps the first written.
async fn customer_of(
    state: &AppState,
    caller: &Caller,
    scope: &AccountScope,
    client: &StripeBilling<'_>,
) -> ApiResult<String> {
    if let Some(row) = store::find(&state.store, scope).await? {
        return Ok(row.customer_id);
    }
    let email = caller_email(state, caller).await?;
    let key = format!("payback-customer-{}", scope.account_id());
    let customer = client
        .create_customer(email.as_deref(), scope.account_id(), &key)
        .await
        .map_err(stripe::failed)?;
    Ok(store::keep_customer(&state.store, scope, &customer.id, state.clock.now()).await?)
}

/// The paying person's email: the signed-in person's, or the person behind an API key.
async fn caller_email(state: &AppState, caller: &Caller) -> ApiResult<Option<String>> {
    if let Some(person) = caller.person() {
        return Ok(Some(person.email.clone()));
    }
    let Principal::ApiKey {
        created_by: Some(user_id),
        ..
    } = &caller.principal
    else {
        return Ok(None);
    };
    Ok(users::find(&state.store, user_id)
        .await?
        .map(|user| user.email))
}
