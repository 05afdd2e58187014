//! The ingested event: its wire schema and the rules a batch is checked against before anything
//! is stored.

use serde::Deserialize;

use crate::channel::Attribution;
use crate::validation::{check_email, normalize_email};
use crate::{MINUTE_MS, Stage, Timestamp};

/// An event as sent to `POST /products/{slug}/events` or `POST /t/events`. Unknown fields are
/// refused, so a misspelt `user_Id` is an error rather than an event without a user.
#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct IncomingEvent {
    /// 1-128 characters; unique per product and source namespace (retries are dropped).
    pub dedupe_id: String,
    /// A canonical funnel stage.
    #[schema(value_type = Stage)]
    pub stage: String,
    /// At most 120 characters.
    pub name: Option<String>,
    /// RFC 3339; default: receipt time; at most 5 minutes in the future.
    pub occurred_at: Option<String>,
    /// At most 128 characters.
    pub anonymous_id: Option<String>,
    /// At most 128 characters.
    pub user_id: Option<String>,
    /// Stored lower-case.
    pub email: Option<String>,
    /// Integer cents.
    pub value: Option<i64>,
    /// Three letters; must equal the product's currency.
    pub currency: Option<String>,
    pub attribution: Option<Attribution>,
    /// A JSON object, at most 8 KiB serialized.
    #[schema(value_type = Option<Object>)]
    pub properties: Option<serde_json::Value>,
}

/// An event that passed every rule, normalized.
#[derive(Debug, Clone, PartialEq)]
pub struct ValidEvent {
    pub dedupe_id: String,
    pub stage: Stage,
    pub name: Option<String>,
    pub occurred_at: Timestamp,
    pub anonymous_id: Option<String>,
    pub user_id: Option<String>,
    pub email: Option<String>,
    pub value_cents: Option<i64>,
    pub currency: Option<String>,
    pub attribution: Option<Attribution>,
    /// Serialized JSON object.
    pub properties: Option<String>,
}

pub const MAX_PROPERTIES_BYTES: usize = 8 * 1024;
/// How far ahead of receipt an event's time may be.
pub const MAX_FUTURE_MS: i64 = 5 * MINUTE_MS;
/// Each attribution value but `channel`, in characters.
pub const MAX_ATTRIBUTION_VALUE: usize = 2048;
/// `dedupe_id`, `anonymous_id` and `user_id`, in characters (trimmed; `dedupe_id` at least 1).
pub const MAX_ID_CHARS: usize = 128;
/// An event's `name`, in characters (trimmed).
pub const MAX_NAME_CHARS: usize = 120;
/// `attribution.channel`, in characters (trimmed).
pub const MAX_CHANNEL_CHARS: usize = 40;
/// What `attribution.channel` is made of: a lowercase slug.
pub const CHANNEL_PATTERN: &str = "^[a-z0-9_]*$";

/// A rule an event broke: the field and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventError {
    pub field: &'static str,
    pub message: String,
}

fn error(field: &'static str, message: impl Into<String>) -> EventError {
    EventError {
        field,
        message: message.into(),
    }
}

fn optional_text(
    value: Option<String>,
    field: &'static str,
    max: usize,
) -> Result<Option<String>, EventError> {
    match value.map(|v| v.trim().to_owned()).filter(|v| !v.is_empty()) {
        Some(v) if v.chars().count() > max => {
            Err(error(field, format!("must be at most {max} characters")))
        }
        other => Ok(other),
    }
}

fn check_attribution(attribution: Attribution) -> Result<Option<Attribution>, EventError> {
    let Attribution {
        channel,
        utm_source,
        utm_medium,
        utm_campaign,
        utm_content,
        utm_term,
        utm_id,
        gclid,
        gbraid,
        wbraid,
        fbclid,
        li_fat_id,
        msclkid,
        referrer,
        landing_url,
    } = attribution;
    let channel = optional_text(channel, "attribution.channel", MAX_CHANNEL_CHARS)?;
    let is_slug = |c: &String| {
        c.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
    };
    if channel.as_ref().is_some_and(|c| !is_slug(c)) {
        return Err(error(
            "attribution.channel",
            "must be a lowercase slug (a-z, 0-9, _)",
        ));
    }
    // Reports keep `unattributed` for revenue with no channel; a channel of that name would
    // silently merge real attribution into the honesty row.
    if channel.as_deref() == Some(crate::channel::UNATTRIBUTED) {
        return Err(error(
            "attribution.channel",
            "`unattributed` is reserved for revenue with no channel",
        ));
    }
    let text = |value, field| optional_text(value, field, MAX_ATTRIBUTION_VALUE);
    let checked = Attribution {
        channel,
        utm_source: text(utm_source, "attribution.utm_source")?,
        utm_medium: text(utm_medium, "attribution.utm_medium")?,
        utm_campaign: text(utm_campaign, "attribution.utm_campaign")?,
        utm_content: text(utm_content, "attribution.utm_content")?,
        utm_term: text(utm_term, "attribution.utm_term")?,
        utm_id: text(utm_id, "attribution.utm_id")?,
        gclid: text(gclid, "attribution.gclid")?,
        gbraid: text(gbraid, "attribution.gbraid")?,
        wbraid: text(wbraid, "attribution.wbraid")?,
        fbclid: text(fbclid, "attribution.fbclid")?,
        li_fat_id: text(li_fat_id, "attribution.li_fat_id")?,
        msclkid: text(msclkid, "attribution.msclkid")?,
        referrer: text(referrer, "attribution.referrer")?,
        landing_url: text(landing_url, "attribution.landing_url")?,
    };
    Ok((checked != Attribution::default()).then_some(checked))
}

