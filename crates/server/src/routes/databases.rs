//! Customer databases: connecting `sql-a` (PostgreSQL), `sql-b` (MySQL/MariaDB) and `docdb`
//! (MongoDB), replacing their event maps, and proposing maps from presets or a model.

use axum::extract::{Path, State};
use payback_domain::connection::{ConnectionKind, ConnectionStatus};
use payback_domain::event_map::EventMap;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{Caller, Json};
use crate::routes::tags;
use crate::secret::Secret;
use crate::services::database_env::EnvNames;
use crate::services::databases::{self, DatabaseInput};
use crate::services::mapping_suggestions::{
    self, SuggestionRequest, SuggestionSource, Suggestions,
};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(connect_sql_a))
        .routes(routes!(connect_sql_b))
        .routes(routes!(connect_docdb))
        .routes(routes!(event_maps))
        .routes(routes!(suggest_mappings))
}

/// The `sql-a` connect body: tenant `credentials`, or (operators only) the names of the API
/// host's environment variables holding them.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SqlARequest {
    /// `{host, port?, user, password?, database, sslmode?}`, at most 4096 bytes serialized;
    /// stored encrypted, never returned.
    #[schema(value_type = Option<Object>)]
    #[serde(default, deserialize_with = "Secret::from_optional_json")]
    credentials: Option<Secret>,
    host_env: Option<String>,
    port_env: Option<String>,
    user_env: Option<String>,
    password_env: Option<String>,
    database_env: Option<String>,
    event_maps: Option<Vec<EventMap>>,
    /// `pending` (staged, never synced) or `active`; default: active when there are maps.
    status: Option<String>,
}

/// The `sql-b` and `docdb` connect body.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DatabaseRequest {
    /// `sql-b`: `{host, port?, user, password?, database, sslmode?}`; `docdb`: `{uri}` (a
    /// connection string naming the database); at most 4096 bytes serialized. Stored encrypted,
    /// never returned.
    #[schema(value_type = Object)]
    #[serde(deserialize_with = "Secret::from_json")]
    credentials: Secret,
    event_maps: Option<Vec<EventMap>>,
    /// `pending` (staged, never synced) or `active`; default: active when there are maps.
    status: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct DatabaseConnected {
    ok: bool,
    connection_id: String,
    status: ConnectionStatus,
}

async fn connect(
    state: &AppState,
    caller: &Caller,
    slug: &str,
    kind: ConnectionKind,
    input: DatabaseInput,
) -> ApiResult<Json<DatabaseConnected>> {
    let (connection_id, status) = databases::connect(state, caller, slug, kind, input).await?;
    Ok(Json(DatabaseConnected {
        ok: true,
        connection_id,
        status,
    }))
}

/// Connects the product's PostgreSQL database. Tenants give `credentials`; operators may give
/// `host_env`, `user_env`, `database_env` (and `port_env`, `password_env`) instead: names of
/// environment variables on the API host (not `PAYBACK_*`), read at every run. Audited.
#[utoipa::path(post, path = "/products/{slug}/connections/sql-a", tag = tags::CONNECTIONS,
    security(("bearer" = [])), params(("slug" = String, Path, description = "product slug")),
    request_body = SqlARequest,
    responses((status = 200, body = DatabaseConnected), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody, description = "the *_env path by a non-operator"), (status = 404, body = ErrorBody),
        (status = 503, body = ErrorBody, description = "credentials given but PAYBACK_SECRET_KEY is not configured")))]
async fn connect_sql_a(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
    Json(body): Json<SqlARequest>,
) -> ApiResult<Json<DatabaseConnected>> {
    let input = DatabaseInput {
        credentials: body.credentials,
        env: EnvNames {
            host_env: body.host_env,
            port_env: body.port_env,
            user_env: body.user_env,
            password_env: body.password_env,
            database_env: body.database_env,
        },
        event_maps: body.event_maps,
        status: body.status,
    };
    connect(&state, &caller, &slug, ConnectionKind::SqlA, input).await
}

fn tenant_input(body: DatabaseRequest) -> DatabaseInput {
    DatabaseInput {
        credentials: Some(body.credentials),
        env: EnvNames::default(),
        event_maps: body.event_maps,
        status: body.status,
    }
}

/// Connects the product's MySQL or MariaDB database. Each map may name another database as its
/// `schema`. Audited.
#[utoipa::path(post, path = "/products/{slug}/connections/sql-b", tag = tags::CONNECTIONS,
    security(("bearer" = [])), params(("slug" = String, Path, description = "product slug")),
    request_body = DatabaseRequest,
    responses((status = 200, body = DatabaseConnected), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 503, body = ErrorBody, description = "PAYBACK_SECRET_KEY is not configured")))]
async fn connect_sql_b(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
    Json(body): Json<DatabaseRequest>,
) -> ApiResult<Json<DatabaseConnected>> {
    connect(
        &state,
        &caller,
        &slug,
        ConnectionKind::SqlB,
        tenant_input(body),
    )
    .await
}

/// Connects the product's MongoDB database with one connection-string `uri`; map fields use
/// dot notation (`customer.email`). Audited.
#[utoipa::path(post, path = "/products/{slug}/connections/docdb", tag = tags::CONNECTIONS,
    security(("bearer" = [])), params(("slug" = String, Path, description = "product slug")),
    request_body = DatabaseRequest,
    responses((status = 200, body = DatabaseConnected), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 503, body = ErrorBody, description = "PAYBACK_SECRET_KEY is not configured")))]
async fn connect_docdb(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
    Json(body): Json<DatabaseRequest>,
) -> ApiResult<Json<DatabaseConnected>> {
    connect(
        &state,
        &caller,
        &slug,
        ConnectionKind::Docdb,
        tenant_input(body),
    )
    .await
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
