//! Customer databases (any database kind): replacing their event maps, and proposing maps from
//! presets or a model. Each kind's connect is its plug-in's (`crate::kinds`).

use axum::extract::{Path, State};
use payback_domain::event_map::EventMap;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{Caller, Json};
use crate::routes::tags;
use crate::services::databases;
use crate::services::mapping_suggestions::{
    self, SuggestionRequest, SuggestionSource, Suggestions,
};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(event_maps))
        .routes(routes!(suggest_mappings))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EventMapsRequest {
    event_maps: Vec<EventMap>,
    /// Extension: `pending` or `active`, to stage or activate the connection with its maps.
    status: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct EventMapsSaved {
    ok: bool,
    event_maps: Vec<EventMap>,
}

/// Replaces the connection's event maps (kinds `sql-a`, `sql-b`, `docdb`). A stage already fed
/// by another of the product's sources is refused (it would count twice). An empty list stages
/// the connection (`pending`). Audited as `connection.event_maps`.
#[utoipa::path(post, path = "/products/{slug}/connections/{kind}/event-maps", tag = tags::CONNECTIONS,
    security(("bearer" = [])),
    params(("slug" = String, Path, description = "product slug"), ("kind" = String, Path, description = "`sql-a`, `sql-b` or `docdb`")),
    request_body = EventMapsRequest,
    responses((status = 200, body = EventMapsSaved), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody, description = "no such connection")))]
async fn event_maps(
    State(state): State<AppState>,
    caller: Caller,
    Path((slug, kind)): Path<(String, String)>,
    Json(body): Json<EventMapsRequest>,
) -> ApiResult<Json<EventMapsSaved>> {
    let event_maps =
        databases::replace_event_maps(&state, &caller, &slug, &kind, body.event_maps, body.status)
            .await?;
    Ok(Json(EventMapsSaved {
        ok: true,
        event_maps,
    }))
}

/// Where suggestions come from, as `source` spells it.
pub const SUGGESTION_SOURCES: [(&str, SuggestionSource); 2] = [
    ("preset", SuggestionSource::Preset),
    ("ai", SuggestionSource::Ai),
];

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SuggestRequest {
    /// `preset` or `ai`.
    source: String,
    /// One preset only (preset path).
    preset_id: Option<String>,
    /// Tables (`name` or `schema.name`) to read; default: the first 30. Empty is refused on the
    /// AI path.
    tables: Option<Vec<String>>,
}

/// Proposes event maps for the connected database from presets for common schemas, or from the
/// model gateway. Nothing is saved. 404 when the connection does not exist or the named preset
/// does not fit; 409 without credentials; 502 when the database or the model fails; 503 on the
/// AI path without a gateway key. (`sql-b` and `docdb` answer too.)
#[utoipa::path(post, path = "/products/{slug}/connections/{kind}/suggest-mappings", tag = tags::CONNECTIONS,
    security(("bearer" = [])),
    params(("slug" = String, Path, description = "product slug"), ("kind" = String, Path, description = "`sql-a`, `sql-b` or `docdb`")),
    request_body = SuggestRequest,
    responses((status = 200, body = Suggestions), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody, description = "no credentials yet"),
        (status = 502, body = ErrorBody), (status = 503, body = ErrorBody, description = "AI path without a model gateway")))]
async fn suggest_mappings(
    State(state): State<AppState>,
    caller: Caller,
    Path((slug, kind)): Path<(String, String)>,
    Json(body): Json<SuggestRequest>,
) -> ApiResult<Json<Suggestions>> {
    let source = SUGGESTION_SOURCES
        .into_iter()
        .find(|(word, _)| *word == body.source.trim())
        .map(|(_, source)| source)
        .ok_or_else(|| ApiError::bad_request("source: must be `preset` or `ai`"))?;
    let request = SuggestionRequest {
        source,
        preset_id: body.preset_id,
        tables: body.tables,
    };
    Ok(Json(
        mapping_suggestions::suggest(&state, &caller, &slug, &kind, request).await?,
    ))
}
