//! Watching approved spend changes: when a change's `rollback_if` condition holds, raise a
//! proposal to revert it (a human still decides). The condition understood is
//! `cac_ceiling_cents` with an optional `window_days` (1-90, default 7): the network's CAC since
//! the approval, over at most the last `window_days` days, above the ceiling. Spend with no
//! customer at all counts as above any ceiling it exceeds.

use payback_domain::card::{ActionSpec, CardType, Proposer, headline as card_headline};
use payback_domain::money::format_cents;
use payback_domain::span::Span;
use payback_domain::{Actor, DAY_MS, Timestamp};
use payback_store::cards::{self, CardRow};
use payback_store::products::ProductRow;
use payback_store::{AccountScope, products};
use serde_json::Value;

use crate::error::ApiResult;
use crate::services::audit;
use crate::services::proposals::{self, ChannelCac, ProposalCard, ProposalInput};
use crate::services::queue::{self, SystemCard};
use crate::state::AppState;

/// Changes approved longer ago than this are no longer watched.
const WATCH_DAYS: i64 = 90;

/// The part of `rollback_if` the watcher acts on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct CacCeiling {
    ceiling_cents: i64,
    window_days: i64,
}

fn cac_ceiling(rollback_if: &Value) -> Option<CacCeiling> {
    let ceiling_cents = rollback_if.get("cac_ceiling_cents")?.as_i64()?;
    let window_days = rollback_if
        .get("window_days")
        .and_then(Value::as_i64)
        .unwrap_or(7)
        .clamp(1, WATCH_DAYS);
    Some(CacCeiling {
        ceiling_cents,
        window_days,
    })
}

/// True when the window's numbers break the ceiling.
fn breaches(numbers: ChannelCac, ceiling: CacCeiling) -> bool {
    match numbers.cac_cents {
        Some(cac) => cac > ceiling.ceiling_cents,
        None => numbers.spend_cents > ceiling.ceiling_cents,
    }
}

pub async fn watch(state: &AppState, now: Timestamp) -> ApiResult<String> {
    let approved =
        cards::approved_proposals_since(&state.store, now.minus_millis(WATCH_DAYS * DAY_MS))
            .await?;
    let mut raised = 0;
    for card in approved {
        if watch_one(state, &card, now).await? {
            raised += 1;
        }
    }
    Ok(format!("{raised} revert proposals raised"))
}

async fn watch_one(state: &AppState, card: &CardRow, now: Timestamp) -> ApiResult<bool> {
    let Some(ActionSpec::SpendChange {
        network,
        campaign_id,
        from_cents,
        to_cents,
        rollback_if: Some(rollback_if),
        reverts_card: None,
    }) = card
        .action_spec_json()
        .and_then(|spec| serde_json::from_value(spec).ok())
    else {
        return Ok(false);
    };
    let (Some(ceiling), Some(approved_at), Some(product_id)) = (
        cac_ceiling(&rollback_if),
        card.resolved_at,
        card.product_id.as_deref(),
    ) else {
        return Ok(false);
    };
    // Judge only whole days after the approval, never the day it was made nor today.
    let approved_day_end = Timestamp::from_millis(approved_at)
        .start_of_day()
        .plus_millis(DAY_MS);
    let today = now.start_of_day();
    let window = Span::days_ending(now.minus_millis(DAY_MS), ceiling.window_days);
    let span = Span {
        start: window.start.max(approved_day_end),
        end: today,
    };
    if span.start >= span.end {
        return Ok(false);
    }
    let scope = AccountScope::trusted(card.account_id.clone());
    let Some(product) = products::find_by_id(&state.store, &scope, product_id).await? else {
        return Ok(false);
    };
    let numbers =
        proposals::channel_cac(&state.store, &product.id, network.channel(), span).await?;
    if !breaches(numbers, ceiling) {
        return Ok(false);
    }
    let dedupe_key = format!("rollback:{}", card.id);
    let mut tx = state.store.begin().await?;
    let raised = match from_cents {
        Some(from) => {
            let input = ProposalInput {
                network,
                campaign_id: campaign_id.clone(),
                from_cents: Some(to_cents),
                to_cents: from.max(1),
                rationale: rationale(&product, numbers, ceiling, span),
                rollback_if: None,
                headline: None,
            };
            let request = ProposalCard {
                product: &product,
                input: &input,
                proposer: Proposer::System,
                reverts_card: Some(&card.id),
                dedupe_key: Some(&dedupe_key),
            };
            let raised = proposals::raise_card(&mut tx, &state.store, &request, now).await?;
            match raised {
                Some(raised) => {
                    let payload =
                        serde_json::json!({ "reverts_card": card.id, "dedupe_key": dedupe_key });
                    audit::record_card(
                        &mut tx,
                        &Actor::system(),
                        &raised,
                        "card.raise",
                        payload,
                        now,
                    )
                    .await?;
                    true
                }
                None => false,
            }
        }
        // Nothing to revert to: say so as an alert instead of guessing a budget.
        None => {
            let headline = card_headline(&format!(
                "{} CAC is over the rollback ceiling for {}",
                network.label(),
                product.name
            ));
            let line = metric_line(&product, numbers, ceiling);
            let detail = rationale(&product, numbers, ceiling, span);
            let alert = SystemCard {
                card_type: CardType::Alert,
                headline: &headline,
                metric_line: &line,
                detail: &detail,
                action_spec: None,
                dedupe_key: &dedupe_key,
            };
            queue::raise_system_card(&mut tx, &product, alert, now)
                .await?
                .is_some()
        }
    };
    tx.commit().await?;
    Ok(raised)
}

fn metric_line(product: &ProductRow, numbers: ChannelCac, ceiling: CacCeiling) -> String {
    let cac = numbers.cac_cents.map_or_else(
        || "no customers".to_owned(),
        |cac| format_cents(cac, &product.currency),
    );
    format!(
        "CAC {cac} vs ceiling {} · spend {} · {} customers",
        format_cents(ceiling.ceiling_cents, &product.currency),
        format_cents(numbers.spend_cents, &product.currency),
        numbers.customers
    )
}

fn rationale(product: &ProductRow, numbers: ChannelCac, ceiling: CacCeiling, span: Span) -> String {
    format!(
        "The approved change set a rollback condition of CAC above {}. From {} to {}: {}.",
        format_cents(ceiling.ceiling_cents, &product.currency),
        span.first_day(),
        span.last_day(),
        metric_line(product, numbers, ceiling)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_ceiling_and_window() {
        let read =
            cac_ceiling(&serde_json::json!({ "cac_ceiling_cents": 5000, "window_days": 400 }));
        assert_eq!(
            read,
            Some(CacCeiling {
                ceiling_cents: 5000,
                window_days: 90
            })
        );
        assert_eq!(
            cac_ceiling(&serde_json::json!({ "note": "watch it" })),
            None
        );
    }

    #[test]
    fn spend_without_customers_breaches_once_over_the_ceiling() {
        let ceiling = CacCeiling {
            ceiling_cents: 5000,
            window_days: 7,
        };
        let none = |spend_cents| ChannelCac {
            spend_cents,
            customers: 0,
            cac_cents: None,
        };
        assert!(!breaches(none(5000), ceiling));
        assert!(breaches(none(5001), ceiling));
        let some = ChannelCac {
            spend_cents: 12_000,
            customers: 2,
            cac_cents: Some(6000),
        };
        assert!(breaches(some, ceiling));
    }
}
