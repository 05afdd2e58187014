//! The approval queue: what waits for a human, and the four things a human may do to it.
//! API keys may read the queue but never resolve a card; that is what makes "no spend change
//! without a human" hold even when an agent holds a key.

use payback_domain::card::{
    ActionSpec, CardStatus, CardType, DEFAULT_SNOOZE_HOURS, PROPOSAL_TTL_MS, Proposer, Resolution,
};
use payback_domain::{Actor, HOUR_MS, Timestamp};
use payback_store::cards::{self, CardRow, NewCard, QueueView, TransitionFields};
use payback_store::products::ProductRow;
use payback_store::{AccountScope, Tx, policies, products as product_store};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use utoipa::ToSchema;

use crate::error::{ApiError, ApiResult};
use crate::services::acting::{Caller, Principal};
use crate::services::audit;
use crate::services::budget_apply::{self, ApprovedChange};
use crate::services::policy::check_spend_change;
use crate::state::AppState;

/// Which cards `GET /queue` lists.
#[derive(Debug, Default, Clone, Copy, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum QueueStatus {
    /// Waiting for a human (snoozed ones whose time has come included).
    #[default]
    Pending,
    /// Snoozed until later; restorable.
    Snoozed,
    /// Past their expiry without a decision; restorable.
    Expired,
    /// Approved cards, with what applying a spend change came to in `execution`.
    Approved,
}

/// The spec's Queue card.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CardView {
    pub id: String,
    pub product_slug: Option<String>,
    pub card_type: CardType,
    pub headline: String,
    pub metric_line: String,
    pub detail: Option<String>,
    pub proposed_by: Proposer,
    /// What approving does: `{kind: "spend_change", network, campaign_id, from_cents, to_cents,
    /// rollback_if, connection_id, ad_account_id}` (the last two: the product's connection and
    /// the network's account id, a Google Ads customer id or a Meta ad account id, the change
    /// was proposed for, null when none was connected; applying refuses, writing nothing, when
    /// the connection now points elsewhere) or `{kind: "set_gate_result", gate_result,
    /// gate_due_date}`; null for cards that approval only acknowledges.
    #[schema(value_type = Option<Object>)]
    pub action_spec: Option<Value>,
    pub status: CardStatus,
    pub created_at: String,
    pub expires_at: Option<String>,
    /// When a snoozed card returns to the queue; null unless `status` is `snoozed`.
    pub snoozed_until: Option<String>,
    /// An approved spend change on its way to the network: `{state: applying|applied|refused|
    /// failed|not_applied, applied, network, campaign_id, to_cents, attempts, before_cents,
    /// after_cents, already_at_target, detail, reason, error}` (`already_at_target`: the network
    /// already held the target; on a retry `before_cents` is the budget recorded at the first
    /// attempt); null for every other card.
    #[schema(value_type = Option<Object>)]
    pub execution: Option<Value>,
}

impl CardView {
    pub fn new(card: CardRow, now: Timestamp) -> Self {
        let status = card.state().effective(now);
        Self {
            card_type: card.card_type,
            proposed_by: card.proposed_by,
            action_spec: card.action_spec_json(),
            status,
            created_at: Timestamp::from_millis(card.created_at).to_rfc3339(),
            expires_at: card
                .expires_at
                .map(|at| Timestamp::from_millis(at).to_rfc3339()),
            snoozed_until: card
                .snoozed_until
                .filter(|_| status == CardStatus::Snoozed)
                .map(|at| Timestamp::from_millis(at).to_rfc3339()),
            execution: card
                .execution
                .as_deref()
                .and_then(|text| serde_json::from_str(text).ok()),
            id: card.id,
            product_slug: card.product_slug,
            headline: card.headline,
            metric_line: card.metric_line,
            detail: card.detail,
        }
    }
}

/// The newest `limit` cards of `view` the caller may see, newest first.
pub async fn listed(
    state: &AppState,
    caller: &Caller,
    view: QueueView,
    limit: i64,
) -> ApiResult<Vec<CardView>> {
    let now = state.clock.now();
    let rows = cards::listed(&state.store, &caller.visibility()?, view, now, limit).await?;
    Ok(rows
        .into_iter()
        .map(|card| CardView::new(card, now))
        .collect())
}

