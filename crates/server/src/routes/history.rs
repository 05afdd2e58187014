//! The audit history.

use axum::extract::State;
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiResult, ErrorBody};
use crate::extract::{Caller, Json, Query, Window};
use crate::routes::tags;
use crate::services::audit::{self, HistoryEvent};
use crate::services::products;
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(history))
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct HistoryParams {
    /// Only events of this product (slug).
    product: Option<String>,
    /// Days back, 1-3650; default 30.
    days: Option<i64>,
    /// At most this many events, 1-1000; default 100.
    limit: Option<i64>,
}

/// Audit events, newest first. Tenants never see sign-ins; operators see every account.
#[utoipa::path(get, path = "/history", tag = tags::HISTORY, security(("bearer" = [])), params(HistoryParams),
    responses((status = 200, body = Vec<HistoryEvent>), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn history(
    State(state): State<AppState>,
    caller: Caller,
    Query(params): Query<HistoryParams>,
) -> ApiResult<Json<Vec<HistoryEvent>>> {
    let window = Window::new(params.days, params.limit)?;
    let product = match &params.product {
        Some(slug) => Some(products::find(&state, caller.scope()?, slug).await?),
        None => None,
    };
    let visibility = caller.visibility()?;
    let product_id = product.as_ref().map(|p| p.id.as_str());
    Ok(Json(
        audit::list(&state, &visibility, product_id, window).await?,
    ))
}
