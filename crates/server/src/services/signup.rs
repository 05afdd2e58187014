//! Getting in: sign-up with email confirmation, agent sign-up with a claim link for the human,
//! and lead capture.

use payback_domain::validation::{check_email, check_password, normalize_email};
use payback_domain::{Actor, DAY_MS, MemberRole, MemberStatus, Timestamp, Via};
use payback_store::accounts::AccountRow;
use payback_store::one_time_tokens::{self, NewToken, Purpose};
use payback_store::users::NewUser;
use payback_store::users::UserRow;
use payback_store::{AccountScope, StoreError, Tx, accounts, leads, members, users};
use serde::Serialize;
use serde_json::json;
use utoipa::ToSchema;

use crate::crypto::{hash_password, new_token, token_hash};
use crate::error::{ApiError, ApiResult};
use crate::extract::Caller;
use crate::mail::messages;
use crate::services::{audit, keys, sessions};
use crate::state::AppState;
use crate::views::LoginResponse;

/// Verification, invite and claim links stay valid this long.
pub const LINK_VALIDITY_MS: i64 = 7 * DAY_MS;

fn valid_email(email: &str) -> ApiResult<String> {
    let email = normalize_email(email);
    check_email(&email).map_err(|msg| ApiError::bad_request(format!("email: {msg}")))?;
    Ok(email)
}

/// A workspace name from an email's local part: `ann@x.io` -> `ann`.
fn default_account_name(email: &str) -> String {
    email
        .split('@')
        .next()
        .filter(|local| !local.is_empty())
        .unwrap_or("workspace")
        .to_owned()
}

/// Mints a single-use link token inside `tx`; returns the raw token.
pub(crate) async fn mint_link_token(
    tx: &mut Tx,
    purpose: Purpose,
    user_id: &str,
    account_id: Option<&str>,
    now: Timestamp,
) -> ApiResult<(String, Timestamp)> {
    let token = new_token("");
    let expires_at = now.plus_millis(LINK_VALIDITY_MS);
    one_time_tokens::void_outstanding(tx, user_id, account_id, purpose, now).await?;
    let hash = token_hash(&token);
    one_time_tokens::insert(
        tx,
        NewToken {
            token_hash: &hash,
            purpose,
            user_id,
            account_id,
            expires_at,
        },
        now,
    )
    .await?;
    Ok((token, expires_at))
}

pub struct Signup {
    pub email: String,
    pub password: String,
    pub anon_id: Option<String>,
    pub meta: Option<serde_json::Value>,
}

/// Creates an unverified account and mails the confirmation link. Answers the same whether or
/// not the email is registered; an unverified registration gets a fresh link.
pub async fn signup(state: &AppState, input: Signup) -> ApiResult<()> {
    let email = valid_email(&input.email)?;
    check_password(&input.password)
        .map_err(|msg| ApiError::bad_request(format!("password: {msg}")))?;
    let now = state.clock.now();
    if let Some(existing) = users::find_by_email(&state.store, &email).await? {
        if !existing.verified && existing.password_hash.is_some() {
            let mut tx = state.store.begin().await?;
            let (token, _) =
                mint_link_token(&mut tx, Purpose::VerifyEmail, &existing.id, None, now).await?;
            tx.commit().await?;
            send_verification(state, &email, &token).await;
        }
        return Ok(());
    }
    let password_hash = hash_password(input.password).await?;
    let signup_meta = json!({ "anonId": input.anon_id, "meta": input.meta }).to_string();
    let mut tx = state.store.begin().await?;
    let account_id = accounts::insert(&mut tx, &default_account_name(&email), now).await?;
    let user = NewUser {
        email: &email,
        password_hash: Some(&password_hash),
        name: None,
        verified: false,
        signup_meta: Some(&signup_meta),
    };
    let user_id = match users::insert(&mut tx, user, now).await {
        Ok(id) => id,
        // Lost a race with a concurrent sign-up of the same address: answer as for a known one.
        Err(StoreError::Conflict(_)) => return Ok(()),
        Err(err) => return Err(err.into()),
    };
    members::insert(
        &mut tx,
        &AccountScope::trusted(account_id.clone()),
        &user_id,
        MemberRole::Owner,
        MemberStatus::Active,
        now,
    )
    .await?;
    let (token, _) = mint_link_token(&mut tx, Purpose::VerifyEmail, &user_id, None, now).await?;
    let actor = Actor::human(email.clone(), Via::Api);
    audit::record_account(
        &mut tx,
        &actor,
        &account_id,
        "account.signup",
        Some(&user_id),
        json!({}),
        now,
    )
    .await?;
    tx.commit().await?;
    send_verification(state, &email, &token).await;
    Ok(())
}

async fn send_verification(state: &AppState, email: &str, token: &str) {
    let link = format!("{}/auth/verify?token={token}", state.config.public_url());
    state
        .mailer
        .send(messages::verify_email(email, &link))
        .await;
}

