//! Landing pages (`/products/{slug}/landing-pages`): the pages a product tracks, each with its
//! traffic from the product's visit source, its exclusion by the product's filters and its
//! analyses. One file a concern: `urls` (what a page's URL must be), `filters` (exclude
//! patterns), `traffic` (visits per path and day), `discovery` (top session paths become
//! pages), `analysis` with `rubric` and `page_text` (the scored review of the live page).
//!
//! A page is found through the caller's account and the product, so another account's page
//! answers 404 as an unknown id does. `friction` stays null and `recordings` empty until a
//! replay source counts the path (none is connectable yet).

pub mod analysis;
pub mod discovery;
pub mod filters;
pub mod page_text;
pub mod rubric;
pub mod traffic;
pub mod urls;

use std::collections::HashMap;

use payback_domain::Timestamp;
use payback_store::landing_pages::analyses::{self, AnalysisRow};
use payback_store::landing_pages::filters::{self as filter_rows, FilterRow};
use payback_store::landing_pages::pages::{self, NewPage, PageRow};
use payback_store::products::ProductRow;
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

use crate::error::{ApiError, ApiResult};
use crate::input::Window;
use crate::services::acting::Caller;
use crate::services::products;
use crate::state::AppState;

use self::analysis::PageAnalysis;
use self::filters::ExcludeFilterView;
use self::traffic::{PageTraffic, PageTrafficDay};

/// The most analyses a page's detail lists (newest first).
pub const MAX_ANALYSES: i64 = 50;

/// `manual`: a page added by hand.
pub const MANUAL: &str = "manual";

/// The spec's landing page.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct LandingPageView {
    pub id: String,
    /// The URL's path without query, fragment or trailing `/`.
    pub path: String,
    pub url: String,
    /// `manual`, `analytics_a`, `replay_a` or `product_analytics_a`.
    pub source: String,
    pub created_at: String,
    pub traffic: PageTraffic,
    pub latest_analysis: Option<PageAnalysis>,
    /// Rage clicks, dead clicks and script errors in the window when a replay source counts
    /// the path; null otherwise.
    #[schema(value_type = Option<Object>)]
    pub friction: Option<Value>,
    /// Whether an enabled filter matches the path.
    pub is_excluded: bool,
}

/// `GET /products/{slug}/landing-pages`.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct LandingPageList {
    pub window_days: i64,
    /// Oldest first.
    pub pages: Vec<LandingPageView>,
    /// The product's exclude filters, oldest first.
    pub filters: Vec<ExcludeFilterView>,
}

/// `GET /products/{slug}/landing-pages/{id}`.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct LandingPageDetail {
    #[serde(flatten)]
    pub page: LandingPageView,
    pub window_days: i64,
    /// One row per window day, zero-filled, oldest first.
    pub traffic_series: Vec<PageTrafficDay>,
    /// Newest first, at most 50.
    pub analyses: Vec<PageAnalysis>,
    /// Playback pointers of recordings on this path (none until a replay source is connected).
    #[schema(value_type = Vec<Object>)]
    pub recordings: Vec<Value>,
    /// Where the replay provider lists this path's recordings; null without one.
    pub recordings_url: Option<String>,
}

fn view(
    row: PageRow,
    traffic: PageTraffic,
    latest: Option<AnalysisRow>,
    filters: &[FilterRow],
) -> ApiResult<LandingPageView> {
    Ok(LandingPageView {
        is_excluded: filters::is_excluded(filters, &row.path),
        latest_analysis: latest.map(PageAnalysis::try_from).transpose()?,
        id: row.id,
        path: row.path,
        url: row.url,
        source: row.source,
        created_at: Timestamp::from_millis(row.created_at).to_rfc3339(),
        traffic,
        friction: None,
    })
}

/// The product's pages with their traffic over `days`; discovers the window's top session
/// paths first.
pub async fn list(
    state: &AppState,
    caller: &Caller,
    slug: &str,
    days: Option<i64>,
) -> ApiResult<LandingPageList> {
    let window = Window::new(days, None)?;
    let scope = caller.scope()?;
    let product = products::find_settled(state, scope, slug).await?;
    let span = window.span(state.clock.now());
    discovery::discover(state, &product, span).await?;
    let rows = pages::list(&state.store, scope, &product.id).await?;
    let filter_rows = filter_rows::list(&state.store, scope, &product.id).await?;
    let paths: Vec<&str> = rows.iter().map(|row| row.path.as_str()).collect();
    let mut traffic = traffic::totals(state, &product, &paths, span).await?;
    let mut latest: HashMap<String, AnalysisRow> =
        analyses::latest_of_product(&state.store, &product.id)
            .await?
            .into_iter()
            .map(|row| (row.page_id.clone(), row))
            .collect();
    let mut views = Vec::with_capacity(rows.len());
    for row in rows {
        let page_traffic = traffic.remove(&row.path).unwrap_or_else(traffic_none);
        let newest = latest.remove(&row.id);
        views.push(view(row, page_traffic, newest, &filter_rows)?);
    }
    Ok(LandingPageList {
        window_days: window.days,
        pages: views,
        filters: filter_rows
            .into_iter()
            .map(ExcludeFilterView::from)
            .collect(),
    })
}

