//! The account's team.

use axum::extract::{Path, State};
use payback_domain::MemberRole;
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiResult, ErrorBody};
use crate::extract::{Caller, Json, Owner, Query};
use crate::input::{LimitParams, limits};
use crate::routes::tags;
use crate::services::team::{self, Invitation, TeamMember};
use crate::state::AppState;
use crate::views::Ok;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_team))
        .routes(routes!(invite))
        .routes(routes!(disable))
        .routes(routes!(enable))
        .routes(routes!(set_role))
}

/// Members of the account, oldest first. At most `limit` members (default and maximum 500;
/// beyond: 400 naming `limit`).
#[utoipa::path(get, path = "/team", tag = tags::TEAM, security(("bearer" = [])), params(("limit" = Option<i64>, Query, description = "At most this many members, the oldest; 1-500, default 500.")),
    responses((status = 200, body = Vec<TeamMember>), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
async fn list_team(
    State(state): State<AppState>,
    caller: Caller,
    Query(params): Query<LimitParams>,
) -> ApiResult<Json<Vec<TeamMember>>> {
    let limit = limits::TEAM.check(params.limit)?;
    Ok(Json(team::list(&state, &caller, limit).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct InviteRequest {
    email: String,
    /// Default `member`.
    member_role: Option<MemberRole>,
}

/// Invites a person by email (owners only). The single-use link is valid 7 days.
#[utoipa::path(post, path = "/team/invites", tag = tags::TEAM, security(("bearer" = [])), request_body = InviteRequest,
    responses((status = 200, body = Invitation), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn invite(
    State(state): State<AppState>,
    Owner(caller, owner): Owner,
    Json(body): Json<InviteRequest>,
) -> ApiResult<Json<Invitation>> {
    let role = body.member_role.unwrap_or(MemberRole::Member);
    Ok(Json(
        team::invite(&state, &caller, &owner, &body.email, role).await?,
    ))
}

/// Disables a member and revokes their sessions at once (owners only).
#[utoipa::path(post, path = "/team/{id}/disable", tag = tags::TEAM, security(("bearer" = [])),
    params(("id" = String, Path, description = "the member's person id")),
    responses((status = 200, body = Ok), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn disable(
    State(state): State<AppState>,
    Owner(caller, owner): Owner,
    Path(id): Path<String>,
) -> ApiResult<Json<Ok>> {
    team::disable(&state, &caller, &owner, &id).await?;
    Ok(Json(Ok::YES))
}

/// Enables a disabled member (owners only): `active` if they had accepted, else `invited`.
#[utoipa::path(post, path = "/team/{id}/enable", tag = tags::TEAM, security(("bearer" = [])),
    params(("id" = String, Path, description = "the member's person id")),
    responses((status = 200, body = Ok), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn enable(
    State(state): State<AppState>,
    Owner(caller, _owner): Owner,
    Path(id): Path<String>,
) -> ApiResult<Json<Ok>> {
    team::enable(&state, &caller, &id).await?;
    Ok(Json(Ok::YES))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct RoleRequest {
    member_role: MemberRole,
}

/// Changes a member's role (owners only); the last active owner cannot be demoted.
#[utoipa::path(post, path = "/team/{id}/role", tag = tags::TEAM, security(("bearer" = [])), request_body = RoleRequest,
    params(("id" = String, Path, description = "the member's person id")),
    responses((status = 200, body = Ok), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn set_role(
    State(state): State<AppState>,
    Owner(caller, owner): Owner,
    Path(id): Path<String>,
    Json(body): Json<RoleRequest>,
) -> ApiResult<Json<Ok>> {
    team::set_role(&state, &caller, &owner, &id, body.member_role).await?;
    Ok(Json(Ok::YES))
}
