//! Account API keys.

use axum::extract::{Path, State};
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiResult, ErrorBody};
use crate::extract::{Caller, Json, Query};
use crate::input::{LimitParams, limits};
use crate::routes::tags;
use crate::services::keys::{self, ApiKeyItem, CreatedKey};
use crate::state::AppState;
use crate::views::Ok;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_keys, create_key))
        .routes(routes!(revoke_key))
}

/// Live keys of the account (prefixes only), each with its creator (`created_by`, an addition
/// to the spec: the person it answers to, or `null` for keys no person created).
/// At most `limit` keys, oldest first (default and maximum 500; beyond: 400 naming `limit`).
#[utoipa::path(get, path = "/auth/keys", tag = tags::AUTH, security(("bearer" = [])), params(("limit" = Option<i64>, Query, description = "At most this many keys, the oldest; 1-500, default 500.")),
    responses((status = 200, body = Vec<ApiKeyItem>), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
async fn list_keys(
    State(state): State<AppState>,
    caller: Caller,
    Query(params): Query<LimitParams>,
) -> ApiResult<Json<Vec<ApiKeyItem>>> {
    let limit = limits::KEYS.check(params.limit)?;
    Ok(Json(keys::list(&state, &caller, limit).await?))
}

#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct CreateKeyRequest {
    /// 1-80 characters; default `default`.
    name: Option<String>,
}

/// Creates a key; the full key is in this response only.
#[utoipa::path(post, path = "/auth/keys", tag = tags::AUTH, security(("bearer" = [])), request_body = CreateKeyRequest,
    responses((status = 200, body = CreatedKey), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
async fn create_key(
    State(state): State<AppState>,
    caller: Caller,
    Json(body): Json<CreateKeyRequest>,
) -> ApiResult<Json<CreatedKey>> {
    Ok(Json(
        keys::create(&state, &caller, body.name.as_deref()).await?,
    ))
}

/// Revokes a key at once.
#[utoipa::path(post, path = "/auth/keys/{id}/revoke", tag = tags::AUTH, security(("bearer" = [])),
    params(("id" = String, Path, description = "API key id")),
    responses((status = 200, body = Ok), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn revoke_key(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<Ok>> {
    keys::revoke(&state, &caller, &id).await?;
    Ok(Json(Ok::YES))
}
