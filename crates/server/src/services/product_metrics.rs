//! The metric columns of a product row: spend, volumes and revenue over the last 7 and 30
//! days (and the 30 before), CAC over the 30 days, all-time LTV, and LTV:CAC.

use std::collections::HashMap;

use payback_domain::metrics;
use payback_domain::span::Span;
use payback_store::cards;
use payback_store::reports::product_metrics::{self as store, ProductSums, RowWindows};

use crate::error::ApiResult;
use crate::state::AppState;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct ProductMetrics {
    pub spend_7d_cents: i64,
    pub spend_30d_cents: i64,
    pub spend_prev_30d_cents: i64,
    pub visits_30d: i64,
    pub leads_30d: i64,
    pub customers_30d: i64,
    pub revenue_30d_cents: i64,
    pub revenue_prev_30d_cents: i64,
    /// Spend over customers acquired in the 30 days; null when none were.
    pub cac_cents: Option<i64>,
    /// All-time net revenue of every customer ever acquired over their count; not windowed.
    pub ltv_cents: Option<i64>,
    pub ltv_cac: Option<f64>,
    /// Cards of the product waiting for a human.
    pub pending_cards: i64,
}

impl From<ProductSums> for ProductMetrics {
    fn from(sums: ProductSums) -> Self {
        let cac_cents = metrics::cac(sums.spend_30d_cents, sums.customers_30d);
        let ltv_cents = metrics::ltv(sums.customers_revenue_cents, sums.customers_all_time);
        Self {
            spend_7d_cents: sums.spend_7d_cents,
            spend_30d_cents: sums.spend_30d_cents,
            spend_prev_30d_cents: sums.spend_prev_30d_cents,
            visits_30d: sums.visits_30d,
            leads_30d: sums.leads_30d,
            customers_30d: sums.customers_30d,
            revenue_30d_cents: sums.revenue_30d_cents,
            revenue_prev_30d_cents: sums.revenue_prev_30d_cents,
            cac_cents,
            ltv_cents,
            ltv_cac: metrics::ltv_cac(ltv_cents, cac_cents),
            pending_cards: 0,
        }
    }
}

/// Metrics of each product id, keyed by id (every id present). A fixed number of grouped
/// queries however many products there are.
pub async fn for_products(
    state: &AppState,
    product_ids: &[&str],
) -> ApiResult<HashMap<String, ProductMetrics>> {
    let now = state.clock.now();
    let windows = RowWindows {
        week: Span::days_ending(now, 7),
        month: Span::days_ending(now, 30),
    };
    let sums = store::sums(&state.store, product_ids, windows).await?;
    let mut metrics: HashMap<String, ProductMetrics> = sums
        .into_iter()
        .map(|(id, sums)| (id, ProductMetrics::from(sums)))
        .collect();
    for (product_id, count) in cards::pending_counts(&state.store, product_ids, now).await? {
        if let Some(row) = metrics.get_mut(&product_id) {
            row.pending_cards = count;
        }
    }
    Ok(metrics)
}
