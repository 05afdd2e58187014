//! The weekly scorecard of a product (issue 40): the matrix, its layout, templates, manual
//! cells, insights, suggestions, CSV and XLSX exports, share links and the Sheets sync; and the
//! public read-only view of a shared scorecard (`GET /t/scorecard/{token}`).

use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use serde_json::json;

use crate::error::{ApiResult, ErrorBody};
use crate::extract::{Caller, Json, Query};
use crate::openapi::rule::{At, Rule, at_most, one_line_name, words};
use crate::pending_events;
use crate::routes::tags;
use crate::services::scorecard::catalog::Catalog;
use crate::services::scorecard::insights::Insights;
use crate::services::scorecard::layout::LayoutInput;
use crate::services::scorecard::manual::{Done, ValuesInput};
use crate::services::scorecard::matrix::Matrix;
use crate::services::scorecard::share::Shared;
use crate::services::scorecard::sheets::Synced;
use crate::services::scorecard::suggest::{SuggestInput, Suggestions};
use crate::services::scorecard::weeks::WeeksAsked;
use crate::services::scorecard::{self, TemplateInput, export};
use crate::state::AppState;

/// The bearer routes. The matrix counts ingested events, so each read says how many of the
/// product's events it does not count yet (`X-Payback-Pending-Events`).
pub fn router() -> OpenApiRouter<AppState> {
    pending_events::reported(
        OpenApiRouter::new()
            .routes(routes!(read, save))
            .routes(routes!(catalog))
            .routes(routes!(insights))
            .routes(routes!(template))
            .routes(routes!(values))
            .routes(routes!(suggest))
            .routes(routes!(export_csv))
            .routes(routes!(export_xlsx))
            .routes(routes!(share))
            .routes(routes!(revoke))
            .routes(routes!(sync_sheets)),
    )
}

/// The public view of a shared scorecard: no credential, the token in the path.
pub fn public() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(shared))
}

