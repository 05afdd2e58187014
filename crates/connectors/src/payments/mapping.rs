//! Stripe objects -> events in the ingestion schema, plus the connection's status line.
//!
//! Every event's `dedupe_id` is the Stripe object id, so a re-sync over the same window stores
//! nothing twice. A charge keeps its gross amount; refunds and disputes take money back as their
//! own negative `payment` rows, so the ledger nets out whatever order they are synced in.

use std::collections::BTreeMap;

use payback_domain::Timestamp;
use payback_domain::event::IncomingEvent;
use payback_domain::validation::{check_email, normalize_email};
use serde_json::{Map, Value};

use super::PaymentStage;
use super::currency::to_hundredths;
use super::wire::{Charge, Dispute, Expandable, Refund};
use crate::{ConnectorError, SyncOutput};

/// Ingestion's limit on `user_id`; a longer id is dropped rather than cut (a cut id would name
/// somebody else).
const MAX_USER_ID_CHARS: usize = 128;
/// Keeps `properties` far below ingestion's 8 KiB.
const MAX_DESCRIPTION_CHARS: usize = 200;

/// How many objects each list answered.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct ReadCounts {
    pub charges: usize,
    pub refunds: usize,
    pub disputes: usize,
}

/// Who paid, as far as the charge says.
#[derive(Debug, Default, Clone)]
struct Identity {
    user_id: Option<String>,
    email: Option<String>,
}

/// What a dispute's status means for the merchant's money.
enum DisputeEffect {
    /// Funds are (or, for an inquiry, may be) taken back: open or lost.
    Withdrawn,
    /// Closed in the merchant's favour (or, for `charge_refunded`, settled by a refund row that
    /// already carries the loss): nothing is lost in the end.
    Reinstated,
    Unknown,
}

fn dispute_effect(status: &str) -> DisputeEffect {
    match status {
        "warning_needs_response"
        | "warning_under_review"
        | "needs_response"
        | "under_review"
        | "lost" => DisputeEffect::Withdrawn,
        "won" | "warning_closed" | "prevented" | "charge_refunded" => DisputeEffect::Reinstated,
        _ => DisputeEffect::Unknown,
    }
}

pub(crate) struct Mapper {
    product_currency: String,
    stage: PaymentStage,
    events: Vec<IncomingEvent>,
    /// (kind, currency) -> objects skipped because their currency is not the product's.
    foreign: BTreeMap<(&'static str, String), usize>,
    unknown_disputes: usize,
}

impl Mapper {
    pub(crate) fn new(product_currency: &str, stage: PaymentStage) -> Self {
        Self {
            product_currency: product_currency.to_owned(),
            stage,
            events: Vec::new(),
            foreign: BTreeMap::new(),
            unknown_disputes: 0,
        }
    }

    /// A succeeded, paid, captured charge is revenue at its gross amount; pending and failed
    /// charges and bare authorizations are not money (a later sync sees them once they are).
    pub(crate) fn charge(&mut self, charge: &Charge) -> Result<(), ConnectorError> {
        if charge.status != "succeeded" || !charge.paid || !charge.captured {
            return Ok(());
        }
        let Some((value, currency)) =
            self.amount("charge", &charge.id, charge.amount, &charge.currency)?
        else {
            return Ok(());
        };
        let mut properties = base_properties(&charge.id);
        if let Some(description) = &charge.description {
            properties.insert("description".into(), Value::String(shorten(description)));
        }
        if let Some(customer) = &charge.customer {
            properties.insert(
                "stripe_customer".into(),
                Value::String(customer.id().to_owned()),
            );
        }
        self.push(Row {
            dedupe_id: charge.id.clone(),
            stage: self.stage.as_str(),
            name: "stripe charge",
            created: charge.created,
            identity: identity(Some(charge)),
            value,
            currency,
            properties,
        })
    }

    /// A succeeded refund is a negative `payment` of the charge's payer. The refund that releases
    /// an authorization never captured is skipped, as its charge was.
    pub(crate) fn refund(&mut self, refund: &Refund) -> Result<(), ConnectorError> {
        if refund.status.as_deref() != Some("succeeded") {
            return Ok(());
        }
        let charge = refund.charge.as_ref().and_then(Expandable::object);
        if charge.is_some_and(|c| !c.captured) {
            return Ok(());
        }
        let Some((value, currency)) =
            self.amount("refund", &refund.id, refund.amount, &refund.currency)?
        else {
            return Ok(());
        };
        let mut properties = base_properties(&refund.id);
        if let Some(charge) = &refund.charge {
            properties.insert("charge".into(), Value::String(charge.id().to_owned()));
        }
        self.push(Row {
            dedupe_id: refund.id.clone(),
            stage: PaymentStage::Payment.as_str(),
            name: "stripe refund",
            created: refund.created,
            identity: identity(charge),
            value: -value,
            currency,
            properties,
        })
    }

