//! Account access: sign-up, verification, login, sessions, profile, workspaces, claims and
//! invites.

use axum::extract::State;
use axum::response::Response;
use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiResult, ErrorBody};
use crate::extract::json::double_option;
use crate::extract::{Caller, Json, Query, SessionCaller};
use crate::routes::tags;
use crate::services::signup::{AgentSignup, ClaimInfo, ClaimLink, Signup};
use crate::services::team::InviteInfo;
use crate::services::{sessions, signup, team, workspaces};
use crate::state::AppState;
use crate::views::{AccountView, LoginResponse, Ok, WorkspaceItem, WorkspaceSwitch, found};

/// Routes limited per client IP (signup, lead capture, agent signup, login).
pub fn rate_limited() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(signup_handler))
        .routes(routes!(lead_prompt))
        .routes(routes!(agent_signup))
        .routes(routes!(login))
}

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(verify))
        .routes(routes!(claim_link))
        .routes(routes!(claim_info, claim_complete))
        .routes(routes!(logout))
        .routes(routes!(me, update_me))
        .routes(routes!(list_accounts, create_account))
        .routes(routes!(switch_account))
        .routes(routes!(invite_info))
        .routes(routes!(accept_invite))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct SignupRequest {
    email: String,
    /// 10-200 characters.
    password: String,
    #[serde(rename = "anonId")]
    anon_id: Option<String>,
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
    responses((status = 200, body = SignupResponse), (status = 400, body = ErrorBody), (status = 429, body = ErrorBody)))]
async fn signup_handler(
    State(state): State<AppState>,
    Json(body): Json<SignupRequest>,
) -> ApiResult<Json<SignupResponse>> {
    let input = Signup {
        email: body.email,
        password: body.password,
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
    responses((status = 200, body = LeadPromptResponse), (status = 400, body = ErrorBody), (status = 429, body = ErrorBody)))]
async fn lead_prompt(
    State(state): State<AppState>,
    Json(body): Json<LeadPromptRequest>,
) -> ApiResult<Json<LeadPromptResponse>> {
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
    responses((status = 200, body = AgentSignup), (status = 400, body = ErrorBody), (status = 409, body = ErrorBody), (status = 429, body = ErrorBody)))]
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
    token: String,
}

/// Shows whose claim link this is; the token is not consumed.
#[utoipa::path(get, path = "/auth/claim", tag = tags::AUTH, params(TokenQuery),
    responses((status = 200, body = ClaimInfo), (status = 400, body = ErrorBody)))]
async fn claim_info(
    State(state): State<AppState>,
    Query(query): Query<TokenQuery>,
) -> ApiResult<Json<ClaimInfo>> {
    Ok(Json(signup::claim_info(&state, &query.token).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ClaimRequest {
    token: String,
    /// 10-200 characters.
    password: String,
}

/// Completes a claim: sets the owner's password and signs them in.
#[utoipa::path(post, path = "/auth/claim", tag = tags::AUTH, request_body = ClaimRequest,
    responses((status = 200, body = LoginResponse), (status = 400, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn claim_complete(
    State(state): State<AppState>,
    Json(body): Json<ClaimRequest>,
) -> ApiResult<Json<LoginResponse>> {
    Ok(Json(
        signup::claim_complete(&state, &body.token, body.password).await?,
    ))
}

/// Confirms an email address, then redirects to the dashboard's login page.
#[utoipa::path(get, path = "/auth/verify", tag = tags::AUTH, params(TokenQuery),
    responses((status = 302, description = "to `{public}/#/login?verified=1`"), (status = 400, body = ErrorBody)))]
async fn verify(
    State(state): State<AppState>,
    Query(query): Query<TokenQuery>,
) -> ApiResult<Response> {
    signup::verify_email(&state, &query.token).await?;
    Ok(found(&format!(
        "{}/#/login?verified=1",
        state.config.public_url()
    )))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct LoginRequest {
    email: String,
    password: Option<String>,
}

/// Signs in with email and password; the email must be verified.
#[utoipa::path(post, path = "/auth/login", tag = tags::AUTH, request_body = LoginRequest,
    responses((status = 200, body = LoginResponse), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 429, body = ErrorBody)))]
async fn login(
    State(state): State<AppState>,
    Json(body): Json<LoginRequest>,
) -> ApiResult<Json<LoginResponse>> {
    Ok(Json(
        sessions::login(&state, &body.email, body.password).await?,
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
    current_password: Option<String>,
    new_password: Option<String>,
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
        current_password: body.current_password,
        new_password: body.new_password,
    };
    Ok(Json(sessions::update_me(&state, &caller, edit).await?))
}

/// The person's workspaces (an API key sees only its own account).
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
    Ok(Json(team::invite_info(&state, &query.token).await?))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct AcceptInviteRequest {
    token: String,
    /// Required when the invitee has no password yet; 10-200 characters.
    password: Option<String>,
    /// At most 80 characters.
    name: Option<String>,
}

/// Accepts an invite and signs in to the inviting account.
#[utoipa::path(post, path = "/auth/accept-invite", tag = tags::AUTH, request_body = AcceptInviteRequest,
    responses((status = 200, body = LoginResponse), (status = 400, body = ErrorBody)))]
async fn accept_invite(
    State(state): State<AppState>,
    Json(body): Json<AcceptInviteRequest>,
) -> ApiResult<Json<LoginResponse>> {
    Ok(Json(
        team::accept_invite(&state, &body.token, body.password, body.name).await?,
    ))
}
