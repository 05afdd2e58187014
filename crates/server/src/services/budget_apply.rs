//! Applying approved budget changes on their ad network, durably. The approval writes the change
//! (`budget_applications`) in its own transaction; the approving request then tries once, and
//! the `apply_budgets` job picks up whatever is still due (after a crash, a lost lease, or a
//! transient failure with backoff). A runner leases the row, so one change is asked of the
//! network by one runner at a time; the network's writer reads the live budget first, so a
//! retry after a lost answer finds the target set and records it as applied, never twice.
//!
//! The writer is the `BudgetWriter` of the product's connection whose kind row changes budgets
//! on that network (the kind table says which), opened through the source registry with its
//! credentials. Nothing here is reachable without a human approval: the queue service is the
//! only writer of `budget_applications`.

use payback_connectors::{BudgetChange, BudgetOutcome, Source};
use payback_domain::connection::ConnectionKind;
use payback_domain::money::format_cents;
use payback_domain::policy::{ApplicationState, Network};
use payback_domain::{Actor, HOUR_MS, MINUTE_MS, Timestamp};
use payback_store::budget_applications::{self as store, BudgetApplication, NewApplication};
use payback_store::cards::{self, CardRow};
use payback_store::connections::ConnectionRow;
use payback_store::products::{self as product_store, ProductRow};
use payback_store::{AccountScope, Db, Tx, Visibility, connections, policies};
use serde_json::{Value, json};

use crate::error::{ApiError, ApiResult};
use crate::services::audit;
use crate::state::AppState;

/// Long enough for a writer's read, mutate and read-back with the connectors' retries.
const LEASE_MS: i64 = 5 * MINUTE_MS;
/// Transient failures are retried this many times in all before the change is `failed`.
pub const MAX_ATTEMPTS: i64 = 6;
/// The first retry's wait; each further one doubles, at most an hour.
const FIRST_BACKOFF_MS: i64 = 30 * SECOND_MS;
const SECOND_MS: i64 = 1_000;
/// Changes one job pass applies; the rest wait for the next pass.
const PER_PASS: i64 = 20;

/// The change a human approved, as the queue hands it over.
#[derive(Debug, Clone)]
pub struct ApprovedChange<'a> {
    pub card: &'a CardRow,
    pub product: &'a ProductRow,
    pub network: Network,
    pub campaign_id: Option<&'a str>,
    pub from_cents: Option<i64>,
    pub to_cents: i64,
    pub approved_by: &'a Actor,
}

/// Writes the change in the approval's transaction and shows `applying` on the card.
pub async fn enqueue(tx: &mut Tx, change: ApprovedChange<'_>, now: Timestamp) -> ApiResult<()> {
    let new = NewApplication {
        card_id: &change.card.id,
        account_id: &change.product.account_id,
        product_id: &change.product.id,
        network: change.network,
        campaign_id: change.campaign_id,
        from_cents: change.from_cents,
        to_cents: change.to_cents,
        currency: &change.product.currency,
        approved_by: &change.approved_by.who,
        approved_via: change.approved_by.via,
    };
    store::insert(tx, new, now).await?;
    let execution = json!({
        "state": ApplicationState::Applying,
        "network": change.network,
        "campaign_id": change.campaign_id,
        "to_cents": change.to_cents,
        "attempts": 0,
    });
    cards::set_execution(tx, &change.card.id, &execution).await?;
    Ok(())
}

/// Applies every change that is due; the `apply_budgets` job.
pub async fn apply_due(state: &AppState, now: Timestamp) -> ApiResult<String> {
    let due = store::due(&state.store, now, PER_PASS).await?;
    let mut settled = 0;
    for card_id in &due {
        if apply(state, card_id, now).await? {
            settled += 1;
        }
    }
    Ok(format!(
        "{} budget change(s) due, {settled} tried",
        due.len()
    ))
}

