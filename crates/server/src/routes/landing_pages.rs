//! Landing pages: the tracked pages with their traffic, the exclude filters, a page's detail,
//! deletion and the on-demand analysis. The rules live in `services/landing_pages`; these
//! handlers only read the request and answer.

use axum::extract::{Path, State};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiResult, ErrorBody};
use crate::extract::{Caller, Json, Query};
use crate::input::rules::WEB_URL_PATTERN;
use crate::openapi::rule::{At, Rule, days};
use crate::pending_events;
use crate::services::fetch_guard;
use crate::services::landing_pages::analysis::PageAnalysis;
use crate::services::landing_pages::filters::{self, ExcludeFilterView};
use crate::services::landing_pages::{self, LandingPageDetail, LandingPageList, LandingPageView};
use crate::state::AppState;

/// The OpenAPI tag of these routes.
const TAG: &str = "landing pages";

/// What the server checks of these routes' queries and bodies, for the OpenAPI document.
pub fn rules() -> Vec<(At, Vec<Rule>)> {
    let url = vec![
        Rule::Chars(0, fetch_guard::MAX_URL_CHARS),
        Rule::Pattern(WEB_URL_PATTERN.to_owned()),
    ];
    let pattern = || {
        vec![
            Rule::Chars(0, filters::PATTERN_MAX_CHARS),
            Rule::Pattern(filters::PATTERN_RULE.to_owned()),
        ]
    };
    vec![
        (At::Param("/products/{slug}/landing-pages", "days"), days()),
        (
            At::Param("/products/{slug}/landing-pages/{id}", "days"),
            days(),
        ),
        (At::Field("CreateLandingPageRequest", "url"), url),
        (
            At::Field("CreateExcludeFilterRequest", "pattern"),
            pattern(),
        ),
        (
            At::Field("UpdateExcludeFilterRequest", "pattern"),
            pattern(),
        ),
        (
            At::Schema("UpdateExcludeFilterRequest"),
            vec![Rule::AnyRequired(vec!["pattern", "enabled"])],
        ),
    ]
}

/// Traffic counts ingested visits, so the reads say how many events they do not count yet
/// (`X-Payback-Pending-Events`), as the reports do.
pub fn router() -> OpenApiRouter<AppState> {
    pending_events::reported(
        OpenApiRouter::new()
            .routes(routes!(list_pages, create_page))
            .routes(routes!(list_filters, create_filter))
            .routes(routes!(update_filter, delete_filter))
            .routes(routes!(page_detail, delete_page))
            .routes(routes!(analyze_page)),
    )
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct LandingWindowParams {
    /// UTC days ending today, 1-3650; default 30. Traffic compares them with as many days
    /// before.
    days: Option<i64>,
}

/// The product's landing pages, oldest first (at most 500), each with its `traffic` over the
/// window against the window before (from `analytics_a`'s landing sessions when the product
/// has that source, else first-party `visit` events by `attribution.landing_url`), its newest
/// analysis, `friction` (null until a replay source counts the path) and `is_excluded`; and
/// the product's exclude filters. The window's top session paths (at least 10 sessions) are
/// added first as pages (`source` = the kind) unless excluded or tracked already.
#[utoipa::path(get, path = "/products/{slug}/landing-pages", tag = TAG, security(("bearer" = [])),
    params(("slug" = String, Path, description = "product slug"), LandingWindowParams),
    responses((status = 200, body = LandingPageList), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
async fn list_pages(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
    Query(params): Query<LandingWindowParams>,
) -> ApiResult<Json<LandingPageList>> {
    Ok(Json(
        landing_pages::list(&state, &caller, &slug, params.days).await?,
    ))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"url": "https://example.com/pricing"}))]
pub struct CreateLandingPageRequest {
    /// An http(s) URL of at most 2048 characters, on the product's domain or a subdomain of it
    /// (any host when the product has no domain). Its path (no query, fragment or trailing
    /// `/`) keys the page.
    url: String,
}

/// Tracks a page by hand (`source: manual`), answering it with its traffic over the last 30
/// days. 409 when the product tracks that path already.
#[utoipa::path(post, path = "/products/{slug}/landing-pages", tag = TAG, security(("bearer" = [])),
    params(("slug" = String, Path, description = "product slug")), request_body = CreateLandingPageRequest,
    responses((status = 200, body = LandingPageView), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody, description = "the path is tracked already")))]
async fn create_page(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
    Json(body): Json<CreateLandingPageRequest>,
) -> ApiResult<Json<LandingPageView>> {
    Ok(Json(
        landing_pages::create(&state, &caller, &slug, &body.url).await?,
    ))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ExcludeFilterList {
    /// Oldest first.
    filters: Vec<ExcludeFilterView>,
}

/// The product's exclude filters, oldest first (at most 500).
#[utoipa::path(get, path = "/products/{slug}/landing-pages/filters", tag = TAG, security(("bearer" = [])),
    params(("slug" = String, Path, description = "product slug")),
    responses((status = 200, body = ExcludeFilterList), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn list_filters(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
) -> ApiResult<Json<ExcludeFilterList>> {
    Ok(Json(ExcludeFilterList {
        filters: filters::list(&state, &caller, &slug).await?,
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"pattern": "/blog", "enabled": true}))]
pub struct CreateExcludeFilterRequest {
    /// At most 200 characters, starting with `/` or `*`. Without `*` a path prefix by whole
    /// segments (`/blog` matches `/blog/x`, not `/blogger`); with `*` a glob over the whole
    /// path, `*` any characters.
    pattern: String,
    /// Default true; only enabled filters exclude.
    enabled: Option<bool>,
}

/// Adds an exclude filter: matching pages read `is_excluded: true` and are not discovered.
#[utoipa::path(post, path = "/products/{slug}/landing-pages/filters", tag = TAG, security(("bearer" = [])),
    params(("slug" = String, Path, description = "product slug")), request_body = CreateExcludeFilterRequest,
    responses((status = 200, body = ExcludeFilterView), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
async fn create_filter(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
    Json(body): Json<CreateExcludeFilterRequest>,
) -> ApiResult<Json<ExcludeFilterView>> {
    Ok(Json(
        filters::create(&state, &caller, &slug, &body.pattern, body.enabled).await?,
    ))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"enabled": false}))]
