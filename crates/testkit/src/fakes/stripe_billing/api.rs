//! The documented calls, form-encoded as Stripe takes them (`line_items[0][price]`,
//! `metadata[key]`), each answering the object Stripe answers; `POST` with an
//! `Idempotency-Key` already seen answers the first answer again (`Idempotent-Replayed: true`),
//! or 400 `idempotency_error` when its parameters differ. Also the two hosted pages a session's
//! `url` opens, so a browser sent there lands somewhere.
//!
//! `Stripe-Version` picks the shape of the objects answered (docs.stripe.com/api/versioning):
//! a malformed one is refused with 400, and a subscription item carries its billing period
//! (`current_period_start`/`_end`) from 2025-03-31.basil on; without the header the fake's
//! account default, [`ACCOUNT_DEFAULT_VERSION`] (before basil), applies.

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::{Html, IntoResponse, Response};
use serde_json::{Value, json};

use super::errors::{
    idempotency_mismatch, invalid, invalid_key, json_response, missing, no_such, not_found,
};
use super::state::{CheckoutSession, Customer, PortalSession, Replay, State as FakeState};
use super::{Shared, lock};
use crate::fakes::form::form_pairs;

/// The version a request without `Stripe-Version` gets: an account made before basil.
pub(crate) const ACCOUNT_DEFAULT_VERSION: &str = "2024-06-20";

/// The first version with the billing period on subscription items.
const ITEM_PERIODS_SINCE: &str = "2025-03-31";

/// Whether `version` is written as Stripe's versions are: `YYYY-MM-DD`, then `.name` from
/// 2024-09-30.acacia on.
fn well_formed_version(version: &str) -> bool {
    let (date, name) = version.split_once('.').unwrap_or((version, "x"));
    let digits =
        |part: &str, len: usize| part.len() == len && part.bytes().all(|b| b.is_ascii_digit());
    let parts: Vec<&str> = date.split('-').collect();
    parts.len() == 3
        && digits(parts[0], 4)
        && digits(parts[1], 2)
        && digits(parts[2], 2)
        && !name.is_empty()
        && name.bytes().all(|b| b.is_ascii_lowercase())
}

pub(crate) async fn dispatch(
    State(shared): State<Shared>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let path = uri.path().to_owned();
    if method == Method::GET {
        return hosted_page(&shared, &path);
    }
    let Some(resource) = path.strip_prefix("/v1/") else {
        return not_found();
    };
    if method != Method::POST {
        return not_found();
    }
    let mut state = lock(&shared);
    let bearer = headers
        .get("authorization")
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.strip_prefix("Bearer "))
        .unwrap_or_default();
    if bearer.is_empty() || bearer != state.secret_key {
        return invalid_key(bearer);
    }
    let version = match headers.get("stripe-version").map(|value| value.to_str()) {
        None => ACCOUNT_DEFAULT_VERSION.to_owned(),
        Some(Ok(version)) if well_formed_version(version.trim()) => version.trim().to_owned(),
        Some(given) => {
            return invalid(
                "Stripe-Version",
                &format!("Invalid Stripe API version: {}", given.unwrap_or_default()),
            );
        }
    };
    let body = String::from_utf8_lossy(&body).into_owned();
    let key = headers
        .get("idempotency-key")
        .and_then(|value| value.to_str().ok())
        .map(str::to_owned);
    if let Some(key) = &key
        && let Some(replay) = state.idempotency.get(key)
    {
        if replay.path != path || replay.body != body {
            return idempotency_mismatch(key);
        }
        let status = StatusCode::from_u16(replay.status).unwrap_or(StatusCode::OK);
        return (
            status,
            [
                ("content-type", "application/json"),
                ("idempotent-replayed", "true"),
            ],
            replay.answer.clone(),
        )
            .into_response();
    }
    let form = form_pairs(&body);
    let (status, answer) = match answer(&mut state, resource, &form, &version) {
        Ok(object) => (StatusCode::OK, object),
        Err(refusal) => return *refusal,
    };
    if let Some(key) = key {
        state.idempotency.insert(
            key,
            Replay {
                path,
                body,
                status: status.as_u16(),
                answer: answer.to_string(),
            },
        );
    }
    json_response(status, &answer)
}