fn traffic_none() -> PageTraffic {
    PageTraffic {
        visits: 0,
        previous_visits: 0,
        change_pct: None,
    }
}

/// Tracks the page at `url` (`source: manual`); 409 when the product tracks its path already.
pub async fn create(
    state: &AppState,
    caller: &Caller,
    slug: &str,
    url: &str,
) -> ApiResult<LandingPageView> {
    // The URL's shape first (nothing looked up for a malformed one), then its domain.
    urls::check_page_url(url, None)?;
    let scope = caller.scope()?;
    let product = products::find_settled(state, scope, slug).await?;
    let checked = urls::check_page_url(url, product.domain.as_deref())?;
    let new = NewPage {
        path: &checked.path,
        url: &checked.url,
    };
    let now = state.clock.now();
    let row = pages::insert(&state.store, scope, &product.id, new, MANUAL, now)
        .await?
        .ok_or_else(|| {
            ApiError::Conflict(format!("url: the path {} is tracked already", checked.path))
        })?;
    let filter_rows = filter_rows::list(&state.store, scope, &product.id).await?;
    let span = Window::new(None, None)?.span(now);
    let page_traffic = traffic::totals(state, &product, &[row.path.as_str()], span)
        .await?
        .remove(&row.path)
        .unwrap_or_else(traffic_none);
    view(row, page_traffic, None, &filter_rows)
}

/// A page of the product found through the caller's account; 404 otherwise.
async fn find_page(
    state: &AppState,
    caller: &Caller,
    slug: &str,
    id: &str,
) -> ApiResult<(ProductRow, PageRow)> {
    let scope = caller.scope()?;
    let product = products::find_settled(state, scope, slug).await?;
    let page = pages::find(&state.store, scope, &product.id, id)
        .await?
        .ok_or_else(|| ApiError::not_found("landing page"))?;
    Ok((product, page))
}

/// One page with its daily series over `days` and its analyses.
pub async fn detail(
    state: &AppState,
    caller: &Caller,
    slug: &str,
    id: &str,
    days: Option<i64>,
) -> ApiResult<LandingPageDetail> {
    let window = Window::new(days, None)?;
    let (product, page) = find_page(state, caller, slug, id).await?;
    let span = window.span(state.clock.now());
    let traffic_series = traffic::series(state, &product, &page.path, span).await?;
    let page_traffic = traffic::totals(state, &product, &[page.path.as_str()], span)
        .await?
        .remove(&page.path)
        .unwrap_or_else(traffic_none);
    let analysis_rows = analyses::of_page(&state.store, &page.id, MAX_ANALYSES).await?;
    let filter_rows = filter_rows::list(&state.store, caller.scope()?, &product.id).await?;
    let newest = analysis_rows.first().cloned();
    let analyses = analysis_rows
        .into_iter()
        .map(PageAnalysis::try_from)
        .collect::<ApiResult<Vec<_>>>()?;
    Ok(LandingPageDetail {
        page: view(page, page_traffic, newest, &filter_rows)?,
        window_days: window.days,
        traffic_series,
        analyses,
        recordings: Vec::new(),
        recordings_url: None,
    })
}

/// Stops tracking the page; its analyses go with it, the path's traffic stays.
pub async fn delete(state: &AppState, caller: &Caller, slug: &str, id: &str) -> ApiResult<()> {
    let scope = caller.scope()?;
    let product = products::find(state, scope, slug).await?;
    let mut tx = state.store.begin().await?;
    let deleted = pages::delete(&mut tx, scope, &product.id, id).await?;
    tx.commit().await?;
    deleted
        .map(|_| ())
        .ok_or_else(|| ApiError::not_found("landing page"))
}

/// Scores the live page (`analysis`).
pub async fn analyze(
    state: &AppState,
    caller: &Caller,
    slug: &str,
    id: &str,
) -> ApiResult<PageAnalysis> {
    let scope = caller.scope()?;
    let product = products::find(state, scope, slug).await?;
    let page = pages::find(&state.store, scope, &product.id, id)
        .await?
        .ok_or_else(|| ApiError::not_found("landing page"))?;
    analysis::analyze(state, &product, &page).await
}
