//! Sign in with SSO (OpenID Connect): `/auth/sso/start`, the provider's `/auth/sso/callback`,
//! `/auth/sso/complete` (the dashboard trades its one-time ticket for a session), and
//! `/auth/sso/config`, which tells the dashboard whether to offer the button. The rules live in
//! `services::sso`.

use axum::extract::State;
use axum::http::header;
use axum::response::Response;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiResult, ErrorBody};
use crate::extract::{Json, Query};
use crate::routes::tags;
use crate::secret::Secret;
use crate::services::sso::{self, CallbackParams};
use crate::state::AppState;
use crate::views::{LoginResponse, found};

/// `complete`: public, rate-limited per client address with sign-up and login
/// (`app::api_routes`).
pub fn rate_limited() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(complete))
}

/// The redirects and the button's switch: public, no body, no rate limit (`start` stores one
/// small state that expires in 10 minutes; the callback consumes one).
pub fn public() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(start))
        .routes(routes!(callback))
        .routes(routes!(config))
}

/// Sends the person to the sign-in provider (OpenID Connect, Google by default) with a fresh
/// single-use state, a nonce and PKCE; scopes `openid email profile` only.
#[utoipa::path(get, path = "/auth/sso/start", tag = tags::AUTH,
    responses((status = 302, description = "to the provider's authorization endpoint"),
        (status = 503, description = "SSO not configured, or the provider's discovery failed", body = ErrorBody)))]
async fn start(State(state): State<AppState>) -> ApiResult<Response> {
    let url = sso::start(&state).await?;
    Ok(private(found(&url)))
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct CallbackQuery {
    /// The state `start` sent; single-use, valid 10 minutes.
    state: Option<String>,
    /// The authorization code, exchanged once.
    code: Option<Secret>,
    /// The provider's refusal (`access_denied`, ...).
    error: Option<String>,
}

/// Where the provider sends the person back: exchanges the code, checks the ID token and
/// redirects to the dashboard's `#/auth/sso/<ticket>` (a one-time ticket, valid 2 minutes).
/// Any refusal is 400 and creates or links nothing.
#[utoipa::path(get, path = "/auth/sso/callback", tag = tags::AUTH, params(CallbackQuery),
    responses((status = 302, description = "to `{public}/#/auth/sso/<ticket>`"),
        (status = 400, description = "the provider's error, an unknown, used or expired state, no code, a failed exchange, no or an invalid ID token, an unverified email, or an identity conflict", body = ErrorBody),
        (status = 503, description = "SSO not configured, or the provider's discovery failed", body = ErrorBody)))]
async fn callback(
    State(state): State<AppState>,
    Query(query): Query<CallbackQuery>,
) -> ApiResult<Response> {
    let params = CallbackParams {
        state: query.state,
        code: query.code.map(Secret::into_exposed),
        error: query.error,
    };
    let location = sso::callback(&state, params).await?;
    Ok(private(found(&location)))
}

/// A redirect carrying a state or a ticket: never cached, and no referrer sent onwards.
fn private(mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers.insert(
        header::CACHE_CONTROL,
        header::HeaderValue::from_static("no-store"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        header::HeaderValue::from_static("no-referrer"),
    );
    response
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct CompleteRequest {
    /// The one-time ticket of the callback's redirect.
    token: Secret,
}

/// The login response, and whether this sign-in created the account.
#[derive(Serialize, ToSchema)]
pub struct SsoLoginResponse {
    #[serde(flatten)]
    login: LoginResponse,
    /// True when this completion created the account.
    is_new: bool,
}

/// Trades the one-time ticket for a dashboard session (`svc_sess_...`).
#[utoipa::path(post, path = "/auth/sso/complete", tag = tags::AUTH, request_body = CompleteRequest,
    responses((status = 200, body = SsoLoginResponse),
        (status = 400, description = "an unknown, used or expired ticket, or no `token`", body = ErrorBody),
        (status = 403, description = "the person's access to every workspace is disabled", body = ErrorBody),
        (status = 413, description = "body over 16 KiB", body = ErrorBody),
        (status = 429, description = "over the per-address rate limit", body = ErrorBody)))]
async fn complete(
    State(state): State<AppState>,
    Json(body): Json<CompleteRequest>,
) -> ApiResult<Json<SsoLoginResponse>> {
    let (login, is_new) = sso::complete(&state, body.token.expose()).await?;
    Ok(Json(SsoLoginResponse { login, is_new }))
}

/// Whether sign-in with SSO is offered.
#[derive(Debug, Serialize, ToSchema)]
pub struct SsoConfig {
    /// True when the provider's client id and secret are configured.
    enabled: bool,
}

/// Whether the login and sign-up pages offer "Sign in with Google".
#[utoipa::path(get, path = "/auth/sso/config", tag = tags::AUTH,
    responses((status = 200, body = SsoConfig)))]
async fn config(State(state): State<AppState>) -> Json<SsoConfig> {
    Json(SsoConfig {
        enabled: sso::configured(&state),
    })
}
