//! `POST /products/{slug}/connections/product-analytics-a/event-maps`: which PostHog events
//! count as which funnel stage, `{event, stage}` each. The maps replace the connection's maps
//! (stored in its `event_maps`, as the database and web-analytics kinds store theirs), and the
//! connection is due at once so the next run reads them; the stage rows runs write stay after
//! a disconnect.

use axum::extract::{Path, State};
use payback_connectors::product_analytics_a::event_maps::{MAX_EVENT_CHARS, MAX_MAPS};
use payback_connectors::product_analytics_a::{EventMap, check_event_maps};
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
    let maps = body
        .event_maps
        .into_iter()
        .map(|map| EventMap {
            event: map.event,
            stage: map.stage,
        })
        .collect();
    // The maps' shape is checked first: a bad body is 400 whichever product it names.
    let maps = check_event_maps(maps).map_err(ApiError::bad_request)?;
    let product = products::find(&state, caller.scope()?, &slug).await?;
    let now = state.clock.now();
    let mut tx = state.store.begin().await?;
    let row = store::find_locked(&mut tx, &product.id, KIND.as_str())
        .await?
        .ok_or_else(|| {
            ApiError::NotFound(format!(
                "no {} connection for this product",
                KIND.path_word()
            ))
        })?;
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
    Ok(Json(ProductEventMapsSaved {
        ok: true,
        event_maps: maps
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
    vec![
        (
            At::Field("ProductEventMapsRequest", "event_maps"),
            vec![Rule::Items(0, MAX_MAPS)],
        ),
        (
            At::Field("ProductEventMap", "event"),
            vec![Rule::Chars(1, MAX_EVENT_CHARS)],
        ),
        (
            At::Field("ProductEventMap", "stage"),
            vec![words(Stage::ALL.iter().map(|stage| stage.as_str()))],
        ),
    ]
}