/// Read as text and checked by `WeeksAsked::parse`, so a refusal names the parameter.
#[derive(Debug, Deserialize, IntoParams)]
pub struct WeeksParams {
    /// Completed ISO weeks, an integer of at least 1; default 13. Above the history ceiling
    /// (521 weeks) that many are served with `clamped: true`.
    #[param(value_type = Option<i64>)]
    weeks: Option<String>,
    /// `1` appends the week in progress.
    current: Option<String>,
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct InsightWeeksParams {
    /// Completed ISO weeks the insights read (at least the last two); default 13.
    #[param(value_type = Option<i64>)]
    weeks: Option<String>,
}

/// An ISO week key as a manual cell names it (`services/scorecard/weeks.rs::is_week_key` checks
/// the week exists).
const WEEK_PATTERN: &str = "^[0-9]{4}-W[0-9]{2}$";
/// A manual row's key; every catalog metric matches it too.
const METRIC_PATTERN: &str = "^[a-z][a-z0-9_]{1,39}$";
/// A section's key.
const SECTION_KEY_PATTERN: &str = "^[a-z][a-z0-9_]{0,39}$";

/// What the server checks of these routes' queries and bodies, for the OpenAPI document; each
/// from the constant the check reads (`services/scorecard/`).
pub fn rules() -> Vec<(At, Vec<Rule>)> {
    use crate::services::scorecard::layout::{MAX_LABEL_CHARS, MAX_ROWS, MAX_SECTIONS};
    use crate::services::scorecard::manual::MAX_CELLS;
    use crate::services::scorecard::suggest::MAX_PROMPT_CHARS;
    use crate::services::scorecard::templates::TEMPLATES;
    use crate::services::scorecard::weeks::DEFAULT_WEEKS;
    let weeks = || vec![Rule::Min(1), Rule::Default(json!(DEFAULT_WEEKS))];
    let templates = || words(TEMPLATES.iter().map(|(name, _)| *name));
    let mut rules = vec![
        (
            At::Param("/products/{slug}/scorecard/insights", "weeks"),
            weeks(),
        ),
        (
            At::Field("LayoutInput", "sections"),
            vec![Rule::Items(0, MAX_SECTIONS)],
        ),
        (At::Field("LayoutInput", "template"), vec![templates()]),
        (
            At::Field("SectionInput", "key"),
            vec![Rule::Pattern(SECTION_KEY_PATTERN.to_owned())],
        ),
        (
            At::Field("SectionInput", "label"),
            one_line_name(MAX_LABEL_CHARS),
        ),
        (
            At::Field("SectionInput", "rows"),
            vec![Rule::Items(0, MAX_ROWS)],
        ),
        (
            At::Field("RowInput", "metric"),
            vec![Rule::Pattern(METRIC_PATTERN.to_owned())],
        ),
        (
            At::Field("RowInput", "label"),
            one_line_name(MAX_LABEL_CHARS),
        ),
        (At::Field("TemplateInput", "template"), vec![templates()]),
        (
            At::Field("ValuesInput", "cells"),
            vec![Rule::Items(1, MAX_CELLS)],
        ),
        (
            At::Field("CellInput", "metric"),
            vec![Rule::Pattern(METRIC_PATTERN.to_owned())],
        ),
        (
            At::Field("CellInput", "week"),
            vec![Rule::Pattern(WEEK_PATTERN.to_owned())],
        ),
        (
            At::Field("SuggestInput", "prompt"),
            at_most(MAX_PROMPT_CHARS),
        ),
    ];
    for path in [
        "/products/{slug}/scorecard",
        "/products/{slug}/scorecard/export.csv",
        "/products/{slug}/scorecard/export.xlsx",
    ] {
        rules.push((At::Param(path, "weeks"), weeks()));
        rules.push((At::Param(path, "current"), vec![words(["0", "1"])]));
    }
    rules
}

/// The scorecard matrix: the product's layout with a value per completed ISO week (Monday to
/// Sunday, UTC), oldest first. The first read stores the `default` template's rows of the
/// sources connected then (first-party rows always); later connections never change it. Null
/// cells: no denominator, source not connected, or a manual cell nobody typed.
#[utoipa::path(get, path = "/products/{slug}/scorecard", tag = tags::REPORTS, security(("bearer" = [])),
    params(("slug" = String, Path, description = "product slug"), WeeksParams),
    responses((status = 200, body = Matrix), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn read(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
    Query(params): Query<WeeksParams>,
) -> ApiResult<Json<Matrix>> {
    let asked = WeeksAsked::parse(params.weeks.as_deref(), params.current.as_deref())?;
    Ok(Json(scorecard::read(&state, &caller, &slug, asked).await?))
}

/// Replaces the scorecard's layout: at most 12 sections of 1-80 character labels and 60 rows in
/// all, each metric once; a catalog row may rename itself, a manual row (`manual: true`) takes
/// a new key `^[a-z][a-z0-9_]{1,39}$`, a label and a unit (`count` by default). `template`
/// names the template this layout is, or null (a custom layout). Audited
/// (`scorecard.save`). Answers the matrix of the default weeks.
#[utoipa::path(post, path = "/products/{slug}/scorecard", tag = tags::REPORTS, security(("bearer" = [])),
    params(("slug" = String, Path, description = "product slug")),
    request_body = LayoutInput,
    responses((status = 200, body = Matrix), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn save(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
    Json(body): Json<LayoutInput>,
) -> ApiResult<Json<Matrix>> {
    Ok(Json(scorecard::save(&state, &caller, &slug, body).await?))
}

/// Every metric a row may show: its label, unit (`count`, `cents`, `percent` 0-100, `ratio`),
/// source family (`first_party`, `ads`, `search`, `social`) and whether the product has that
/// source connected.
#[utoipa::path(get, path = "/products/{slug}/scorecard/catalog", tag = tags::REPORTS, security(("bearer" = [])),
    params(("slug" = String, Path, description = "product slug")),
    responses((status = 200, body = Catalog), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn catalog(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
) -> ApiResult<Json<Catalog>> {
    Ok(Json(scorecard::catalog(&state, &caller, &slug).await?))
}

/// Week-on-week highlights of the last two completed weeks (a row whose value moved by 25% or
/// more from a non-zero week before), and, when the model gateway is configured, cards a model
/// wrote from the same numbers (`ai: true`, `model`). Never proposes or queues anything.
#[utoipa::path(get, path = "/products/{slug}/scorecard/insights", tag = tags::REPORTS, security(("bearer" = [])),
    params(("slug" = String, Path, description = "product slug"), InsightWeeksParams),
    responses((status = 200, body = Insights), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn insights(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
    Query(params): Query<InsightWeeksParams>,
) -> ApiResult<Json<Insights>> {
    let asked = WeeksAsked::parse(params.weeks.as_deref(), None)?;
    Ok(Json(
        scorecard::insights(&state, &caller, &slug, asked).await?,
    ))
}

/// Replaces the scorecard with a template's layout (`default`, `saas_waitlist`,
/// `paid_acquisition`, `content_led`), keeping rows of sources not connected. Audited
/// (`scorecard.template`).
#[utoipa::path(post, path = "/products/{slug}/scorecard/template", tag = tags::REPORTS, security(("bearer" = [])),
    params(("slug" = String, Path, description = "product slug")),
    request_body = TemplateInput,
    responses((status = 200, body = Matrix), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn template(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
    Json(body): Json<TemplateInput>,
) -> ApiResult<Json<Matrix>> {
    Ok(Json(
        scorecard::apply_template(&state, &caller, &slug, body).await?,
    ))
}

/// Types cells of manual rows: 1-500 cells `{metric, week, value}`, each a manual row of the
/// scorecard, an ISO week `YYYY-Www` not after the week in progress, and a number or null
/// (clearing the cell). All or nothing.
#[utoipa::path(post, path = "/products/{slug}/scorecard/values", tag = tags::REPORTS, security(("bearer" = [])),
    params(("slug" = String, Path, description = "product slug")),
    request_body = ValuesInput,
    responses((status = 200, body = Done), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn values(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
    Json(body): Json<ValuesInput>,
) -> ApiResult<Json<Done>> {
    Ok(Json(
        scorecard::write_values(&state, &caller, &slug, body).await?,
    ))
}

/// Metrics the scorecard could add, never applied. With the model gateway configured a model
/// picks them (from the catalog, or manual rows with new keys) given `prompt` (at most 500
/// characters); without one, the available catalog metrics not on the scorecard.
#[utoipa::path(post, path = "/products/{slug}/scorecard/suggest", tag = tags::REPORTS, security(("bearer" = [])),
    params(("slug" = String, Path, description = "product slug")),
    request_body = SuggestInput,
    responses((status = 200, body = Suggestions), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 402, description = "suggestions need the Indie plan or above (`required_plan`)", body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 502, body = ErrorBody)))]
async fn suggest(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
    Json(body): Json<SuggestInput>,
) -> ApiResult<Json<Suggestions>> {
    Ok(Json(
        scorecard::suggest(&state, &caller, &slug, body).await?,
    ))
}

fn download(content_type: &str, filename: String, body: Vec<u8>) -> Response {
    (
        StatusCode::OK,
        [
            (header::CONTENT_TYPE, content_type.to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{filename}\""),
            ),
            // Exports hold tenant data: no shared cache may keep them.
            (header::CACHE_CONTROL, "no-store".to_owned()),
        ],
        body,
    )
        .into_response()
}

/// The matrix as CSV (`<slug>-scorecard.csv`): header `section, metric, label, unit, <week
/// keys>` (section: its label), a row per scorecard row, empty cells for null. Text starting
/// with `=`, `+`, `-` or `@` gets a leading `'`; numbers are numbers.
#[utoipa::path(get, path = "/products/{slug}/scorecard/export.csv", tag = tags::EXPORTS, security(("bearer" = [])),
    params(("slug" = String, Path, description = "product slug"), WeeksParams),
    responses(
        (status = 200, description = "RFC 4180 CSV with a header row", content_type = "text/csv", body = String),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 402, description = "the workspace's plan has no exports (`required_plan`)", body = ErrorBody),
        (status = 404, body = ErrorBody)))]