/// Consumes a verification token; the caller redirects to the login page.
pub async fn verify_email(state: &AppState, token: &str) -> ApiResult<()> {
    let now = state.clock.now();
    let mut tx = state.store.begin().await?;
    let row = one_time_tokens::consume(&mut tx, &token_hash(token), Purpose::VerifyEmail, now)
        .await?
        .ok_or_else(|| ApiError::bad_request("token: invalid or expired verification link"))?;
    users::set_verified(&mut tx, &row.user_id).await?;
    let user = users::find_in(&mut tx, &row.user_id)
        .await?
        .ok_or_else(|| ApiError::not_found("person"))?;
    let actor = Actor::human(user.email.clone(), Via::Api);
    for account_id in members::owned_accounts(&mut tx, &row.user_id).await? {
        audit::record_account(
            &mut tx,
            &actor,
            &account_id,
            "account.verify_email",
            Some(&row.user_id),
            json!({}),
            now,
        )
        .await?;
    }
    tx.commit().await?;
    Ok(())
}

/// The prompt types on offer and their texts.
pub fn lead_prompt_text(prompt_type: &str) -> Option<&'static str> {
    match prompt_type {
        "payback" => Some(
            "You are helping me decide whether my ad spend pays back. Connect to Payback with my API key, \
             read GET /portfolio and GET /products/{slug}/attribution?days=30 for each product, and tell me per \
             channel: spend, first-touch revenue, CAC and ROAS, with the unattributed row kept separate. \
             Propose spend changes only through POST /products/{slug}/proposals; never change ad spend yourself.",
        ),
        "growth-engine" => Some(
            "Act as my growth engineer. Install Payback tracking on my site (GET /products/{slug}/tracking-key gives \
             the snippet), send signup and payment events server-side with POST /products/{slug}/events, then \
             read the funnel and tell me the weakest step and one change to test this week.",
        ),
        "mcp" => Some(
            "Add Payback as a tool server for my coding agent, using my account API key as the bearer token. \
             Use it to read attribution, funnels and the approval queue; raise proposals for spend changes \
             and leave every decision to me.",
        ),
        _ => None,
    }
}

