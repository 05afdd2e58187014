//! Routes: conversion definitions and the conversions report.

use axum::extract::{Path, State};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiResult, ErrorBody};
use crate::extract::{Caller, Json, Query};
use crate::input::{LimitParams, Window, limits};
use crate::pending_events;
use crate::routes::tags;
use crate::services::conversions::{
    self, ConversionInput, ConversionList, ConversionReport, SavedConversion,
};
use crate::state::AppState;

/// Reads of ingested data say how many of the product's events they do not count yet
/// (`X-Payback-Pending-Events`).
pub fn router() -> OpenApiRouter<AppState> {
    pending_events::reported(
        OpenApiRouter::new()
            .routes(routes!(list_conversions, upsert_conversion))
            .routes(routes!(delete_conversion))
            .routes(routes!(conversions_report)),
    )
}

/// Every conversion definition, oldest first, with its 30-day volume and value. At most `limit`
/// definitions (default and maximum 500; beyond: 400 naming `limit`).
#[utoipa::path(get, path = "/products/{slug}/conversions", tag = tags::FUNNEL, security(("bearer" = [])),
    params(("slug" = String, Path, description = "product slug"), ("limit" = Option<i64>, Query, description = "At most this many definitions, the oldest; 1-500, default 500.")),
    responses((status = 200, body = ConversionList), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn list_conversions(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
    Query(params): Query<LimitParams>,
) -> ApiResult<Json<ConversionList>> {
    let limit = limits::CONVERSIONS.rows(params.limit)?;
    Ok(Json(
        conversions::list(&state, &caller, &slug, limit).await?,
    ))
}

/// Creates a conversion definition or replaces the one with the same key (omitted optional
/// fields take their defaults). Audited as `conversion.upsert`.
#[utoipa::path(post, path = "/products/{slug}/conversions", tag = tags::FUNNEL, security(("bearer" = [])),
    params(("slug" = String, Path, description = "product slug")), request_body = ConversionInput,
    responses((status = 200, body = SavedConversion), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn upsert_conversion(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
    Json(body): Json<ConversionInput>,
) -> ApiResult<Json<SavedConversion>> {
    let conversion = conversions::upsert(&state, &caller, &slug, body).await?;
    Ok(Json(SavedConversion {
        ok: true,
        conversion,
    }))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Deleted {
    ok: bool,
}

/// Deletes a conversion definition; its events stay. Audited as `conversion.delete`.
#[utoipa::path(post, path = "/products/{slug}/conversions/{key}/delete", tag = tags::FUNNEL, security(("bearer" = [])),
    params(("slug" = String, Path, description = "product slug"), ("key" = String, Path, description = "conversion key")),
    responses((status = 200, body = Deleted), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn delete_conversion(
    State(state): State<AppState>,
    caller: Caller,
    Path((slug, key)): Path<(String, String)>,
) -> ApiResult<Json<Deleted>> {
    conversions::delete(&state, &caller, &slug, &key).await?;
    Ok(Json(Deleted { ok: true }))
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct ReportParams {
    /// Days in the window, 1-3650; default 30. The previous window is as long, just before.
    days: Option<i64>,
}

/// Active conversions (at most 500 definitions, oldest first): the window against the previous
/// one, and a per-channel split (the event's channel, else its identity's first touch, else
/// `unattributed`).
#[utoipa::path(get, path = "/products/{slug}/conversions/report", tag = tags::FUNNEL, security(("bearer" = [])),
    params(("slug" = String, Path, description = "product slug"), ReportParams),
    responses((status = 200, body = ConversionReport), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn conversions_report(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
    Query(params): Query<ReportParams>,
) -> ApiResult<Json<ConversionReport>> {
    let window = Window::new(params.days, None)?;
    Ok(Json(
        conversions::report(&state, &caller, &slug, window).await?,
    ))
}
