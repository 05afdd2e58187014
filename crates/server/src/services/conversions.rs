//! Conversion definitions: which events count as a conversion and what each is worth, their
//! upsert and deletion (audited), and the report comparing two windows with a channel split.
//!
//! A conversion is the events of one stage in a window, narrowed by `event_name` when set and
//! by `source` when set (omitted: events of every source). Value: `none` 0, `fixed`
//! count x `fixed_value_cents`, `transaction` the sum of the events' own amounts (for
//! `converted`/`payment` events exactly their revenue rows). Several active `primary`
//! definitions may exist; reports that need one primary goal take the oldest active one.

use payback_domain::span::Span;
use payback_domain::validation::normalize_currency;
use payback_domain::{Stage, Timestamp};
use payback_store::products::ProductRow;
use payback_store::reports::conversions::{
    self, ChannelTally, ConversionRow, Matcher, NewConversion,
};
use serde::{Deserialize, Serialize};
use serde_json::json;
use utoipa::ToSchema;

use crate::error::{ApiError, ApiResult};
use crate::input::{Window, limits};
use crate::services::acting::Caller;
use crate::services::{audit, products};
use crate::state::AppState;

pub const TIERS: &[&str] = &["primary", "secondary"];
pub const SOURCES: &[&str] = &["sql_a", "sql_b", "docdb", "analytics_a", "payments"];
pub const VALUE_MODES: &[&str] = &["none", VALUE_MODE_FIXED, "transaction"];
/// The value mode that takes (and only it) `fixed_value_cents`.
pub const VALUE_MODE_FIXED: &str = "fixed";
pub const SCORE_MODES: &[&str] = &["none", "grade", "numeric"];
pub const MAX_GRADE_WEIGHTS_BYTES: usize = 4 * 1024;
/// `key`, in characters, made of [`KEY_PATTERN`].
pub const KEY_MAX_CHARS: usize = 60;
pub const KEY_PATTERN: &str = "^[a-z0-9_-]+$";
/// `label`, in characters after trimming.
pub const LABEL_MAX_CHARS: usize = 80;
/// `event_name` is an event's name: [`payback_domain::event::MAX_NAME_CHARS`] at most.
pub const EVENT_NAME_MAX_CHARS: usize = payback_domain::event::MAX_NAME_CHARS;

/// The spec's Conversion definition input. Unknown fields are refused, so a misspelt
/// `value_mod` is an error rather than a silently ignored setting.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ConversionInput {
    /// Upsert key: lowercase letters, digits, `_` and `-`, 1-60 characters.
    pub key: String,
    /// 1-80 characters.
    pub label: String,
    /// `primary` (money event) or `secondary` (milestone).
    pub tier: String,
    /// A canonical funnel stage.
    pub stage: String,
    /// `sql_a`, `sql_b`, `docdb`, `analytics_a` or `payments`; omitted or null: any source.
    pub source: Option<String>,
    /// Only events with exactly this name; at most 120 characters; null: any name.
    pub event_name: Option<String>,
    /// `none` (default), `fixed` or `transaction`.
    pub value_mode: Option<String>,
    /// Required (>= 0) with `value_mode` `fixed`; only with it.
    pub fixed_value_cents: Option<i64>,
    /// Must be the product's currency when given.
    pub currency: Option<String>,
    /// `none` (default), `grade` (A/B/C/D lead qualification) or `numeric`.
    pub score_mode: Option<String>,
    /// >= 0, or null.
    pub target_cpa_cents: Option<i64>,
    /// A JSON object (at most 4 KiB serialized), or null.
    #[schema(value_type = Option<Object>)]
    pub grade_weights: Option<serde_json::Value>,
    /// Default true.
    pub is_active: Option<bool>,
}

/// A stored definition.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ConversionView {
    pub key: String,
    pub label: String,
    pub tier: String,
    pub stage: String,
    /// Null: any source.
    pub source: Option<String>,
    pub event_name: Option<String>,
    pub value_mode: String,
    pub fixed_value_cents: Option<i64>,
    pub currency: Option<String>,
    pub score_mode: String,
    pub target_cpa_cents: Option<i64>,
    #[schema(value_type = Option<Object>)]
    pub grade_weights: Option<serde_json::Value>,
    pub is_active: bool,
    pub created_at: String,
    pub updated_at: String,
}

