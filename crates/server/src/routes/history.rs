//! The audit history.

use axum::extract::State;
use payback_domain::MemberRole;
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{Caller, Json, Query};
use crate::input::Window;
use crate::routes::tags;
use crate::services::audit::{self, HistoryEvent, HistoryScope};
use crate::services::products;
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(history))
}

/// The one value `include` takes.
pub const INCLUDE_ACCOUNT: &str = "account";

#[derive(Debug, Deserialize, IntoParams)]
pub struct HistoryParams {
    /// Only events of this product (slug).
    product: Option<String>,
    /// Days back, 1-3650; default 30.
    days: Option<i64>,
    /// At most this many events, 1-1000; default 100.
    limit: Option<i64>,
    /// `account`: the account's own events too (team, API keys, profile, sign-up, workspace and
    /// portfolio-policy changes; `product_slug` null), merged newest first with the products'.
    /// Owners only (403 `Not an owner` for members and API keys); not with `product`.
    include: Option<String>,
}

/// Audit events, newest first. For tenants, the events of the account's products only (as the
/// spec says), or with `include=account` (owners) the account's own events too; never sign-ins.
/// Operators see every event of every account, sign-ins included.
#[utoipa::path(get, path = "/history", tag = tags::HISTORY, security(("bearer" = [])), params(HistoryParams),
    responses((status = 200, body = Vec<HistoryEvent>),
        (status = 400, description = "bad `days`, `limit` or `include`, or `include=account` with `product`", body = ErrorBody),
        (status = 401, body = ErrorBody),
        (status = 403, description = "`include=account` by a member or an API key", body = ErrorBody),
        (status = 404, body = ErrorBody)))]
async fn history(
    State(state): State<AppState>,
    caller: Caller,
    Query(params): Query<HistoryParams>,
) -> ApiResult<Json<Vec<HistoryEvent>>> {
    let window = Window::new(params.days, params.limit)?;
    let scope = match params.include.as_deref() {
        None => HistoryScope::Products,
        Some(INCLUDE_ACCOUNT) => HistoryScope::WithAccount,
        Some(other) => {
            return Err(ApiError::bad_request(format!(
                "include: must be account; got {other:?}"
            )));
        }
    };
    if scope == HistoryScope::WithAccount {
        if params.product.is_some() {
            return Err(ApiError::bad_request(
                "include: account events belong to no product; leave out product to read them",
            ));
        }
        // Account events name people, their keys and security changes (who disabled whom, how
        // many keys that revoked): the owners' to read, as the team changes are theirs to make.
        let owner = caller
            .person()
            .is_some_and(|person| person.member_role == MemberRole::Owner);
        if !owner && !caller.is_operator {
            return Err(ApiError::Forbidden("Not an owner".to_owned()));
        }
    }
    let product = match &params.product {
        Some(slug) => Some(products::find(&state, caller.scope()?, slug).await?),
        None => None,
    };
    let visibility = caller.visibility()?;
    let product_id = product.as_ref().map(|p| p.id.as_str());
    Ok(Json(
        audit::list(&state, &visibility, product_id, scope, window).await?,
    ))
}
