//! Policy settings: any member or key reads them; only an owner's session changes them.

use axum::extract::{Path, State};
use payback_domain::policy::Network;
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiResult, ErrorBody};
use crate::extract::json::double_option;
use crate::extract::{Caller, Json, Owner};
use crate::routes::tags;
use crate::services::policy::{
    self, PortfolioPolicyEdit, PortfolioPolicyView, ProductPolicyEdit, ProductPolicyView,
};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(product_policy, set_product_policy))
        .routes(routes!(portfolio_policy, set_portfolio_policy))
}

/// A product's daily caps per network and its network walls.
#[utoipa::path(get, path = "/products/{slug}/policy", tag = tags::QUEUE, security(("bearer" = [])),
    params(("slug" = String, Path, description = "product slug")),
    responses((status = 200, body = ProductPolicyView), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn product_policy(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
) -> ApiResult<Json<ProductPolicyView>> {
    Ok(Json(policy::product_policy(&state, &caller, &slug).await?))
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CapsEdit {
    /// Cents a day, 1-100000000000, or null to remove the cap; absent leaves it.
    #[serde(default, deserialize_with = "double_option")]
    #[schema(value_type = Option<i64>)]
    google: Option<Option<i64>>,
    #[serde(default, deserialize_with = "double_option")]
    #[schema(value_type = Option<i64>)]
    meta: Option<Option<i64>>,
}

/// Unknown fields are refused: a misspelt cap would otherwise be a silent no-op.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ProductPolicyRequest {
    daily_caps: Option<CapsEdit>,
    /// Adult-adjacent products may not run on `meta`.
    adult_adjacent: Option<bool>,
    /// Networks walled off for this product (replaces the list).
    blocked_networks: Option<Vec<Network>>,
}

/// Sets a product's caps and walls (owners, through a session; audited as `policy.update`).
#[utoipa::path(post, path = "/products/{slug}/policy", tag = tags::QUEUE, security(("bearer" = [])),
    params(("slug" = String, Path, description = "product slug")), request_body = ProductPolicyRequest,
    responses((status = 200, body = ProductPolicyView), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn set_product_policy(
    State(state): State<AppState>,
    Owner(caller, _): Owner,
    Path(slug): Path<String>,
    Json(body): Json<ProductPolicyRequest>,
) -> ApiResult<Json<ProductPolicyView>> {
    let caps = body.daily_caps.unwrap_or_default();
    let edit = ProductPolicyEdit {
        google_cap: caps.google,
        meta_cap: caps.meta,
        adult_adjacent: body.adult_adjacent,
        blocked_networks: body.blocked_networks,
    };
    Ok(Json(
        policy::set_product_policy(&state, &caller, &slug, edit).await?,
    ))
}

/// The account's portfolio ceiling and the approved daily budgets it sums.
#[utoipa::path(get, path = "/policy", tag = tags::QUEUE, security(("bearer" = [])),
    responses((status = 200, body = PortfolioPolicyView), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
async fn portfolio_policy(
    State(state): State<AppState>,
    caller: Caller,
) -> ApiResult<Json<PortfolioPolicyView>> {
    Ok(Json(policy::portfolio_policy(&state, &caller).await?))
}

/// Unknown fields are refused: a misspelt cap would otherwise be a silent no-op.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PortfolioPolicyRequest {
    /// Cents a day, 1-100000000000, or null to remove the ceiling; absent leaves it.
    #[serde(default, deserialize_with = "double_option")]
    #[schema(value_type = Option<i64>)]
    portfolio_ceiling_cents: Option<Option<i64>>,
    /// The ceiling's currency (three letters; default USD). While a ceiling is set, products in
    /// other currencies cannot raise budgets (their sums cannot be added without rates).
    currency: Option<String>,
}

/// Sets the account's portfolio ceiling (owners, through a session; audited as
/// `policy.portfolio_update`).
#[utoipa::path(post, path = "/policy", tag = tags::QUEUE, security(("bearer" = [])), request_body = PortfolioPolicyRequest,
    responses((status = 200, body = PortfolioPolicyView), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody)))]
async fn set_portfolio_policy(
    State(state): State<AppState>,
    Owner(caller, _): Owner,
    Json(body): Json<PortfolioPolicyRequest>,
) -> ApiResult<Json<PortfolioPolicyView>> {
    let edit = PortfolioPolicyEdit {
        ceiling: body.portfolio_ceiling_cents,
        currency: body.currency,
    };
    Ok(Json(
        policy::set_portfolio_policy(&state, &caller, edit).await?,
    ))
}