async fn export_csv(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
    Query(params): Query<WeeksParams>,
) -> ApiResult<Response> {
    let asked = WeeksAsked::parse(params.weeks.as_deref(), params.current.as_deref())?;
    let (product, matrix) = scorecard::exported(&state, &caller, &slug, asked).await?;
    Ok(download(
        "text/csv; charset=utf-8",
        format!("{}-scorecard.csv", product.slug),
        export::csv(&matrix)?,
    ))
}

/// The spreadsheet media type of [`export_xlsx`].
const XLSX: &str = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/// The matrix as an XLSX workbook (`<slug>-scorecard.xlsx`): the CSV's table on its first
/// sheet, `Scorecard`, numbers as numeric cells, no formulas.
#[utoipa::path(get, path = "/products/{slug}/scorecard/export.xlsx", tag = tags::EXPORTS, security(("bearer" = [])),
    params(("slug" = String, Path, description = "product slug"), WeeksParams),
    responses(
        (status = 200, description = "an XLSX workbook", content_type = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", body = Vec<u8>),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 402, description = "the workspace's plan has no exports (`required_plan`)", body = ErrorBody),
        (status = 404, body = ErrorBody)))]
async fn export_xlsx(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
    Query(params): Query<WeeksParams>,
) -> ApiResult<Response> {
    let asked = WeeksAsked::parse(params.weeks.as_deref(), params.current.as_deref())?;
    let (product, matrix) = scorecard::exported(&state, &caller, &slug, asked).await?;
    Ok(download(
        XLSX,
        format!("{}-scorecard.xlsx", product.slug),
        export::xlsx(&matrix)?,
    ))
}

