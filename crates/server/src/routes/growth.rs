//! Routes: the product's ranked growth actions and the coding-agent prompt of each. The rules
//! live in `services/growth`; these handlers read the request and answer.

use axum::extract::{Path, State};
use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiResult, ErrorBody};
use crate::extract::{Caller, Json, Query};
use crate::pending_events;
use crate::routes::tags;
use crate::services::growth::{self, GrowthActionList, PromptResult};
use crate::state::AppState;

/// Reads of ingested data: they say how many of the product's events they do not count yet
/// (`X-Payback-Pending-Events`).
pub fn router() -> OpenApiRouter<AppState> {
    pending_events::reported(
        OpenApiRouter::new()
            .routes(routes!(growth_actions))
            .routes(routes!(growth_prompt)),
    )
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct GrowthActionsParams {
    /// The N UTC days ending today, 1-3650; default 30.
    days: Option<i64>,
    /// The coding agent whose prompts the client will ask for (`agent_a`..`agent_e`); it only
    /// tags the actions.
    tool: Option<String>,
}

/// The product's growth actions, ranked (deterministic: failing situations first, then the
/// estimated revenue impact, then what the other numbers rest on): fix tracking gaps, stitch
/// identities, move budget from channels whose CAC exceeds LTV to those paying back, fill an
/// empty funnel step, complete the URL suffix, connect a missing source. Each has a stable id,
/// the numbers behind it, an estimated impact in cents (null when it cannot be estimated
/// honestly; docs/health-and-growth.md "Growth actions" gives each formula) and links to act. Spend changes are
/// never executed here.
#[utoipa::path(get, path = "/products/{slug}/growth-actions", tag = tags::REPORTS, security(("bearer" = [])),
    params(("slug" = String, Path, description = "product slug"), GrowthActionsParams),
    responses((status = 200, body = GrowthActionList), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn growth_actions(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
    Query(params): Query<GrowthActionsParams>,
) -> ApiResult<Json<GrowthActionList>> {
    Ok(Json(
        growth::list(&state, &caller, &slug, params.days, params.tool.as_deref()).await?,
    ))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct GrowthPromptRequest {
    /// The coding agent to shape the prompt for (`agent_a` Claude Code, `agent_b` OpenAI Codex
    /// CLI, `agent_c` Cursor, `agent_d` GitHub Copilot coding agent, `agent_e` Aider); default
    /// `agent_a`.
    tool: Option<String>,
    /// The window the action was ranked over, 1-3650; default 30.
    days: Option<i64>,
}

/// A ready-to-paste prompt for a coding agent: the product, its stack where known, the exact
/// change and how to verify it with Payback's own endpoints. 404 when the product or the
/// action id is unknown, or the action is no longer ranked.
#[utoipa::path(post, path = "/products/{slug}/growth-actions/{id}/prompt", tag = tags::REPORTS, security(("bearer" = [])),
    params(("slug" = String, Path, description = "product slug"),
        ("id" = String, Path, description = "a growth action's id, as listed")),
    request_body = GrowthPromptRequest,
    responses((status = 200, body = PromptResult), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn growth_prompt(
    State(state): State<AppState>,
    caller: Caller,
    Path((slug, id)): Path<(String, String)>,
    Json(body): Json<GrowthPromptRequest>,
) -> ApiResult<Json<PromptResult>> {
    Ok(Json(
        growth::prompt(&state, &caller, &slug, &id, body.tool.as_deref(), body.days).await?,
    ))
}
