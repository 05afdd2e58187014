//! An HTTP fake of the Stripe API on loopback: `/v1/charges`, `/v1/refunds` and `/v1/disputes`
//! answer from a seeded in-memory data set in Stripe's documented shapes, honouring `limit`,
//! `starting_after`, `created[...]` and `expand[]`, checking the bearer key and able to throttle.
//! Every request is recorded so tests can check what the connector asked for.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde_json::{Value, json};

#[derive(Debug, Clone)]
pub struct FakeCharge {
    pub id: String,
    pub amount: i64,
    pub currency: String,
    pub created: i64,
    pub status: String,
    pub paid: bool,
    pub captured: bool,
    pub customer: Option<String>,
    pub receipt_email: Option<String>,
    pub billing_email: Option<String>,
    pub metadata: BTreeMap<String, String>,
    pub description: Option<String>,
}

impl FakeCharge {
    /// A captured, succeeded charge with no identity.
    pub fn succeeded(id: &str, amount: i64, currency: &str, created: i64) -> Self {
        Self {
            id: id.to_owned(),
            amount,
            currency: currency.to_owned(),
            created,
            status: "succeeded".to_owned(),
            paid: true,
            captured: true,
            customer: None,
            receipt_email: None,
            billing_email: None,
            metadata: BTreeMap::new(),
            description: None,
        }
    }
}

#[derive(Debug, Clone)]
pub struct FakeCustomer {
    pub id: String,
    pub email: Option<String>,
}

#[derive(Debug, Clone)]
pub struct FakeRefund {
    pub id: String,
    pub amount: i64,
    pub charge: String,
    pub currency: String,
    pub created: i64,
    pub status: String,
}

impl FakeRefund {
    /// A refund that went through.
    pub fn succeeded(id: &str, amount: i64, charge: &str, currency: &str, created: i64) -> Self {
        Self {
            id: id.to_owned(),
            amount,
            charge: charge.to_owned(),
            currency: currency.to_owned(),
            created,
            status: "succeeded".to_owned(),
        }
    }
}

#[derive(Debug, Clone)]
pub struct FakeDispute {
    pub id: String,
    pub amount: i64,
    pub charge: String,
    pub currency: String,
    pub created: i64,
    pub status: String,
    /// When the funds came back (a won dispute's positive balance transaction).
    pub reinstated_at: Option<i64>,
}

#[derive(Debug, Clone, Default)]
pub struct Seed {
    pub charges: Vec<FakeCharge>,
    pub customers: Vec<FakeCustomer>,
    pub refunds: Vec<FakeRefund>,
    pub disputes: Vec<FakeDispute>,
}

/// One request as the fake received it.
#[derive(Debug, Clone)]
pub struct Recorded {
    pub path: String,
    pub query: Vec<(String, String)>,
}