    /// An open or lost dispute is a negative `payment`. A won one emits that same negative row
    /// AND a positive reversal `dp_...:reversed`: if an earlier sync stored the negative row while
    /// the dispute was open, the repeated row is dropped as a duplicate and the reversal cancels
    /// it; if no sync saw it open, both rows land now. Either way the dispute nets to zero,
    /// which neither row alone could guarantee.
    pub(crate) fn dispute(&mut self, dispute: &Dispute) -> Result<(), ConnectorError> {
        let effect = dispute_effect(&dispute.status);
        if matches!(effect, DisputeEffect::Unknown) {
            self.unknown_disputes += 1;
            return Ok(());
        }
        let Some((value, currency)) =
            self.amount("dispute", &dispute.id, dispute.amount, &dispute.currency)?
        else {
            return Ok(());
        };
        let charge = dispute.charge.as_ref().and_then(Expandable::object);
        let identity = identity(charge);
        let mut properties = base_properties(&dispute.id);
        properties.insert("status".into(), Value::String(dispute.status.clone()));
        if let Some(charge) = &dispute.charge {
            properties.insert("charge".into(), Value::String(charge.id().to_owned()));
        }
        self.push(Row {
            dedupe_id: dispute.id.clone(),
            stage: PaymentStage::Payment.as_str(),
            name: "stripe dispute",
            created: dispute.created,
            identity: identity.clone(),
            value: -value,
            currency: currency.clone(),
            properties: properties.clone(),
        })?;
        if matches!(effect, DisputeEffect::Reinstated) {
            // The reinstatement's balance transaction dates the money's return; without one
            // (an inquiry never withdraws funds) the reversal shares the dispute's time.
            let returned = dispute
                .balance_transactions
                .iter()
                .filter(|bt| bt.amount > 0)
                .map(|bt| bt.created)
                .max()
                .unwrap_or(dispute.created);
            self.push(Row {
                dedupe_id: format!("{}:reversed", dispute.id),
                stage: PaymentStage::Payment.as_str(),
                name: "stripe dispute reversed",
                created: returned,
                identity,
                value,
                currency,
                properties,
            })?;
        }
        Ok(())
    }

    /// The status line: what was read, then what was skipped and why.
    pub(crate) fn finish(self, read: ReadCounts) -> SyncOutput {
        let mut detail = format!(
            "{}, {}, {} read",
            count(read.charges, "charge"),
            count(read.refunds, "refund"),
            count(read.disputes, "dispute")
        );
        if !self.foreign.is_empty() {
            let parts: Vec<String> = self
                .foreign
                .iter()
                .map(|((kind, currency), n)| format!("{} in {currency}", count(*n, kind)))
                .collect();
            detail.push_str(&format!(
                "; {} skipped: product currency is {}",
                parts.join(", "),
                self.product_currency
            ));
        }
        if self.unknown_disputes > 0 {
            detail.push_str(&format!(
                "; {} with an unknown status skipped",
                count(self.unknown_disputes, "dispute")
            ));
        }
        SyncOutput {
            events: self.events,
            detail,
            ..SyncOutput::default()
        }
    }

    /// The amount in hundredths and the upper-case currency, or `None` (counted) when the
    /// currency is not the product's: amounts are never converted.
    fn amount(
        &mut self,
        kind: &'static str,
        id: &str,
        amount: i64,
        currency: &str,
    ) -> Result<Option<(i64, String)>, ConnectorError> {
        let currency = currency.trim().to_ascii_uppercase();
        if currency != self.product_currency {
            *self.foreign.entry((kind, currency)).or_default() += 1;
            return Ok(None);
        }
        let value = to_hundredths(amount, &currency).ok_or_else(|| {
            ConnectorError::Vendor(format!("{kind} {id} has an amount out of range: {amount}"))
        })?;
        Ok(Some((value, currency)))
    }

    fn push(&mut self, row: Row) -> Result<(), ConnectorError> {
        let occurred_at = row
            .created
            .checked_mul(1000)
            .map(|millis| Timestamp::from_millis(millis).to_rfc3339())
            .ok_or_else(|| {
                ConnectorError::Vendor(format!("{} has an impossible created time", row.dedupe_id))
            })?;
        self.events.push(IncomingEvent {
            dedupe_id: row.dedupe_id,
            stage: row.stage.to_owned(),
            name: Some(row.name.to_owned()),
            occurred_at: Some(occurred_at),
            anonymous_id: None,
            user_id: row.identity.user_id,
            email: row.identity.email,
            value: Some(row.value),
            currency: Some(row.currency),
            attribution: None,
            properties: Some(Value::Object(row.properties)),
        });
        Ok(())
    }
}

/// One event before it takes the ingestion shape.
struct Row {
    dedupe_id: String,
    stage: &'static str,
    name: &'static str,
    created: i64,
    identity: Identity,
    value: i64,
    currency: String,
    properties: Map<String, Value>,
}

/// `user_id` from the charge's metadata (`user_id`, else `client_reference_id`, which is where
/// Checkout integrations usually copy it); email from the billing details, the receipt address,
/// then the expanded customer. Values ingestion would refuse are dropped, so one odd charge
/// cannot fail the whole batch; the charge still counts, unattributed.
fn identity(charge: Option<&Charge>) -> Identity {
    let Some(charge) = charge else {
        return Identity::default();
    };
    let user_id = ["user_id", "client_reference_id"]
        .iter()
        .filter_map(|field| charge.metadata.get(*field))
        .map(|id| id.trim())
        .find(|id| !id.is_empty() && id.chars().count() <= MAX_USER_ID_CHARS)
        .map(str::to_owned);
    let customer_email = charge
        .customer
        .as_ref()
        .and_then(Expandable::object)
        .and_then(|customer| customer.email.as_deref());
    let email = [
        charge
            .billing_details
            .as_ref()
            .and_then(|b| b.email.as_deref()),
        charge.receipt_email.as_deref(),
        customer_email,
    ]
    .into_iter()
    .flatten()
    .map(normalize_email)
    .find(|email| !email.is_empty() && check_email(email).is_ok());
    Identity { user_id, email }
}

fn base_properties(id: &str) -> Map<String, Value> {
    let mut properties = Map::new();
    properties.insert("stripe_id".into(), Value::String(id.to_owned()));
    properties
}

fn shorten(text: &str) -> String {
    text.chars().take(MAX_DESCRIPTION_CHARS).collect()
}

fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}
