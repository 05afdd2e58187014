//! The search-engine grant's service-account path: `/connect/searchco/service-account/start`
//! and `/verify` (`services::searchco_account` holds the rules). Behind a bearer; any bearer of
//! the account may connect this way, as with the grant.

use axum::extract::State;
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiResult, ErrorBody};
use crate::extract::{Caller, Json, ValidJson};
use crate::openapi::rule::{At, Rule};
use crate::routes::connect::{CHOICE_MAX_CHARS, KIND_MAX_CHARS, KINDS_MAX, SLUG_MAX_CHARS};
use crate::routes::tags;
use crate::services::searchco_account::{self, AccountStarted, AccountVerified};
use crate::state::AppState;

/// What the server checks of the bodies, for the OpenAPI document (`openapi::rules`). The kinds'
/// words are checked after the operator's key (503 first), so they are described, not stated.
pub fn rules() -> Vec<(At, Vec<Rule>)> {
    let slug = || vec![Rule::Chars(1, SLUG_MAX_CHARS)];
    let mut rules = vec![
        (
            At::Field("ServiceAccountStartRequest", "product_slug"),
            slug(),
        ),
        (
            At::Field("ServiceAccountStartRequest", "kinds"),
            vec![
                Rule::Items(1, KINDS_MAX),
                Rule::Each(vec![Rule::Chars(0, KIND_MAX_CHARS)]),
            ],
        ),
        (
            At::Field("ServiceAccountVerifyRequest", "product_slug"),
            slug(),
        ),
    ];
    for field in [
        "analytics_a_property_id",
        "tagmgr_container_path",
        "search_console_site_url",
    ] {
        rules.push((
            At::Field("ServiceAccountVerifyRequest", field),
            vec![Rule::Chars(1, CHOICE_MAX_CHARS)],
        ));
    }
    rules
}

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(service_account_start))
        .routes(routes!(service_account_verify))
}

#[derive(Debug, Deserialize, ToSchema, garde::Validate)]
#[serde(deny_unknown_fields)]
pub struct ServiceAccountStartRequest {
    /// The product the connections will belong to.
    #[garde(length(chars, min = 1, max = SLUG_MAX_CHARS))]
    product_slug: String,
    /// `analytics_a`, `tagmgr`, `search_console` (when enabled); `search_ads` is refused: it is
    /// not on this path.
    #[garde(length(min = 1, max = KINDS_MAX), inner(length(chars, max = KIND_MAX_CHARS)))]
    kinds: Vec<String>,
}

/// The service account's address and, per kind, how to give it access in Google's products.
/// Nothing is stored. 400 naming `kinds` (`search_ads`, an unknown or unavailable kind) or
/// `product_slug`; 404 another account's product; 503 until the operator set
/// `PAYBACK_SEARCHCO_SERVICE_ACCOUNT_KEY_FILE`.
#[utoipa::path(post, path = "/connect/searchco/service-account/start", tag = tags::CONNECTIONS,
    security(("bearer" = [])), request_body = ServiceAccountStartRequest,
    responses((status = 200, body = AccountStarted), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 404, body = ErrorBody), (status = 503, body = ErrorBody)))]
async fn service_account_start(
    state: State<AppState>,
    caller: Caller,
    ValidJson(body): ValidJson<ServiceAccountStartRequest>,
) -> ApiResult<Json<AccountStarted>> {
    Ok(Json(
        searchco_account::start(&state, &caller, &body.product_slug, &body.kinds).await?,
    ))
}

#[derive(Debug, Deserialize, ToSchema, garde::Validate)]
#[serde(deny_unknown_fields)]
pub struct ServiceAccountVerifyRequest {
    /// The product the connections will belong to.
    #[garde(length(chars, min = 1, max = SLUG_MAX_CHARS))]
    product_slug: String,
    /// The GA4 property to connect (digits, as `options.analytics_a_properties` lists it).
    #[garde(inner(length(chars, min = 1, max = CHOICE_MAX_CHARS)))]
    analytics_a_property_id: Option<String>,
    /// The container to connect, `accounts/{a}/containers/{c}`.
    #[garde(inner(length(chars, min = 1, max = CHOICE_MAX_CHARS)))]
    tagmgr_container_path: Option<String>,
    /// The Search Console site to connect, exactly as listed.
    #[garde(inner(length(chars, min = 1, max = CHOICE_MAX_CHARS)))]
    search_console_site_url: Option<String>,
}

/// Without ids: what the service account reaches (`options`, as the grant's status lists them;
/// a kind whose listing failed under `options.errors`), nothing made. With ids: each proven by
/// a live read, then the connections are made active in one transaction and their backfill
/// starts at the next pass. 400 naming the field of an id the account cannot read; 404 another
/// account's product; 503 until the key is configured.
#[utoipa::path(post, path = "/connect/searchco/service-account/verify", tag = tags::CONNECTIONS,
    security(("bearer" = [])), request_body = ServiceAccountVerifyRequest,
    responses((status = 200, body = AccountVerified), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 404, body = ErrorBody), (status = 503, body = ErrorBody)))]
async fn service_account_verify(
    state: State<AppState>,
    caller: Caller,
    ValidJson(body): ValidJson<ServiceAccountVerifyRequest>,
) -> ApiResult<Json<AccountVerified>> {
    let choices = [
        ("analytics_a_property_id", body.analytics_a_property_id),
        ("tagmgr_container_path", body.tagmgr_container_path),
        ("search_console_site_url", body.search_console_site_url),
    ];
    Ok(Json(
        searchco_account::verify(&state, &caller, &body.product_slug, &choices).await?,
    ))
}
