//! Reading and setting the policy engine's settings, and checking a spend change against them
//! inside the transaction that acts on the answer.

use payback_domain::Timestamp;
use payback_domain::policy::{
    self, MAX_DAILY_CENTS, Network, PolicyRefusal, PortfolioPolicy, ProductPolicy, SpendChange,
};
use payback_domain::validation::normalize_currency;
use payback_store::products::ProductRow;
use payback_store::{Reader, Tx, policies};
use serde::Serialize;
use serde_json::json;
use utoipa::ToSchema;

use crate::error::{ApiError, ApiResult};
use crate::services::acting::Caller;
use crate::services::{audit, products};
use crate::state::AppState;

/// Daily caps per network, in the product's currency; null means no cap.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq, Eq)]
pub struct DailyCaps {
    pub google: Option<i64>,
    pub meta: Option<i64>,
}

/// A product's policy.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ProductPolicyView {
    pub product_slug: String,
    pub currency: String,
    pub daily_caps: DailyCaps,
    /// Adult-adjacent products may not run on `meta`.
    pub adult_adjacent: bool,
    /// Networks the owners walled off.
    pub blocked_networks: Vec<Network>,
    /// Every network a proposal may not touch, whatever the reason.
    pub walled_networks: Vec<Network>,
}

impl ProductPolicyView {
    fn new(product: &ProductRow, policy: &ProductPolicy) -> Self {
        Self {
            product_slug: product.slug.clone(),
            currency: product.currency.clone(),
            daily_caps: DailyCaps {
                google: policy.google_cap_cents,
                meta: policy.meta_cap_cents,
            },
            adult_adjacent: policy.adult_adjacent,
            blocked_networks: policy.blocked_networks.clone(),
            walled_networks: Network::ALL
                .iter()
                .copied()
                .filter(|n| policy.wall(*n).is_some())
                .collect(),
        }
    }
}

/// One daily budget a human approved.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct BudgetView {
    pub product_slug: String,
    pub network: String,
    pub currency: String,
    pub daily_cents: i64,
    /// Whether a connector applied it on the network (approved either way).
    pub applied: bool,
    /// The approved card that set it.
    pub card_id: String,
    pub set_at: String,
}

/// The account's ceiling and what counts against it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct PortfolioPolicyView {
    /// The most all approved daily budgets (in `currency`) may add up to; null means none.
    pub portfolio_ceiling_cents: Option<i64>,
    pub currency: String,
    /// The sum of approved daily budgets in `currency`.
    pub committed_daily_cents: i64,
    pub budgets: Vec<BudgetView>,
}

pub async fn product_policy(
    state: &AppState,
    caller: &Caller,
    slug: &str,
) -> ApiResult<ProductPolicyView> {
    let product = products::find(state, caller.scope()?, slug).await?;
    let policy = policies::product_policy(Reader::from(&state.store), &product.id).await?;
    Ok(ProductPolicyView::new(&product, &policy))
}

/// An owner's edit; fields left out stay as they are, `null` caps remove the cap.
#[derive(Debug, Default)]
pub struct ProductPolicyEdit {
    pub google_cap: Option<Option<i64>>,
    pub meta_cap: Option<Option<i64>>,
    pub adult_adjacent: Option<bool>,
    pub blocked_networks: Option<Vec<Network>>,
}

fn check_daily_cents(field: &str, cents: Option<i64>) -> ApiResult<()> {
    match cents {
        Some(value) if !(1..=MAX_DAILY_CENTS).contains(&value) => Err(ApiError::bad_request(
            format!("{field}: must be between 1 and {MAX_DAILY_CENTS} cents, or null for none"),
        )),
        _ => Ok(()),
    }
}

pub async fn set_product_policy(
    state: &AppState,
    caller: &Caller,
    slug: &str,
    edit: ProductPolicyEdit,
) -> ApiResult<ProductPolicyView> {
    let product = products::find(state, caller.scope()?, slug).await?;
    if edit.google_cap.is_none()
        && edit.meta_cap.is_none()
        && edit.adult_adjacent.is_none()
        && edit.blocked_networks.is_none()
    {
        return Err(ApiError::bad_request(
            "nothing to update: send daily_caps, adult_adjacent or blocked_networks",
        ));
    }
    check_daily_cents("daily_caps.google", edit.google_cap.flatten())?;
    check_daily_cents("daily_caps.meta", edit.meta_cap.flatten())?;
    let now = state.clock.now();
    let mut tx = state.store.begin().await?;
    let before = policies::product_policy(Reader::from(&mut tx), &product.id).await?;
    let mut after = before.clone();
    if let Some(cap) = edit.google_cap {
        after.google_cap_cents = cap;
    }
    if let Some(cap) = edit.meta_cap {
        after.meta_cap_cents = cap;
    }
    if let Some(adult) = edit.adult_adjacent {
        after.adult_adjacent = adult;
    }
    if let Some(mut blocked) = edit.blocked_networks {
        blocked.sort_by_key(|n| n.as_str());
        blocked.dedup();
        after.blocked_networks = blocked;
    }
    policies::set_product_policy(&mut tx, &product.id, &after, now).await?;
    let payload = json!({
        "before": ProductPolicyView::new(&product, &before),
        "after": ProductPolicyView::new(&product, &after),
    });
    audit::record_product(
        &mut tx,
        &caller.actor(),
        &product,
        "policy.update",
        payload,
        now,
    )
    .await?;
    tx.commit().await?;
    Ok(ProductPolicyView::new(&product, &after))
}

