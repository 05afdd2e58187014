//! `sql_a`: the product's PostgreSQL database, read through event maps; tenants give
//! credentials, operators may name the API host's environment variables instead.

use axum::extract::{Path, State};
use payback_domain::connection::ConnectionKind;
use payback_domain::event_map::EventMap;
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::Plugin;
use super::database::{self, DatabaseConnected};
use crate::error::{ApiResult, ErrorBody};
use crate::extract::{Caller, Json};
use crate::routes::tags;
use crate::secret::Secret;
use crate::services::database_env::EnvNames;
use crate::services::databases::DatabaseInput;
use crate::state::AppState;

const KIND: ConnectionKind = ConnectionKind::SqlA;

pub fn plugin() -> Plugin {
    Plugin {
        kind: KIND,
        open: database::open,
        routes: || OpenApiRouter::new().routes(routes!(connect)),
        grant: None,
        rules: super::no_rules,
    }
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

/// Connects the product's PostgreSQL database. Tenants give `credentials`; operators may give
/// `host_env`, `user_env`, `database_env` (and `port_env`, `password_env`) instead: names of
/// environment variables on the API host (not `PAYBACK_*`), read at every run. Audited.
#[utoipa::path(post, path = "/products/{slug}/connections/sql-a", tag = tags::CONNECTIONS,
    security(("bearer" = [])), params(("slug" = String, Path, description = "product slug")),
    request_body = SqlARequest,
    responses((status = 200, body = DatabaseConnected), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody, description = "the *_env path by a non-operator"), (status = 404, body = ErrorBody),
        (status = 503, body = ErrorBody, description = "credentials given but PAYBACK_SECRET_KEY is not configured")))]
async fn connect(
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
    database::connect(&state, &caller, &slug, KIND, input).await
}
