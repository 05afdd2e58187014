//! Account access: sign-up, verification, login, sessions, profile, workspaces, claims and
//! invites.

use axum::extract::State;
use axum::response::Response;
use payback_domain::validation::normalize_email;
use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::json::double_option;
use crate::extract::{Caller, Json, Query, SessionCaller};
use crate::routes::tags;
use crate::secret::Secret;
use crate::services::signup::{AgentSignup, ClaimInfo, ClaimLink, Signup};
use crate::services::team::InviteInfo;
use crate::services::{sessions, signup, team, workspaces};
use crate::state::AppState;
use crate::views::{AccountView, LoginResponse, Ok, WorkspaceItem, WorkspaceSwitch, found};

/// Public routes that hash a password or send mail: limited per client address (one budget for
/// all of them) and to small bodies (`app::api_routes`).
pub fn rate_limited() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(signup_handler))
        .routes(routes!(lead_prompt))
        .routes(routes!(agent_signup))
        .routes(routes!(login))
        .routes(routes!(claim_complete))
        .routes(routes!(accept_invite))
}

/// Public routes that only read a token: small bodies, no rate limit (a page load reads them;
/// a token is 32 random bytes, not guessable at any rate).
pub fn public() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(verify))
        .routes(routes!(claim_info))
        .routes(routes!(invite_info))
}

/// Routes behind a bearer.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(claim_link))
        .routes(routes!(logout))
        .routes(routes!(me, update_me))
        .routes(routes!(list_accounts, create_account))
        .routes(routes!(switch_account))
}

/// `meta` is stored with the person or the lead as it came: bounded so a caller cannot store
/// megabytes through a public route.
pub const MAX_META_BYTES: usize = 2 * 1024;

/// `anonId` is the snippet's visitor id (a UUID); bounded for the same reason.
pub const MAX_ANON_ID_CHARS: usize = 200;

fn check_meta(meta: Option<&serde_json::Value>) -> ApiResult<()> {
    let Some(meta) = meta else {
        return Ok(());
    };
    let size = serde_json::to_string(meta)
        .map_err(ApiError::internal)?
        .len();
    if size > MAX_META_BYTES {
        return Err(ApiError::bad_request(format!(
            "meta: at most {MAX_META_BYTES} bytes serialized, got {size}"
        )));
    }
    Ok(())
}

fn check_anon_id(anon_id: Option<&str>) -> ApiResult<()> {
    let length = anon_id.map_or(0, |id| id.chars().count());
    if length > MAX_ANON_ID_CHARS {
        return Err(ApiError::bad_request(format!(
            "anonId: at most {MAX_ANON_ID_CHARS} characters, got {length}"
        )));
    }
    Ok(())
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct SignupRequest {
    email: String,
    /// 10-200 characters.
    password: Secret,
    /// The snippet's visitor id; at most 200 characters.
    #[serde(rename = "anonId")]
    anon_id: Option<String>,
    /// Free-form context stored with the person; at most 2048 bytes serialized.
    #[schema(value_type = Option<Object>)]
    meta: Option<serde_json::Value>,
}

#[derive(Debug, serde::Serialize, ToSchema)]
pub struct SignupResponse {
    ok: bool,
    /// Always `verification_sent`, whether or not the email was already registered.
    status: &'static str,
}

/// Creates an account and sends the confirmation email.
#[utoipa::path(post, path = "/auth/signup", tag = tags::AUTH, request_body = SignupRequest,
    responses((status = 200, body = SignupResponse), (status = 400, body = ErrorBody),
        (status = 413, description = "body over 16 KiB", body = ErrorBody),
        (status = 429, description = "over the per-address rate limit", body = ErrorBody)))]
