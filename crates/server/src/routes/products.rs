//! Products and the portfolio.

use axum::extract::{Path, State};
use payback_domain::validation::{DOMAIN_MAX_CHARS, PRODUCT_NAME_MAX_CHARS};
use payback_domain::{GateResult, ProductStage};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiResult, ErrorBody};
use crate::extract::json::double_option;
use crate::extract::{Caller, Json, Query, ValidJson};
use crate::input::{LimitParams, limits};
use crate::pending_events;
use crate::routes::tags;
use crate::services::products::{
    self, CreatedProduct, EditedProduct, NewProductInput, ProductEdit, ProductView,
};
use crate::state::AppState;

/// Reads of ingested data say how many of the product's events they do not count yet
/// (`X-Payback-Pending-Events`).
pub fn router() -> OpenApiRouter<AppState> {
    pending_events::reported(
        OpenApiRouter::new()
            .routes(routes!(portfolio))
            .routes(routes!(create_product))
            .routes(routes!(get_product, update_product))
            .routes(routes!(onboarding_complete)),
    )
}

/// One row per product, oldest first; operators see every account. At most `limit` products
/// (default and maximum 500; beyond: 400 naming `limit`).
#[utoipa::path(get, path = "/portfolio", tag = tags::PRODUCTS, security(("bearer" = [])), params(("limit" = Option<i64>, Query, description = "At most this many products, the oldest; 1-500, default 500.")),
    responses((status = 200, body = Vec<ProductView>), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
async fn portfolio(
    State(state): State<AppState>,
    caller: Caller,
    Query(params): Query<LimitParams>,
) -> ApiResult<Json<Vec<ProductView>>> {
    let limit = limits::PORTFOLIO.check(params.limit)?;
    Ok(Json(products::portfolio(&state, &caller, limit).await?))
}

fn valid_slug(slug: &str, _: &()) -> garde::Result {
    payback_domain::validation::check_slug(slug).map_err(garde::Error::new)
}

fn valid_currency(currency: &Option<String>, _: &()) -> garde::Result {
    match currency {
        Some(code) => payback_domain::validation::normalize_currency(code)
            .map(drop)
            .map_err(garde::Error::new),
        None => Ok(()),
    }
}

#[derive(Debug, Deserialize, ToSchema, garde::Validate)]
pub struct CreateProductRequest {
    /// 1-120 characters.
    #[garde(length(chars, min = 1, max = PRODUCT_NAME_MAX_CHARS))]
    name: String,
    /// 2-60 characters, `^[a-z0-9][a-z0-9-]*[a-z0-9]$`; unique in the account and immutable.
    #[garde(custom(valid_slug))]
    slug: String,
    /// At most 255 characters; a URL is reduced to its host.
    #[garde(length(chars, max = DOMAIN_MAX_CHARS))]
    domain: Option<String>,
    /// Three letters; default `USD`.
    #[garde(custom(valid_currency))]
    currency: Option<String>,
}

/// Creates a product in the caller's account.
#[utoipa::path(post, path = "/products", tag = tags::PRODUCTS, security(("bearer" = [])), request_body = CreateProductRequest,
    responses((status = 200, body = CreatedProduct), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn create_product(
    State(state): State<AppState>,
    caller: Caller,
    ValidJson(body): ValidJson<CreateProductRequest>,
) -> ApiResult<Json<CreatedProduct>> {
    let input = NewProductInput {
        name: body.name,
        slug: body.slug,
        domain: body.domain,
        currency: body.currency,
    };
    Ok(Json(products::create(&state, &caller, input).await?))
}

/// A product row.
#[utoipa::path(get, path = "/products/{slug}", tag = tags::PRODUCTS, security(("bearer" = [])),
    params(("slug" = String, Path, description = "product slug")),
    responses((status = 200, body = ProductView), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn get_product(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
) -> ApiResult<Json<ProductView>> {
    Ok(Json(products::row(&state, &caller, &slug).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct UpdateProductRequest {
    /// 1-120 characters.
    name: Option<String>,
    /// Three letters.
    currency: Option<String>,
    /// A string sets the domain, null clears it, absent leaves it.
    #[serde(default, deserialize_with = "double_option")]
    #[schema(value_type = Option<String>)]
    domain: Option<Option<String>>,
    /// Owners only: `validation`, `live` or `killed`.
    stage: Option<ProductStage>,
    /// Owners only: `YYYY-MM-DD`, or null to clear. A due gate raises a `gate_result` card.
    #[serde(default, deserialize_with = "double_option")]
    #[schema(value_type = Option<String>)]
    gate_due_date: Option<Option<String>>,
    /// Owners only: `pass`, `fail`, `pivot`, or null to clear.
    #[serde(default, deserialize_with = "double_option")]
    #[schema(value_type = Option<GateResult>)]
    gate_result: Option<Option<GateResult>>,
}

/// Edits a product's name, currency or domain, and (owners only) its stage and gate (at least
/// one field). The slug never changes.
#[utoipa::path(post, path = "/products/{slug}", tag = tags::PRODUCTS, security(("bearer" = [])), request_body = UpdateProductRequest,
    params(("slug" = String, Path, description = "product slug")),
    responses((status = 200, body = EditedProduct), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "a different currency once the product has revenue rows")))]
async fn update_product(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
    Json(body): Json<UpdateProductRequest>,
) -> ApiResult<Json<EditedProduct>> {
    let edit = ProductEdit {
        name: body.name,
        currency: body.currency,
        domain: body.domain,
        stage: body.stage,
        gate_due_date: body.gate_due_date,
        gate_result: body.gate_result,
    };
    Ok(Json(products::update(&state, &caller, &slug, edit).await?))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct OnboardingResponse {
    ok: bool,
    /// True only for the first call per product (which notifies the operator).
    first_time: bool,
}

/// Marks the product's onboarding complete.
#[utoipa::path(post, path = "/products/{slug}/onboarding-complete", tag = tags::PRODUCTS, security(("bearer" = [])),
    params(("slug" = String, Path, description = "product slug")),
    responses((status = 200, body = OnboardingResponse), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn onboarding_complete(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
) -> ApiResult<Json<OnboardingResponse>> {
    let first_time = products::onboarding_complete(&state, &caller, &slug).await?;
    Ok(Json(OnboardingResponse {
        ok: true,
        first_time,
    }))
}
