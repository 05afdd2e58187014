//! The demand report of a product.

use axum::extract::{Path, State};
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiResult, ErrorBody};
use crate::extract::{Caller, Json, Query};
use crate::input::Window;
use crate::pending_events;
use crate::routes::tags;
use crate::services::demand::{self, DemandReport};
use crate::services::products;
use crate::state::AppState;

/// Its funnel counts ingested visits, leads and customers, so it says how many of the
/// product's events it does not count yet (`X-Payback-Pending-Events`), as the timeseries does.
pub fn router() -> OpenApiRouter<AppState> {
    pending_events::reported(OpenApiRouter::new().routes(routes!(demand_report)))
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct DemandParams {
    /// UTC days ending today, 1-3650; default 30.
    days: Option<i64>,
}

/// Where demand comes from before it becomes a visit: search impressions and clicks down to
/// customers (`funnel`), a zero-filled row per UTC day oldest first (`trend`, the timeseries'
/// search and AI-visibility columns), the window's search queries per source with clicks,
/// impressions and impression-weighted position (`queries`, at most 100), each SEO source's
/// latest keyword ranks (`ranks`, at most 100), AI-search visibility by engine with site health
/// (`ai_visibility`), domain authority and organic reach (`authority`), and one entry per
/// demand source kind saying whether it is connected and which parts it feeds (`sources`).
/// Without any source: zeros, empty lists and nulls, every source `connected: false`.
#[utoipa::path(get, path = "/products/{slug}/demand", tag = tags::REPORTS, security(("bearer" = [])),
    params(("slug" = String, Path, description = "product slug"), DemandParams),
    responses((status = 200, body = DemandReport), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn demand_report(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
    Query(params): Query<DemandParams>,
) -> ApiResult<Json<DemandReport>> {
    let window = Window::new(params.days, None)?;
    let product = products::find_settled(&state, caller.scope()?, &slug).await?;
    Ok(Json(demand::report(&state, &product, window).await?))
}
