//! The daily timeseries of a product.

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
use crate::services::products;
use crate::services::series::{self, TimeseriesRow};
use crate::state::AppState;

/// Reads of ingested data say how many of the product's events they do not count yet
/// (`X-Payback-Pending-Events`).
pub fn router() -> OpenApiRouter<AppState> {
    pending_events::reported(OpenApiRouter::new().routes(routes!(timeseries)))
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct SeriesParams {
    /// UTC days ending today, 1-3650; default 30.
    days: Option<i64>,
}

/// One row per UTC day of the window, zero-filled, oldest first: spend, net revenue, visit and
/// lead stage volumes, customers acquired, and what the search consoles, the AI-visibility and
/// the social sources stored that day (0 without any; `ai_visibility` null).
#[utoipa::path(get, path = "/products/{slug}/timeseries", tag = tags::REPORTS, security(("bearer" = [])),
    params(("slug" = String, Path, description = "product slug"), SeriesParams),
    responses((status = 200, body = Vec<TimeseriesRow>), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn timeseries(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
    Query(params): Query<SeriesParams>,
) -> ApiResult<Json<Vec<TimeseriesRow>>> {
    let window = Window::new(params.days, None)?;
    let product = products::find_settled(&state, caller.scope()?, &slug).await?;
    Ok(Json(series::timeseries(&state, &product, window).await?))
}