impl IncomingEvent {
    /// Checks every rule. `now` is the receipt time; `product_currency` the product's code.
    pub fn validate(
        self,
        now: Timestamp,
        product_currency: &str,
    ) -> Result<ValidEvent, EventError> {
        let dedupe_id = self.dedupe_id.trim().to_owned();
        if dedupe_id.is_empty() || dedupe_id.chars().count() > MAX_ID_CHARS {
            return Err(error(
                "dedupe_id",
                format!("must be 1-{MAX_ID_CHARS} characters"),
            ));
        }
        let stage = Stage::parse(self.stage.trim()).ok_or_else(|| {
            let names: Vec<&str> = Stage::ALL.iter().map(|s| s.as_str()).collect();
            error("stage", format!("must be one of {}", names.join(", ")))
        })?;
        let name = optional_text(self.name, "name", MAX_NAME_CHARS)?;
        let occurred_at = match self
            .occurred_at
            .as_deref()
            .map(str::trim)
            .filter(|t| !t.is_empty())
        {
            None => now,
            Some(text) => Timestamp::parse_rfc3339(text).ok_or_else(|| {
                error(
                    "occurred_at",
                    "must be an RFC 3339 timestamp such as 2026-11-21T09:30:00Z",
                )
            })?,
        };
        if occurred_at.millis() > now.millis() + MAX_FUTURE_MS {
            return Err(error(
                "occurred_at",
                "must be at most 5 minutes in the future",
            ));
        }
        let anonymous_id = optional_text(self.anonymous_id, "anonymous_id", MAX_ID_CHARS)?;
        let user_id = optional_text(self.user_id, "user_id", MAX_ID_CHARS)?;
        let email = match self
            .email
            .map(|e| normalize_email(&e))
            .filter(|e| !e.is_empty())
        {
            Some(email) => {
                check_email(&email).map_err(|msg| error("email", msg))?;
                Some(email)
            }
            None => None,
        };
        let currency = match self
            .currency
            .map(|c| c.trim().to_ascii_uppercase())
            .filter(|c| !c.is_empty())
        {
            Some(code) if code != product_currency => {
                return Err(error(
                    "currency",
                    format!("must be the product's currency {product_currency}, got {code}"),
                ));
            }
            other => other,
        };
        if currency.is_some() && self.value.is_none() {
            return Err(error("value", "is required when currency is given"));
        }
        let properties = match self.properties {
            None | Some(serde_json::Value::Null) => None,
            Some(value @ serde_json::Value::Object(_)) => {
                let text = value.to_string();
                if text.len() > MAX_PROPERTIES_BYTES {
                    return Err(error("properties", "must be at most 8 KiB serialized"));
                }
                Some(text)
            }
            Some(_) => return Err(error("properties", "must be a JSON object")),
        };
        let attribution = self
            .attribution
            .map(check_attribution)
            .transpose()?
            .flatten();
        Ok(ValidEvent {
            dedupe_id,
            stage,
            name,
            occurred_at,
            anonymous_id,
            user_id,
            email,
            value_cents: self.value,
            currency: self
                .value
                .map(|_| currency.unwrap_or_else(|| product_currency.to_owned())),
            attribution,
            properties,
        })
    }
}

impl ValidEvent {
    /// Valued `converted` and `payment` events are revenue rows.
    pub fn is_revenue(&self) -> bool {
        self.stage.acquires_customer() && self.value_cents.is_some()
    }

