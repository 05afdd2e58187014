//! Stripe's JSON shapes, as far as Payback reads them. Fields Stripe may omit or null carry
//! `#[serde(default)]`; unknown fields are ignored (Stripe adds fields without a version bump).

use std::collections::BTreeMap;

use serde::Deserialize;

/// The envelope of every list endpoint: `{object: "list", data, has_more, url}`.
#[derive(Debug, Deserialize)]
pub(crate) struct List<T> {
    #[serde(default = "Vec::new")]
    pub data: Vec<T>,
    #[serde(default)]
    pub has_more: bool,
}

/// `{error: {type, code, message}}` on every non-2xx answer.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct ErrorBody {
    #[serde(default)]
    pub error: ErrorDetail,
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct ErrorDetail {
    #[serde(default, rename = "type")]
    pub kind: Option<String>,
    #[serde(default)]
    pub code: Option<String>,
    #[serde(default)]
    pub message: Option<String>,
}

/// Objects listed with `starting_after` pagination.
pub(crate) trait HasId {
    fn id(&self) -> &str;
}

/// A field that is an id, or the object itself when the request named it in `expand[]`.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub(crate) enum Expandable<T> {
    Id(String),
    Object(Box<T>),
}

impl<T: HasId> Expandable<T> {
    pub fn id(&self) -> &str {
        match self {
            Expandable::Id(id) => id,
            Expandable::Object(object) => object.id(),
        }
    }

    pub fn object(&self) -> Option<&T> {
        match self {
            Expandable::Id(_) => None,
            Expandable::Object(object) => Some(object),
        }
    }
}

fn yes() -> bool {
    true
}

#[derive(Debug, Deserialize)]
pub(crate) struct Charge {
    pub id: String,
    /// Minor units of `currency` (whole units for zero-decimal currencies).
    pub amount: i64,
    /// Lower-case ISO code.
    pub currency: String,
    /// Unix seconds.
    pub created: i64,
    /// `succeeded`, `pending` or `failed`.
    pub status: String,
    #[serde(default)]
    pub paid: bool,
    /// An authorization not (yet) captured is no money; Stripe always sends the field, so a
    /// missing one means an older shape where every paid charge was captured.
    #[serde(default = "yes")]
    pub captured: bool,
    #[serde(default)]
    pub customer: Option<Expandable<Customer>>,
    #[serde(default)]
    pub receipt_email: Option<String>,
    #[serde(default)]
    pub billing_details: Option<BillingDetails>,
    #[serde(default)]
    pub metadata: BTreeMap<String, String>,
    #[serde(default)]
    pub description: Option<String>,
}

impl HasId for Charge {
    fn id(&self) -> &str {
        &self.id
    }
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct BillingDetails {
    #[serde(default)]
    pub email: Option<String>,
}

/// A customer, or a deleted one (`{id, object, deleted: true}`, no email).
#[derive(Debug, Deserialize)]
pub(crate) struct Customer {
    pub id: String,
    #[serde(default)]
    pub email: Option<String>,
}

impl HasId for Customer {
    fn id(&self) -> &str {
        &self.id
    }
}

#[derive(Debug, Deserialize)]
pub(crate) struct Refund {
    pub id: String,
    pub amount: i64,
    pub currency: String,
    pub created: i64,
    /// `pending`, `requires_action`, `succeeded`, `failed` or `canceled`.
    #[serde(default)]
    pub status: Option<String>,
    /// Null for refunds of payments that are not charges (e.g. customer balance).
    #[serde(default)]
    pub charge: Option<Expandable<Charge>>,
}

impl HasId for Refund {
    fn id(&self) -> &str {
        &self.id
    }
}

#[derive(Debug, Deserialize)]
pub(crate) struct Dispute {
    pub id: String,
    pub amount: i64,
    pub currency: String,
    pub created: i64,
    pub status: String,
    #[serde(default)]
    pub charge: Option<Expandable<Charge>>,
    /// The withdrawal and, for a won dispute, the reinstatement; only their times are read (their
    /// amounts are in the settlement currency, which may differ).
    #[serde(default)]
    pub balance_transactions: Vec<BalanceTransaction>,
}

impl HasId for Dispute {
    fn id(&self) -> &str {
        &self.id
    }
}

#[derive(Debug, Deserialize)]
pub(crate) struct BalanceTransaction {
    #[serde(default)]
    pub amount: i64,
    #[serde(default)]
    pub created: i64,
}
