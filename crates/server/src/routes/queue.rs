//! The approval queue: read what waits, and the four human resolutions.

use axum::extract::{Path, State};
use payback_domain::card::{MAX_SNOOZE_HOURS, Resolution};
use payback_store::cards::QueueView;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiResult, ErrorBody};
use crate::extract::{Caller, Json, Query, ValidJson};
use crate::input::limits;
use crate::routes::tags;
use crate::services::queue::{self, CardView, QueueStatus, ResolveOptions};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(pending))
        .routes(routes!(approve))
        .routes(routes!(reject))
        .routes(routes!(snooze))
        .routes(routes!(restore))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct QueueParams {
    /// `pending` (default), `snoozed`, `expired` or `approved`. Snoozed and expired cards are
    /// the ones `restore` takes back; approved ones show whether their spend change was applied.
    status: Option<QueueStatus>,
    /// At most this many cards, the newest; 1-500, default 100.
    limit: Option<i64>,
}

/// Cards waiting for a human, newest first: pending ones, and snoozed ones whose time has come.
/// `status=snoozed` or `status=expired` lists the cards set aside instead, `status=approved` the
/// approved ones with their `execution` (applying, applied, refused, failed). Operators see every
/// account's. At most `limit` cards (default 100, at most 500; beyond: 400 naming `limit`).
#[utoipa::path(get, path = "/queue", tag = tags::QUEUE, security(("bearer" = [])), params(QueueParams),
    responses((status = 200, body = Vec<CardView>), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
async fn pending(
    State(state): State<AppState>,
    caller: Caller,
    Query(params): Query<QueueParams>,
) -> ApiResult<Json<Vec<CardView>>> {
    let limit = limits::QUEUE.check(params.limit)?;
    let view = match params.status.unwrap_or_default() {
        QueueStatus::Pending => QueueView::Pending,
        QueueStatus::Snoozed => QueueView::Snoozed,
        QueueStatus::Expired => QueueView::Expired,
        QueueStatus::Approved => QueueView::Approved,
    };
    Ok(Json(queue::listed(&state, &caller, view, limit).await?))
}

/// `actor`, in characters.
pub const ACTOR_MAX_CHARS: usize = 200;

/// The body of every resolution; both fields optional, an empty body is fine. `snoozeHours` is
/// spelt as the wire spells it, so validation errors name the field the caller sent.
#[derive(Debug, Default, Deserialize, ToSchema, garde::Validate)]
#[serde(default)]
#[allow(non_snake_case)]
pub struct ResolveRequest {
    /// Operators only: who resolved, as recorded in history. Ignored for everyone else, who is
    /// recorded as their own authenticated email.
    #[garde(inner(length(chars, min = 1, max = ACTOR_MAX_CHARS)))]
    actor: Option<String>,
    /// Hours a snooze lasts, 1-8784; default 24. Used by snooze only.
    #[serde(alias = "snooze_hours")]
    #[garde(custom(valid_snooze_hours))]
    snoozeHours: Option<i64>,
}

/// The range, in words (garde names the field).
fn valid_snooze_hours(hours: &Option<i64>, _: &()) -> garde::Result {
    match hours {
        Some(h) if !(1..=MAX_SNOOZE_HOURS).contains(h) => Err(garde::Error::new(format!(
            "must be a whole number of hours from 1 to {MAX_SNOOZE_HOURS}"
        ))),
        _ => Ok(()),
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Resolved {
    ok: bool,
}

async fn resolve(
    state: &AppState,
    caller: &Caller,
    id: &str,
    resolution: Resolution,
    body: ResolveRequest,
) -> ApiResult<Json<Resolved>> {
    let options = ResolveOptions {
        actor: body.actor,
        snooze_hours: body.snoozeHours,
    };
    queue::resolve(state, caller, id, resolution, options).await?;
    Ok(Json(Resolved { ok: true }))
}

/// Approves a pending card. A spend proposal is checked by the policy engine again (403 with
/// `policy_code` when refused; the card stays pending). The change to apply commits with the
/// approval and is tried at once through the product's ad-network connection; transient network
/// errors are retried by the `apply_budgets` job with backoff, and the card's `execution`
/// (`GET /queue?status=approved`) and history say what the network did. API keys: 403.
#[utoipa::path(post, path = "/queue/{id}/approve", tag = tags::QUEUE, security(("bearer" = [])),
    params(("id" = String, Path, description = "card id")), request_body = ResolveRequest,
    responses((status = 200, body = Resolved), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn approve(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    ValidJson(body): ValidJson<ResolveRequest>,
) -> ApiResult<Json<Resolved>> {
    resolve(&state, &caller, &id, Resolution::Approve, body).await
}

/// Dismisses a pending card; it leaves the queue. API keys: 403.
#[utoipa::path(post, path = "/queue/{id}/reject", tag = tags::QUEUE, security(("bearer" = [])),
    params(("id" = String, Path, description = "card id")), request_body = ResolveRequest,
    responses((status = 200, body = Resolved), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn reject(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    ValidJson(body): ValidJson<ResolveRequest>,
) -> ApiResult<Json<Resolved>> {
    resolve(&state, &caller, &id, Resolution::Reject, body).await
}

/// Hides a pending card for `snoozeHours` (default 24); it returns to the queue by itself. A
/// proposal still expires 72 hours after it was raised. API keys: 403.
#[utoipa::path(post, path = "/queue/{id}/snooze", tag = tags::QUEUE, security(("bearer" = [])),
    params(("id" = String, Path, description = "card id")), request_body = ResolveRequest,
    responses((status = 200, body = Resolved), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn snooze(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    ValidJson(body): ValidJson<ResolveRequest>,
) -> ApiResult<Json<Resolved>> {
    resolve(&state, &caller, &id, Resolution::Snooze, body).await
}

/// Returns a snoozed or expired card to pending (an expired proposal gets a fresh 72 hours).
/// Never resolves a card. API keys: 403.
#[utoipa::path(post, path = "/queue/{id}/restore", tag = tags::QUEUE, security(("bearer" = [])),
    params(("id" = String, Path, description = "card id")), request_body = ResolveRequest,
    responses((status = 200, body = Resolved), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn restore(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    ValidJson(body): ValidJson<ResolveRequest>,
) -> ApiResult<Json<Resolved>> {
    resolve(&state, &caller, &id, Resolution::Restore, body).await
}
