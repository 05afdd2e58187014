//! `social_b`: an X (Twitter) account, connected with the bearer token of the customer's X
//! developer app and the account's handle. Its followers and its posts' impressions and
//! engagement land as `social_*` snapshots under the network `x` (and its posts beside
//! `social_a`'s), which the social report lists; read only.

use axum::extract::{Path, State};
use payback_connectors::ConnectorError;
use payback_connectors::social_b::{
    self, DEFAULT_API_BASE_URL, SocialBConfig, SocialBSource, USERNAME_MAX_CHARS,
};
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

const KIND: ConnectionKind = ConnectionKind::SocialB;

/// The bearer token, in characters (X's app-only tokens are about 110; room to spare).
pub const BEARER_TOKEN_MAX_CHARS: usize = 1000;
/// What [`handle_shape`] takes, as a regular expression: X's handle, an optional `@` first.
const USERNAME_PATTERN: &str = "^@?[A-Za-z0-9_]{1,15}$";

pub fn plugin() -> Plugin {
    Plugin {
        kind: KIND,
        open,
        routes: || OpenApiRouter::new().routes(routes!(connect)),
        grant: None,
        rules,
    }
}

/// The token's length, and the handle's length and shape.
fn rules() -> Vec<(At, Vec<Rule>)> {
    vec![
        (
            At::Field("SocialBRequest", "bearer_token"),
            vec![Rule::Chars(1, BEARER_TOKEN_MAX_CHARS)],
        ),
        (
            At::Field("SocialBRequest", "username"),
            vec![
                Rule::Chars(1, USERNAME_MAX_CHARS + 1),
                Rule::Pattern(USERNAME_PATTERN.to_owned()),
            ],
        ),
    ]
}

/// Where X's API answers.
fn origin(state: &AppState) -> String {
    source_config::vendor_origin(state, KIND, DEFAULT_API_BASE_URL)
}

#[derive(Debug, Deserialize, ToSchema, garde::Validate)]
#[serde(deny_unknown_fields)]
#[schema(examples(json!({ "bearer_token": "AAAAAAAAAAAAAAAAAAAAAMLheAAAAAAA0%2BuSeid", "username": "shop" })))]
pub struct SocialBRequest {
    /// The bearer token of the customer's X developer app (developer portal, the app's Keys
    /// and tokens). Stored encrypted, never returned.
    #[garde(custom(secret_within::<BEARER_TOKEN_MAX_CHARS>))]
    bearer_token: Secret,
    /// The account's handle, with or without its leading `@` (stored without).
    #[garde(length(chars, min = 1, max = USERNAME_MAX_CHARS + 1), custom(handle_shape))]
    username: String,
}

/// X's handle pattern, `^[A-Za-z0-9_]{1,15}$`, once a leading `@` is dropped.
fn handle_shape(name: &str, _: &()) -> garde::Result {
    social_b::username(name).map(|_| ()).map_err(|_| {
        garde::Error::new(format!(
            "must be an X handle of 1 to {USERNAME_MAX_CHARS} letters, digits or underscores \
             (with or without a leading @)"
        ))
    })
}

/// Connects an X account with the customer's app bearer token: the token and the handle are
/// proven by one users lookup (a handle X cannot find is refused with X's detail). The account's
/// followers and recent posts are then read daily (and on sync now). Re-connecting replaces the
/// token. Audited as `connection.connect`.
#[utoipa::path(post, path = "/products/{slug}/connections/social-b", tag = tags::CONNECTIONS,
    security(("bearer" = [])), params(("slug" = String, Path, description = "product slug")),
    request_body = SocialBRequest,
    responses((status = 200, body = Connected), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 502, body = ErrorBody, description = "X could not be reached"),
        (status = 503, body = ErrorBody, description = "PAYBACK_SECRET_KEY is not configured")))]
async fn connect(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
    ValidJson(body): ValidJson<SocialBRequest>,
) -> ApiResult<Json<Connected>> {
    let token = body.bearer_token.expose().trim();
    let proven = async {
        let username = social_b::username(&body.username).map_err(refused)?;
        social_b::find_account(&state.http, &origin(&state), token, &username)
            .await
            .map_err(refused)?;
        Ok(Keyed {
            kind: KIND,
            secret: json!({ "bearer_token": token }),
            config: json!({ "username": username }),
            audit: json!({ "username": username }),
        })
    };
    let connected = key_connect::connect(&state, &caller, &slug, proven).await?;
    Ok(Json(connected))
}

/// The vendor's refusal of the key as a 400 quoting its reason; 502 when it could not answer.
fn refused(err: ConnectorError) -> ApiError {
    key_connect::key_refused(err, "bearer_token", "X")
}

/// The sealed part of a `social_b` connection.
#[derive(Deserialize)]
struct SocialBSecret {
    bearer_token: String,
}

/// The account a connection reads.
#[derive(Deserialize)]
struct Settings {
    username: String,
}

/// The X token and the handle.
fn open<'a>(
    state: &'a AppState,
    _product: &'a ProductRow,
    row: &'a ConnectionRow,
) -> OpenFuture<'a> {
    Box::pin(async move {
        let secret: SocialBSecret = source_config::secret_of(state, row).await?;
        let settings: Settings = source_config::settings_of(row)?;
        let mut config = SocialBConfig::new(secret.bearer_token, settings.username);
        config.api_base_url = origin(state);
        Ok(boxed(SocialBSource::new(state.http.clone(), config)))
    })
}