/// Records a lead and mails the chosen prompt; returns the message shown to the visitor.
pub async fn lead_prompt(
    state: &AppState,
    email: &str,
    prompt_type: Option<&str>,
    meta: Option<&serde_json::Value>,
) -> ApiResult<String> {
    let email = valid_email(email)?;
    let prompt_type = prompt_type.unwrap_or("payback");
    let prompt = lead_prompt_text(prompt_type).ok_or_else(|| {
        ApiError::bad_request("prompt_type: must be one of growth-engine, payback, mcp")
    })?;
    let meta = meta.map(serde_json::Value::to_string);
    leads::insert(
        &state.store,
        &email,
        Some(prompt_type),
        meta.as_deref(),
        state.clock.now(),
    )
    .await?;
    state
        .mailer
        .send(messages::lead_prompt(&email, prompt_type, prompt))
        .await;
    Ok(format!("We sent the {prompt_type} prompt to {email}."))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct AgentSignup {
    pub account_id: String,
    /// A working account API key, shown once.
    pub api_key: String,
    pub claim_url: String,
    pub claim_expires_at: String,
}

/// An agent creates an account for a human: a working key at once, and a single-use claim link
/// with which the human sets a password later.
pub async fn agent_signup(
    state: &AppState,
    email: &str,
    name: Option<&str>,
) -> ApiResult<AgentSignup> {
    let email = valid_email(email)?;
    let name = name.map(str::trim).filter(|n| !n.is_empty());
    if name.is_some_and(|n| n.chars().count() > 80) {
        return Err(ApiError::bad_request("name: must be at most 80 characters"));
    }
    let generic_conflict =
        || ApiError::Conflict("an account cannot be created for this email".to_owned());
    if users::find_by_email(&state.store, &email).await?.is_some() {
        return Err(generic_conflict());
    }
    let now = state.clock.now();
    let mut tx = state.store.begin().await?;
    let account_id =
        accounts::insert(&mut tx, name.unwrap_or(&default_account_name(&email)), now).await?;
    let user = NewUser {
        email: &email,
        password_hash: None,
        name,
        verified: false,
        signup_meta: None,
    };
    let user_id = users::insert(&mut tx, user, now)
        .await
        .map_err(|err| match err {
            StoreError::Conflict(_) => generic_conflict(),
            other => other.into(),
        })?;
    let scope = AccountScope::trusted(account_id.clone());
    members::insert(
        &mut tx,
        &scope,
        &user_id,
        MemberRole::Owner,
        MemberStatus::Active,
        now,
    )
    .await?;
    let (_, api_key) = keys::mint(&mut tx, &scope, "agent", now).await?;
    let (claim, expires_at) =
        mint_link_token(&mut tx, Purpose::Claim, &user_id, Some(&account_id), now).await?;
    audit::record_account(
        &mut tx,
        &Actor::keeper(Via::Api),
        &account_id,
        "account.agent_signup",
        Some(&user_id),
        json!({ "email": email }),
        now,
    )
    .await?;
    tx.commit().await?;
    let claim_url = claim_url(state, &claim);
    state.mailer.send(messages::claim(&email, &claim_url)).await;
    Ok(AgentSignup {
        account_id,
        api_key,
        claim_url,
        claim_expires_at: expires_at.to_rfc3339(),
    })
}

fn claim_url(state: &AppState, token: &str) -> String {
    format!("{}/#/claim/{token}", state.config.public_url())
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ClaimLink {
    pub claim_url: String,
    pub expires_at: String,
}

/// A fresh claim link for the account's owner while they have no password (409 once claimed).
pub async fn claim_link(state: &AppState, caller: &Caller) -> ApiResult<ClaimLink> {
    let scope = caller.scope()?;
    let now = state.clock.now();
    let owner = members::first_owner(&state.store, scope)
        .await?
        .ok_or_else(|| ApiError::not_found("account owner"))?;
    if owner.has_password {
        return Err(ApiError::Conflict("account already claimed".to_owned()));
    }
    let mut tx = state.store.begin().await?;
    let (token, expires_at) = mint_link_token(
        &mut tx,
        Purpose::Claim,
        &owner.user_id,
        Some(scope.account_id()),
        now,
    )
    .await?;
    audit::record_account(
        &mut tx,
        &caller.actor(),
        scope.account_id(),
        "account.claim_link",
        Some(&owner.user_id),
        json!({}),
        now,
    )
    .await?;
    tx.commit().await?;
    let url = claim_url(state, &token);
    state.mailer.send(messages::claim(&owner.email, &url)).await;
    Ok(ClaimLink {
        claim_url: url,
        expires_at: expires_at.to_rfc3339(),
    })
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ClaimInfo {
    pub email: String,
    pub account_name: String,
}

/// The person and account a single-use link is for, without consuming it.
pub(crate) async fn peek_link(
    state: &AppState,
    token: &str,
    purpose: Purpose,
    invalid: &str,
) -> ApiResult<(UserRow, AccountRow)> {
    let row = one_time_tokens::peek(&state.store, &token_hash(token), purpose, state.clock.now())
        .await?
        .ok_or_else(|| ApiError::bad_request(format!("token: {invalid}")))?;
    let user = users::find(&state.store, &row.user_id)
        .await?
        .ok_or_else(|| ApiError::not_found("person"))?;
    let account_id = row.account_id.unwrap_or_default();
    let account = accounts::find(&state.store, &account_id)
        .await?
        .ok_or_else(|| ApiError::not_found("account"))?;
    Ok((user, account))
}

/// What a claim link is for, without consuming it.
pub async fn claim_info(state: &AppState, token: &str) -> ApiResult<ClaimInfo> {
    let (user, account) = peek_link(
        state,
        token,
        Purpose::Claim,
        "invalid or expired claim link",
    )
    .await?;
    Ok(ClaimInfo {
        email: user.email,
        account_name: account.name,
    })
}

/// Sets the owner's password through a claim link; proves the email; signs them in.
pub async fn claim_complete(
    state: &AppState,
    token: &str,
    password: String,
) -> ApiResult<LoginResponse> {
    check_password(&password).map_err(|msg| ApiError::bad_request(format!("password: {msg}")))?;
    let hash = hash_password(password).await?;
    let now = state.clock.now();
    let mut tx = state.store.begin().await?;
    let row = one_time_tokens::consume(&mut tx, &token_hash(token), Purpose::Claim, now)
        .await?
        .ok_or_else(|| ApiError::bad_request("token: invalid or expired claim link"))?;
    let user = users::find_in(&mut tx, &row.user_id)
        .await?
        .ok_or_else(|| ApiError::not_found("person"))?;
    if user.password_hash.is_some() {
        return Err(ApiError::Conflict("account already claimed".to_owned()));
    }
    let account_id = row
        .account_id
        .ok_or_else(|| ApiError::internal("claim token without account"))?;
    users::set_password_hash(&mut tx, &user.id, &hash).await?;
    users::set_verified(&mut tx, &user.id).await?;
    let session = sessions::open_session(&mut tx, &user.id, &account_id, now).await?;
    let actor = Actor::human(user.email.clone(), Via::Dashboard);
    audit::record_account(
        &mut tx,
        &actor,
        &account_id,
        "account.claim",
        Some(&user.id),
        json!({}),
        now,
    )
    .await?;
    tx.commit().await?;
    sessions::login_response(state, session, &user.id, &account_id).await
}