/// Leases and tries the card's change once; false when it was not due or another runner holds
/// it. The outcome is on the card, in history, and (applied) on the product's budget.
pub async fn apply(state: &AppState, card_id: &str, now: Timestamp) -> ApiResult<bool> {
    // The instance holds the lease and beats its heartbeat while the network is asked; the
    // attempt the lease counted fences the outcome (a holder taken over books nothing).
    let runner = state.instance_id.as_str();
    let Some(change) = store::lease(&state.store, card_id, runner, now, LEASE_MS).await? else {
        return Ok(false);
    };
    let holder = store::Lease {
        owner: runner,
        attempt: change.attempts,
    };
    let db = &state.store;
    let outcome = crate::jobs::heartbeat::while_beating(
        state.clock.as_ref(),
        now,
        "budget change",
        ask_network(state, &change),
        move |at| store::heartbeat(db, card_id, holder, at),
    )
    .await?;
    let done = state.clock.now();
    let mut tx = state.store.begin().await?;
    let card = cards::find(&state.store, &Visibility::AllAccounts, card_id)
        .await?
        .ok_or_else(|| ApiError::internal("a budget change without its card"))?;
    let settled = match &outcome {
        Settled::Retry { error } => {
            let wait = backoff_ms(change.attempts);
            let next = done.plus_millis(wait);
            store::retry_later(&mut tx, card_id, holder, error, next, done).await?
        }
        final_outcome => {
            let error = final_outcome.error();
            store::finish(&mut tx, card_id, holder, final_outcome.state(), error, done).await?
        }
    };
    if !settled {
        // The lease ran out and another runner took the change over: its outcome stands.
        return Ok(false);
    }
    if let Settled::Applied { .. } = outcome {
        policies::set_budget(
            &mut tx,
            &change.product_id,
            change.network,
            change.to_cents,
            card_id,
            true,
            done,
        )
        .await?;
    }
    let execution = outcome.execution(&change);
    cards::set_execution(&mut tx, card_id, &execution).await?;
    let recorder = Actor {
        who: Actor::SYSTEM.to_owned(),
        via: change.approved_via,
    };
    let mut payload = execution;
    payload["approved_by"] = json!(change.approved_by);
    audit::record_card(&mut tx, &recorder, &card, outcome.action(), payload, done).await?;
    tx.commit().await?;
    Ok(true)
}

/// 30 s after the first failure, doubling, at most an hour.
fn backoff_ms(attempts: i64) -> i64 {
    let doublings = u32::try_from(attempts.saturating_sub(1).clamp(0, 7)).unwrap_or(7);
    (FIRST_BACKOFF_MS << doublings).min(HOUR_MS)
}

/// Where a try left the change.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Settled {
    Applied {
        campaign_id: String,
        before_cents: i64,
        after_cents: i64,
    },
    /// No connection can change budgets on this network for the product.
    NotApplied {
        reason: String,
    },
    Refused {
        reason: String,
    },
    Failed {
        error: String,
    },
    Retry {
        error: String,
    },
}

impl Settled {
    fn state(&self) -> ApplicationState {
        match self {
            Settled::Applied { .. } => ApplicationState::Applied,
            Settled::NotApplied { .. } => ApplicationState::NotApplied,
            Settled::Refused { .. } => ApplicationState::Refused,
            Settled::Failed { .. } => ApplicationState::Failed,
            Settled::Retry { .. } => ApplicationState::Applying,
        }
    }

    fn error(&self) -> Option<&str> {
        match self {
            Settled::NotApplied { reason } | Settled::Refused { reason } => Some(reason),
            Settled::Failed { error } | Settled::Retry { error } => Some(error),
            Settled::Applied { .. } => None,
        }
    }

