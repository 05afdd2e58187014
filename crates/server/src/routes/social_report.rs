//! The organic social report of a product.

use axum::extract::{Path, State};
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiResult, ErrorBody};
use crate::extract::{Caller, Json, Query};
use crate::input::Window;
use crate::routes::tags;
use crate::services::products;
use crate::services::social::{self, SocialReport};
use crate::state::AppState;

/// The report reads what sources stored, never ingested events: it answers without waiting for
/// the fold, so it carries no pending-events header.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(social_report))
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct SocialParams {
    /// UTC days ending today, 1-3650; default 30.
    days: Option<i64>,
}

/// The organic social pages (`social_a`: a Facebook page and its linked Instagram account):
/// followers at the end of the window and their change over it (`audience`), each network's
/// followers, impressions, engagement and engagement rate (`networks`), a zero-filled row per
/// UTC day oldest first (`trend`), and the window's posts, most engaged first, at most 20
/// (`posts`). Without a social source: zeros and empty lists.
#[utoipa::path(get, path = "/products/{slug}/social", tag = tags::REPORTS, security(("bearer" = [])),
    params(("slug" = String, Path, description = "product slug"), SocialParams),
    responses((status = 200, body = SocialReport), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn social_report(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
    Query(params): Query<SocialParams>,
) -> ApiResult<Json<SocialReport>> {
    let window = Window::new(params.days, None)?;
    let product = products::find(&state, caller.scope()?, &slug).await?;
    Ok(Json(social::report(&state, &product, window).await?))
}
