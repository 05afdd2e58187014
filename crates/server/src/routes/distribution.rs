//! The distribution log.

use axum::extract::{Path, State};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiResult, ErrorBody};
use crate::extract::{Caller, Json, Query, ValidJson};
use crate::input::Window;
use crate::input::rules::distribution::{
    CAMPAIGN_MAX_CHARS, LABEL_MAX_CHARS, PRODUCT_SLUG_MAX_CHARS, TEXT_MAX_CHARS,
};
use crate::input::rules::{not_blank, one_line, web_url};
use crate::routes::tags;
use crate::services::distribution::{self, DistributionList, EntryInput};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(record))
        .routes(routes!(list))
}

/// The spec spells these fields in camelCase; the Rust names match the wire so that validation
/// errors name the field the caller sent.
#[derive(Debug, Deserialize, ToSchema, garde::Validate)]
#[allow(non_snake_case)]
pub struct DistributionRequest {
    /// The product's slug.
    #[garde(length(chars, min = 1, max = PRODUCT_SLUG_MAX_CHARS))]
    productSlug: String,
    /// Where it went out, e.g. `reddit`, `newsletter`, `hacker_news` (1-80).
    #[garde(length(chars, min = 1, max = LABEL_MAX_CHARS), custom(not_blank), custom(one_line))]
    channel: String,
    /// What it was, e.g. `post`, `comment`, `email` (1-80).
    #[garde(length(chars, min = 1, max = LABEL_MAX_CHARS), custom(not_blank), custom(one_line))]
    kind: String,
    /// Link to the outreach itself; an absolute http(s) URL, at most 2000 characters.
    #[garde(inner(length(chars, max = TEXT_MAX_CHARS), url, custom(web_url)))]
    url: Option<String>,
    /// The `utm_campaign` its links carry; traffic is joined back through it (max 200).
    #[garde(inner(length(chars, min = 1, max = CAMPAIGN_MAX_CHARS), custom(not_blank), custom(one_line)))]
    utmCampaign: Option<String>,
    /// Free text, at most 2000 characters.
    #[garde(inner(length(chars, max = TEXT_MAX_CHARS)))]
    note: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Recorded {
    ok: bool,
    id: String,
}

/// Records outreach (audited as `distribution.create`).
#[utoipa::path(post, path = "/distribution", tag = tags::QUEUE, security(("bearer" = [])), request_body = DistributionRequest,
    responses((status = 200, body = Recorded), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
async fn record(
    State(state): State<AppState>,
    caller: Caller,
    ValidJson(body): ValidJson<DistributionRequest>,
) -> ApiResult<Json<Recorded>> {
    let input = EntryInput {
        product_slug: body.productSlug,
        channel: body.channel,
        kind: body.kind,
        url: body.url,
        utm_campaign: body.utmCampaign,
        note: body.note,
    };
    let id = distribution::record(&state, &caller, input).await?;
    Ok(Json(Recorded { ok: true, id }))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListParams {
    /// Entries recorded in the N UTC days ending today, 1-3650; default 30.
    days: Option<i64>,
    /// At most this many entries, 1-1000; default 100.
    limit: Option<i64>,
}

/// Outreach recorded in the window, newest first, each joined to the visits, leads, customers
/// and revenue of the identities its `utm_campaign` reached (all time).
#[utoipa::path(get, path = "/products/{slug}/distribution", tag = tags::QUEUE, security(("bearer" = [])),
    params(("slug" = String, Path, description = "product slug"), ListParams),
    responses((status = 200, body = DistributionList), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
async fn list(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
    Query(params): Query<ListParams>,
) -> ApiResult<Json<DistributionList>> {
    let window = Window::new(params.days, params.limit)?;
    Ok(Json(
        distribution::list(&state, &caller, &slug, window).await?,
    ))
}
