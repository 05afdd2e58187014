//! `POST /products/{slug}/connections/product-analytics-a/event-maps`: which PostHog events
//! count as which funnel stage, `{event, stage}` each. The maps replace the connection's maps
//! (stored in its `event_maps`, as the database and web-analytics kinds store theirs), and the
//! connection is due at once so the next run reads them; the stage rows runs write stay after
//! a disconnect. Checked and stored by `services::event_maps`, with PostHog's rules
//! ([`RULES`]).

use axum::extract::{Path, State};
use payback_connectors::product_analytics_a::EventMap;
use payback_connectors::product_analytics_a::event_maps::{MAX_EVENT_CHARS, MAX_MAPS};
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

/// PostHog's event names are free text (`$pageview`, `signed up`) without control characters,
/// at most 200 here; every stage may be fed.
const RULES: EventMapRules = EventMapRules {
    request_schema: "ProductEventMapsRequest",
    map_schema: "ProductEventMap",
    name_field: "event",
    name_is: "a PostHog event name",
    max_maps: MAX_MAPS,
    max_name_chars: MAX_EVENT_CHARS,
    name_char: |c| !c.is_control(),
    name_chars_words: "no control characters",
    name_pattern: None,
    refused_stages: &[],
    refused_because: "",
};

/// One PostHog event counted as one stage.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ProductEventMap {
    /// The event's name as PostHog records it (`signed_up`, `$pageview`).
    event: String,
    /// The funnel stage each counted event is.
    stage: String,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ProductEventMapsRequest {
    /// The maps, replacing every map stored before; `[]` maps nothing.
    event_maps: Vec<ProductEventMap>,
}

/// The maps as stored.
#[derive(Debug, Serialize, ToSchema)]
pub struct ProductEventMapsSaved {
    ok: bool,
    event_maps: Vec<ProductEventMap>,
}

/// Replaces the `product_analytics_a` connection's event maps: each named event's count per
/// UTC day becomes its stage's daily volume (source `product_analytics_a`) from the next run
/// on. 400 naming `event_maps`, `event_maps[i].event` or `event_maps[i].stage`; 404 without a
/// `product-analytics-a` connection on the product (or for another account's product).
/// Audited as `connection.event_maps`.
#[utoipa::path(post, path = "/products/{slug}/connections/product-analytics-a/event-maps", tag = tags::CONNECTIONS,
    security(("bearer" = [])), params(("slug" = String, Path, description = "product slug")),
    request_body = ProductEventMapsRequest,
    responses((status = 200, body = ProductEventMapsSaved), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 404, body = ErrorBody, description = "no such connection")))]
pub async fn replace(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
    Json(body): Json<ProductEventMapsRequest>,
) -> ApiResult<Json<ProductEventMapsSaved>> {
    // The maps' shape is checked first: a bad body is 400 whichever product it names.
    let maps = event_maps::check(
        &RULES,
        body.event_maps
            .into_iter()
            .map(|map| (map.event, map.stage)),
    )?;
    // Stored as the connector reads them.
    let stored: Vec<EventMap> = maps
        .into_iter()
        .map(|map| EventMap {
            event: map.name,
            stage: map.stage.as_str().to_owned(),
        })
        .collect();
    event_maps::replace(&state, &caller, &slug, KIND, &json!(stored)).await?;
    Ok(Json(ProductEventMapsSaved {
        ok: true,
        event_maps: stored
            .into_iter()
            .map(|map| ProductEventMap {
                event: map.event,
                stage: map.stage,
            })
            .collect(),
    }))
}

/// What the server checks of the maps' body, for the OpenAPI document.
pub fn rules() -> Vec<(At, Vec<Rule>)> {
    event_maps::openapi_rules(&RULES)
}