async fn signup_handler(
    State(state): State<AppState>,
    Json(body): Json<SignupRequest>,
) -> ApiResult<Json<SignupResponse>> {
    check_anon_id(body.anon_id.as_deref())?;
    check_meta(body.meta.as_ref())?;
    let input = Signup {
        email: body.email,
        password: body.password.into_exposed(),
        anon_id: body.anon_id,
        meta: body.meta,
    };
    signup::signup(&state, input).await?;
    Ok(Json(SignupResponse {
        ok: true,
        status: "verification_sent",
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct LeadPromptRequest {
    email: String,
    /// `growth-engine`, `payback` (default) or `mcp`.
    prompt_type: Option<String>,
    /// Free-form context stored with the lead; at most 2048 bytes serialized.
    #[schema(value_type = Option<Object>)]
    meta: Option<serde_json::Value>,
}

#[derive(Debug, serde::Serialize, ToSchema)]
pub struct LeadPromptResponse {
    ok: bool,
    message: String,
}

/// Leaves an email and receives a ready-made prompt by mail.
#[utoipa::path(post, path = "/auth/lead-prompt", tag = tags::AUTH, request_body = LeadPromptRequest,
    responses((status = 200, body = LeadPromptResponse), (status = 400, body = ErrorBody),
        (status = 413, description = "body over 16 KiB", body = ErrorBody),
        (status = 429, description = "over the per-address rate limit", body = ErrorBody)))]
async fn lead_prompt(
    State(state): State<AppState>,
    Json(body): Json<LeadPromptRequest>,
) -> ApiResult<Json<LeadPromptResponse>> {
    check_meta(body.meta.as_ref())?;
    let message = signup::lead_prompt(
        &state,
        &body.email,
        body.prompt_type.as_deref(),
        body.meta.as_ref(),
    )
    .await?;
    Ok(Json(LeadPromptResponse { ok: true, message }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct AgentSignupRequest {
    email: String,
    name: Option<String>,
}

/// An agent creates an account for a human: a working key now, a claim link for later.
#[utoipa::path(post, path = "/auth/agent-signup", tag = tags::AUTH, request_body = AgentSignupRequest,
    responses((status = 200, body = AgentSignup), (status = 400, body = ErrorBody), (status = 409, body = ErrorBody),
        (status = 413, description = "body over 16 KiB", body = ErrorBody),
        (status = 429, description = "over the per-address rate limit", body = ErrorBody)))]
async fn agent_signup(
    State(state): State<AppState>,
    Json(body): Json<AgentSignupRequest>,
) -> ApiResult<Json<AgentSignup>> {
    Ok(Json(
        signup::agent_signup(&state, &body.email, body.name.as_deref()).await?,
    ))
}

/// A fresh single-use claim link while the account's owner has no password.
#[utoipa::path(post, path = "/auth/claim-link", tag = tags::AUTH, security(("bearer" = [])),
    responses((status = 200, body = ClaimLink), (status = 401, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn claim_link(State(state): State<AppState>, caller: Caller) -> ApiResult<Json<ClaimLink>> {
    Ok(Json(signup::claim_link(&state, &caller).await?))
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct TokenQuery {
    token: Secret,
}

/// Shows whose claim link this is; the token is not consumed.
#[utoipa::path(get, path = "/auth/claim", tag = tags::AUTH, params(TokenQuery),
    responses((status = 200, body = ClaimInfo), (status = 400, body = ErrorBody)))]
async fn claim_info(
    State(state): State<AppState>,
    Query(query): Query<TokenQuery>,
) -> ApiResult<Json<ClaimInfo>> {
    Ok(Json(
        signup::claim_info(&state, query.token.expose()).await?,
    ))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ClaimRequest {
    token: Secret,
    /// 10-200 characters.
    password: Secret,
}

/// Completes a claim: sets the owner's password and signs them in.
#[utoipa::path(post, path = "/auth/claim", tag = tags::AUTH, request_body = ClaimRequest,
    responses((status = 200, body = LoginResponse), (status = 400, body = ErrorBody), (status = 409, body = ErrorBody),
        (status = 413, description = "body over 16 KiB", body = ErrorBody),
        (status = 429, description = "over the per-address rate limit", body = ErrorBody)))]
async fn claim_complete(
    State(state): State<AppState>,
    Json(body): Json<ClaimRequest>,
) -> ApiResult<Json<LoginResponse>> {
    Ok(Json(
        signup::claim_complete(&state, body.token.expose(), body.password.into_exposed()).await?,
    ))
}

/// Confirms an email address, then redirects to the dashboard's login page.
#[utoipa::path(get, path = "/auth/verify", tag = tags::AUTH, params(TokenQuery),
    responses((status = 302, description = "to `{public}/#/login?verified=1`"), (status = 400, body = ErrorBody)))]
async fn verify(
    State(state): State<AppState>,
    Query(query): Query<TokenQuery>,
) -> ApiResult<Response> {
    signup::verify_email(&state, query.token.expose()).await?;
    Ok(found(&format!(
        "{}/#/login?verified=1",
        state.config.public_url()
    )))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct LoginRequest {
    email: String,
    password: Option<Secret>,
}

/// Signs in with email and password; the email must be verified.
#[utoipa::path(post, path = "/auth/login", tag = tags::AUTH, request_body = LoginRequest,
    responses((status = 200, body = LoginResponse), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 413, description = "body over 16 KiB", body = ErrorBody),
        (status = 429, description = "over the per-address rate limit, or the per-email limit on login attempts", body = ErrorBody)))]
async fn login(
    State(state): State<AppState>,
    Json(body): Json<LoginRequest>,
) -> ApiResult<Json<LoginResponse>> {
    // Guessing one account's password from many addresses stays under each address's limit;
    // this one counts every attempt at the account. Checked before the password is hashed. An
    // email longer than any address (`check_email`: 254) names no account and is not kept.
    let email = normalize_email(&body.email);
    if email.len() <= 254 {
        state.limiters.check_login_email(&email)?;
    }
    Ok(Json(
        sessions::login(&state, &body.email, body.password.map(Secret::into_exposed)).await?,
    ))
}

/// Ends the current session.
#[utoipa::path(post, path = "/auth/logout", tag = tags::AUTH, security(("bearer" = [])),
    responses((status = 200, body = Ok), (status = 401, body = ErrorBody)))]
async fn logout(State(state): State<AppState>, caller: Caller) -> ApiResult<Json<Ok>> {
    sessions::logout(&state, &caller).await?;
    Ok(Json(Ok::YES))
}