/// What a resolution request may carry.
#[derive(Debug, Default)]
pub struct ResolveOptions {
    /// Operators may name who resolved; everyone else is recorded as themselves.
    pub actor: Option<String>,
    pub snooze_hours: Option<i64>,
}

/// Who a resolution is recorded as. API keys (and jobs acting as the system) are refused: only
/// a human resolves cards, through whichever door.
fn resolver(caller: &Caller, requested: Option<&str>) -> ApiResult<Actor> {
    if matches!(
        caller.principal,
        Principal::ApiKey { .. } | Principal::System
    ) {
        return Err(ApiError::Forbidden(
            "a human must resolve cards: API keys may read the queue and propose, never approve, reject, snooze or restore"
                .to_owned(),
        ));
    }
    let mut actor = caller.actor();
    let named = requested.map(str::trim).filter(|n| !n.is_empty());
    if let Some(name) = named.filter(|_| caller.is_operator) {
        name.clone_into(&mut actor.who);
    }
    Ok(actor)
}

fn no_pending_card() -> ApiError {
    ApiError::NotFound("no such pending card in this account".to_owned())
}

pub async fn resolve(
    state: &AppState,
    caller: &Caller,
    card_id: &str,
    resolution: Resolution,
    options: ResolveOptions,
) -> ApiResult<()> {
    let actor = resolver(caller, options.actor.as_deref())?;
    let now = state.clock.now();
    let card = cards::find(&state.store, &caller.visibility()?, card_id)
        .await?
        .ok_or_else(no_pending_card)?;
    let to = card
        .state()
        .after(resolution, now)
        .ok_or_else(no_pending_card)?;
    let action_spec = card
        .action_spec_json()
        .and_then(|spec| serde_json::from_value::<ActionSpec>(spec).ok());
    match (resolution, action_spec) {
        (
            Resolution::Approve,
            Some(ActionSpec::SpendChange {
                network,
                campaign_id,
                from_cents,
                to_cents,
                ..
            }),
        ) => {
            let change = SpendChangeIntent {
                network,
                campaign_id,
                from_cents,
                to_cents,
            };
            approve_spend_change(state, &actor, &card, change, now).await
        }
        (Resolution::Approve, Some(ActionSpec::SetGateResult { gate_result, .. })) => {
            let mut tx = state.store.begin().await?;
            let card = transition(&mut tx, &card, to, &actor, resolution, &options, now).await?;
            let scope = AccountScope::trusted(card.account_id.clone());
            if let Some(product_id) = card.product_id.as_deref() {
                let product = product_store::set_gate_result(
                    &mut tx,
                    &scope,
                    product_id,
                    Some(gate_result.as_str()),
                )
                .await?;
                let payload = json!({ "gate_result": gate_result, "card_id": card.id });
                audit::record_product(
                    &mut tx,
                    &actor,
                    &product,
                    "product.gate_result",
                    payload,
                    now,
                )
                .await?;
            }
            tx.commit().await?;
            Ok(())
        }
        _ => {
            let mut tx = state.store.begin().await?;
            transition(&mut tx, &card, to, &actor, resolution, &options, now).await?;
            tx.commit().await?;
            Ok(())
        }
    }
}

/// Writes the transition and its history event; 404 when another resolution won the race.
async fn transition(
    tx: &mut Tx,
    card: &CardRow,
    to: CardStatus,
    actor: &Actor,
    resolution: Resolution,
    options: &ResolveOptions,
    now: Timestamp,
) -> ApiResult<CardRow> {
    let mut fields = TransitionFields::default();
    let mut payload = json!({ "from": card.state().effective(now), "to": to });
    match resolution {
        Resolution::Approve | Resolution::Reject => {
            fields.resolved = Some((actor.who.as_str(), actor.via));
        }
        Resolution::Snooze => {
            let hours = options.snooze_hours.unwrap_or(DEFAULT_SNOOZE_HOURS);
            let until = now.plus_millis(hours * HOUR_MS);
            fields.snoozed_until = Some(until);
            payload["snooze_hours"] = json!(hours);
            payload["until"] = json!(until.to_rfc3339());
        }
        Resolution::Restore => {
            // An expired proposal comes back with a fresh wait, or it would expire at once.
            if card.state().effective(now) == CardStatus::Expired {
                fields.expires_at = Some(now.plus_millis(PROPOSAL_TTL_MS));
            }
        }
    }
    let updated = cards::transition(tx, card, to, fields, now)
        .await?
        .ok_or_else(no_pending_card)?;
    let action = format!("card.{}", resolution.as_str());
    audit::record_card(tx, actor, &updated, &action, payload, now).await?;
    Ok(updated)
}