fn param<'a>(form: &'a [(String, String)], name: &str) -> Option<&'a str> {
    form.iter()
        .find(|(key, _)| key == name)
        .map(|(_, value)| value.as_str())
        .filter(|value| !value.is_empty())
}

fn answer(
    state: &mut FakeState,
    resource: &str,
    form: &[(String, String)],
    version: &str,
) -> Result<Value, Box<Response>> {
    match resource.split('/').collect::<Vec<_>>().as_slice() {
        ["customers"] => Ok(create_customer(state, form)),
        ["checkout", "sessions"] => create_checkout(state, form),
        ["billing_portal", "sessions"] => create_portal(state, form),
        ["subscription_items", id] => update_item(state, id, form, version),
        _ => Err(Box::new(not_found())),
    }
}

fn create_customer(state: &mut FakeState, form: &[(String, String)]) -> Value {
    let id = state.mint("cus");
    let metadata: Vec<(String, String)> = form
        .iter()
        .filter_map(|(key, value)| {
            let name = key.strip_prefix("metadata[")?.strip_suffix(']')?;
            Some((name.to_owned(), value.clone()))
        })
        .collect();
    let customer = Customer {
        id,
        email: param(form, "email").map(str::to_owned),
        metadata,
        created: state.now,
    };
    state.customers.push(customer.clone());
    customer_json(&customer)
}

pub(crate) fn customer_json(customer: &Customer) -> Value {
    let metadata: serde_json::Map<String, Value> = customer
        .metadata
        .iter()
        .map(|(key, value)| (key.clone(), json!(value)))
        .collect();
    json!({
        "id": customer.id,
        "object": "customer",
        "email": customer.email,
        "metadata": metadata,
        "created": customer.created,
        "livemode": false,
    })
}

fn create_checkout(
    state: &mut FakeState,
    form: &[(String, String)],
) -> Result<Value, Box<Response>> {
    let mode = param(form, "mode").ok_or_else(|| Box::new(missing("mode")))?;
    if !["payment", "setup", "subscription"].contains(&mode) {
        return Err(Box::new(invalid("mode", &format!("Invalid mode: {mode}"))));
    }
    let customer = param(form, "customer").map(str::to_owned);
    if let Some(customer) = &customer
        && !state.customers.iter().any(|known| &known.id == customer)
    {
        return Err(Box::new(no_such(
            StatusCode::BAD_REQUEST,
            "customer",
            customer,
            Some("customer"),
        )));
    }
    let price =
        param(form, "line_items[0][price]").ok_or_else(|| Box::new(missing("line_items")))?;
    if !state.prices.iter().any(|known| known == price) {
        return Err(Box::new(no_such(
            StatusCode::BAD_REQUEST,
            "price",
            price,
            Some("line_items[0][price]"),
        )));
    }
    let quantity = match param(form, "line_items[0][quantity]") {
        None => 1,
        Some(text) => text
            .parse::<i64>()
            .ok()
            .filter(|quantity| *quantity >= 1)
            .ok_or_else(|| {
                Box::new(invalid(
                    "line_items[0][quantity]",
                    "Invalid integer: quantity must be at least 1",
                ))
            })?,
    };
    let success_url = param(form, "success_url").ok_or_else(|| Box::new(missing("success_url")))?;
    let id = state.mint("cs_test");
    let url = format!("{}/c/pay/{id}", state.origin);
    let session = CheckoutSession {
        id,
        customer: customer.unwrap_or_default(),
        mode: mode.to_owned(),
        client_reference_id: param(form, "client_reference_id").map(str::to_owned),
        price: price.to_owned(),
        quantity,
        success_url: success_url.to_owned(),
        cancel_url: param(form, "cancel_url").unwrap_or_default().to_owned(),
        url,
        subscription: None,
    };
    state.checkouts.push(session.clone());
    Ok(checkout_json(&session, "open"))
}