/// The caller's account.
#[utoipa::path(get, path = "/auth/me", tag = tags::AUTH, security(("bearer" = [])),
    responses((status = 200, body = AccountView), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
async fn me(State(state): State<AppState>, caller: Caller) -> ApiResult<Json<AccountView>> {
    Ok(Json(sessions::me(&state, &caller).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct UpdateMeRequest {
    /// A string sets the name, null clears it, absent leaves it.
    #[serde(default, deserialize_with = "double_option")]
    #[schema(value_type = Option<String>)]
    name: Option<Option<String>>,
    current_password: Option<Secret>,
    new_password: Option<Secret>,
}

/// Edits the person's name or password; a password change revokes every other session.
#[utoipa::path(post, path = "/auth/me", tag = tags::AUTH, security(("bearer" = [])), request_body = UpdateMeRequest,
    responses((status = 200, body = AccountView), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
async fn update_me(
    State(state): State<AppState>,
    caller: Caller,
    Json(body): Json<UpdateMeRequest>,
) -> ApiResult<Json<AccountView>> {
    let edit = sessions::ProfileEdit {
        name: body.name,
        current_password: body.current_password.map(Secret::into_exposed),
        new_password: body.new_password.map(Secret::into_exposed),
    };
    Ok(Json(sessions::update_me(&state, &caller, edit).await?))
}

/// The person's workspaces, oldest first: at most the 500 oldest (an API key sees only its own
/// account).
#[utoipa::path(get, path = "/auth/accounts", tag = tags::AUTH, security(("bearer" = [])),
    responses((status = 200, body = Vec<WorkspaceItem>), (status = 401, body = ErrorBody)))]
async fn list_accounts(
    State(state): State<AppState>,
    caller: Caller,
) -> ApiResult<Json<Vec<WorkspaceItem>>> {
    Ok(Json(workspaces::list(&state, &caller).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct CreateAccountRequest {
    /// 1-80 characters.
    name: String,
}

/// Creates a workspace owned by the signed-in person and switches the session to it.
#[utoipa::path(post, path = "/auth/accounts", tag = tags::AUTH, security(("bearer" = [])), request_body = CreateAccountRequest,
    responses((status = 200, body = WorkspaceSwitch), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
async fn create_account(
    State(state): State<AppState>,
    SessionCaller(caller, person): SessionCaller,
    Json(body): Json<CreateAccountRequest>,
) -> ApiResult<Json<WorkspaceSwitch>> {
    Ok(Json(
        workspaces::create(&state, &caller, &person, &body.name).await?,
    ))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct SwitchRequest {
    account_id: String,
}

/// Points the session at another of the person's workspaces.
#[utoipa::path(post, path = "/auth/switch-account", tag = tags::AUTH, security(("bearer" = [])), request_body = SwitchRequest,
    responses((status = 200, body = WorkspaceSwitch), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn switch_account(
    State(state): State<AppState>,
    SessionCaller(_caller, person): SessionCaller,
    Json(body): Json<SwitchRequest>,
) -> ApiResult<Json<WorkspaceSwitch>> {
    Ok(Json(
        workspaces::switch(&state, &person, &body.account_id).await?,
    ))
}

/// What an invite is for; the token is not consumed.
#[utoipa::path(get, path = "/auth/invite", tag = tags::AUTH, params(TokenQuery),
    responses((status = 200, body = InviteInfo), (status = 400, body = ErrorBody)))]
async fn invite_info(
    State(state): State<AppState>,
    Query(query): Query<TokenQuery>,
) -> ApiResult<Json<InviteInfo>> {
    Ok(Json(team::invite_info(&state, query.token.expose()).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct AcceptInviteRequest {
    token: Secret,
    /// A new password (10-200 characters) when the invitee has none yet and belongs to no
    /// other account; the invitee's own current password when they already have a login (the
    /// link alone never signs anyone in as an existing login: the inviter sees it too).
    password: Option<Secret>,
    /// At most 80 characters.
    name: Option<String>,
}

/// Accepts an invite and signs in to the inviting account. Membership there is all an invite
/// grants: 400 without the password the invitee needs, with a wrong one, or when the email has
/// an agent-created account not claimed yet (claim it or sign up first); 403 when the invitee's
/// existing login is not verified; 409 when the login changed while accepting.
#[utoipa::path(post, path = "/auth/accept-invite", tag = tags::AUTH, request_body = AcceptInviteRequest,
    responses((status = 200, body = LoginResponse), (status = 400, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 409, body = ErrorBody),
        (status = 413, description = "body over 16 KiB", body = ErrorBody),
        (status = 429, description = "over the per-address rate limit", body = ErrorBody)))]
async fn accept_invite(
    State(state): State<AppState>,
    Json(body): Json<AcceptInviteRequest>,
) -> ApiResult<Json<LoginResponse>> {
    Ok(Json(
        team::accept_invite(
            &state,
            body.token.expose(),
            body.password.map(Secret::into_exposed),
            body.name,
        )
        .await?,
    ))
}