struct SpendChangeIntent {
    network: payback_domain::policy::Network,
    campaign_id: Option<String>,
    from_cents: Option<i64>,
    to_cents: i64,
}

/// Approves a spend proposal: the policy engine looks again (a refusal is 403 and the card
/// waits); the approval, the approved budget and the change to apply commit together, then the
/// change is tried once (`budget_apply`), and what the network did is recorded on the card and
/// in history.
async fn approve_spend_change(
    state: &AppState,
    actor: &Actor,
    card: &CardRow,
    change: SpendChangeIntent,
    now: Timestamp,
) -> ApiResult<()> {
    let scope = AccountScope::trusted(card.account_id.clone());
    let product_id = card
        .product_id
        .as_deref()
        .ok_or_else(|| ApiError::internal("a spend proposal without a product"))?;
    let product = product_store::find_by_id(&state.store, &scope, product_id)
        .await?
        .ok_or_else(no_pending_card)?;

    let mut tx = state.store.begin().await?;
    if let Err(refusal) =
        check_spend_change(&mut tx, &product, change.network, change.to_cents, now).await?
    {
        let payload = json!({
            "policy_code": refusal.code,
            "reason": refusal.message,
            "attempted_by": actor.who,
        });
        let policy = Actor {
            who: "policy".to_owned(),
            via: actor.via,
        };
        audit::record_card(&mut tx, &policy, card, "card.approve_refused", payload, now).await?;
        tx.commit().await?;
        return Err(ApiError::PolicyWall(refusal));
    }
    let options = ResolveOptions::default();
    let approved = transition(
        &mut tx,
        card,
        CardStatus::Approved,
        actor,
        Resolution::Approve,
        &options,
        now,
    )
    .await?;
    policies::set_budget(
        &mut tx,
        &product.id,
        change.network,
        change.to_cents,
        &approved.id,
        false,
        now,
    )
    .await?;
    let approved_change = ApprovedChange {
        card: &approved,
        product: &product,
        network: change.network,
        campaign_id: change.campaign_id.as_deref(),
        from_cents: change.from_cents,
        to_cents: change.to_cents,
        approved_by: actor,
    };
    budget_apply::enqueue(&mut tx, approved_change, now).await?;
    tx.commit().await?;

    // The change is durable now; try it at once so the person sees the outcome, and leave
    // retries (and a crash right here) to the `apply_budgets` job. A failure to record the try
    // is the job's to repeat, not the approval's to report: the approval stands.
    if let Err(error) = budget_apply::apply(state, &approved.id, state.clock.now()).await {
        tracing::warn!(card = %approved.id, %error, "applying an approved budget change failed; the job retries it");
    }
    Ok(())
}

/// A card a job raises about one product (`proposed_by: system`, no expiry).
pub struct SystemCard<'a> {
    pub card_type: CardType,
    pub headline: &'a str,
    pub metric_line: &'a str,
    pub detail: &'a str,
    pub action_spec: Option<&'a Value>,
    /// The condition it is raised for: one card per key, ever.
    pub dedupe_key: &'a str,
}

/// Raises `card` on `product` once per dedupe key, recording `card.raise`. Returns the card
/// when it was raised, `None` when one for the same condition already exists.
pub async fn raise_system_card(
    tx: &mut Tx,
    product: &ProductRow,
    card: SystemCard<'_>,
    now: Timestamp,
) -> ApiResult<Option<CardRow>> {
    let new = NewCard {
        account_id: &product.account_id,
        product: Some((&product.id, &product.slug)),
        card_type: card.card_type,
        headline: card.headline,
        metric_line: card.metric_line,
        detail: Some(card.detail),
        proposed_by: Proposer::System,
        action_spec: card.action_spec,
        dedupe_key: Some(card.dedupe_key),
        expires_at: None,
    };
    let Some(raised) = cards::insert(tx, new, now).await? else {
        return Ok(None);
    };
    let payload = json!({ "dedupe_key": raised.dedupe_key, "metric_line": raised.metric_line });
    audit::record_card(tx, &Actor::system(), &raised, "card.raise", payload, now).await?;
    Ok(Some(raised))
}