    /// The history action recording this try.
    fn action(&self) -> &'static str {
        match self {
            Settled::Applied { .. } => "spend.applied",
            Settled::NotApplied { .. } | Settled::Refused { .. } => "spend.not_applied",
            Settled::Failed { .. } => "spend.failed",
            Settled::Retry { .. } => "spend.apply_retry",
        }
    }

    /// What the card shows, and history records.
    fn execution(&self, change: &BudgetApplication) -> Value {
        let mut shown = json!({
            "state": self.state(),
            "applied": matches!(self, Settled::Applied { .. }),
            "network": change.network,
            "campaign_id": change.campaign_id,
            "to_cents": change.to_cents,
            "attempts": change.attempts,
        });
        match self {
            Settled::Applied {
                campaign_id,
                before_cents,
                after_cents,
            } => {
                shown["campaign_id"] = json!(campaign_id);
                shown["after_cents"] = json!(after_cents);
                let money = |cents: i64| format_cents(cents, &change.currency);
                let detail = if before_cents != after_cents {
                    shown["before_cents"] = json!(before_cents);
                    format!(
                        "daily budget of campaign {campaign_id} changed from {} to {}",
                        money(*before_cents),
                        money(*after_cents),
                    )
                } else if change.attempts > 1 {
                    // The writer read the target already in place on a retry: the earlier
                    // attempt's write landed and its answer was lost (a crash). What the budget
                    // was before is the value recorded at the first attempt, not the network's.
                    shown["already_at_target"] = json!(true);
                    shown["before_cents"] = json!(change.before_cents);
                    match change.before_cents {
                        Some(before) if before != *after_cents => format!(
                            "daily budget of campaign {campaign_id} already at {} (changed from {}; the earlier attempt had landed)",
                            money(*after_cents),
                            money(before),
                        ),
                        _ => format!(
                            "daily budget of campaign {campaign_id} already at {} (the earlier attempt had landed)",
                            money(*after_cents),
                        ),
                    }
                } else {
                    shown["already_at_target"] = json!(true);
                    shown["before_cents"] = json!(before_cents);
                    format!(
                        "daily budget of campaign {campaign_id} already at {}; nothing was sent",
                        money(*after_cents),
                    )
                };
                shown["detail"] = json!(detail);
            }
            Settled::NotApplied { reason } | Settled::Refused { reason } => {
                shown["reason"] = json!(reason);
            }
            Settled::Failed { error } => shown["error"] = json!(error),
            Settled::Retry { error } => {
                shown["error"] = json!(error);
                shown["next_attempt_in_seconds"] = json!(backoff_ms(change.attempts) / SECOND_MS);
            }
        }
        shown
    }
}

/// Opens the product's budget writer and asks it; every failure to get that far is an outcome
/// too, so the card never waits silently.
async fn ask_network(state: &AppState, change: &BudgetApplication) -> ApiResult<Settled> {
    let scope = AccountScope::trusted(change.account_id.clone());
    let product = product_store::find_by_id(&state.store, &scope, &change.product_id)
        .await?
        .ok_or_else(|| ApiError::internal("a budget change without its product"))?;
    let network = change.network;
    let writer_row = writer_connection(&state.store, &product.id, network).await?;
    if let Some(refused) = account_moved(state, change, writer_row.as_ref()).await? {
        return Ok(refused);
    }
    let source = match open_writer(state, &product, writer_row).await {
        Ok(Some(source)) => source,
        Ok(None) => return Ok(not_connected(&product, network, change)),
        Err(error) => {
            return Ok(Settled::Failed {
                error: format!(
                    "the {} connection could not be opened: {error}",
                    network.label()
                ),
            });
        }
    };
    let Some(writer) = source.budgets() else {
        return Ok(not_connected(&product, network, change));
    };
    let request = BudgetChange {
        campaign_id: change.campaign_id.clone(),
        to_cents: change.to_cents,
        currency: change.currency.clone(),
    };
    Ok(match writer.apply_budget(&request).await {
        Ok(BudgetOutcome::Applied {
            campaign_id,
            before_cents,
            after_cents,
        }) => Settled::Applied {
            campaign_id,
            before_cents,
            after_cents,
        },
        Ok(BudgetOutcome::Refused { reason }) => Settled::Refused { reason },
        Ok(BudgetOutcome::Failed { error, transient }) => {
            if transient && change.attempts < MAX_ATTEMPTS {
                Settled::Retry { error }
            } else {
                Settled::Failed { error }
            }
        }
        Err(error) if change.attempts < MAX_ATTEMPTS && is_transient(&error) => Settled::Retry {
            error: error.to_string(),
        },
        Err(error) => Settled::Failed {
            error: error.to_string(),
        },
    })
}

fn is_transient(error: &payback_connectors::ConnectorError) -> bool {
    use payback_connectors::ConnectorError as E;
    matches!(error, E::RateLimited(_) | E::Unreachable(_))
}

