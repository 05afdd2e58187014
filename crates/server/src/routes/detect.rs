//! Detect integrations: `POST /products/{slug}/detect-integrations` (a product's site,
//! cross-referenced with its connections) and `POST /tools/detect-integrations` (any site).
//! The rules are `services::detect`'s.

use axum::extract::{Path, State};
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiResult, ErrorBody};
use crate::extract::{Caller, Json, ValidJson};
use crate::input::rules::{WEB_URL_PATTERN, web_url};
use crate::openapi::rule::{At, Rule};
use crate::routes::tags;
use crate::services::detect::{self, Detection};
use crate::services::fetch_guard::MAX_URL_CHARS;
use crate::state::AppState;

/// What the server checks of the bodies, for the OpenAPI document (`openapi::rules`).
pub fn rules() -> Vec<(At, Vec<Rule>)> {
    let url = |min| {
        vec![
            Rule::Chars(min, MAX_URL_CHARS),
            Rule::Pattern(WEB_URL_PATTERN.to_owned()),
        ]
    };
    vec![
        (At::Field("ProductDetectRequest", "url"), url(1)),
        (At::Field("ToolDetectRequest", "url"), url(1)),
    ]
}

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(detect_for_product))
        .routes(routes!(detect_for_url))
}

#[derive(Debug, Deserialize, ToSchema, garde::Validate)]
#[serde(deny_unknown_fields)]
pub struct ProductDetectRequest {
    /// The page to check (http or https); default the product's `https://{domain}/`, else its
    /// oldest landing page.
    #[garde(inner(length(chars, min = 1, max = MAX_URL_CHARS), custom(web_url)))]
    url: Option<String>,
}

/// Fetches the product's site (through the fetch guard: no private address, also after a
/// redirect; at most 5 redirects, 10 s and the first 2 MiB) and lists the analytics, tag
/// managers, ad pixels, session recorders, Payback's snippet, payments and CRM it loads, and its
/// platform, each marked `connected` when the product has that vendor's source. 400 naming
/// `url` (invalid, private, no domain to default to, unreachable or not 2xx); 404 another
/// account's product; 429 over the account's fetches a minute.
#[utoipa::path(post, path = "/products/{slug}/detect-integrations", tag = tags::CONNECTIONS,
    security(("bearer" = [])), params(("slug" = String, Path, description = "product slug")),
    request_body = ProductDetectRequest,
    responses((status = 200, body = Detection), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 429, body = ErrorBody)))]
async fn detect_for_product(
    state: State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
    ValidJson(body): ValidJson<ProductDetectRequest>,
) -> ApiResult<Json<Detection>> {
    Ok(Json(
        detect::for_product(&state, &caller, &slug, body.url.as_deref()).await?,
    ))
}

#[derive(Debug, Deserialize, ToSchema, garde::Validate)]
#[serde(deny_unknown_fields)]
pub struct ToolDetectRequest {
    /// The page to check (http or https).
    #[garde(length(chars, min = 1, max = MAX_URL_CHARS), custom(web_url))]
    url: String,
}

/// The same detection for any public site, for no product: nothing is `connected`. 400 naming
/// `url` (invalid, private host, unreachable or not 2xx); 429 over the account's fetches a
/// minute.
#[utoipa::path(post, path = "/tools/detect-integrations", tag = tags::CONNECTIONS,
    security(("bearer" = [])), request_body = ToolDetectRequest,
    responses((status = 200, body = Detection), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 429, body = ErrorBody)))]
async fn detect_for_url(
    state: State<AppState>,
    caller: Caller,
    ValidJson(body): ValidJson<ToolDetectRequest>,
) -> ApiResult<Json<Detection>> {
    Ok(Json(detect::for_url(&state, &caller, &body.url).await?))
}