pub async fn portfolio_policy(state: &AppState, caller: &Caller) -> ApiResult<PortfolioPolicyView> {
    let account_id = caller.scope()?.account_id().to_owned();
    portfolio_view(Reader::from(&state.store), &account_id).await
}

async fn portfolio_view(
    mut reader: Reader<'_>,
    account_id: &str,
) -> ApiResult<PortfolioPolicyView> {
    let policy = policies::portfolio_policy(reader.reborrow(), account_id).await?;
    let budgets = policies::budgets(reader, account_id).await?;
    let committed_daily_cents = budgets
        .iter()
        .filter(|b| b.currency.eq_ignore_ascii_case(&policy.currency))
        .map(|b| b.daily_cents)
        .sum();
    Ok(PortfolioPolicyView {
        portfolio_ceiling_cents: policy.ceiling_cents,
        currency: policy.currency,
        committed_daily_cents,
        budgets: budgets
            .into_iter()
            .map(|b| BudgetView {
                product_slug: b.product_slug,
                network: b.network,
                currency: b.currency,
                daily_cents: b.daily_cents,
                applied: b.applied,
                card_id: b.card_id,
                set_at: Timestamp::from_millis(b.set_at).to_rfc3339(),
            })
            .collect(),
    })
}

/// An owner's edit of the ceiling; `Some(None)` removes it.
#[derive(Debug, Default)]
pub struct PortfolioPolicyEdit {
    pub ceiling: Option<Option<i64>>,
    pub currency: Option<String>,
}

pub async fn set_portfolio_policy(
    state: &AppState,
    caller: &Caller,
    edit: PortfolioPolicyEdit,
) -> ApiResult<PortfolioPolicyView> {
    let account_id = caller.scope()?.account_id().to_owned();
    if edit.ceiling.is_none() && edit.currency.is_none() {
        return Err(ApiError::bad_request(
            "nothing to update: send portfolio_ceiling_cents or currency",
        ));
    }
    check_daily_cents("portfolio_ceiling_cents", edit.ceiling.flatten())?;
    let currency = edit
        .currency
        .as_deref()
        .map(normalize_currency)
        .transpose()
        .map_err(|msg| ApiError::bad_request(format!("currency: {msg}")))?;
    let now = state.clock.now();
    let mut tx = state.store.begin().await?;
    let before = policies::portfolio_policy(Reader::from(&mut tx), &account_id).await?;
    let after = PortfolioPolicy {
        ceiling_cents: edit.ceiling.unwrap_or(before.ceiling_cents),
        currency: currency.unwrap_or_else(|| before.currency.clone()),
    };
    policies::set_portfolio_policy(&mut tx, &account_id, &after, now).await?;
    let payload = json!({
        "before": { "portfolio_ceiling_cents": before.ceiling_cents, "currency": before.currency },
        "after": { "portfolio_ceiling_cents": after.ceiling_cents, "currency": after.currency },
    });
    audit::record_account(
        &mut tx,
        &caller.actor(),
        &account_id,
        "policy.portfolio_update",
        None,
        payload,
        now,
    )
    .await?;
    let view = portfolio_view(Reader::from(&mut tx), &account_id).await?;
    tx.commit().await?;
    Ok(view)
}

/// Checks a daily budget of `to_cents` on `network` for `product`, inside `tx`: it first takes
/// the account's policy lock, so the answer holds until `tx` ends.
pub async fn check_spend_change(
    tx: &mut Tx,
    product: &ProductRow,
    network: Network,
    to_cents: i64,
    now: Timestamp,
) -> ApiResult<Result<(), PolicyRefusal>> {
    policies::lock_account(tx, &product.account_id, now).await?;
    let product_policy = policies::product_policy(Reader::from(&mut *tx), &product.id).await?;
    let portfolio = policies::portfolio_policy(Reader::from(&mut *tx), &product.account_id).await?;
    let budgets = policies::budgets(Reader::from(&mut *tx), &product.account_id).await?;
    let committed_elsewhere: i64 = budgets
        .iter()
        .filter(|b| !(b.product_id == product.id && b.network == network.as_str()))
        .filter(|b| b.currency.eq_ignore_ascii_case(&portfolio.currency))
        .map(|b| b.daily_cents)
        .sum();
    let change = SpendChange {
        network,
        to_cents,
        currency: &product.currency,
    };
    Ok(policy::check_spend_change(
        &product_policy,
        &portfolio,
        committed_elsewhere,
        &change,
    ))
}
