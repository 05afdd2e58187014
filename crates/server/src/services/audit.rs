//! Writing and reading the audit history.

use payback_domain::card::CardType;
use payback_domain::{Actor, Timestamp, Via};
use payback_store::cards::CardRow;
use payback_store::history::{self, EventRow, HistoryQuery, NewEvent};
use payback_store::products::ProductRow;
use payback_store::{Tx, Visibility};
use serde::Serialize;
use utoipa::ToSchema;

use crate::error::ApiResult;
use crate::input::Window;
use crate::state::AppState;

/// Records `action` on `product` by `actor`, inside the caller's transaction.
pub async fn record_product(
    tx: &mut Tx,
    actor: &Actor,
    product: &ProductRow,
    action: &str,
    payload: serde_json::Value,
    now: Timestamp,
) -> ApiResult<()> {
    let event = NewEvent {
        product: Some((&product.id, &product.slug)),
        subject_ref: Some(&product.id),
        payload,
        ..NewEvent::new(&product.account_id, actor, action)
    };
    history::record(tx, event, now).await?;
    Ok(())
}

/// Records `action` on `card` (its product, headline and type ride along) by `actor`.
pub async fn record_card(
    tx: &mut Tx,
    actor: &Actor,
    card: &CardRow,
    action: &str,
    payload: serde_json::Value,
    now: Timestamp,
) -> ApiResult<()> {
    let event = NewEvent {
        product: card.product_id.as_deref().zip(card.product_slug.as_deref()),
        subject_ref: Some(&card.id),
        card_headline: Some(&card.headline),
        card_type: Some(card.card_type),
        payload,
        ..NewEvent::new(&card.account_id, actor, action)
    };
    history::record(tx, event, now).await?;
    Ok(())
}

/// Records an account-level `action` about `subject`.
pub async fn record_account(
    tx: &mut Tx,
    actor: &Actor,
    account_id: &str,
    action: &str,
    subject_ref: Option<&str>,
    payload: serde_json::Value,
    now: Timestamp,
) -> ApiResult<()> {
    let event = NewEvent {
        subject_ref,
        payload,
        ..NewEvent::new(account_id, actor, action)
    };
    history::record(tx, event, now).await?;
    Ok(())
}

/// The spec's History event.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct HistoryEvent {
    pub id: i64,
    pub occurred_at: String,
    pub actor: String,
    #[schema(value_type = String)]
    pub via: Via,
    pub action: String,
    pub product_slug: Option<String>,
    pub subject_ref: Option<String>,
    pub card_headline: Option<String>,
    #[schema(value_type = Option<String>)]
    pub card_type: Option<CardType>,
    #[schema(value_type = Object)]
    pub payload: serde_json::Value,
}

impl From<EventRow> for HistoryEvent {
    fn from(row: EventRow) -> Self {
        Self {
            id: row.id,
            occurred_at: Timestamp::from_millis(row.occurred_at).to_rfc3339(),
            actor: row.actor,
            via: row.via,
            action: row.action,
            product_slug: row.product_slug,
            subject_ref: row.subject_ref,
            card_headline: row.card_headline,
            card_type: row.card_type,
            payload: serde_json::from_str(&row.payload).unwrap_or(serde_json::Value::Null),
        }
    }
}

/// What a tenant's history holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HistoryScope {
    /// The spec's history: events of the account's products only.
    Products,
    /// The products' events and the account's own (team, keys, profile, sign-up, workspaces,
    /// the portfolio policy): `include=account`, which the route grants owners only.
    WithAccount,
}

/// Events newest first. Tenants see their products' events, and their account's too with
/// [`HistoryScope::WithAccount`], never sign-ins; operators see everything.
pub async fn list(
    state: &AppState,
    visibility: &Visibility,
    product_id: Option<&str>,
    scope: HistoryScope,
    window: Window,
) -> ApiResult<Vec<HistoryEvent>> {
    let operator = matches!(visibility, Visibility::AllAccounts);
    let query = HistoryQuery {
        visibility,
        product_id,
        since: window.since(state.clock.now()),
        limit: window.limit,
        include_account: operator || scope == HistoryScope::WithAccount,
        include_logins: operator,
    };
    Ok(history::list(&state.store, &query)
        .await?
        .into_iter()
        .map(HistoryEvent::from)
        .collect())
}
