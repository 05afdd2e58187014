//! Deterministic alerts. Each names its condition with an episode key (the condition plus the
//! last moment things were fine), so a condition raises one card until it is resolved, and a
//! dismissed alert returns only when the condition ends and starts again.

use payback_domain::card::{CardType, headline};
use payback_domain::money::format_cents;
use payback_domain::span::Span;
use payback_domain::{DAY_MS, HOUR_MS, Timestamp};
use payback_store::products::{self, ProductRow};
use payback_store::reports::activity;

use crate::error::ApiResult;
use crate::services::queue::{self, SystemCard};
use crate::state::AppState;

/// Tracking that saw events before and none for this long is called silent.
const SILENT_MS: i64 = 48 * HOUR_MS;
/// Spend over this many days with no revenue row at all raises an alert.
const NO_REVENUE_DAYS: i64 = 7;

/// One condition found on one product.
struct Finding {
    key: String,
    headline: String,
    metric_line: String,
    detail: String,
}

pub async fn raise(state: &AppState, now: Timestamp) -> ApiResult<String> {
    let mut raised = 0;
    state.ingest.settle_all().await?;
    for product in products::all(&state.store).await? {
        if product.stage == payback_domain::ProductStage::Killed {
            continue;
        }
        let findings = [
            spend_without_revenue(state, &product, now).await?,
            tracking_silent(state, &product, now).await?,
        ];
        let mut tx = state.store.begin().await?;
        for finding in findings.into_iter().flatten() {
            let card = SystemCard {
                card_type: CardType::Alert,
                headline: &finding.headline,
                metric_line: &finding.metric_line,
                detail: &finding.detail,
                action_spec: None,
                dedupe_key: &finding.key,
            };
            if queue::raise_system_card(&mut tx, &product, card, now)
                .await?
                .is_some()
            {
                raised += 1;
            }
        }
        tx.commit().await?;
    }
    Ok(format!("{raised} alerts raised"))
}

/// Spend in the last 7 complete days and not one revenue row in them.
async fn spend_without_revenue(
    state: &AppState,
    product: &ProductRow,
    now: Timestamp,
) -> ApiResult<Option<Finding>> {
    let span = Span::days_ending(now.minus_millis(DAY_MS), NO_REVENUE_DAYS);
    let spend = activity::spend_in(&state.store, &product.id, span).await?;
    if spend <= 0 {
        return Ok(None);
    }
    let last_revenue = activity::last_revenue_at(&state.store, &product.id).await?;
    if last_revenue.is_some_and(|at| at >= span.start.millis()) {
        return Ok(None);
    }
    let since = last_revenue.map_or_else(
        || "never".to_owned(),
        |at| Timestamp::from_millis(at).to_rfc3339(),
    );
    Ok(Some(Finding {
        key: format!("spend_no_revenue:{}:{since}", product.id),
        headline: headline(&format!("{} spent with no tracked revenue for {NO_REVENUE_DAYS} days", product.name)),
        metric_line: format!(
            "spend {} from {} to {} · revenue rows 0 · last revenue {since}",
            format_cents(spend, &product.currency),
            span.first_day(),
            span.last_day()
        ),
        detail: "Ads are spending but no valued converted or payment event arrived. Check that conversions are tracked (the snippet's svc.track, the events API, or the payments connection) before judging the spend.".to_owned(),
    }))
}

/// Events arrived before, and none for 48 hours.
async fn tracking_silent(
    state: &AppState,
    product: &ProductRow,
    now: Timestamp,
) -> ApiResult<Option<Finding>> {
    let Some(last) = activity::last_event_at(&state.store, &product.id).await? else {
        return Ok(None);
    };
    if now.millis() - last < SILENT_MS {
        return Ok(None);
    }
    let hours = (now.millis() - last) / HOUR_MS;
    Ok(Some(Finding {
        key: format!("tracking_silent:{}:{last}", product.id),
        headline: headline(&format!("Tracking for {} has been silent for {hours} hours", product.name)),
        metric_line: format!("last event {} · silent {hours} h", Timestamp::from_millis(last).to_rfc3339()),
        detail: "No event arrived for 48 hours. The snippet may have been removed, the write key rotated without updating the site, or the server-side integration may be failing.".to_owned(),
    }))
}
