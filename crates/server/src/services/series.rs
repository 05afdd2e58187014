//! The daily timeseries of a product: spend, net revenue, visits, leads and customers per UTC
//! day of the window, and the snapshot metrics sources write (search, AI visibility, social),
//! zero-filled, oldest first.

use std::collections::HashMap;

use payback_domain::Stage;
use payback_domain::snapshot_metric::{
    AI_VISIBILITY, SEARCH_CLICKS, SEARCH_IMPRESSIONS, SOCIAL_ENGAGEMENT, SOCIAL_FOLLOWERS,
    SOCIAL_IMPRESSIONS,
};
use payback_store::products::ProductRow;
use payback_store::reports::{funnel, series};
use serde::Serialize;
use utoipa::ToSchema;

use crate::error::ApiResult;
use crate::input::Window;
use crate::state::AppState;

/// The spec's Timeseries row.
///
/// `search_clicks`, `search_impressions`, `ai_visibility`, `social_impressions`,
/// `social_engagement` and `social_followers` read the snapshots the search-console,
/// AI-visibility and social sources write under the metric word of the same name
/// (`payback_domain::snapshot_metric`), over every source of the product: 0 on a day without
/// any (and `ai_visibility` null: no measurement is not a score of 0). Counts are rounded to
/// the nearest whole number.
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
    /// Search clicks that day: the sum over search queries (and engines).
    pub search_clicks: i64,
    /// Search impressions that day: the sum over search queries (and engines).
    pub search_impressions: i64,
    /// The AI-visibility score of that day (the whole property's value; the mean if several
    /// sources score it); null without one.
    pub ai_visibility: Option<f64>,
    /// Impressions of the social pages that day: the sum over networks of each page's figure.
    pub social_impressions: i64,
    /// Engagements of the social pages that day, summed over networks.
    pub social_engagement: i64,
    /// Followers of the social pages at the end of that day, summed over networks.
    pub social_followers: i64,
}

/// The snapshot metrics with a column of the same name.
const SNAPSHOT_COLUMNS: [&str; 6] = [
    SEARCH_CLICKS,
    SEARCH_IMPRESSIONS,
    AI_VISIBILITY,
    SOCIAL_IMPRESSIONS,
    SOCIAL_ENGAGEMENT,
    SOCIAL_FOLLOWERS,
];

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
        match row.stage {
            Stage::Visit => visits.insert(row.day, row.volume),
            Stage::Lead => leads.insert(row.day, row.volume),
            _ => None,
        };
    }
    let mut snapshots: HashMap<(String, String), f64> = HashMap::new();
    for value in series::snapshot_metrics_by_day(db, &product.id, span, &SNAPSHOT_COLUMNS).await? {
        snapshots.insert((value.day, value.metric), value.value);
    }
    let snapshot =
        |metric: &str, day: &str| snapshots.get(&(day.to_owned(), metric.to_owned())).copied();
    let count = |metric: &str, day: &str| snapshot(metric, day).map_or(0, |v| v.round() as i64);
    let on = |map: &HashMap<String, i64>, day: &str| map.get(day).copied().unwrap_or(0);
    Ok(span
        .each_day()
        .map(|day| TimeseriesRow {
            spend_cents: on(&spend, &day),
            revenue_cents: on(&revenue, &day),
            visits: on(&visits, &day),
            leads: on(&leads, &day),
            customers: on(&customers, &day),
            search_clicks: count(SEARCH_CLICKS, &day),
            search_impressions: count(SEARCH_IMPRESSIONS, &day),
            ai_visibility: snapshot(AI_VISIBILITY, &day),
            social_impressions: count(SOCIAL_IMPRESSIONS, &day),
            social_engagement: count(SOCIAL_ENGAGEMENT, &day),
            social_followers: count(SOCIAL_FOLLOWERS, &day),
            day,
        })
        .collect())
}
