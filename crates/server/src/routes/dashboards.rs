//! Stored dashboards: list, create (from a spec, a prompt, or blank), compose from a prompt
//! without saving, edit and delete. The rules live in `services/dashboards` and
//! `payback_domain::dashboard_spec`; these handlers only read the request and answer.

use axum::extract::{Path, State};
use payback_domain::dashboard_spec::DashboardSpec;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiResult, ErrorBody};
use crate::extract::json::double_option;
use crate::extract::{Caller, Json};
use crate::services::dashboards::composer::ComposedDashboard;
use crate::services::dashboards::{self, DashboardEditInput, DashboardView, NewDashboardInput};
use crate::state::AppState;

/// The OpenAPI tag of these routes.
const TAG: &str = "dashboards";

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_dashboards, create_dashboard))
        .routes(routes!(generate_dashboard))
        .routes(routes!(update_dashboard))
        .routes(routes!(delete_dashboard))
}

/// The product's dashboards, oldest first (at most 200: a product holds no more).
#[utoipa::path(get, path = "/products/{slug}/dashboards", tag = TAG, security(("bearer" = [])),
    params(("slug" = String, Path, description = "product slug")),
    responses((status = 200, body = Vec<DashboardView>), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn list_dashboards(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
) -> ApiResult<Json<Vec<DashboardView>>> {
    Ok(Json(dashboards::list(&state, &caller, &slug).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateDashboardRequest {
    /// 1-80 characters, not blank; stored trimmed.
    name: String,
    /// At most 300 characters.
    description: Option<String>,
    /// A full spec, stored exactly as sent. Given, `prompt` is ignored.
    spec: Option<DashboardSpec>,
    /// 3-500 characters, not blank: composed into the spec when no `spec` is given (as
    /// `POST /products/{slug}/dashboards/generate` would). Ignored, and not checked, next to a
    /// `spec`. With neither, the dashboard starts blank.
    prompt: Option<String>,
}

/// Creates a dashboard: a given spec exactly as sent, else the one the prompt composes, else a
/// blank one (no widgets). Audited as `dashboard.create`. 409 when the product already holds
/// 200 dashboards.
#[utoipa::path(post, path = "/products/{slug}/dashboards", tag = TAG, security(("bearer" = [])),
    params(("slug" = String, Path, description = "product slug")), request_body = CreateDashboardRequest,
    responses((status = 200, body = DashboardView), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody, description = "the product holds 200 dashboards already")))]
async fn create_dashboard(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
    Json(body): Json<CreateDashboardRequest>,
) -> ApiResult<Json<DashboardView>> {
    let input = NewDashboardInput {
        name: body.name,
        description: body.description,
        spec: body.spec,
        prompt: body.prompt,
    };
    Ok(Json(
        dashboards::create(&state, &caller, &slug, input).await?,
    ))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct GenerateDashboardRequest {
    /// 3-500 characters, not blank.
    prompt: String,
}

/// Composes a spec from the prompt's words and close synonyms (no language model: the same
/// prompt always gives the same spec), saving nothing. `matched` lists the words used.
#[utoipa::path(post, path = "/products/{slug}/dashboards/generate", tag = TAG, security(("bearer" = [])),
    params(("slug" = String, Path, description = "product slug")), request_body = GenerateDashboardRequest,
    responses((status = 200, body = ComposedDashboard), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
async fn generate_dashboard(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
    Json(body): Json<GenerateDashboardRequest>,
) -> ApiResult<Json<ComposedDashboard>> {
    Ok(Json(
        dashboards::generate(&state, &caller, &slug, &body.prompt).await?,
    ))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct UpdateDashboardRequest {
    /// 1-80 characters, not blank; stored trimmed.
    name: Option<String>,
    /// At most 300 characters; null clears it, absent leaves it.
    #[serde(default, deserialize_with = "double_option")]
    #[schema(value_type = Option<String>)]
    description: Option<Option<String>>,
    /// Replaces the whole spec, stored exactly as sent.
    spec: Option<DashboardSpec>,
}

/// Edits a dashboard's name, description or spec (at least one). Audited as
/// `dashboard.update`. Another account's dashboard answers 404.
#[utoipa::path(post, path = "/dashboards/{id}", tag = TAG, security(("bearer" = [])),
    params(("id" = String, Path, description = "dashboard id")), request_body = UpdateDashboardRequest,
    responses((status = 200, body = DashboardView), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
async fn update_dashboard(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    Json(body): Json<UpdateDashboardRequest>,
) -> ApiResult<Json<DashboardView>> {
    let edit = DashboardEditInput {
        name: body.name,
        description: body.description,
        spec: body.spec,
    };
    Ok(Json(dashboards::update(&state, &caller, &id, edit).await?))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct DashboardDeleted {
    ok: bool,
}

/// Deletes a dashboard for good (the history keeps what it was). Audited as
/// `dashboard.delete`. Another account's dashboard, or one already deleted, answers 404.
#[utoipa::path(post, path = "/dashboards/{id}/delete", tag = TAG, security(("bearer" = [])),
    params(("id" = String, Path, description = "dashboard id")),
    responses((status = 200, body = DashboardDeleted), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn delete_dashboard(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<DashboardDeleted>> {
    dashboards::delete(&state, &caller, &id).await?;
    Ok(Json(DashboardDeleted { ok: true }))
}