    /// `converted` and `payment` events acquire their identity as a customer, unless they take
    /// money back: a refund (a negative value, as the payments connector writes them) of a
    /// charge that was never read must not make its payer a customer at the refund.
    pub fn acquires_customer(&self) -> bool {
        self.stage.acquires_customer() && self.value_cents.is_none_or(|cents| cents >= 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: Timestamp = Timestamp::from_millis(1_795_262_400_000);

    fn event(json: serde_json::Value) -> IncomingEvent {
        serde_json::from_value(json).unwrap()
    }

    #[test]
    fn refunds_are_revenue_but_acquire_nobody() {
        let valid = |json: serde_json::Value| event(json).validate(NOW, "USD").unwrap();
        let sale = valid(serde_json::json!({"dedupe_id": "s", "stage": "payment", "value": 900}));
        assert!(sale.is_revenue() && sale.acquires_customer());
        let refund =
            valid(serde_json::json!({"dedupe_id": "r", "stage": "payment", "value": -900}));
        assert!(refund.is_revenue());
        assert!(!refund.acquires_customer());
        let unvalued = valid(serde_json::json!({"dedupe_id": "c", "stage": "converted"}));
        assert!(!unvalued.is_revenue() && unvalued.acquires_customer());
        let free = valid(serde_json::json!({"dedupe_id": "f", "stage": "payment", "value": 0}));
        assert!(free.acquires_customer());
        let lead = valid(serde_json::json!({"dedupe_id": "l", "stage": "lead"}));
        assert!(!lead.acquires_customer());
    }

    #[test]
    fn minimal_event_defaults_to_receipt_time() {
        let valid = event(serde_json::json!({"dedupe_id": " a1 ", "stage": "visit"}))
            .validate(NOW, "USD")
            .unwrap();
        assert_eq!(valid.dedupe_id, "a1");
        assert_eq!(valid.stage, Stage::Visit);
        assert_eq!(valid.occurred_at, NOW);
        assert_eq!(valid.attribution, None);
        assert!(!valid.is_revenue());
    }

    #[test]
    fn revenue_takes_the_product_currency() {
        let valid = event(serde_json::json!({"dedupe_id": "p", "stage": "payment", "value": 4900, "email": "A@B.co"}))
            .validate(NOW, "EUR")
            .unwrap();
        assert!(valid.is_revenue());
        assert_eq!(valid.currency.as_deref(), Some("EUR"));
        assert_eq!(valid.email.as_deref(), Some("a@b.co"));
    }

    #[test]
    fn each_rule_names_its_field() {
        let cases = [
            (
                serde_json::json!({"dedupe_id": "", "stage": "visit"}),
                "dedupe_id",
            ),
            (
                serde_json::json!({"dedupe_id": "x".repeat(129), "stage": "visit"}),
                "dedupe_id",
            ),
            (
                serde_json::json!({"dedupe_id": "a", "stage": "purchase"}),
                "stage",
            ),
            (
                serde_json::json!({"dedupe_id": "a", "stage": "visit", "name": "n".repeat(121)}),
                "name",
            ),
            (
                serde_json::json!({"dedupe_id": "a", "stage": "visit", "occurred_at": "yesterday"}),
                "occurred_at",
            ),
            (
                serde_json::json!({"dedupe_id": "a", "stage": "visit", "occurred_at": "2026-11-21T12:06:00Z"}),
                "occurred_at",
            ),
            (
                serde_json::json!({"dedupe_id": "a", "stage": "visit", "user_id": "u".repeat(129)}),
                "user_id",
            ),
            (
                serde_json::json!({"dedupe_id": "a", "stage": "visit", "email": "nope"}),
                "email",
            ),
            (
                serde_json::json!({"dedupe_id": "a", "stage": "payment", "value": 1, "currency": "EUR"}),
                "currency",
            ),
            (
                serde_json::json!({"dedupe_id": "a", "stage": "payment", "currency": "USD"}),
                "value",
            ),
            (
                serde_json::json!({"dedupe_id": "a", "stage": "visit", "properties": [1]}),
                "properties",
            ),
            (
                serde_json::json!({"dedupe_id": "a", "stage": "visit", "properties": {"k": "v".repeat(9000)}}),
                "properties",
            ),
            (
                serde_json::json!({"dedupe_id": "a", "stage": "visit", "attribution": {"channel": "Paid Search"}}),
                "attribution.channel",
            ),
            (
                serde_json::json!({"dedupe_id": "a", "stage": "visit", "attribution": {"channel": "unattributed"}}),
                "attribution.channel",
            ),
        ];
        for (json, field) in cases {
            let err = event(json.clone()).validate(NOW, "USD").unwrap_err();
            assert_eq!(err.field, field, "{json}");
        }
    }

    #[test]
    fn four_minutes_ahead_is_accepted() {
        let valid = event(serde_json::json!({"dedupe_id": "a", "stage": "visit", "occurred_at": "2026-11-21T12:04:00Z"}))
            .validate(NOW, "USD");
        assert!(valid.is_ok());
    }

    #[test]
    fn unknown_fields_are_refused() {
        let parsed: Result<IncomingEvent, _> = serde_json::from_value(
            serde_json::json!({"dedupe_id": "a", "stage": "visit", "userid": "x"}),
        );
        assert!(
            parsed
                .unwrap_err()
                .to_string()
                .contains("unknown field `userid`")
        );
    }
}
