//! Landing pages (`/products/{slug}/landing-pages`): the pages a product tracks, each with its
//! traffic from the product's visit source, its exclusion by the product's filters and its
//! analyses. One file a concern: `urls` (what a page's URL must be), `filters` (exclude
//! patterns), `traffic` (visits per path and day), `friction` (what replay sources counted on
//! a path), `discovery` (top session paths and replay URLs become pages), `analysis` with
//! `rubric` and `page_text` (the scored review of the live page). A page's detail lists the
//! recordings that started on its path (`services::recordings`, the same read as
//! `GET /products/{slug}/recordings?path=`).
//!
//! A page is found through the caller's account and the product, so another account's page
//! answers 404 as an unknown id does. Tracking and untracking a page is written to the
//! product's history in the transaction that does it; discovery's additions are not (no one
//! acted).

pub mod analysis;
pub mod discovery;
pub mod filters;
pub mod friction;
pub mod page_text;
pub mod rubric;
pub mod traffic;
pub mod urls;

use std::collections::HashMap;

use payback_domain::Timestamp;
use payback_domain::span::Span;
use payback_store::Tx;
use payback_store::landing_pages::analyses::{self, AnalysisRow};
use payback_store::landing_pages::filters::{self as filter_rows, FilterRow};
use payback_store::landing_pages::pages::{self, NewPage, PageRow};
use payback_store::products::ProductRow;
use serde::Serialize;
use serde_json::json;
use utoipa::ToSchema;

use crate::error::{ApiError, ApiResult};
use crate::input::Window;
use crate::services::acting::Caller;
use crate::services::recordings::{self, Filters, Recording};
use crate::services::{audit, products};
use crate::state::AppState;

use self::analysis::PageAnalysis;
use self::filters::ExcludeFilterView;
use self::friction::PageFriction;
use self::traffic::{PageTraffic, PageTrafficDay};

/// The most analyses a page's detail lists (newest first).
pub const MAX_ANALYSES: i64 = 50;
/// The most recordings a page's detail lists (newest first); `recordings_url` has the rest.
pub const MAX_RECORDINGS: i64 = 20;

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
    /// Rage clicks, dead clicks and script errors in the window when a replay source counted
    /// the path; null otherwise.
    pub friction: Option<PageFriction>,
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
    /// Playback pointers of the recordings that started on this path in the window, newest
    /// first, at most 20.
    pub recordings: Vec<Recording>,
    /// Where the replay provider lists this path's recordings; null without one.
    pub recordings_url: Option<String>,
}

/// What a page's view shows besides its row, read per product in one go for a list.
struct PageFigures {
    traffic: PageTraffic,
    friction: Option<PageFriction>,
    latest: Option<AnalysisRow>,
}

fn view(row: PageRow, figures: PageFigures, filters: &[FilterRow]) -> ApiResult<LandingPageView> {
    Ok(LandingPageView {
        is_excluded: filters::is_excluded(filters, &row.path),
        latest_analysis: figures.latest.map(PageAnalysis::try_from).transpose()?,
        id: row.id,
        path: row.path,
        url: row.url,
        source: row.source,
        created_at: Timestamp::from_millis(row.created_at).to_rfc3339(),
        traffic: figures.traffic,
        friction: figures.friction,
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
    let mut friction = friction::totals(state, &product, &paths, span).await?;
    let mut latest: HashMap<String, AnalysisRow> =
        analyses::latest_of_product(&state.store, &product.id)
            .await?
            .into_iter()
            .map(|row| (row.page_id.clone(), row))
            .collect();
    let mut views = Vec::with_capacity(rows.len());
    for row in rows {
        let figures = PageFigures {
            traffic: traffic.remove(&row.path).unwrap_or_else(traffic_none),
            friction: friction.remove(&row.path),
            latest: latest.remove(&row.id),
        };
        views.push(view(row, figures, &filter_rows)?);
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
    let mut tx = state.store.begin().await?;
    let row = pages::insert(&mut tx, scope, &product.id, new, MANUAL, now)
        .await?
        .ok_or_else(|| {
            ApiError::Conflict(format!("url: the path {} is tracked already", checked.path))
        })?;
    record(&mut tx, caller, &product, "landing_page.create", &row, now).await?;
    tx.commit().await?;
    let filter_rows = filter_rows::list(&state.store, scope, &product.id).await?;
    let span = Window::new(None, None)?.span(now);
    let figures = figures_of(state, &product, &row.path, span, None).await?;
    view(row, figures, &filter_rows)
}

/// One page's traffic and friction over `span`.
async fn figures_of(
    state: &AppState,
    product: &ProductRow,
    path: &str,
    span: Span,
    latest: Option<AnalysisRow>,
) -> ApiResult<PageFigures> {
    Ok(PageFigures {
        traffic: traffic::totals(state, product, &[path], span)
            .await?
            .remove(path)
            .unwrap_or_else(traffic_none),
        friction: friction::totals(state, product, &[path], span)
            .await?
            .remove(path),
        latest,
    })
}

/// Writes a page's tracking or untracking to the product's history, inside its transaction.
async fn record(
    tx: &mut Tx,
    caller: &Caller,
    product: &ProductRow,
    action: &str,
    page: &PageRow,
    now: Timestamp,
) -> ApiResult<()> {
    let payload = json!({ "page_id": page.id, "path": page.path, "url": page.url });
    audit::record_product(tx, &caller.actor(), product, action, payload, now).await
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
    let on_path = Filters {
        path: Some(page.path.clone()),
        ..Filters::default()
    };
    let recorded = recordings::report(
        state,
        &product,
        Window::new(Some(window.days), Some(MAX_RECORDINGS))?,
        &on_path,
    )
    .await?;
    let analysis_rows = analyses::of_page(&state.store, &page.id, MAX_ANALYSES).await?;
    let filter_rows = filter_rows::list(&state.store, caller.scope()?, &product.id).await?;
    let newest = analysis_rows.first().cloned();
    let figures = figures_of(state, &product, &page.path, span, newest).await?;
    let analyses = analysis_rows
        .into_iter()
        .map(PageAnalysis::try_from)
        .collect::<ApiResult<Vec<_>>>()?;
    Ok(LandingPageDetail {
        page: view(page, figures, &filter_rows)?,
        window_days: window.days,
        traffic_series,
        analyses,
        recordings: recorded.recordings,
        recordings_url: recorded.recordings_url,
    })
}

/// Stops tracking the page; its analyses go with it, the path's traffic stays.
pub async fn delete(state: &AppState, caller: &Caller, slug: &str, id: &str) -> ApiResult<()> {
    let scope = caller.scope()?;
    let product = products::find(state, scope, slug).await?;
    let mut tx = state.store.begin().await?;
    let deleted = pages::delete(&mut tx, scope, &product.id, id)
        .await?
        .ok_or_else(|| ApiError::not_found("landing page"))?;
    let now = state.clock.now();
    record(
        &mut tx,
        caller,
        &product,
        "landing_page.delete",
        &deleted,
        now,
    )
    .await?;
    tx.commit().await?;
    Ok(())
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