/// The share link of the scorecard: `{share_url, token}`, the token 43 URL-safe characters.
/// Sharing again answers the live link; after a revoke the next share mints a new token.
/// Audited (`scorecard.share`) when a link is minted.
#[utoipa::path(post, path = "/products/{slug}/scorecard/share", tag = tags::REPORTS, security(("bearer" = [])),
    params(("slug" = String, Path, description = "product slug")),
    responses((status = 200, body = Shared), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn share(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
) -> ApiResult<Json<Shared>> {
    Ok(Json(scorecard::share(&state, &caller, &slug).await?))
}

/// Kills the live share link (its URL answers 404 from now on); `{ok: true}` also when there
/// was none. Audited (`scorecard.share_revoke`) when there was one.
#[utoipa::path(post, path = "/products/{slug}/scorecard/share/revoke", tag = tags::REPORTS, security(("bearer" = [])),
    params(("slug" = String, Path, description = "product slug")),
    responses((status = 200, body = Done), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn revoke(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
) -> ApiResult<Json<Done>> {
    scorecard::revoke(&state, &caller, &slug).await?;
    Ok(Json(Done { ok: true }))
}

/// Writes the export table (the default weeks) to a Google spreadsheet through the service
/// account: the first sync creates it (titled with the product's name, first sheet
/// `Scorecard`) and gives every active owner writer access; later syncs clear and rewrite it,
/// and create a new one when Google no longer finds it. 503 without
/// `PAYBACK_SHEETS_SERVICE_ACCOUNT_KEY_FILE`; 502 when Google refuses (nothing new linked).
#[utoipa::path(post, path = "/products/{slug}/scorecard/sheets/sync", tag = tags::EXPORTS, security(("bearer" = [])),
    params(("slug" = String, Path, description = "product slug")),
    responses((status = 200, body = Synced), (status = 401, body = ErrorBody),
        (status = 402, description = "the Sheets sync needs the Growth plan (`required_plan`)", body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 502, body = ErrorBody), (status = 503, body = ErrorBody)))]
async fn sync_sheets(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
) -> ApiResult<Json<Synced>> {
    Ok(Json(scorecard::sync_sheets(&state, &caller, &slug).await?))
}

/// A shared scorecard, read-only: the live matrix of the default weeks with `catalog: []`,
/// `spreadsheet_id: null`, `share_url: null` and `sheets_enabled: false`. 404 for a token that
/// was revoked or never minted.
#[utoipa::path(get, path = "/t/scorecard/{token}", tag = tags::REPORTS,
    params(("token" = String, Path, description = "the share token")),
    responses((status = 200, body = Matrix), (status = 404, body = ErrorBody)))]
async fn shared(State(state): State<AppState>, Path(token): Path<String>) -> ApiResult<Response> {
    let matrix = scorecard::public(&state, &token).await?;
    // A shared link is read by whoever holds it: no cache may keep the numbers.
    Ok(([(header::CACHE_CONTROL, "no-store")], Json(matrix)).into_response())
}
