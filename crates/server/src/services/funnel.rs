//! The funnel: stage x channel volumes, daily stage volumes, and the product's funnel
//! definition (the built-in ladder until one is saved).
//!
//! Stage volume follows the metric definitions: distinct identities with the stage in the
//! period, plus each identity-less event of the stage, plus the daily volumes sources write.

use std::collections::BTreeMap;

use payback_domain::Stage;
use payback_domain::span::Span;
use payback_store::products::ProductRow;
use payback_store::reports::funnel as store;
use serde::{Deserialize, Serialize};
use serde_json::json;
use utoipa::ToSchema;

use crate::error::{ApiError, ApiResult};
use crate::input::Window;
use crate::services::acting::Caller;
use crate::services::audit;
use crate::state::AppState;

/// The spec's funnel stage x channel row.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct FunnelRow {
    pub stage: Stage,
    /// Identified traffic: the identity's first-touch channel; identity-less events: their own
    /// channel; null when there is none (and for volumes sources report in aggregate).
    pub channel: Option<String>,
    pub events: i64,
    pub volume: i64,
}

/// The spec's funnel series row.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct FunnelSeriesRow {
    pub day: String,
    pub stage: Stage,
    pub volume: i64,
}

/// A funnel step: a canonical stage and its label (1-40 characters).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct FunnelStep {
    pub stage: Stage,
    pub label: String,
}

/// One canonical stage as the definition editor offers it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct AvailableStage {
    pub stage: Stage,
    /// Stage volume over the last 30 days.
    pub volume_30d: i64,
    /// Events of the stage over the last 30 days (aggregate volumes count as events).
    pub events_30d: i64,
    /// The sources (`api`, `web`, later connector kinds) that wrote the stage in the last 30
    /// days, sorted.
    pub sources: Vec<String>,
}

/// The spec's funnel definition.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct FunnelDefinition {
    pub steps: Vec<FunnelStep>,
    /// True only while no definition has been saved (a saved copy of the ladder reads false).
    pub is_default: bool,
    /// One entry per canonical stage, in canonical order.
    pub available: Vec<AvailableStage>,
}

/// The answer to saving a definition.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SavedDefinition {
    pub ok: bool,
    pub steps: Vec<FunnelStep>,
}

/// A step as sent; the stage is checked here so the error names the step.
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct StepInput {
    /// A canonical stage.
    pub stage: String,
    /// 1-40 characters after trimming.
    pub label: String,
}

/// The built-in ladder, used while a product has no saved definition.
pub fn default_steps() -> Vec<FunnelStep> {
    [
        (Stage::Visit, "Visits"),
        (Stage::Lead, "Leads"),
        (Stage::Signup, "Signups"),
        (Stage::Activated, "Activated"),
        (Stage::Converted, "Customers"),
    ]
    .into_iter()
    .map(|(stage, label)| FunnelStep {
        stage,
        label: label.to_owned(),
    })
    .collect()
}

pub const MIN_STEPS: usize = 2;
pub const MAX_STEPS: usize = 10;
pub const MAX_LABEL_CHARS: usize = 40;

fn stage_rank(stage: Stage) -> usize {
    Stage::ALL
        .iter()
        .position(|s| *s == stage)
        .unwrap_or(usize::MAX)
}

/// Rollup rows hold stages that were validated on the way in; a value outside the taxonomy
/// would mean a writer broke that rule, so it is reported rather than silently dropped.
fn parse_stage(text: &str) -> ApiResult<Stage> {
    Stage::parse(text)
        .ok_or_else(|| ApiError::internal(format!("stored stage {text:?} is not canonical")))
}

/// Stage x channel rows over the window: canonical stage order, then volume (largest first),
/// then channel (alphabetical, null last). Rows with neither events nor volume are left out.
pub async fn report(
    state: &AppState,
    product: &ProductRow,
    window: Window,
) -> ApiResult<Vec<FunnelRow>> {
    let span = window.span(state.clock.now());
    stage_channel_rows(state, product, span).await
}

async fn stage_channel_rows(
    state: &AppState,
    product: &ProductRow,
    span: Span,
) -> ApiResult<Vec<FunnelRow>> {
    let cells = store::stage_channels(&state.store, &product.id, span).await?;
    let mut rows = Vec::with_capacity(cells.len());
    for cell in cells {
        if cell.events <= 0 && cell.volume <= 0 {
            continue;
        }
        rows.push(FunnelRow {
            stage: parse_stage(&cell.stage)?,
            channel: cell.channel,
            events: cell.events,
            volume: cell.volume,
        });
    }
    rows.sort_by(|a, b| {
        stage_rank(a.stage)
            .cmp(&stage_rank(b.stage))
            .then(b.volume.cmp(&a.volume))
            // `None` sorts before `Some` in Rust; null channels go last.
            .then_with(|| match (&a.channel, &b.channel) {
                (Some(x), Some(y)) => x.cmp(y),
                (Some(_), None) => std::cmp::Ordering::Less,
                (None, Some(_)) => std::cmp::Ordering::Greater,
                (None, None) => std::cmp::Ordering::Equal,
            })
    });
    Ok(rows)
}

/// Stage volume per day over the window, oldest first, then canonical stage order. Days (and
/// stages) with no volume are absent.
pub async fn series(
    state: &AppState,
    product: &ProductRow,
    window: Window,
) -> ApiResult<Vec<FunnelSeriesRow>> {
    let span = window.span(state.clock.now());
    let mut rows = Vec::new();
    for row in store::daily_stage_volumes(&state.store, &product.id, span).await? {
        if row.volume <= 0 {
            continue;
        }
        rows.push(FunnelSeriesRow {
            stage: row.stage,
            day: row.day,
            volume: row.volume,
        });
    }
    rows.sort_by(|a, b| {
        a.day
            .cmp(&b.day)
            .then(stage_rank(a.stage).cmp(&stage_rank(b.stage)))
    });
    Ok(rows)
}

