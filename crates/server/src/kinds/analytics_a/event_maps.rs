//! `POST /products/{slug}/connections/analytics-a/event-maps`: which GA4 events count as which
//! funnel stage. The maps replace the connection's maps (stored in its `event_maps`, as a
//! database connection's are), and the connection is due at once so the next run reads them.
//! Checked and stored by `services::event_maps`, with GA4's rules ([`RULES`]).

use axum::extract::{Path, State};
use payback_connectors::analytics_a::EventNameMap;
use payback_connectors::analytics_a::event_maps::{MAX_EVENT_NAME_CHARS, MAX_MAPS, SESSION_STAGES};
use serde::{Deserialize, Serialize};
use serde_json::json;
use utoipa::ToSchema;

use super::KIND;
use crate::error::{ApiResult, ErrorBody};
use crate::extract::{Caller, Json};
use crate::openapi::rule::{At, Rule};
use crate::routes::tags;
use crate::services::event_maps::{self, EventMapRules};
use crate::state::AppState;

/// GA4's event names: letters, digits and `_`, at most 40 characters; `visit` and `engaged`
/// are the property's sessions, so no event feeds them.
const RULES: EventMapRules = EventMapRules {
    request_schema: "AnalyticsEventMapsRequest",
    map_schema: "AnalyticsEventMap",
    name_field: "event_name",
    name_is: "a GA4 event name",
    max_maps: MAX_MAPS,
    max_name_chars: MAX_EVENT_NAME_CHARS,
    name_char: |c| c.is_ascii_alphanumeric() || c == '_',
    name_chars_words: "letters, digits and `_`",
    name_pattern: Some("^[A-Za-z0-9_]+$"),
    refused_stages: &SESSION_STAGES,
    refused_because: "is counted from the property's sessions; map events to a later stage",
};

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
    // The body's shape first, as every route checks it before it reads the product.
    let maps = event_maps::check(
        &RULES,
        body.event_maps
            .into_iter()
            .map(|map| (map.event_name, map.stage)),
    )?;
    // Stored as the connector reads them.
    let stored: Vec<EventNameMap> = maps
        .into_iter()
        .map(|map| EventNameMap {
            event_name: map.name,
            stage: map.stage.as_str().to_owned(),
        })
        .collect();
    event_maps::replace(&state, &caller, &slug, KIND, &json!(stored)).await?;
    Ok(Json(AnalyticsEventMapsSaved {
        ok: true,
        event_maps: stored
            .into_iter()
            .map(|map| AnalyticsEventMap {
                event_name: map.event_name,
                stage: map.stage,
            })
            .collect(),
    }))
}

/// What the server checks of the maps' body, for the OpenAPI document.
pub fn rules() -> Vec<(At, Vec<Rule>)> {
    event_maps::openapi_rules(&RULES)
}
