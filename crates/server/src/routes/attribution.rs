//! Routes: the attribution report, its sales list, and the ads report.

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
use crate::services::attribution::{self, AdsReport, AttributionReport, SalesList};
use crate::state::AppState;

/// Reads of ingested data say how many of the product's events they do not count yet
/// (`X-Payback-Pending-Events`).
pub fn router() -> OpenApiRouter<AppState> {
    pending_events::reported(
        OpenApiRouter::new()
            .routes(routes!(report))
            .routes(routes!(sales))
            .routes(routes!(ads)),
    )
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ReportParams {
    /// The N UTC days ending today, 1-3650; default 30.
    days: Option<i64>,
}

/// Spend, first- and last-touch revenue, customers, CAC and ROAS per channel, with
/// `unattributed` as its own row, totals, the primary goal and coverage.
#[utoipa::path(get, path = "/products/{slug}/attribution", tag = tags::REPORTS, security(("bearer" = [])),
    params(("slug" = String, Path, description = "product slug"), ReportParams),
    responses((status = 200, body = AttributionReport), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn report(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
    Query(params): Query<ReportParams>,
) -> ApiResult<Json<AttributionReport>> {
    let window = Window::new(params.days, None)?;
    Ok(Json(
        attribution::report(&state, &caller, &slug, window).await?,
    ))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SalesParams {
    /// The N UTC days ending today, 1-3650; default 30.
    days: Option<i64>,
    /// Only sales whose first touch is this channel; `unattributed` for those with none.
    channel: Option<String>,
    /// At most this many sales, 1-1000; default 100.
    limit: Option<i64>,
}

/// Revenue rows of the window, newest first, with first- and last-touch channels.
#[utoipa::path(get, path = "/products/{slug}/attribution/sales", tag = tags::REPORTS, security(("bearer" = [])),
    params(("slug" = String, Path, description = "product slug"), SalesParams),
    responses((status = 200, body = SalesList), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn sales(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
    Query(params): Query<SalesParams>,
) -> ApiResult<Json<SalesList>> {
    let window = Window::new(params.days, params.limit)?;
    let channel = params.channel.as_deref();
    Ok(Json(
        attribution::sales(&state, &caller, &slug, window, channel).await?,
    ))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct AdsParams {
    /// The N UTC days ending today, 1-3650; default 30.
    days: Option<i64>,
    /// `campaign` (default), `ad_group`, `keyword` or `ad`.
    level: Option<String>,
    /// At most this many dimension rows (the sentinel rows always follow), 1-1000; default 100.
    limit: Option<i64>,
}

/// Spend, clicks, revenue, customers, CAC and ROAS per campaign, ad group, keyword or ad;
/// revenue joins through the identity's last paid touch. Sentinel rows: `no_dimension` and
/// `unattributed`.
#[utoipa::path(get, path = "/products/{slug}/attribution/ads", tag = tags::REPORTS, security(("bearer" = [])),
    params(("slug" = String, Path, description = "product slug"), AdsParams),
    responses((status = 200, body = AdsReport), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn ads(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
    Query(params): Query<AdsParams>,
) -> ApiResult<Json<AdsReport>> {
    let window = Window::new(params.days, params.limit)?;
    let level = params.level.as_deref();
    Ok(Json(
        attribution::ads(&state, &caller, &slug, window, level).await?,
    ))
}
