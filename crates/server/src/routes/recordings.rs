//! `GET /products/{slug}/recordings`: a product's sampled session recordings.

use axum::extract::{Path, State};
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiResult, ErrorBody};
use crate::extract::{Caller, Json, Query};
use crate::input::{Window, limits};
use crate::kinds::replay::REPLAY_KINDS;
use crate::openapi::rule::{At, Rule, days, limit, words};
use crate::routes::tags;
use crate::services::products;
use crate::services::recordings::{self, Filters, PATH_MAX_CHARS, RecordingsReport, SIGNALS};
use crate::state::AppState;

/// What the server checks of the query, for the OpenAPI document (`openapi::rules`).
pub fn rules() -> Vec<(At, Vec<Rule>)> {
    const PATH: &str = "/products/{slug}/recordings";
    vec![
        (At::Param(PATH, "days"), days()),
        (At::Param(PATH, "limit"), limit(limits::WINDOW)),
        (
            At::Param(PATH, "path"),
            vec![
                Rule::Chars(1, PATH_MAX_CHARS),
                Rule::Pattern("^/".to_owned()),
            ],
        ),
        (At::Param(PATH, "signal"), vec![words(SIGNALS)]),
        (
            At::Param(PATH, "provider"),
            vec![words(REPLAY_KINDS.iter().map(|kind| kind.as_str()))],
        ),
    ]
}

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(list))
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct RecordingsParams {
    /// UTC days ending today, 1-3650; default 30.
    days: Option<i64>,
    /// Only recordings that started on this landing path (`/pricing`; query and trailing `/`
    /// ignored).
    path: Option<String>,
    /// Only recordings with this signal: `rage_click`, `dead_click` or `js_error`.
    signal: Option<String>,
    /// Only this provider: `replay_a` or `product_analytics_a`.
    provider: Option<String>,
    /// 1-1000; default 100.
    limit: Option<i64>,
}

/// The product's session recordings sampled by its replay sources in the window, newest first:
/// playback pointers only (`{provider, id, url, path, started_at, duration_s, signals}`), with
/// `recordings_url`, where the replay tool lists them (Clarity's dashboard filtered by `path`
/// when `replay_a` is connected, else PostHog's replay list; null without a replay source), and
/// `sources`, the replay kinds connected. Empty without a replay source. 400 naming `days`,
/// `path`, `signal`, `provider` or `limit`; 404 for another account's product.
#[utoipa::path(get, path = "/products/{slug}/recordings", tag = tags::REPORTS, security(("bearer" = [])),
    params(("slug" = String, Path, description = "product slug"), RecordingsParams),
    responses((status = 200, body = RecordingsReport), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn list(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
    Query(params): Query<RecordingsParams>,
) -> ApiResult<Json<RecordingsReport>> {
    let window = Window::new(params.days, params.limit)?;
    let filters = Filters::check(
        params.path.as_deref(),
        params.signal.as_deref(),
        params.provider.as_deref(),
    )?;
    let product = products::find(&state, caller.scope()?, &slug).await?;
    Ok(Json(
        recordings::report(&state, &product, window, &filters).await?,
    ))
}