impl From<&ConversionRow> for ConversionView {
    fn from(row: &ConversionRow) -> Self {
        Self {
            key: row.key.clone(),
            label: row.label.clone(),
            tier: row.tier.clone(),
            stage: row.stage.clone(),
            source: row.source.clone(),
            event_name: row.event_name.clone(),
            value_mode: row.value_mode.clone(),
            fixed_value_cents: row.fixed_value_cents,
            currency: row.currency.clone(),
            score_mode: row.score_mode.clone(),
            target_cpa_cents: row.target_cpa_cents,
            grade_weights: row
                .grade_weights
                .as_deref()
                .and_then(|text| serde_json::from_str(text).ok()),
            is_active: row.is_active,
            created_at: Timestamp::from_millis(row.created_at).to_rfc3339(),
            updated_at: Timestamp::from_millis(row.updated_at).to_rfc3339(),
        }
    }
}

/// A definition in the list, with its last 30 days.
#[derive(Debug, Serialize, ToSchema)]
pub struct ListedConversion {
    #[serde(flatten)]
    pub conversion: ConversionView,
    /// Matching events in the last 30 days.
    pub volume_30d: i64,
    /// Their value by `value_mode`, in the product's currency.
    pub value_30d_cents: i64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ConversionList {
    pub conversions: Vec<ListedConversion>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SavedConversion {
    pub ok: bool,
    pub conversion: ConversionView,
}

fn bad(field: &str, message: impl std::fmt::Display) -> ApiError {
    ApiError::bad_request(format!("{field}: {message}"))
}

fn one_of(field: &str, value: &str, allowed: &[&'static str]) -> ApiResult<&'static str> {
    allowed
        .iter()
        .find(|candidate| **candidate == value)
        .copied()
        .ok_or_else(|| bad(field, format!("must be one of {}", allowed.join(", "))))
}

fn check_key(key: &str) -> ApiResult<()> {
    let len = key.chars().count();
    let allowed = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-';
    if !(1..=KEY_MAX_CHARS).contains(&len) || !key.chars().all(allowed) {
        return Err(bad(
            "key",
            format!("must be 1-{KEY_MAX_CHARS} characters of lowercase letters, digits, _ and -"),
        ));
    }
    Ok(())
}

/// An input that passed every rule, normalized.
struct Checked {
    key: String,
    label: String,
    tier: &'static str,
    stage: &'static str,
    source: Option<&'static str>,
    event_name: Option<String>,
    value_mode: &'static str,
    fixed_value_cents: Option<i64>,
    currency: Option<String>,
    score_mode: &'static str,
    target_cpa_cents: Option<i64>,
    grade_weights: Option<String>,
    is_active: bool,
}

fn check(input: ConversionInput, product: &ProductRow) -> ApiResult<Checked> {
    check_key(&input.key)?;
    let label = input.label.trim().to_owned();
    if label.is_empty() || label.chars().count() > LABEL_MAX_CHARS {
        return Err(bad(
            "label",
            format!("must be 1-{LABEL_MAX_CHARS} characters"),
        ));
    }
    payback_domain::validation::check_one_line_field("label", &label)
        .map_err(ApiError::bad_request)?;
    let tier = one_of("tier", input.tier.trim(), TIERS)?;
    let stage = Stage::parse(input.stage.trim())
        .ok_or_else(|| {
            let names: Vec<&str> = Stage::ALL.iter().map(|s| s.as_str()).collect();
            bad("stage", format!("must be one of {}", names.join(", ")))
        })?
        .as_str();
    let source = input
        .source
        .as_deref()
        .map(|s| one_of("source", s.trim(), SOURCES))
        .transpose()?;
    let event_name = match input.event_name.map(|n| n.trim().to_owned()) {
        Some(name) if name.is_empty() || name.chars().count() > EVENT_NAME_MAX_CHARS => {
            return Err(bad(
                "event_name",
                format!("must be 1-{EVENT_NAME_MAX_CHARS} characters, or null"),
            ));
        }
        other => other,
    };
    let value_mode = one_of(
        "value_mode",
        input.value_mode.as_deref().unwrap_or("none").trim(),
        VALUE_MODES,
    )?;
    let fixed_value_cents = match (value_mode, input.fixed_value_cents) {
        (VALUE_MODE_FIXED, None) => {
            return Err(bad(
                "fixed_value_cents",
                "is required when value_mode is fixed",
            ));
        }
        (VALUE_MODE_FIXED, Some(cents)) if cents < 0 => {
            return Err(bad("fixed_value_cents", "must be >= 0"));
        }
        (VALUE_MODE_FIXED, some) => some,
        // A value that would be silently ignored misleads whoever set it.
        (_, Some(_)) => {
            return Err(bad(
                "fixed_value_cents",
                "is only allowed when value_mode is fixed",
            ));
        }
        (_, None) => None,
    };
    let currency = match input.currency.as_deref() {
        None => None,
        Some(code) => {
            let code = normalize_currency(code.trim()).map_err(|msg| bad("currency", msg))?;
            if code != product.currency {
                return Err(bad(
                    "currency",
                    format!(
                        "must be the product's currency {}, got {code}",
                        product.currency
                    ),
                ));
            }
            Some(code)
        }
    };
    let score_mode = one_of(
        "score_mode",
        input.score_mode.as_deref().unwrap_or("none").trim(),
        SCORE_MODES,
    )?;
    if input.target_cpa_cents.is_some_and(|cents| cents < 0) {
        return Err(bad("target_cpa_cents", "must be >= 0, or null"));
    }
    let grade_weights = match input.grade_weights {
        None => None,
        Some(value @ serde_json::Value::Object(_)) => {
            let text = value.to_string();
            if text.len() > MAX_GRADE_WEIGHTS_BYTES {
                return Err(bad("grade_weights", "must be at most 4 KiB serialized"));
            }
            Some(text)
        }
        Some(_) => return Err(bad("grade_weights", "must be a JSON object, or null")),
    };
    Ok(Checked {
        key: input.key,
        label,
        tier,
        stage,
        source,
        event_name,
        value_mode,
        fixed_value_cents,
        currency,
        score_mode,
        target_cpa_cents: input.target_cpa_cents,
        grade_weights,
        is_active: input.is_active.unwrap_or(true),
    })
}

/// Creates the definition, or replaces every field of the one with the same key (omitted
/// optional fields fall back to their defaults). Audited as `conversion.upsert`.
pub async fn upsert(
    state: &AppState,
    caller: &Caller,
    slug: &str,
    input: ConversionInput,
) -> ApiResult<ConversionView> {
    let product = products::find_settled(state, caller.scope()?, slug).await?;
    let checked = check(input, &product)?;
    let new = NewConversion {
        key: &checked.key,
        label: &checked.label,
        tier: checked.tier,
        stage: checked.stage,
        source: checked.source,
        event_name: checked.event_name.as_deref(),
        value_mode: checked.value_mode,
        fixed_value_cents: checked.fixed_value_cents,
        currency: checked.currency.as_deref(),
        score_mode: checked.score_mode,
        target_cpa_cents: checked.target_cpa_cents,
        grade_weights: checked.grade_weights.as_deref(),
        is_active: checked.is_active,
    };
    let now = state.clock.now();
    let mut tx = state.store.begin().await?;
    let before = conversions::find(&mut tx, &product.id, &checked.key).await?;
    let row = conversions::upsert(&mut tx, &product.id, &new, now).await?;
    let view = ConversionView::from(&row);
    let payload = json!({
        "key": row.key,
        "created": before.is_none(),
        "before": before.as_ref().map(ConversionView::from),
        "after": view,
    });
    audit::record_product(
        &mut tx,
        &caller.actor(),
        &product,
        "conversion.upsert",
        payload,
        now,
    )
    .await?;
    tx.commit().await?;
    Ok(view)
}

/// Deletes the definition (404 when there is none); events stay. Audited as
/// `conversion.delete`.
pub async fn delete(state: &AppState, caller: &Caller, slug: &str, key: &str) -> ApiResult<()> {
    let product = products::find_settled(state, caller.scope()?, slug).await?;
    let now = state.clock.now();
    let mut tx = state.store.begin().await?;
    let deleted = conversions::delete(&mut tx, &product.id, key)
        .await?
        .ok_or_else(|| ApiError::not_found("conversion"))?;
    let payload = json!({ "key": deleted.key, "before": ConversionView::from(&deleted) });
    audit::record_product(
        &mut tx,
        &caller.actor(),
        &product,
        "conversion.delete",
        payload,
        now,
    )
    .await?;
    tx.commit().await?;
    Ok(())
}

fn matcher(row: &ConversionRow) -> Matcher<'_> {
    Matcher {
        stage: &row.stage,
        event_name: row.event_name.as_deref(),
        source: row.source.as_deref(),
    }
}

/// What `count` matching events carrying `amount_cents` in total are worth.
fn value_of(row: &ConversionRow, count: i64, amount_cents: i64) -> i64 {
    match row.value_mode.as_str() {
        "fixed" => count.saturating_mul(row.fixed_value_cents.unwrap_or_default()),
        "transaction" => amount_cents,
        _ => 0,
    }
}

#[derive(Debug, Clone, Copy, Default, Serialize, ToSchema)]
pub struct Tally {
    pub count: i64,
    pub value_cents: i64,
}

/// What a definition counts in `span`: the conversions report's `current`, and the attribution
/// report's `primary_goal` for the primary definition, so both always show the same figure.
pub(crate) async fn tally_in(
    state: &AppState,
    product_id: &str,
    row: &ConversionRow,
    span: Span,
) -> ApiResult<Tally> {
    let channels = conversions::tally(&state.store, product_id, matcher(row), span).await?;
    Ok(total(row, &channels))
}

/// The oldest active `primary` definition: the one goal reports that need one goal show.
pub(crate) async fn primary(
    state: &AppState,
    product_id: &str,
) -> ApiResult<Option<ConversionRow>> {
    Ok(conversions::list(&state.store, product_id)
        .await?
        .into_iter()
        .find(|row| row.is_active && row.tier == "primary"))
}

fn total(row: &ConversionRow, channels: &[ChannelTally]) -> Tally {
    let count = channels.iter().map(|c| c.count).sum();
    let amount = channels.iter().map(|c| c.value_cents).sum();
    Tally {
        count,
        value_cents: value_of(row, count, amount),
    }
}

/// The first `limit` definitions, oldest first, each with its last 30 days (one tally each,
/// which is what the limit bounds).
pub async fn list(
    state: &AppState,
    caller: &Caller,
    slug: &str,
    limit: usize,
) -> ApiResult<ConversionList> {
    let product = products::find_settled(state, caller.scope()?, slug).await?;
    let span = Span::days_ending(state.clock.now(), Window::DEFAULT_DAYS);
    let mut listed = Vec::new();
    let rows = conversions::list(&state.store, &product.id).await?;
    for row in rows.into_iter().take(limit) {
        let last_30 = tally_in(state, &product.id, &row, span).await?;
        listed.push(ListedConversion {
            conversion: ConversionView::from(&row),
            volume_30d: last_30.count,
            value_30d_cents: last_30.value_cents,
        });
    }
    Ok(ConversionList {
        conversions: listed,
    })
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ChannelRow {
    /// The event's channel, else its identity's first touch, else `unattributed`.
    pub channel: String,
    pub count: i64,
    pub value_cents: i64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ReportEntry {
    pub key: String,
    pub label: String,
    pub tier: String,
    pub stage: String,
    pub current: Tally,
    /// The window of equal length just before.
    pub previous: Tally,
    /// Change of the count in percent, one decimal; null when the previous count is 0.
    pub change_pct: Option<f64>,
    /// Current window per channel, highest count first.
    pub channels: Vec<ChannelRow>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ConversionReport {
    pub window_days: i64,
    pub conversions: Vec<ReportEntry>,
}

/// `(current - previous) / previous` in percent, rounded to one decimal.
pub fn change_pct(current: i64, previous: i64) -> Option<f64> {
    (previous != 0).then(|| ((current - previous) as f64 / previous as f64 * 1000.0).round() / 10.0)
}

/// Active definitions (oldest first): the window against the one before, split by channel.
pub async fn report(
    state: &AppState,
    caller: &Caller,
    slug: &str,
    window: Window,
) -> ApiResult<ConversionReport> {
    let product = products::find_settled(state, caller.scope()?, slug).await?;
    let span = window.span(state.clock.now());
    let mut entries = Vec::new();
    let rows = conversions::list(&state.store, &product.id).await?;
    // Two tallies per definition: the report reads at most as many as the list may show.
    let active = rows.into_iter().filter(|row| row.is_active);
    for row in active.take(limits::CONVERSIONS.rows(None)?) {
        let channels = conversions::tally(&state.store, &product.id, matcher(&row), span).await?;
        let before =
            conversions::tally(&state.store, &product.id, matcher(&row), span.previous()).await?;
        let current = total(&row, &channels);
        let previous = total(&row, &before);
        entries.push(ReportEntry {
            change_pct: change_pct(current.count, previous.count),
            channels: channels
                .into_iter()
                .map(|c| ChannelRow {
                    value_cents: value_of(&row, c.count, c.value_cents),
                    channel: c.channel,
                    count: c.count,
                })
                .collect(),
            key: row.key,
            label: row.label,
            tier: row.tier,
            stage: row.stage,
            current,
            previous,
        });
    }
    Ok(ConversionReport {
        window_days: window.days,
        conversions: entries,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn change_is_a_rounded_percentage_and_null_without_a_baseline() {
        assert_eq!(change_pct(4, 2), Some(100.0));
        assert_eq!(change_pct(1, 3), Some(-66.7));
        assert_eq!(change_pct(0, 5), Some(-100.0));
        assert_eq!(change_pct(7, 0), None);
    }
}
