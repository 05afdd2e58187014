//! `POST /products/{slug}/tracking/gtm-deploy`'s handler; the rules are `deploy`'s.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use utoipa::ToSchema;

use super::deploy::{self, GtmDeployed, Outcome};
use crate::error::{ApiResult, ErrorBody};
use crate::extract::{Caller, Json};
use crate::routes::tags;
use crate::state::AppState;

/// A refusal the grant's owner fixes by connecting again with every permission.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReconnectBody {
    pub error: String,
    /// Always true: reconnect Google Tag Manager (or give the service account Publish).
    pub reconnect: bool,
}

/// Publishes the product's tracking snippet in its Google Tag Manager container: creates a
/// workspace, adds (or updates) one Custom HTML tag holding the snippet that fires on All Pages,
/// creates a container version of the workspace and publishes it: this changes the live site,
/// only on this explicit call, audited as `tracking.gtm_deploy`. Only a person signed in to the
/// dashboard deploys: API keys, the operator token, MCP and chat answer 403 and nothing is sent
/// to Google. 403 with `reconnect: true` when the grant is read-only (nothing written); 404
/// another account's product; 409 when the tag manager is not connected or the product has no
/// write key; 502 when Tag Manager reports a compiler error (nothing published) or fails.
#[utoipa::path(post, path = "/products/{slug}/tracking/gtm-deploy", tag = tags::TRACKING,
    security(("bearer" = [])), params(("slug" = String, Path, description = "product slug")),
    responses((status = 200, body = GtmDeployed), (status = 401, body = ErrorBody),
        (status = 403, body = ReconnectBody, description = "the grant is read-only (reconnect: true), or the caller is not a person signed in to the dashboard (an error body without reconnect)"),
        (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "no write key or tag manager not connected"),
        (status = 502, body = ErrorBody, description = "Tag Manager's compiler error, or Google failed: nothing published")))]
pub async fn gtm_deploy(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
) -> ApiResult<Response> {
    Ok(match deploy::deploy(&state, &caller, &slug).await? {
        Outcome::Published(deployed) => Json(deployed).into_response(),
        Outcome::Reconnect(error) => (
            StatusCode::FORBIDDEN,
            Json(ReconnectBody {
                error,
                reconnect: true,
            }),
        )
            .into_response(),
    })
}
