//! The fields of Stripe's objects Payback reads, as the API reference documents them, and its
//! error object `{"error": {"type", "code", "message", "param"}}`.

use serde::Deserialize;

/// `POST /v1/customers` answers the customer (`cus_...`).
#[derive(Debug, Clone, Deserialize)]
pub struct Customer {
    pub id: String,
}

/// A Checkout session (`cs_...`) or a billing portal session (`bps_...`): where to send the
/// person.
#[derive(Debug, Clone, Deserialize)]
pub struct Session {
    pub id: String,
    /// Checkout documents it nullable (embedded sessions have none); a hosted session has one.
    #[serde(default)]
    pub url: Option<String>,
}

/// `POST /v1/subscription_items/{id}` answers the item (`si_...`).
#[derive(Debug, Clone, Deserialize)]
pub struct SubscriptionItem {
    pub id: String,
    #[serde(default)]
    pub quantity: Option<i64>,
    /// The end of the item's current billing period (epoch seconds): on the item from API
    /// version 2025-03-31.basil, the one pinned ([`super::API_VERSION`]).
    #[serde(default)]
    pub current_period_end: Option<i64>,
}

/// Stripe's error object.
#[derive(Debug, Deserialize)]
struct ErrorBody {
    error: ErrorObject,
}

#[derive(Debug, Deserialize)]
struct ErrorObject {
    #[serde(rename = "type", default)]
    kind: Option<String>,
    #[serde(default)]
    code: Option<String>,
    #[serde(default)]
    message: Option<String>,
    #[serde(default)]
    param: Option<String>,
}

/// The error object as one line (`invalid_request_error resource_missing (param customer): No
/// such customer`); `None` when the body is not Stripe's error object.
pub(crate) fn error_text(body: &[u8]) -> Option<String> {
    let parsed: ErrorBody = serde_json::from_slice(body).ok()?;
    let error = parsed.error;
    let mut line = error.kind.unwrap_or_else(|| "error".to_owned());
    if let Some(code) = error.code {
        line = format!("{line} {code}");
    }
    if let Some(param) = error.param {
        line = format!("{line} (param {param})");
    }
    if let Some(message) = error.message {
        line = format!("{line}: {message}");
    }
    Some(line)
}

#[cfg(test)]
mod tests {
    use super::{SubscriptionItem, error_text};

    #[test]
    fn an_item_of_the_pinned_version_carries_its_period() {
        let item: SubscriptionItem = serde_json::from_str(
            r#"{"id": "si_1", "object": "subscription_item", "quantity": 3,
                "current_period_start": 1767225600, "current_period_end": 1769904000}"#,
        )
        .unwrap();
        assert_eq!(
            (item.quantity, item.current_period_end),
            (Some(3), Some(1_769_904_000))
        );
    }

    #[test]
    fn stripes_error_object_reads_as_one_line() {
        let body = br#"{"error":{"type":"invalid_request_error","code":"resource_missing","param":"customer","message":"No such customer: 'cus_x'"}}"#;
        assert_eq!(
            error_text(body).as_deref(),
            Some(
                "invalid_request_error resource_missing (param customer): No such customer: 'cus_x'"
            )
        );
        assert_eq!(error_text(b"<html>"), None);
    }
}