fn not_connected(product: &ProductRow, network: Network, change: &BudgetApplication) -> Settled {
    Settled::NotApplied {
        reason: format!(
            "no {} connection can change budgets for {} yet; set the daily budget to {} in {} by hand",
            network.label(),
            product.slug,
            format_cents(change.to_cents, &change.currency),
            network.label(),
        ),
    }
}

/// The product's connection whose kind changes budgets on `network`: the one a change on that
/// network is applied through (and which a proposal records it was raised for); `None` when the
/// product has none usable (missing, pending or disabled).
pub async fn writer_connection(
    db: &Db,
    product_id: &str,
    network: Network,
) -> ApiResult<Option<(ConnectionKind, ConnectionRow)>> {
    let writers = ConnectionKind::all().filter(|kind| {
        kind.spec().changes_budgets && kind.spend().map(|s| s.network) == Some(network.as_str())
    });
    for kind in writers {
        let Some(row) = connections::find(db, product_id, kind.as_str()).await? else {
            continue;
        };
        if matches!(
            row.status,
            payback_domain::connection::ConnectionStatus::Pending
                | payback_domain::connection::ConnectionStatus::Disabled
        ) {
            continue;
        }
        return Ok(Some((kind, row)));
    }
    Ok(None)
}

/// The network's own id of the ad account a budget-writing connection points at, as its
/// connect flow stored it: the Google Ads customer id, the Meta ad account id.
pub fn ad_account_of(row: &ConnectionRow) -> Option<String> {
    let field = row.kind.spec().ad_account_field?;
    let config: Value = serde_json::from_str(&row.config).ok()?;
    config[field].as_str().map(str::to_owned)
}

/// A change proposed for one connection and ad account is refused, with nothing written, when
/// the product's connection for the network is now another one or points at another account:
/// the human approved a change to the account the card named (issue 35). Cards raised without a
/// connection recorded nothing and apply through whichever connection there is now.
async fn account_moved(
    state: &AppState,
    change: &BudgetApplication,
    current: Option<&(ConnectionKind, ConnectionRow)>,
) -> ApiResult<Option<Settled>> {
    // Without a usable connection nothing is written anyway, and the try says so.
    let Some((_, row)) = current else {
        return Ok(None);
    };
    let card = cards::find(&state.store, &Visibility::AllAccounts, &change.card_id)
        .await?
        .ok_or_else(|| ApiError::internal("a budget change without its card"))?;
    let Some(proposed_connection) = card.connection_id.as_deref() else {
        return Ok(None);
    };
    let proposed = card.ad_account_id.as_deref();
    let now_points_at = ad_account_of(row);
    let label = change.network.label();
    let reason = if now_points_at.as_deref() != proposed {
        format!(
            "the product's {label} connection now points at account {}, not {}, which this change was proposed for; propose the change again for the account now connected",
            now_points_at.as_deref().unwrap_or("(none)"),
            proposed.unwrap_or("(none)"),
        )
    } else if row.id != proposed_connection {
        format!(
            "the product's {label} connection is not the one this change was proposed for (connection {}, not {}); propose the change again for the connection there is now",
            row.id, proposed_connection,
        )
    } else {
        return Ok(None);
    };
    Ok(Some(Settled::Refused { reason }))
}

/// The writer of the connection [`writer_connection`] found, opened; `None` without one.
async fn open_writer(
    state: &AppState,
    product: &ProductRow,
    found: Option<(ConnectionKind, ConnectionRow)>,
) -> ApiResult<Option<Box<dyn Source>>> {
    let Some((kind, row)) = found else {
        return Ok(None);
    };
    state
        .sources
        .open(state, product, &row, kind)
        .await
        .map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retries_back_off_doubling_to_an_hour() {
        assert_eq!(backoff_ms(1), 30 * SECOND_MS);
        assert_eq!(backoff_ms(2), 60 * SECOND_MS);
        assert_eq!(backoff_ms(3), 120 * SECOND_MS);
        assert_eq!(backoff_ms(20), HOUR_MS);
    }
}