/// The steps in effect and whether they are the built-in ladder. Health checks read the same.
pub async fn steps(state: &AppState, product: &ProductRow) -> ApiResult<(Vec<FunnelStep>, bool)> {
    match store::definition(&state.store, &product.id).await? {
        Some(json) => Ok((parse_saved(&json)?, false)),
        None => Ok((default_steps(), true)),
    }
}

fn parse_saved(json: &str) -> ApiResult<Vec<FunnelStep>> {
    serde_json::from_str(json)
        .map_err(|err| ApiError::internal(format!("saved funnel definition unreadable: {err}")))
}

/// The definition in effect, with every canonical stage's last-30-day volume, events and
/// sources (so an editor can offer stages that actually receive data).
pub async fn definition(state: &AppState, product: &ProductRow) -> ApiResult<FunnelDefinition> {
    let (steps, is_default) = steps(state, product).await?;
    let span = Span::days_ending(state.clock.now(), 30);
    // Summing the stage x channel cells over channels gives the stage volume: each identity
    // has one first-touch channel, so its distinct count lands in exactly one cell.
    let mut totals: BTreeMap<usize, (i64, i64)> = BTreeMap::new();
    for row in stage_channel_rows(state, product, span).await? {
        let total = totals.entry(stage_rank(row.stage)).or_default();
        total.0 += row.volume;
        total.1 += row.events;
    }
    let mut sources: BTreeMap<usize, Vec<String>> = BTreeMap::new();
    for (stage, source) in store::stage_sources(&state.store, &product.id, span).await? {
        let list = sources.entry(stage_rank(parse_stage(&stage)?)).or_default();
        if !list.contains(&source) {
            list.push(source);
        }
    }
    let available = Stage::ALL
        .iter()
        .enumerate()
        .map(|(rank, stage)| {
            let (volume_30d, events_30d) = totals.get(&rank).copied().unwrap_or_default();
            let mut stage_sources = sources.remove(&rank).unwrap_or_default();
            stage_sources.sort();
            AvailableStage {
                stage: *stage,
                volume_30d,
                events_30d,
                sources: stage_sources,
            }
        })
        .collect();
    Ok(FunnelDefinition {
        steps,
        is_default,
        available,
    })
}

/// Checks the steps: 2-10 of them, each a canonical stage used once, each label 1-40
/// characters after trimming. Errors name the step and field (`steps[2].label: ...`).
pub fn validate_steps(input: Option<Vec<StepInput>>) -> ApiResult<Vec<FunnelStep>> {
    let input = input.ok_or_else(|| {
        ApiError::bad_request(format!("steps: required, {MIN_STEPS}-{MAX_STEPS} steps"))
    })?;
    if !(MIN_STEPS..=MAX_STEPS).contains(&input.len()) {
        return Err(ApiError::bad_request(format!(
            "steps: must have {MIN_STEPS}-{MAX_STEPS} steps, got {}",
            input.len()
        )));
    }
    let mut steps: Vec<FunnelStep> = Vec::with_capacity(input.len());
    for (index, step) in input.into_iter().enumerate() {
        let stage = Stage::parse(step.stage.trim()).ok_or_else(|| {
            let names: Vec<&str> = Stage::ALL.iter().map(|s| s.as_str()).collect();
            ApiError::bad_request(format!(
                "steps[{index}].stage: unknown stage {:?}; use one of {}",
                step.stage,
                names.join(", ")
            ))
        })?;
        if let Some(first) = steps.iter().position(|s| s.stage == stage) {
            return Err(ApiError::bad_request(format!(
                "steps[{index}].stage: {stage} is already steps[{first}]; each stage may appear once"
            )));
        }
        let label = step.label.trim();
        if label.is_empty() || label.chars().count() > MAX_LABEL_CHARS {
            return Err(ApiError::bad_request(format!(
                "steps[{index}].label: must be 1-{MAX_LABEL_CHARS} characters"
            )));
        }
        payback_domain::validation::check_one_line_field(&format!("steps[{index}].label"), label)
            .map_err(ApiError::bad_request)?;
        steps.push(FunnelStep {
            stage,
            label: label.to_owned(),
        });
    }
    Ok(steps)
}

/// Saves the funnel definition (replacing any saved one) and records `funnel.definition` with
/// the steps before and after, in the same transaction.
pub async fn save_definition(
    state: &AppState,
    caller: &Caller,
    product: &ProductRow,
    input: Option<Vec<StepInput>>,
) -> ApiResult<SavedDefinition> {
    let steps = validate_steps(input)?;
    let json = serde_json::to_string(&steps).map_err(ApiError::internal)?;
    let now = state.clock.now();
    let mut tx = state.store.begin().await?;
    let previous = store::save_definition(&mut tx, &product.id, &json, now).await?;
    let (before, was_default) = match previous {
        Some(saved) => (parse_saved(&saved)?, false),
        None => (default_steps(), true),
    };
    let payload = json!({ "before": before, "before_is_default": was_default, "after": steps });
    audit::record_product(
        &mut tx,
        &caller.actor(),
        product,
        "funnel.definition",
        payload,
        now,
    )
    .await?;
    tx.commit().await?;
    Ok(SavedDefinition { ok: true, steps })
}
