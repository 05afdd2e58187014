//! `replay_a`: Microsoft Clarity, connected with a project's Data Export API token and the
//! project id. Each daily run stores the last day's rage clicks, dead clicks and script errors
//! per page path as snapshots (the landing pages' `friction`); recordings are watched in
//! Clarity (`GET /products/{slug}/recordings` links there). Clarity answers 10 export requests
//! per project per day, so the connect, every test and every run each spend one, counted per
//! project before sending (`budget.rs`); never on demand.

mod budget;

use std::sync::Arc;

use axum::extract::{Path, State};
use payback_connectors::ConnectorError;
use payback_connectors::replay_a::{
    DAILY_REQUESTS, DEFAULT_API_BASE_URL, ReplayAConfig, ReplayASource,
};
use payback_domain::DAY_MS;
use payback_domain::connection::ConnectionKind;
use payback_store::connections::ConnectionRow;
use payback_store::products::ProductRow;
use serde::Deserialize;
use serde_json::json;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{Plugin, boxed};
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{Caller, Json, ValidJson};
use crate::input::rules::secret_within;
use crate::openapi::rule::{At, Rule};
use crate::routes::tags;
use crate::secret::Secret;
use crate::services::key_connect::{self, Connected, Keyed};
use crate::services::source_config;
use crate::state::{AppState, OpenFuture};

pub use budget::Budgeted;

const KIND: ConnectionKind = ConnectionKind::ReplayA;

/// The API token, in characters (Clarity's are JWTs of several hundred).
pub const API_TOKEN_MAX_CHARS: usize = 4_000;
/// `project_id`, in characters (Clarity's are about ten).
pub const PROJECT_ID_MAX_CHARS: usize = 64;
const PROJECT_ID_PATTERN: &str = "^[A-Za-z0-9]+$";

pub fn plugin() -> Plugin {
    Plugin {
        kind: KIND,
        open,
        routes: || OpenApiRouter::new().routes(routes!(connect)),
        grant: None,
        rules,
    }
}

fn rules() -> Vec<(At, Vec<Rule>)> {
    vec![
        (
            At::Field("ReplayARequest", "api_token"),
            vec![Rule::Chars(1, API_TOKEN_MAX_CHARS)],
        ),
        (
            At::Field("ReplayARequest", "project_id"),
            vec![
                Rule::Chars(1, PROJECT_ID_MAX_CHARS),
                Rule::Pattern(PROJECT_ID_PATTERN.to_owned()),
            ],
        ),
    ]
}

/// Where Clarity's API answers.
fn origin(state: &AppState) -> String {
    source_config::vendor_origin(state, KIND, DEFAULT_API_BASE_URL)
}

#[derive(Debug, Deserialize, ToSchema, garde::Validate)]
#[serde(deny_unknown_fields)]
#[schema(examples(json!({ "api_token": "eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.payload.signature", "project_id": "k3x9p2q7ab" })))]
pub struct ReplayARequest {
    /// A Clarity Data Export API token (Clarity, Settings, Data Export, Generate new API
    /// token). Stored encrypted, never returned.
    #[garde(custom(secret_within::<API_TOKEN_MAX_CHARS>))]
    api_token: Secret,
    /// The Clarity project id (Settings, Overview), letters and digits.
    #[garde(length(chars, min = 1, max = PROJECT_ID_MAX_CHARS), custom(alphanumeric))]
    project_id: String,
}

/// Clarity project ids are letters and digits.
fn alphanumeric(id: &str, _: &()) -> garde::Result {
    if id.chars().all(|c| c.is_ascii_alphanumeric()) {
        Ok(())
    } else {
        Err(garde::Error::new(
            "must be letters and digits (Clarity's project id)",
        ))
    }
}

/// Connects a Clarity project with its Data Export API token, proven with one export request
/// (one of the project's 10 a day). A run is due at the next job pass, then daily: the last
/// day's rage clicks, dead clicks and script errors per page path. Not available as sync now.
/// 429 when today's 10 requests of the project are spent (nothing is sent). Re-connecting
/// replaces the token. Audited as `connection.connect`.
#[utoipa::path(post, path = "/products/{slug}/connections/replay-a", tag = tags::CONNECTIONS,
    security(("bearer" = [])), params(("slug" = String, Path, description = "product slug")),
    request_body = ReplayARequest,
    responses((status = 200, body = Connected), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody),
        (status = 429, body = ErrorBody, description = "today's 10 export requests of the project are spent"),
        (status = 502, body = ErrorBody, description = "Clarity could not be reached or failed"),
        (status = 503, body = ErrorBody, description = "PAYBACK_SECRET_KEY is not configured")))]
async fn connect(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
    ValidJson(body): ValidJson<ReplayARequest>,
) -> ApiResult<Json<Connected>> {
    let token = body.api_token.expose().trim();
    let project_id = body.project_id.trim().to_owned();
    let keyed = Keyed {
        kind: KIND,
        secret: json!({ "api_token": token }),
        config: json!({ "project_id": project_id }),
        audit: json!({ "project_id": project_id }),
    };
    // The test takes one of the project's requests of the day before it is sent (`budget.rs`).
    let proven = key_connect::prove(
        budgeted(&state, token.to_owned(), project_id.clone()),
        |err| refused(&state, err),
        keyed,
    );
    let connected = key_connect::connect(&state, &caller, &slug, proven).await?;
    Ok(Json(connected))
}

/// A refused token as a 400 naming `api_token`; a spent day as 429 until midnight UTC; 502
/// when Clarity could not answer.
fn refused(state: &AppState, err: ConnectorError) -> ApiError {
    match err {
        ConnectorError::RateLimited(message) => {
            let now = state.clock.now();
            let until_midnight = DAY_MS - now.millis().rem_euclid(DAY_MS);
            ApiError::TooManyRequests {
                message: format!(
                    "project_id: {message} (at most {DAILY_REQUESTS} a day, Clarity's quota)"
                ),
                retry_after_secs: u64::try_from(until_midnight / 1000).unwrap_or(0) + 1,
            }
        }
        other => key_connect::key_refused(other, "api_token", "Clarity"),
    }
}

/// A Clarity source whose requests are counted against its project's day.
fn budgeted(state: &AppState, api_token: String, project_id: String) -> Budgeted {
    let mut config = ReplayAConfig::new(api_token, project_id.clone());
    config.api_base_url = origin(state);
    Budgeted {
        inner: ReplayASource::new(state.http.clone(), config),
        store: state.store.clone(),
        clock: Arc::clone(&state.clock),
        project_id,
    }
}

/// The sealed part of a `replay_a` connection.
#[derive(Deserialize)]
struct ReplayASecret {
    api_token: String,
}

/// The project a connection reads.
#[derive(Deserialize)]
pub struct Settings {
    pub project_id: String,
}

/// The Clarity token and project, behind the day's budget.
fn open<'a>(
    state: &'a AppState,
    _product: &'a ProductRow,
    row: &'a ConnectionRow,
) -> OpenFuture<'a> {
    Box::pin(async move {
        let secret: ReplayASecret = source_config::secret_of(state, row).await?;
        let settings: Settings = source_config::settings_of(row)?;
        Ok(boxed(budgeted(
            state,
            secret.api_token,
            settings.project_id,
        )))
    })
}
