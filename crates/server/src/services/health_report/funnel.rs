//! Funnel: is there a funnel worth reading, and does each step count what it says?
//!
//! - `funnel.definition`: pass once the product saved its own steps; warn while it is on the
//!   built-in ladder.
//! - `funnel.empty_steps`: fail when a step of the funnel in effect had no volume in the window
//!   (its conversion rates read 0 or infinite); pass when every step has some; skip while the
//!   window has no volume at all (`tracking.events` says why).
//! - `funnel.primary_conversion`: fail without an active primary conversion; warn when it
//!   counted nothing in the window; pass otherwise (counted as the conversions report counts).
//! - `funnel.single_source`: fail when a stage was written by more than one source in the
//!   window (the same signup counted by the API and by the database counts twice: the
//!   one-source-per-stage rule `services::databases` enforces between connections); pass when
//!   each stage has one; skip without events.

use std::collections::BTreeMap;

use crate::error::ApiResult;
use crate::services::{conversions, funnel};

use super::check::{CheckId, HealthCategoryKey, HealthCheck};
use super::context::Context;
use super::text;

const CATEGORY: HealthCategoryKey = HealthCategoryKey::Funnel;
pub const DEFINITION: CheckId = CheckId::new(CATEGORY, "funnel.definition", "Funnel defined");
pub const EMPTY_STEPS: CheckId = CheckId::new(CATEGORY, "funnel.empty_steps", "No empty step");
pub const PRIMARY: CheckId = CheckId::new(
    CATEGORY,
    "funnel.primary_conversion",
    "Primary conversion defined",
);
pub const SINGLE_SOURCE: CheckId = CheckId::new(
    CATEGORY,
    "funnel.single_source",
    "Each stage fed by one source",
);

pub async fn checks(ctx: &Context<'_>) -> ApiResult<Vec<HealthCheck>> {
    let (steps, is_default) = funnel::steps(ctx.state, &ctx.product).await?;
    let labels: Vec<String> = steps.iter().map(|step| step.label.clone()).collect();
    let definition = if is_default {
        DEFINITION.warn(
            format!(
                "Still the built-in ladder: {}",
                labels.join(" > ")
            ),
            format!(
                "Save the steps your business runs on (POST {}), e.g. visit, signup, activated, payment.",
                ctx.path("/funnel/definition")
            ),
        )
    } else {
        DEFINITION.pass(format!(
            "{} steps saved: {}",
            steps.len(),
            labels.join(" > ")
        ))
    };

    // Each stage's volume in the window: the funnel report's cells summed over channels.
    let mut volumes: BTreeMap<&str, i64> = BTreeMap::new();
    for row in &ctx.funnel {
        *volumes.entry(row.stage.as_str()).or_default() += row.volume;
    }
    let total: i64 = volumes.values().sum();
    let empty_steps = if total <= 0 {
        EMPTY_STEPS.skip(
            format!("No funnel volume in {}", ctx.window_text()),
            format!(
                "Send events of the funnel's stages (POST {}).",
                ctx.path("/events")
            ),
        )
    } else {
        let empty: Vec<String> = steps
            .iter()
            .filter(|step| volumes.get(step.stage.as_str()).copied().unwrap_or(0) <= 0)
            .map(|step| format!("{} ({})", step.label, step.stage))
            .collect();
        if empty.is_empty() {
            let smallest = steps
                .iter()
                .map(|step| {
                    (
                        volumes.get(step.stage.as_str()).copied().unwrap_or(0),
                        &step.label,
                    )
                })
                .min();
            let smallest = smallest.map_or_else(String::new, |(volume, label)| {
                format!(" (smallest: {label}, {volume})")
            });
            EMPTY_STEPS.pass(format!(
                "All {} steps have volume in {}{smallest}",
                steps.len(),
                ctx.window_text()
            ))
        } else {
            EMPTY_STEPS.fail(
                format!(
                    "{} of {} steps had no volume in {}: {}",
                    empty.len(),
                    steps.len(),
                    ctx.window_text(),
                    text::list(&empty)
                ),
                format!(
                    "Send events of those stages (or map them from your database), or take the steps out of the funnel (POST {}).",
                    ctx.path("/funnel/definition")
                ),
            )
        }
    };

    Ok(vec![
        definition,
        empty_steps,
        primary(ctx).await?,
        single_source(ctx),
    ])
}

async fn primary(ctx: &Context<'_>) -> ApiResult<HealthCheck> {
    let define = format!(
        "Define the one conversion that is money (POST {} with tier \"primary\", e.g. stage payment, value_mode transaction).",
        ctx.path("/conversions")
    );
    let Some(goal) = conversions::primary(ctx.state, &ctx.product.id).await? else {
        return Ok(PRIMARY.fail("No active primary conversion", define));
    };
    let tally = conversions::tally_in(ctx.state, &ctx.product.id, &goal, ctx.span).await?;
    let named = match &goal.event_name {
        Some(name) => format!("\"{}\" (stage {}, event {name})", goal.label, goal.stage),
        None => format!("\"{}\" (stage {})", goal.label, goal.stage),
    };
    Ok(if tally.count > 0 {
        PRIMARY.pass(format!(
            "{named} counted {} times, worth {}, in {}",
            tally.count,
            ctx.money(tally.value_cents),
            ctx.window_text()
        ))
    } else {
        PRIMARY.warn(
            format!("{named} counted 0 times in {}", ctx.window_text()),
            format!(
                "Check that events of stage {} arrive (and carry the event name, if the definition sets one), or correct the definition (POST {}).",
                goal.stage,
                ctx.path("/conversions")
            ),
        )
    })
}

fn single_source(ctx: &Context<'_>) -> HealthCheck {
    let mut by_stage: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for (stage, source) in &ctx.stage_sources {
        by_stage
            .entry(stage.as_str())
            .or_default()
            .push(source.clone());
    }
    if by_stage.is_empty() {
        return SINGLE_SOURCE.skip(
            format!("No events in {}", ctx.window_text()),
            "Send each stage from one place: the snippet, your server, or one connected source.",
        );
    }
    let doubled: Vec<String> = by_stage
        .iter()
        .filter(|(_, sources)| sources.len() > 1)
        .map(|(stage, sources)| format!("{stage} by {}", text::list(sources)))
        .collect();
    if doubled.is_empty() {
        SINGLE_SOURCE.pass(format!(
            "{} stage(s) in {}, each written by one source",
            by_stage.len(),
            ctx.window_text()
        ))
    } else {
        SINGLE_SOURCE.fail(
            format!(
                "{} stage(s) written by more than one source in {}: {}",
                doubled.len(),
                ctx.window_text(),
                doubled.join("; ")
            ),
            "Feed each stage from one source: stop sending it from the other (the snippet or your server), or take it out of the database connection's event maps; otherwise each occurrence counts twice.",
        )
    }
}
