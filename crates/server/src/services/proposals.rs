//! Spend proposals: an agent (or a job) asks for a new daily budget on one network. The policy
//! engine looks first: over a cap or behind a wall, the proposal is refused with a
//! `policy_code` and no card (history records the block); otherwise a card waits 72 hours for a
//! human. Nothing here changes spend.

use payback_domain::card::{self, ActionSpec, CardType, PROPOSAL_TTL_MS, Proposer};
use payback_domain::metrics;
use payback_domain::money::format_cents;
use payback_domain::policy::Network;
use payback_domain::span::Span;
use payback_domain::{Actor, HOUR_MS, Timestamp};
use payback_store::cards::{self, CardRow, NewCard};
use payback_store::products::ProductRow;
use payback_store::reports::attribution as store;
use payback_store::{Db, Tx};
use serde::Serialize;
use serde_json::{Value, json};
use utoipa::ToSchema;

use crate::error::{ApiError, ApiResult};
use crate::services::acting::Caller;
use crate::services::policy::check_spend_change;
use crate::services::{audit, budget_apply, products};
use crate::state::AppState;

/// What the proposer asks for; validated by the route (`to_cents` > 0, rationale 10-2000,
/// headline at most 90, `rollback_if` an object of at most 4096 bytes serialized:
/// `card::check_rollback_if`).
#[derive(Debug, Clone)]
pub struct ProposalInput {
    pub network: Network,
    pub campaign_id: Option<String>,
    pub from_cents: Option<i64>,
    pub to_cents: i64,
    pub rationale: String,
    pub rollback_if: Option<Value>,
    pub headline: Option<String>,
}

/// `202 {proposal_id, status: "pending_human", expires_in_hours}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct ProposalAccepted {
    /// The id of the card in the queue.
    pub proposal_id: String,
    /// Always `pending_human`.
    pub status: String,
    pub expires_in_hours: i64,
}

/// A channel's spend, first-touch customers and CAC over a span.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChannelCac {
    pub spend_cents: i64,
    pub customers: i64,
    pub cac_cents: Option<i64>,
}

pub async fn channel_cac(
    db: &Db,
    product_id: &str,
    channel: &str,
    span: Span,
) -> ApiResult<ChannelCac> {
    let of_channel = |sums: Vec<store::ChannelSum>| {
        sums.into_iter()
            .filter(|sum| sum.channel.as_deref() == Some(channel))
            .fold((0, 0), |(cents, count), sum| {
                (cents + sum.cents, count + sum.count)
            })
    };
    let (spend_cents, _) = of_channel(store::spend_by_channel(db, product_id, span).await?);
    let (_, customers) = of_channel(store::customers_by_first_channel(db, product_id, span).await?);
    Ok(ChannelCac {
        spend_cents,
        customers,
        cac_cents: metrics::cac(spend_cents, customers),
    })
}

/// The numbers a human needs beside the request: the network's recent spend and CAC.
async fn metric_line(
    db: &Db,
    product: &ProductRow,
    network: Network,
    now: Timestamp,
) -> ApiResult<String> {
    let week = channel_cac(
        db,
        &product.id,
        network.channel(),
        Span::days_ending(now, 7),
    )
    .await?;
    let month = channel_cac(
        db,
        &product.id,
        network.channel(),
        Span::days_ending(now, 30),
    )
    .await?;
    let cac = month.cac_cents.map_or_else(
        || "no customers".to_owned(),
        |cac| format_cents(cac, &product.currency),
    );
    Ok(format!(
        "{} spend 7d {} · 30d CAC {} · customers 30d {}",
        network.label(),
        format_cents(week.spend_cents, &product.currency),
        cac,
        month.customers
    ))
}

fn default_headline(product: &ProductRow, input: &ProposalInput) -> String {
    let verb = match input.from_cents {
        Some(from) if input.to_cents > from => "Raise",
        Some(from) if input.to_cents < from => "Lower",
        _ => "Set",
    };
    card::headline(&format!(
        "{verb} {} daily budget for {} to {}",
        input.network.label(),
        product.name,
        format_cents(input.to_cents, &product.currency)
    ))
}

/// A proposal card to raise: who asks, for which product, and (for a revert raised by the
/// rollback watch) which approved card it reverts and the condition's dedupe key.
pub struct ProposalCard<'a> {
    pub product: &'a ProductRow,
    pub input: &'a ProposalInput,
    pub proposer: Proposer,
    pub reverts_card: Option<&'a str>,
    pub dedupe_key: Option<&'a str>,
}

impl ProposalCard<'_> {
    fn action_spec(&self) -> ActionSpec {
        ActionSpec::SpendChange {
            network: self.input.network,
            campaign_id: self.input.campaign_id.clone(),
            from_cents: self.input.from_cents,
            to_cents: self.input.to_cents,
            rollback_if: self.input.rollback_if.clone(),
            reverts_card: self.reverts_card.map(str::to_owned),
        }
    }
}

