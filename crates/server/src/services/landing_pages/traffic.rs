//! A page's `traffic` (the window against the window of equal length before it) and
//! `traffic_series` (one row per window day), from the product's visit source: a source kind
//! that counts sessions per landing path (`landing_sessions` snapshots) when the product has
//! one, else first-party `visit` events by `attribution.landing_url` (the fold's
//! `landing_path_days`). Either way the read is a few rows per path and day.

use std::collections::{BTreeMap, HashMap};

use payback_domain::span::Span;
use payback_store::connections;
use payback_store::landing_pages::traffic::{self as store, PathDay};
use payback_store::products::ProductRow;
use serde::Serialize;
use utoipa::ToSchema;

use crate::error::ApiResult;
use crate::state::AppState;

/// The source kinds whose `landing_sessions` count a product's visits, in order of precedence:
/// the first one connected (or that wrote any) wins: GA4's sessions, else PostHog's sessions by
/// entry path.
pub const SESSION_KINDS: [&str; 2] = ["analytics_a", "product_analytics_a"];

/// Where a product's visits per landing path come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VisitSource {
    /// A source kind's `landing_sessions`.
    Sessions(&'static str),
    /// First-party `visit` events.
    FirstParty,
}

/// The spec's `traffic`.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct PageTraffic {
    /// Visits in the window.
    pub visits: i64,
    /// Visits in the window of equal length before it.
    pub previous_visits: i64,
    /// (visits − previous) / previous · 100; null when there were none before.
    pub change_pct: Option<f64>,
}

impl PageTraffic {
    fn new(visits: i64, previous_visits: i64) -> Self {
        let change_pct = (previous_visits != 0)
            .then(|| (visits - previous_visits) as f64 / previous_visits as f64 * 100.0);
        Self {
            visits,
            previous_visits,
            change_pct,
        }
    }
}

/// One day of a page's series.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct PageTrafficDay {
    /// `YYYY-MM-DD`.
    pub day: String,
    pub visits: i64,
}

pub async fn visit_source(state: &AppState, product: &ProductRow) -> ApiResult<VisitSource> {
    for kind in SESSION_KINDS {
        let connected = connections::find(&state.store, &product.id, kind)
            .await?
            .is_some();
        if connected || store::has_sessions(&state.store, &product.id, kind).await? {
            return Ok(VisitSource::Sessions(kind));
        }
    }
    Ok(VisitSource::FirstParty)
}

/// Visits per path and day from `first_day` to `last_day`, from the product's visit source.
async fn days(
    state: &AppState,
    product: &ProductRow,
    paths: &[&str],
    span: Span,
) -> ApiResult<Vec<PathDay>> {
    let (first, last) = (span.first_day(), span.last_day());
    let rows = match visit_source(state, product).await? {
        VisitSource::Sessions(kind) => {
            store::session_days(&state.store, &product.id, kind, paths, &first, &last).await?
        }
        VisitSource::FirstParty => {
            store::visit_days(&state.store, &product.id, paths, &first, &last).await?
        }
    };
    Ok(rows)
}

/// Each path's traffic over `span` against the span before it (one read for both).
pub async fn totals(
    state: &AppState,
    product: &ProductRow,
    paths: &[&str],
    span: Span,
) -> ApiResult<HashMap<String, PageTraffic>> {
    let previous = span.previous();
    let both = Span {
        start: previous.start,
        end: span.end,
    };
    let first_current = span.first_day();
    let mut sums: HashMap<String, (i64, i64)> = HashMap::new();
    for row in days(state, product, paths, both).await? {
        let sum = sums.entry(row.path).or_default();
        if row.day >= first_current {
            sum.0 += row.visits;
        } else {
            sum.1 += row.visits;
        }
    }
    Ok(paths
        .iter()
        .map(|path| {
            let (visits, previous) = sums.get(*path).copied().unwrap_or_default();
            ((*path).to_owned(), PageTraffic::new(visits, previous))
        })
        .collect())
}

/// One path's visits per day of `span`, zero-filled, oldest first.
pub async fn series(
    state: &AppState,
    product: &ProductRow,
    path: &str,
    span: Span,
) -> ApiResult<Vec<PageTrafficDay>> {
    let by_day: BTreeMap<String, i64> = days(state, product, &[path], span)
        .await?
        .into_iter()
        .map(|row| (row.day, row.visits))
        .collect();
    Ok(span
        .each_day()
        .map(|day| PageTrafficDay {
            visits: by_day.get(&day).copied().unwrap_or_default(),
            day,
        })
        .collect())
}
