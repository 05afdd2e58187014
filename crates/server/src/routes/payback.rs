//! Routes: cohort payback.

use axum::extract::{Path, State};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiResult, ErrorBody};
use crate::extract::{Caller, Json};
use crate::pending_events;
use crate::routes::tags;
use crate::services::payback::{self, PaybackReport};
use crate::state::AppState;

/// Reads of ingested data say how many of the product's events they do not count yet
/// (`X-Payback-Pending-Events`).
pub fn router() -> OpenApiRouter<AppState> {
    pending_events::reported(OpenApiRouter::new().routes(routes!(payback_report)))
}

/// Weekly acquisition cohorts with cumulative revenue per cohort-day against the week's spend,
/// and the last 90 days' CAC per first-touch channel.
#[utoipa::path(get, path = "/products/{slug}/payback", tag = tags::REPORTS, security(("bearer" = [])),
    params(("slug" = String, Path, description = "product slug")),
    responses((status = 200, body = PaybackReport), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn payback_report(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
) -> ApiResult<Json<PaybackReport>> {
    Ok(Json(payback::report(&state, &caller, &slug).await?))
}
