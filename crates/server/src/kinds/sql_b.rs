//! `sql_b`: the product's MySQL or MariaDB database, read through event maps.

use axum::extract::{Path, State};
use payback_domain::connection::ConnectionKind;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::Plugin;
use super::database::{self, DatabaseConnected, DatabaseRequest};
use crate::error::{ApiResult, ErrorBody};
use crate::extract::{Caller, Json};
use crate::routes::tags;
use crate::state::AppState;

const KIND: ConnectionKind = ConnectionKind::SqlB;

pub fn plugin() -> Plugin {
    Plugin {
        kind: KIND,
        open: database::open,
        routes: || OpenApiRouter::new().routes(routes!(connect)),
        grant: None,
        rules: super::no_rules,
    }
}

/// Connects the product's MySQL or MariaDB database. Each map may name another database as its
/// `schema`. Audited.
#[utoipa::path(post, path = "/products/{slug}/connections/sql-b", tag = tags::CONNECTIONS,
    security(("bearer" = [])), params(("slug" = String, Path, description = "product slug")),
    request_body = DatabaseRequest,
    responses((status = 200, body = DatabaseConnected), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 503, body = ErrorBody, description = "PAYBACK_SECRET_KEY is not configured")))]
async fn connect(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
    Json(body): Json<DatabaseRequest>,
) -> ApiResult<Json<DatabaseConnected>> {
    database::connect(&state, &caller, &slug, KIND, body.into()).await
}