pub struct UpdateExcludeFilterRequest {
    /// The same rules as on creation.
    pattern: Option<String>,
    enabled: Option<bool>,
}

/// Changes a filter's pattern or switch (at least one). 404 for a filter the product does not
/// have.
#[utoipa::path(post, path = "/products/{slug}/landing-pages/filters/{id}", tag = TAG, security(("bearer" = [])),
    params(("slug" = String, Path, description = "product slug"), ("id" = String, Path, description = "filter id")),
    request_body = UpdateExcludeFilterRequest,
    responses((status = 200, body = ExcludeFilterView), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
async fn update_filter(
    State(state): State<AppState>,
    caller: Caller,
    Path((slug, id)): Path<(String, String)>,
    Json(body): Json<UpdateExcludeFilterRequest>,
) -> ApiResult<Json<ExcludeFilterView>> {
    Ok(Json(
        filters::update(
            &state,
            &caller,
            &slug,
            &id,
            body.pattern.as_deref(),
            body.enabled,
        )
        .await?,
    ))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct LandingPageDeleted {
    ok: bool,
}

/// Deletes a filter. 404 for a filter the product does not have.
#[utoipa::path(delete, path = "/products/{slug}/landing-pages/filters/{id}", tag = TAG, security(("bearer" = [])),
    params(("slug" = String, Path, description = "product slug"), ("id" = String, Path, description = "filter id")),
    responses((status = 200, body = LandingPageDeleted), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn delete_filter(
    State(state): State<AppState>,
    caller: Caller,
    Path((slug, id)): Path<(String, String)>,
) -> ApiResult<Json<LandingPageDeleted>> {
    filters::delete(&state, &caller, &slug, &id).await?;
    Ok(Json(LandingPageDeleted { ok: true }))
}

/// One page: its `traffic`, one `traffic_series` row per window day (zero-filled, oldest
/// first), its analyses newest first (at most 50), `recordings` (empty) and `recordings_url`
/// (null) until a replay source is connected. 404 for a page the product does not track.
#[utoipa::path(get, path = "/products/{slug}/landing-pages/{id}", tag = TAG, security(("bearer" = [])),
    params(("slug" = String, Path, description = "product slug"), ("id" = String, Path, description = "page id"), LandingWindowParams),
    responses((status = 200, body = LandingPageDetail), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
async fn page_detail(
    State(state): State<AppState>,
    caller: Caller,
    Path((slug, id)): Path<(String, String)>,
    Query(params): Query<LandingWindowParams>,
) -> ApiResult<Json<LandingPageDetail>> {
    Ok(Json(
        landing_pages::detail(&state, &caller, &slug, &id, params.days).await?,
    ))
}

/// Stops tracking a page; its analyses are deleted with it, the path's traffic stays. 404 for a
/// page the product does not track.
#[utoipa::path(delete, path = "/products/{slug}/landing-pages/{id}", tag = TAG, security(("bearer" = [])),
    params(("slug" = String, Path, description = "product slug"), ("id" = String, Path, description = "page id")),
    responses((status = 200, body = LandingPageDeleted), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn delete_page(
    State(state): State<AppState>,
    caller: Caller,
    Path((slug, id)): Path<(String, String)>,
) -> ApiResult<Json<LandingPageDeleted>> {
    landing_pages::delete(&state, &caller, &slug, &id).await?;
    Ok(Json(LandingPageDeleted { ok: true }))
}

/// Fetches the live page (public addresses only, at most 5 redirects, 10 s, the first 2 MiB)
/// and has the model gateway score its text against the weighted rubric (headline clarity,
/// value proposition and call to action 20 each, social proof and readability 15, objection
/// handling 10); `overall_score` is the weighted mean of the scores returned. On demand only.
/// A page that does not load, a gateway failure or an unusable answer is an analysis with
/// `status: error` (200). 503 when no model gateway is configured.
#[utoipa::path(post, path = "/products/{slug}/landing-pages/{id}/analyze", tag = TAG, security(("bearer" = [])),
    params(("slug" = String, Path, description = "product slug"), ("id" = String, Path, description = "page id")),
    responses((status = 200, body = PageAnalysis), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 503, body = ErrorBody, description = "no model gateway is configured")))]
async fn analyze_page(
    State(state): State<AppState>,
    caller: Caller,
    Path((slug, id)): Path<(String, String)>,
) -> ApiResult<Json<PageAnalysis>> {
    Ok(Json(
        landing_pages::analyze(&state, &caller, &slug, &id).await?,
    ))
}
