//! `GET /products/{slug}/spend`: daily spend by channel and campaign, and where the caps stand.

use payback_domain::DAY_MS;
use payback_domain::policy::Network;
use payback_store::spend::{self, CampaignDay};
use payback_store::{Reader, policies};
use serde::Serialize;
use utoipa::ToSchema;

use crate::error::ApiResult;
use crate::input::Window;
use crate::services::acting::Caller;
use crate::services::products;
use crate::state::AppState;

#[derive(Debug, Serialize, ToSchema)]
pub struct SpendReport {
    pub window_days: i64,
    pub currency: String,
    /// One row per day, network, channel and campaign, oldest first.
    pub rows: Vec<SpendRowView>,
    pub caps: CapsView,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SpendRowView {
    pub day: String,
    pub network: String,
    pub channel: String,
    /// Null when the network reported spend below campaign grain.
    pub campaign_id: Option<String>,
    pub campaign_name: Option<String>,
    pub spend_cents: i64,
    pub impressions: i64,
    pub clicks: i64,
}

impl From<CampaignDay> for SpendRowView {
    fn from(row: CampaignDay) -> Self {
        Self {
            day: row.day,
            network: row.network,
            channel: row.channel,
            campaign_id: Some(row.campaign_id).filter(|id| !id.is_empty()),
            campaign_name: row.campaign_name,
            spend_cents: row.spend_cents,
            impressions: row.impressions,
            clicks: row.clicks,
        }
    }
}

/// Where one network of the product stands against its limits.
#[derive(Debug, Serialize, ToSchema)]
pub struct NetworkCap {
    pub network: Network,
    /// The policy's daily cap; null means none.
    pub daily_cap_cents: Option<i64>,
    /// The daily budget humans last approved; null until one was.
    pub approved_budget_cents: Option<i64>,
    /// Spend on the last complete UTC day (yesterday).
    pub spend_last_day_cents: i64,
    /// True when yesterday's spend reached the lower of the cap and the approved budget.
    pub binding: bool,
    /// True when a network wall keeps proposals off this network.
    pub walled: bool,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CapsView {
    pub networks: Vec<NetworkCap>,
    /// The account's ceiling on the sum of approved daily budgets; null means none.
    pub portfolio_ceiling_cents: Option<i64>,
    pub portfolio_currency: String,
    /// Approved daily budgets of the account in `portfolio_currency`.
    pub portfolio_committed_cents: i64,
    /// True when the committed budgets reached the ceiling.
    pub portfolio_binding: bool,
}

pub async fn report(
    state: &AppState,
    caller: &Caller,
    slug: &str,
    window: Window,
) -> ApiResult<SpendReport> {
    let product = products::find(state, caller.scope()?, slug).await?;
    let now = state.clock.now();
    let span = window.span(now);
    let db = &state.store;
    let rows = spend::by_campaign_day(db, &product.id, &span.first_day(), &span.last_day()).await?;
    let yesterday = now.start_of_day().minus_millis(DAY_MS).day();
    let last_day = spend::by_campaign_day(db, &product.id, &yesterday, &yesterday).await?;

    let policy = policies::product_policy(Reader::from(db), &product.id).await?;
    let portfolio = policies::portfolio_policy(Reader::from(db), &product.account_id).await?;
    let budgets = policies::budgets(Reader::from(db), &product.account_id).await?;
    let networks = Network::ALL
        .iter()
        .map(|&network| {
            let spend_last_day_cents = last_day
                .iter()
                .filter(|row| row.network == network.as_str())
                .map(|row| row.spend_cents)
                .sum();
            let approved_budget_cents = budgets
                .iter()
                .find(|b| b.product_id == product.id && b.network == network.as_str())
                .map(|b| b.daily_cents);
            let daily_cap_cents = policy.cap(network);
            let limit = [daily_cap_cents, approved_budget_cents]
                .into_iter()
                .flatten()
                .min();
            NetworkCap {
                network,
                daily_cap_cents,
                approved_budget_cents,
                spend_last_day_cents,
                binding: limit.is_some_and(|limit| spend_last_day_cents >= limit),
                walled: policy.wall(network).is_some(),
            }
        })
        .collect();
    let committed: i64 = budgets
        .iter()
        .filter(|b| b.currency.eq_ignore_ascii_case(&portfolio.currency))
        .map(|b| b.daily_cents)
        .sum();
    Ok(SpendReport {
        window_days: span.days(),
        currency: product.currency.clone(),
        rows: rows.into_iter().map(SpendRowView::from).collect(),
        caps: CapsView {
            networks,
            portfolio_binding: portfolio.ceiling_cents.is_some_and(|c| committed >= c),
            portfolio_ceiling_cents: portfolio.ceiling_cents,
            portfolio_currency: portfolio.currency,
            portfolio_committed_cents: committed,
        },
    })
}
