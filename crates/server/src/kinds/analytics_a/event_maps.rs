//! `POST /products/{slug}/connections/analytics-a/event-maps`: which GA4 events count as which
//! funnel stage. The maps replace the connection's maps (stored in its `event_maps`, as a
//! database connection's are), and the connection is due at once so the next run reads them.

use axum::extract::{Path, State};
use payback_connectors::analytics_a::{self as connector, EventNameMap};
use payback_domain::Stage;
use payback_store::connections as store;
use serde::{Deserialize, Serialize};
use serde_json::json;
use utoipa::ToSchema;

use super::KIND;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{Caller, Json};
use crate::openapi::rule::{At, Rule, words};
use crate::routes::tags;
use crate::services::{audit, products};
use crate::state::AppState;

/// One GA4 event counted as one stage.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AnalyticsEventMap {
    /// The GA4 event's name, as GA4 records it (`sign_up`, `purchase`).
    event_name: String,
    /// The funnel stage each counted event is; not `visit` or `engaged` (sessions count them).
    stage: String,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AnalyticsEventMapsRequest {
    /// The maps, replacing every map stored before; `[]` maps nothing.
    event_maps: Vec<AnalyticsEventMap>,
}

/// The maps as stored.
#[derive(Debug, Serialize, ToSchema)]
pub struct AnalyticsEventMapsSaved {
    ok: bool,
    event_maps: Vec<AnalyticsEventMap>,
}

/// Replaces the `analytics_a` connection's event maps: each named GA4 event's daily count
/// becomes the daily volume of its stage from the next run on (several events may feed one
/// stage; an event is mapped once). 400 naming `event_maps`, `event_maps[i].event_name` or
/// `event_maps[i].stage`; 404 without an `analytics-a` connection on the product (or for
/// another account's product). Audited as `connection.event_maps`.
#[utoipa::path(post, path = "/products/{slug}/connections/analytics-a/event-maps", tag = tags::CONNECTIONS,
    security(("bearer" = [])), params(("slug" = String, Path, description = "product slug")),
    request_body = AnalyticsEventMapsRequest,
    responses((status = 200, body = AnalyticsEventMapsSaved), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 404, body = ErrorBody, description = "no such connection")))]
pub async fn replace(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
    Json(body): Json<AnalyticsEventMapsRequest>,
) -> ApiResult<Json<AnalyticsEventMapsSaved>> {
    let maps = body
        .event_maps
        .into_iter()
        .map(|map| EventNameMap {
            event_name: map.event_name,
            stage: map.stage,
        })
        .collect();
    let saved = replace_maps(&state, &caller, &slug, maps).await?;
    Ok(Json(AnalyticsEventMapsSaved {
        ok: true,
        event_maps: saved
            .into_iter()
            .map(|map| AnalyticsEventMap {
                event_name: map.event_name,
                stage: map.stage,
            })
            .collect(),
    }))
}

/// Checks and stores the maps with the audit event, in one transaction.
async fn replace_maps(
    state: &AppState,
    caller: &Caller,
    slug: &str,
    maps: Vec<EventNameMap>,
) -> ApiResult<Vec<EventNameMap>> {
    // The body's shape first, as every route checks it before it reads the product.
    let maps = connector::check_event_maps(maps).map_err(ApiError::bad_request)?;
    let product = products::find(state, caller.scope()?, slug).await?;
    let not_found = || {
        ApiError::NotFound(format!(
            "no {} connection for this product",
            KIND.path_word()
        ))
    };
    let now = state.clock.now();
    let mut tx = state.store.begin().await?;
    let row = store::find_locked(&mut tx, &product.id, KIND.as_str())
        .await?
        .ok_or_else(not_found)?;
    store::set_event_maps(&mut tx, &row.id, &json!(maps).to_string(), None, now).await?;
    let payload = json!({ "connection_id": row.id, "kind": KIND.as_str(), "event_maps": maps });
    audit::record_product(
        &mut tx,
        &caller.actor(),
        &product,
        "connection.event_maps",
        payload,
        now,
    )
    .await?;
    tx.commit().await?;
    Ok(maps)
}

/// What the server checks of the maps' body, for the OpenAPI document.
pub fn rules() -> Vec<(At, Vec<Rule>)> {
    vec![
        (
            At::Field("AnalyticsEventMapsRequest", "event_maps"),
            vec![Rule::Items(0, connector::event_maps::MAX_MAPS)],
        ),
        (
            At::Field("AnalyticsEventMap", "event_name"),
            vec![
                Rule::Chars(1, connector::event_maps::MAX_EVENT_NAME_CHARS),
                Rule::Pattern("^[A-Za-z0-9_]+$".to_owned()),
            ],
        ),
        (
            At::Field("AnalyticsEventMap", "stage"),
            vec![words(
                Stage::ALL
                    .iter()
                    .filter(|stage| !connector::event_maps::SESSION_STAGES.contains(stage))
                    .map(|stage| stage.as_str()),
            )],
        ),
    ]
}
