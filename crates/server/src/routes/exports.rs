//! Routes: CSV exports of a product's events and revenue rows.

use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiResult, ErrorBody};
use crate::extract::Caller;
use crate::pending_events;
use crate::routes::tags;
use crate::services::exports::{self, CsvExport, Export};
use crate::state::AppState;

/// Reads of ingested data say how many of the product's events they do not count yet
/// (`X-Payback-Pending-Events`).
pub fn router() -> OpenApiRouter<AppState> {
    pending_events::reported(
        OpenApiRouter::new()
            .routes(routes!(events_csv))
            .routes(routes!(transactions_csv)),
    )
}

fn csv_response(export: CsvExport) -> Response {
    (
        StatusCode::OK,
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{}\"", export.filename),
            ),
            // Exports hold tenant data: no shared cache may keep them.
            (header::CACHE_CONTROL, "no-store".to_owned()),
        ],
        Body::from_stream(export.pages),
    )
        .into_response()
}

/// Every event of the product as CSV (`<slug>-events.csv`), oldest id first, streamed. Columns:
/// id, occurred_at (RFC 3339), day, namespace, dedupe_id, stage, name, identity (canonical:
/// `u:<user_id>` or `a:<anonymous_id>`), anonymous_id, user_id, email, value_cents, currency,
/// channel (classified), utm_source, utm_medium, utm_campaign, utm_content, utm_term, gclid,
/// fbclid, referrer, landing_url, properties (JSON). The header row is always present; text
/// cells starting with `=`, `+`, `-`, `@`, tab or CR are prefixed with `'`. Needs a plan with
/// `exports` (Growth): 402 with `required_plan` otherwise.
#[utoipa::path(get, path = "/products/{slug}/export/events.csv", tag = tags::EXPORTS, security(("bearer" = [])),
    params(("slug" = String, Path, description = "product slug")),
    responses(
        (status = 200, description = "RFC 4180 CSV with a header row", content_type = "text/csv", body = String),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 402, description = "the workspace's plan has no exports (`required_plan`)", body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn events_csv(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
) -> ApiResult<Response> {
    let export = exports::export(&state, &caller, &slug, Export::Events).await?;
    Ok(csv_response(export))
}

/// Every revenue row of the product as CSV (`<slug>-transactions.csv`), oldest id first,
/// streamed. Columns: id, occurred_at, day, source, source_ref, kind (`sale`/`refund`/
/// `dispute`), stage, identity, amount_cents (refunds negative), currency, first_channel (the
/// identity's first touch), last_channel (the row's last touch, else the first touch); both are
/// `unattributed` when there is no identity or no channel. Needs a plan with `exports`
/// (Growth): 402 with `required_plan` otherwise.
#[utoipa::path(get, path = "/products/{slug}/export/transactions.csv", tag = tags::EXPORTS, security(("bearer" = [])),
    params(("slug" = String, Path, description = "product slug")),
    responses(
        (status = 200, description = "RFC 4180 CSV with a header row", content_type = "text/csv", body = String),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 402, description = "the workspace's plan has no exports (`required_plan`)", body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn transactions_csv(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
) -> ApiResult<Response> {
    let export = exports::export(&state, &caller, &slug, Export::Transactions).await?;
    Ok(csv_response(export))
}
