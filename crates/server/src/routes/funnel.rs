//! The funnel: stage x channel volumes, daily stage volumes, and the funnel definition.

use axum::extract::{Path, State};
use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiResult, ErrorBody};
use crate::extract::{Caller, Json, Query};
use crate::input::Window;
use crate::pending_events;
use crate::routes::tags;
use crate::services::funnel::{
    self, FunnelDefinition, FunnelRow, FunnelSeriesRow, SavedDefinition, StepInput,
};
use crate::services::products;
use crate::state::AppState;

/// Reads of ingested data say how many of the product's events they do not count yet
/// (`X-Payback-Pending-Events`).
pub fn router() -> OpenApiRouter<AppState> {
    pending_events::reported(
        OpenApiRouter::new()
            .routes(routes!(stage_channels))
            .routes(routes!(stage_series))
            .routes(routes!(get_definition, save_definition)),
    )
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct FunnelParams {
    /// UTC days ending today, 1-3650; default 30.
    days: Option<i64>,
}

/// Stage x channel rows over the window. Identified traffic counts under the identity's
/// first-touch channel (volume = distinct identities), identity-less events under their own
/// channel (volume = events), source aggregates under a null channel. Canonical stage order,
/// then volume (largest first), then channel (null last).
#[utoipa::path(get, path = "/products/{slug}/funnel", tag = tags::FUNNEL, security(("bearer" = [])),
    params(("slug" = String, Path, description = "product slug"), FunnelParams),
    responses((status = 200, body = Vec<FunnelRow>), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn stage_channels(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
    Query(params): Query<FunnelParams>,
) -> ApiResult<Json<Vec<FunnelRow>>> {
    let window = Window::new(params.days, None)?;
    let product = products::find_settled(&state, caller.scope()?, &slug).await?;
    Ok(Json(funnel::report(&state, &product, window).await?))
}

/// Stage volume per UTC day, oldest first, then canonical stage order; days without events
/// are absent.
#[utoipa::path(get, path = "/products/{slug}/funnel/series", tag = tags::FUNNEL, security(("bearer" = [])),
    params(("slug" = String, Path, description = "product slug"), FunnelParams),
    responses((status = 200, body = Vec<FunnelSeriesRow>), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn stage_series(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
    Query(params): Query<FunnelParams>,
) -> ApiResult<Json<Vec<FunnelSeriesRow>>> {
    let window = Window::new(params.days, None)?;
    let product = products::find_settled(&state, caller.scope()?, &slug).await?;
    Ok(Json(funnel::series(&state, &product, window).await?))
}

/// The funnel definition in effect (the built-in ladder while none is saved), with every
/// canonical stage's last-30-day volume, events and sources.
#[utoipa::path(get, path = "/products/{slug}/funnel/definition", tag = tags::FUNNEL, security(("bearer" = [])),
    params(("slug" = String, Path, description = "product slug")),
    responses((status = 200, body = FunnelDefinition), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn get_definition(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
) -> ApiResult<Json<FunnelDefinition>> {
    let product = products::find_settled(&state, caller.scope()?, &slug).await?;
    Ok(Json(funnel::definition(&state, &product).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct SaveDefinitionRequest {
    /// 2-10 steps; each stage canonical and used once; labels 1-40 characters (trimmed).
    #[schema(value_type = Vec<StepInput>, required = true)]
    steps: Option<Vec<StepInput>>,
}

/// Saves the funnel definition; used at once by the funnel page and the health checks.
/// Audited as `funnel.definition` with the steps before and after.
#[utoipa::path(post, path = "/products/{slug}/funnel/definition", tag = tags::FUNNEL, security(("bearer" = [])),
    params(("slug" = String, Path, description = "product slug")), request_body = SaveDefinitionRequest,
    responses((status = 200, body = SavedDefinition), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn save_definition(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
    Json(body): Json<SaveDefinitionRequest>,
) -> ApiResult<Json<SavedDefinition>> {
    let product = products::find_settled(&state, caller.scope()?, &slug).await?;
    Ok(Json(
        funnel::save_definition(&state, &caller, &product, body.steps).await?,
    ))
}
