//! Connections: the inventory, test, sync now and disconnect for any kind, and the pipeline's
//! health. Each kind's connect is its plug-in's (`crate::kinds`).

use axum::extract::{Path, State};
use payback_domain::connection::ConnectionKind;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{Caller, Json, Query};
use crate::input::{LimitParams, limits};
use crate::pending_events;
use crate::routes::tags;
use crate::services::connections::{self, ConnectionView, Disconnected, SyncStarted, TestOutcome};
use crate::services::health::{self, PipelineHealth};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list))
        .routes(routes!(test))
        .routes(routes!(sync))
        .routes(routes!(disconnect))
        .merge(pending_events::reported(
            OpenApiRouter::new().routes(routes!(health)),
        ))
}

/// Pipeline health: background jobs with consecutive failures, every source's freshness
/// (tracking and each connection), the queue's backlog, per product the share of the last 30
/// days' revenue that cannot be attributed (healthy under 10%, warn 10-25%, fail over 25%), and
/// each product's worst status. Operators see every account's. Like a report it waits for the
/// fold at most `PAYBACK_READ_WAIT_MS` and answers `X-Payback-Pending-Events`: the events of the
/// listed products it does not count yet.
#[utoipa::path(get, path = "/health", tag = tags::CONNECTIONS, security(("bearer" = [])),
    responses((status = 200, body = PipelineHealth), (status = 401, body = ErrorBody)))]
async fn health(State(state): State<AppState>, caller: Caller) -> ApiResult<Json<PipelineHealth>> {
    Ok(Json(health::report(&state, &caller).await?))
}

/// Every connection of the caller's account (operators: every account's), oldest first, with
/// status, redacted config, last sync, last error, sync progress and backfill depth. Secrets
/// never appear. At most `limit` connections (default and maximum 500; beyond: 400 naming
/// `limit`).
#[utoipa::path(get, path = "/connections", tag = tags::CONNECTIONS, security(("bearer" = [])), params(("limit" = Option<i64>, Query, description = "At most this many connections, the oldest; 1-500, default 500.")),
    responses((status = 200, body = Vec<ConnectionView>), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
async fn list(
    State(state): State<AppState>,
    caller: Caller,
    Query(params): Query<LimitParams>,
) -> ApiResult<Json<Vec<ConnectionView>>> {
    let limit = limits::CONNECTIONS.check(params.limit)?;
    Ok(Json(connections::list(&state, &caller, limit).await?))
}

/// One live read with the stored credential: `{ok: true, detail}`, or `ok: false` with the
/// vendor's reason. 404 when the product has no connection of that kind.
#[utoipa::path(post, path = "/products/{slug}/connections/{kind}/test", tag = tags::CONNECTIONS,
    security(("bearer" = [])),
    params(("slug" = String, Path, description = "product slug"), ("kind" = String, Path, description = "connection kind, e.g. `payments` or `sql-a`")),
    responses((status = 200, body = TestOutcome), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "the connection has no credentials yet"),
        (status = 503, body = ErrorBody, description = "PAYBACK_SECRET_KEY is not configured")))]
async fn test(
    State(state): State<AppState>,
    caller: Caller,
    Path((slug, kind)): Path<(String, String)>,
) -> ApiResult<Json<TestOutcome>> {
    Ok(Json(
        connections::test(&state, &caller, &slug, &kind).await?,
    ))
}

/// Starts a sync now and answers at once (`started: false` when one is already running; `days`
/// is the next ladder rung, or the recent days once the history is read). Clears any backoff.
/// Poll `GET /connections`.
#[utoipa::path(post, path = "/products/{slug}/connections/{kind}/sync", tag = tags::CONNECTIONS,
    security(("bearer" = [])),
    params(("slug" = String, Path, description = "product slug"), ("kind" = String, Path, description = "connection kind")),
    responses((status = 200, body = SyncStarted), (status = 400, body = ErrorBody, description = "this kind cannot be synced on demand"),
        (status = 401, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody, description = "the connection is disabled")))]
async fn sync(
    State(state): State<AppState>,
    caller: Caller,
    Path((slug, kind)): Path<(String, String)>,
) -> ApiResult<Json<SyncStarted>> {
    if !ConnectionKind::from_path(&kind).is_some_and(ConnectionKind::syncs_on_demand) {
        return Err(ApiError::bad_request(format!(
            "kind: {kind} cannot be synced on demand"
        )));
    }
    Ok(Json(
        connections::sync_now(&state, &caller, &slug, &kind).await?,
    ))
}

/// Removes the connection and deletes its credential unless another connection shares it.
/// Ingested events and revenue stay. Audited as `connection.disconnect`.
#[utoipa::path(post, path = "/products/{slug}/connections/{kind}/disconnect", tag = tags::CONNECTIONS,
    security(("bearer" = [])),
    params(("slug" = String, Path, description = "product slug"), ("kind" = String, Path, description = "connection kind")),
    responses((status = 200, body = Disconnected), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn disconnect(
    State(state): State<AppState>,
    caller: Caller,
    Path((slug, kind)): Path<(String, String)>,
) -> ApiResult<Json<Disconnected>> {
    Ok(Json(
        connections::disconnect(&state, &caller, &slug, &kind).await?,
    ))
}