impl Recorded {
    pub fn param(&self, name: &str) -> Option<&str> {
        self.query
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn params(&self, name: &str) -> Vec<&str> {
        self.query
            .iter()
            .filter(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
            .collect()
    }
}

struct FakeState {
    /// Keys the fake accepts, each with the paths it may NOT read (a restricted key without that
    /// permission).
    keys: Mutex<BTreeMap<String, Vec<String>>>,
    seed: Mutex<Seed>,
    /// The next this-many requests answer 429.
    throttle: AtomicU32,
    log: Mutex<Vec<Recorded>>,
}

pub struct StripeFake {
    pub base_url: String,
    state: Arc<FakeState>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for StripeFake {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl StripeFake {
    pub async fn start(key: &str, seed: Seed) -> Self {
        let state = Arc::new(FakeState {
            keys: Mutex::new(BTreeMap::from([(key.to_owned(), Vec::new())])),
            seed: Mutex::new(seed),
            throttle: AtomicU32::new(0),
            log: Mutex::new(Vec::new()),
        });
        let app = Router::new()
            .route("/v1/charges", get(charges))
            .route("/v1/refunds", get(refunds))
            .route("/v1/disputes", get(disputes))
            .with_state(state.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base_url = format!("http://{}", listener.local_addr().unwrap());
        let task = tokio::spawn(async move {
            axum::serve(listener, app).await.unwrap();
        });
        Self {
            base_url,
            state,
            task,
        }
    }

    /// Accepts another key, refusing it (403) on `forbidden` paths.
    pub fn add_key(&self, key: &str, forbidden: &[&str]) {
        self.state.keys.lock().unwrap().insert(
            key.to_owned(),
            forbidden.iter().map(|p| (*p).to_owned()).collect(),
        );
    }

    pub fn throttle(&self, requests: u32) {
        self.state.throttle.store(requests, Ordering::SeqCst);
    }

    pub fn update(&self, change: impl FnOnce(&mut Seed)) {
        change(&mut self.state.seed.lock().unwrap());
    }

    pub fn requests(&self) -> Vec<Recorded> {
        self.state.log.lock().unwrap().clone()
    }
}

type Pairs = Query<Vec<(String, String)>>;

async fn charges(
    State(state): State<Arc<FakeState>>,
    headers: HeaderMap,
    Query(q): Pairs,
) -> Response {
    answer(&state, "/v1/charges", &headers, q, &["data.customer"])
}

async fn refunds(
    State(state): State<Arc<FakeState>>,
    headers: HeaderMap,
    Query(q): Pairs,
) -> Response {
    answer(
        &state,
        "/v1/refunds",
        &headers,
        q,
        &["data.charge", "data.charge.customer"],
    )
}

async fn disputes(
    State(state): State<Arc<FakeState>>,
    headers: HeaderMap,
    Query(q): Pairs,
) -> Response {
    answer(
        &state,
        "/v1/disputes",
        &headers,
        q,
        &["data.charge", "data.charge.customer"],
    )
}

fn stripe_error(status: StatusCode, kind: &str, code: Option<&str>, message: String) -> Response {
    let mut error = json!({"type": kind, "message": message});
    if let Some(code) = code {
        error["code"] = json!(code);
    }
    (status, axum::Json(json!({ "error": error }))).into_response()
}

fn answer(
    state: &FakeState,
    path: &str,
    headers: &HeaderMap,
    query: Vec<(String, String)>,
    expandable: &[&str],
) -> Response {
    state.log.lock().unwrap().push(Recorded {
        path: path.to_owned(),
        query: query.clone(),
    });
    let presented = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::to_owned);
    let Some(presented) = presented else {
        return stripe_error(
            StatusCode::UNAUTHORIZED,
            "invalid_request_error",
            None,
            "You did not provide an API key.".to_owned(),
        );
    };
    let forbidden = state.keys.lock().unwrap().get(&presented).cloned();
    let Some(forbidden) = forbidden else {
        // Stripe masks the key in this message; the fake quotes it whole so tests prove the
        // connector scrubs whatever the vendor echoes.
        return stripe_error(
            StatusCode::UNAUTHORIZED,
            "invalid_request_error",
            None,
            format!("Invalid API Key provided: {presented}"),
        );
    };
    if forbidden.iter().any(|p| p == path) {
        return stripe_error(
            StatusCode::FORBIDDEN,
            "invalid_request_error",
            None,
            format!(
                "The provided key '{presented}' does not have the required permissions for this endpoint."
            ),
        );
    }
    let throttled = state
        .throttle
        .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
        .is_ok();
    if throttled {
        return stripe_error(
            StatusCode::TOO_MANY_REQUESTS,
            "invalid_request_error",
            Some("rate_limit"),
            "Request rate limit exceeded. Learn more about rate limits here https://stripe.com/docs/rate-limits."
                .to_owned(),
        );
    }

    let param = |name: &str| {
        query
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
    };
    let limit = match param("limit").map(|l| l.parse::<usize>()) {
        None => 10,
        Some(Ok(l)) if (1..=100).contains(&l) => l,
        _ => {
            return stripe_error(
                StatusCode::BAD_REQUEST,
                "invalid_request_error",
                Some("parameter_invalid_integer"),
                "Invalid integer: limit must be between 1 and 100".to_owned(),
            );
        }
    };
    let mut bounds = Vec::new();
    for op in ["gt", "gte", "lt", "lte"] {
        if let Some(v) = param(&format!("created[{op}]")) {
            match v.parse::<i64>() {
                Ok(v) => bounds.push((op, v)),
                Err(_) => {
                    return stripe_error(
                        StatusCode::BAD_REQUEST,
                        "invalid_request_error",
                        Some("parameter_invalid_integer"),
                        format!("Invalid integer: {v}"),
                    );
                }
            }
        }
    }
    let expand: Vec<String> = query
        .iter()
        .filter(|(k, _)| k == "expand[]")
        .map(|(_, v)| v.clone())
        .collect();
    if let Some(bad) = expand.iter().find(|e| !expandable.contains(&e.as_str())) {
        return stripe_error(
            StatusCode::BAD_REQUEST,
            "invalid_request_error",
            None,
            format!("This property cannot be expanded ({bad})."),
        );
    }
    let has = |e: &str| expand.iter().any(|x| x == e);

    let seed = state.seed.lock().unwrap().clone();
    // Stripe lists newest first; ties broken by id so the order is stable.
    let mut objects: Vec<(i64, String, Value)> = match path {
        "/v1/charges" => seed
            .charges
            .iter()
            .map(|c| {
                (
                    c.created,
                    c.id.clone(),
                    charge_json(&seed, c, has("data.customer")),
                )
            })
            .collect(),
        "/v1/refunds" => seed
            .refunds
            .iter()
            .map(|r| {
                let charge = related_charge(&seed, &r.charge, &expand);
                (r.created, r.id.clone(), refund_json(r, charge))
            })
            .collect(),
        _ => seed
            .disputes
            .iter()
            .map(|d| {
                let charge = related_charge(&seed, &d.charge, &expand);
                (d.created, d.id.clone(), dispute_json(d, charge))
            })
            .collect(),
    };
    objects.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| b.1.cmp(&a.1)));
    let start = match param("starting_after") {
        None => 0,
        Some(after) => match objects.iter().position(|o| o.1 == after) {
            Some(at) => at + 1,
            None => {
                return stripe_error(
                    StatusCode::BAD_REQUEST,
                    "invalid_request_error",
                    Some("resource_missing"),
                    format!("No such object: '{after}'"),
                );
            }
        },
    };
    let in_range = |created: i64| {
        bounds.iter().all(|(op, v)| match *op {
            "gt" => created > *v,
            "gte" => created >= *v,
            "lt" => created < *v,
            _ => created <= *v,
        })
    };
    let matching: Vec<Value> = objects[start..]
        .iter()
        .filter(|o| in_range(o.0))
        .map(|o| o.2.clone())
        .collect();
    let has_more = matching.len() > limit;
    let data: Vec<Value> = matching.into_iter().take(limit).collect();
    axum::Json(json!({"object": "list", "data": data, "has_more": has_more, "url": path}))
        .into_response()
}

/// The related charge as an id, or expanded (with its customer when asked) — `data.charge.customer`
/// implies `data.charge`, as on Stripe.
fn related_charge(seed: &Seed, id: &str, expand: &[String]) -> Value {
    let deep = expand.iter().any(|e| e == "data.charge.customer");
    let shallow = deep || expand.iter().any(|e| e == "data.charge");
    match seed.charges.iter().find(|c| c.id == id) {
        Some(charge) if shallow => charge_json(seed, charge, deep),
        _ => json!(id),
    }
}

fn charge_json(seed: &Seed, c: &FakeCharge, expand_customer: bool) -> Value {
    let refunded: i64 = seed
        .refunds
        .iter()
        .filter(|r| r.charge == c.id && r.status == "succeeded")
        .map(|r| r.amount)
        .sum();
    let customer = match &c.customer {
        None => Value::Null,
        Some(id) if expand_customer => {
            let email = seed
                .customers
                .iter()
                .find(|cu| &cu.id == id)
                .and_then(|cu| cu.email.clone());
            json!({"id": id, "object": "customer", "email": email, "livemode": false,
                   "metadata": {}, "name": null, "created": c.created - 3600})
        }
        Some(id) => json!(id),
    };
    json!({
        "id": c.id,
        "object": "charge",
        "amount": c.amount,
        "amount_captured": if c.captured { c.amount } else { 0 },
        "amount_refunded": refunded,
        "balance_transaction": format!("txn_{}", c.id),
        "billing_details": {
            "address": {"city": null, "country": null, "line1": null, "line2": null,
                        "postal_code": null, "state": null},
            "email": c.billing_email,
            "name": null,
            "phone": null
        },
        "captured": c.captured,
        "created": c.created,
        "currency": c.currency,
        "customer": customer,
        "description": c.description,
        "disputed": seed.disputes.iter().any(|d| d.charge == c.id),
        "failure_code": if c.status == "failed" { json!("card_declined") } else { Value::Null },
        "livemode": false,
        "metadata": c.metadata,
        "outcome": {"type": if c.status == "failed" { "issuer_declined" } else { "authorized" }},
        "paid": c.paid,
        "payment_intent": format!("pi_{}", c.id),
        "receipt_email": c.receipt_email,
        "refunded": refunded >= c.amount,
        "status": c.status
    })
}

fn refund_json(r: &FakeRefund, charge: Value) -> Value {
    json!({
        "id": r.id,
        "object": "refund",
        "amount": r.amount,
        "balance_transaction": format!("txn_{}", r.id),
        "charge": charge,
        "created": r.created,
        "currency": r.currency,
        "metadata": {},
        "payment_intent": null,
        "reason": "requested_by_customer",
        "receipt_number": null,
        "status": r.status
    })
}

fn balance_transaction(id: String, amount: i64, currency: &str, created: i64) -> Value {
    json!({"id": id, "object": "balance_transaction", "amount": amount, "created": created,
           "currency": currency, "fee": 1500, "net": amount - 1500, "status": "available",
           "type": "adjustment"})
}

fn dispute_json(d: &FakeDispute, charge: Value) -> Value {
    // Inquiries (warning_*) move no funds; formal disputes withdraw at creation and a won one
    // reinstates later.
    let mut transactions = Vec::new();
    if !d.status.starts_with("warning_") {
        transactions.push(balance_transaction(
            format!("txn_{}_w", d.id),
            -d.amount,
            &d.currency,
            d.created,
        ));
    }
    if let Some(at) = d.reinstated_at {
        transactions.push(balance_transaction(
            format!("txn_{}_r", d.id),
            d.amount,
            &d.currency,
            at,
        ));
    }
    json!({
        "id": d.id,
        "object": "dispute",
        "amount": d.amount,
        "balance_transactions": transactions,
        "charge": charge,
        "created": d.created,
        "currency": d.currency,
        "evidence_details": {"due_by": d.created + 7 * 86_400, "has_evidence": false,
                             "past_due": false, "submission_count": 0},
        "is_charge_refundable": false,
        "livemode": false,
        "metadata": {},
        "payment_intent": null,
        "reason": "fraudulent",
        "status": d.status
    })
}
