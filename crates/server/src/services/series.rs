//! The daily timeseries of a product: spend, net revenue, visits, leads and customers per UTC
//! day of the window, zero-filled, oldest first.

use std::collections::HashMap;

use payback_domain::Stage;
use payback_store::products::ProductRow;
use payback_store::reports::{funnel, series};
use serde::Serialize;
use utoipa::ToSchema;

use crate::error::ApiResult;
use crate::extract::Window;
use crate::state::AppState;

/// The spec's Timeseries row.
///
/// `search_clicks`, `search_impressions`, `ai_visibility`, `social_impressions`,
/// `social_engagement` and `social_followers` come from the search-console, AI-visibility and
/// social connectors. None of those exist yet, so they read 0 (and `ai_visibility` null: no
/// measurement is not a score of 0) until they do.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct TimeseriesRow {
    pub day: String,
    /// Ad spend that day, all networks.
    pub spend_cents: i64,
    /// Net revenue of that day's revenue rows (refunds and disputes negative).
    pub revenue_cents: i64,
    /// Stage volume of `visit` that day.
    pub visits: i64,
    /// Stage volume of `lead` that day.
    pub leads: i64,
    /// Identities acquired as customers that day (first converted or payment event).
    pub customers: i64,
    pub search_clicks: i64,
    pub search_impressions: i64,
    pub ai_visibility: Option<f64>,
    pub social_impressions: i64,
    pub social_engagement: i64,
    pub social_followers: i64,
}

/// One row per day of the window, oldest first; days with nothing read 0.
pub async fn timeseries(
    state: &AppState,
    product: &ProductRow,
    window: Window,
) -> ApiResult<Vec<TimeseriesRow>> {
    let span = window.span(state.clock.now());
    let db = &state.store;
    let spend: HashMap<String, i64> = series::spend_by_day(db, &product.id, span)
        .await?
        .into_iter()
        .collect();
    let revenue: HashMap<String, i64> = series::revenue_by_day(db, &product.id, span)
        .await?
        .into_iter()
        .collect();
    let customers: HashMap<String, i64> = series::customers_by_day(db, &product.id, span)
        .await?
        .into_iter()
        .collect();
    let mut visits: HashMap<String, i64> = HashMap::new();
    let mut leads: HashMap<String, i64> = HashMap::new();
    for row in funnel::daily_stage_volumes(db, &product.id, span).await? {
        match Stage::parse(&row.stage) {
            Some(Stage::Visit) => visits.insert(row.day, row.volume),
            Some(Stage::Lead) => leads.insert(row.day, row.volume),
            _ => None,
        };
    }
    let on = |map: &HashMap<String, i64>, day: &str| map.get(day).copied().unwrap_or(0);
    Ok(span
        .each_day()
        .map(|day| TimeseriesRow {
            spend_cents: on(&spend, &day),
            revenue_cents: on(&revenue, &day),
            visits: on(&visits, &day),
            leads: on(&leads, &day),
            customers: on(&customers, &day),
            search_clicks: 0,
            search_impressions: 0,
            ai_visibility: None,
            social_impressions: 0,
            social_engagement: 0,
            social_followers: 0,
            day,
        })
        .collect())
}