pub(crate) fn checkout_json(session: &CheckoutSession, status: &str) -> Value {
    json!({
        "id": session.id,
        "object": "checkout.session",
        "mode": session.mode,
        "customer": session.customer,
        "client_reference_id": session.client_reference_id,
        "success_url": session.success_url,
        "cancel_url": session.cancel_url,
        "status": status,
        "payment_status": if status == "complete" { "paid" } else { "unpaid" },
        "subscription": session.subscription,
        "url": if status == "open" { Value::from(session.url.clone()) } else { Value::Null },
        "livemode": false,
    })
}

fn create_portal(state: &mut FakeState, form: &[(String, String)]) -> Result<Value, Box<Response>> {
    let customer = param(form, "customer").ok_or_else(|| Box::new(missing("customer")))?;
    if !state.customers.iter().any(|known| known.id == customer) {
        return Err(Box::new(no_such(
            StatusCode::BAD_REQUEST,
            "customer",
            customer,
            Some("customer"),
        )));
    }
    let id = state.mint("bps");
    let session = PortalSession {
        url: format!("{}/p/session/{id}", state.origin),
        id,
        customer: customer.to_owned(),
        return_url: param(form, "return_url").unwrap_or_default().to_owned(),
    };
    state.portals.push(session.clone());
    Ok(json!({
        "id": session.id,
        "object": "billing_portal.session",
        "customer": session.customer,
        "return_url": session.return_url,
        "url": session.url,
        "created": state.now,
        "livemode": false,
    }))
}

fn update_item(
    state: &mut FakeState,
    id: &str,
    form: &[(String, String)],
    version: &str,
) -> Result<Value, Box<Response>> {
    let Some(at) = state
        .subscriptions
        .iter()
        .position(|subscription| subscription.item_id == id)
    else {
        return Err(Box::new(no_such(
            StatusCode::NOT_FOUND,
            "subscription_item",
            id,
            None,
        )));
    };
    if let Some(text) = param(form, "quantity") {
        let quantity = text
            .parse::<i64>()
            .ok()
            .filter(|quantity| *quantity >= 0)
            .ok_or_else(|| Box::new(invalid("quantity", "Invalid non-negative integer")))?;
        state.subscriptions[at].quantity = quantity;
    }
    let subscription = &state.subscriptions[at];
    let mut item = json!({
        "id": subscription.item_id,
        "object": "subscription_item",
        "price": { "id": subscription.price, "object": "price" },
        "quantity": subscription.quantity,
        "subscription": subscription.id,
        "created": state.now,
    });
    // Dates written `YYYY-MM-DD` order as text.
    if version >= ITEM_PERIODS_SINCE {
        item["current_period_start"] = json!(subscription.current_period_start);
        item["current_period_end"] = json!(subscription.current_period_end);
    }
    Ok(item)
}

/// Stripe's hosted pages, as far as a browser test needs them: a page that says which session
/// it is.
fn hosted_page(shared: &Shared, path: &str) -> Response {
    let state = lock(shared);
    if let Some(id) = path.strip_prefix("/c/pay/")
        && state.checkouts.iter().any(|session| session.id == id)
    {
        return Html(format!(
            "<!doctype html><title>Fake Stripe Checkout</title><h1>Checkout {id}</h1>"
        ))
        .into_response();
    }
    if let Some(id) = path.strip_prefix("/p/session/")
        && state.portals.iter().any(|session| session.id == id)
    {
        return Html(format!(
            "<!doctype html><title>Fake Stripe billing portal</title><h1>Portal {id}</h1>"
        ))
        .into_response();
    }
    not_found()
}