/// Raises a proposal card inside `tx`, after the policy engine allowed it. `None` when a card
/// with the same dedupe key exists.
pub async fn raise_card(
    tx: &mut Tx,
    db: &Db,
    card: &ProposalCard<'_>,
    now: Timestamp,
) -> ApiResult<Option<CardRow>> {
    let (product, input) = (card.product, card.input);
    let headline = input
        .headline
        .as_deref()
        .map(card::headline)
        .unwrap_or_else(|| default_headline(product, input));
    let line = metric_line(db, product, input.network, now).await?;
    // The account the change is for: the connection that would apply it now, and the network's
    // id of the account it points at. Applying refuses when either has changed by then, so the
    // approval lands where the card said (issue 35).
    let writer = budget_apply::writer_connection(db, &product.id, input.network).await?;
    let (connection_id, ad_account_id) = writer.map_or((None, None), |(_, row)| {
        let account = budget_apply::ad_account_of(&row);
        (Some(row.id), account)
    });
    let mut spec = serde_json::to_value(card.action_spec()).map_err(ApiError::internal)?;
    // `action_spec` is the card's free-form object: the recorded account shows there.
    spec["connection_id"] = json!(connection_id);
    spec["ad_account_id"] = json!(ad_account_id);
    let new = NewCard {
        account_id: &product.account_id,
        product: Some((&product.id, &product.slug)),
        card_type: CardType::Proposal,
        headline: &headline,
        metric_line: &line,
        detail: Some(&input.rationale),
        proposed_by: card.proposer,
        action_spec: Some(&spec),
        dedupe_key: card.dedupe_key,
        expires_at: Some(now.plus_millis(PROPOSAL_TTL_MS)),
    };
    let Some(raised) = cards::insert(tx, new, now).await? else {
        return Ok(None);
    };
    let Some(connection_id) = connection_id else {
        return Ok(Some(raised));
    };
    let recorded =
        cards::set_ad_account(tx, &raised.id, &connection_id, ad_account_id.as_deref()).await?;
    Ok(Some(recorded.ok_or_else(|| {
        ApiError::internal("a card just raised was not found")
    })?))
}

pub async fn propose(
    state: &AppState,
    caller: &Caller,
    slug: &str,
    input: ProposalInput,
) -> ApiResult<ProposalAccepted> {
    let product = products::find_settled(state, caller.scope()?, slug).await?;
    let actor = caller.actor();
    let now = state.clock.now();
    let mut tx = state.store.begin().await?;
    if let Err(refusal) =
        check_spend_change(&mut tx, &product, input.network, input.to_cents, now).await?
    {
        // The block is a fact worth keeping even though nothing else is written.
        let payload = json!({
            "policy_code": refusal.code,
            "reason": refusal.message,
            "proposed_by": actor.who,
            "network": input.network,
            "campaign_id": input.campaign_id,
            "from_cents": input.from_cents,
            "to_cents": input.to_cents,
            "rationale": input.rationale,
        });
        let policy = Actor {
            who: "policy".to_owned(),
            via: actor.via,
        };
        let headline = input
            .headline
            .as_deref()
            .map(card::headline)
            .unwrap_or_else(|| default_headline(&product, &input));
        let event = payback_store::history::NewEvent {
            product: Some((&product.id, &product.slug)),
            subject_ref: Some(&product.id),
            card_headline: Some(&headline),
            card_type: Some(CardType::PolicyBlock),
            payload,
            ..payback_store::history::NewEvent::new(
                &product.account_id,
                &policy,
                "proposal.policy_block",
            )
        };
        payback_store::history::record(&mut tx, event, now).await?;
        tx.commit().await?;
        return Err(ApiError::PolicyRefused(refusal));
    }
    let request = ProposalCard {
        product: &product,
        input: &input,
        proposer: Proposer::Keeper,
        reverts_card: None,
        dedupe_key: None,
    };
    let card = raise_card(&mut tx, &state.store, &request, now)
        .await?
        .ok_or_else(|| ApiError::internal("a proposal without a dedupe key was not raised"))?;
    let payload = json!({
        "network": input.network,
        "to_cents": input.to_cents,
        "from_cents": input.from_cents,
        "connection_id": card.connection_id,
        "ad_account_id": card.ad_account_id,
    });
    audit::record_card(&mut tx, &actor, &card, "proposal.create", payload, now).await?;
    tx.commit().await?;
    Ok(ProposalAccepted {
        proposal_id: card.id,
        status: "pending_human".to_owned(),
        expires_in_hours: PROPOSAL_TTL_MS / HOUR_MS,
    })
}
