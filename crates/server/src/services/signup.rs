//! Getting in: sign-up with email confirmation, agent sign-up with a claim link for the human,
//! and lead capture.

use payback_domain::validation::{
    ACCOUNT_NAME_MAX_CHARS, check_email, check_one_line_field, check_password, normalize_email,
};
use payback_domain::{Actor, DAY_MS, MemberRole, MemberStatus, Timestamp, Via};
use payback_store::accounts::AccountRow;
use payback_store::one_time_tokens::{self, NewToken, Purpose};
use payback_store::users::NewUser;
use payback_store::users::UserRow;
use payback_store::{
    AccountScope, StoreError, Tx, accounts, leads, members, sessions as session_store, users,
};
use serde::Serialize;
use serde_json::json;
use utoipa::ToSchema;

use crate::crypto::{new_token, token_hash};
use crate::error::{ApiError, ApiResult};
use crate::input::limits;
use crate::mail::messages;
use crate::services::acting::Caller;
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
pub(crate) fn default_account_name(email: &str) -> String {
    email
        .split('@')
        .next()
        .filter(|local| !local.is_empty())
        .unwrap_or("workspace")
        .to_owned()
}

/// Mints a single-use link token inside `tx`, voiding the person's outstanding links of the same
/// purpose (in that account, when given), so only the newest one works; returns the raw token.
pub(crate) async fn mint_link_token(
    tx: &mut Tx,
    purpose: Purpose,
    user_id: &str,
    account_id: Option<&str>,
    now: Timestamp,
) -> ApiResult<(String, Timestamp)> {
    one_time_tokens::void_outstanding(tx, user_id, account_id, purpose, now).await?;
    insert_link_token(tx, purpose, user_id, account_id, None, now).await
}

async fn insert_link_token(
    tx: &mut Tx,
    purpose: Purpose,
    user_id: &str,
    account_id: Option<&str>,
    password_hash: Option<&str>,
    now: Timestamp,
) -> ApiResult<(String, Timestamp)> {
    let token = new_token("");
    let expires_at = now.plus_millis(LINK_VALIDITY_MS);
    let hash = token_hash(&token);
    one_time_tokens::insert(
        tx,
        NewToken {
            token_hash: &hash,
            purpose,
            user_id,
            account_id,
            expires_at,
            password_hash,
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

/// Signs up: mails a verification link that carries the chosen password. Answers the same
/// whether or not the email is registered, and costs the same time (the password is hashed
/// either way).
///
/// Until the owner of the mailbox has opened a verification link, nobody has proven the email,
/// whoever created its row (an earlier sign-up, an invite, an agent): a sign-up then mails a
/// fresh link, and the password is set only when that link is opened. So nobody can
/// pre-register someone else's email and keep them out, or choose their password for them.
/// Earlier links stay valid until one is opened: each sets the password of the sign-up that
/// asked for it, so a stranger's later sign-up cannot replace the link the owner just received.
pub async fn signup(state: &AppState, input: Signup) -> ApiResult<()> {
    let email = valid_email(&input.email)?;
    check_password(&input.password)
        .map_err(|msg| ApiError::bad_request(format!("password: {msg}")))?;
    let password_hash = state.passwords.hash(input.password).await?;
    let now = state.clock.now();
    let existing = users::find_by_email(&state.store, &email).await?;
    if existing.as_ref().is_some_and(|user| user.mailbox_proven) {
        return Ok(());
    }
    let mut tx = state.store.begin().await?;
    let user_id = match existing {
        Some(user) => {
            ensure_own_account(&mut tx, &user.id, &email, now).await?;
            user.id
        }
        None => {
            let signup_meta = json!({ "anonId": input.anon_id, "meta": input.meta }).to_string();
            // Stored now as well, so a login before verifying says "not verified" rather
            // than "wrong password"; only the link makes it usable.
            let user = NewUser {
                email: &email,
                password_hash: Some(&password_hash),
                name: None,
                verified: false,
                mailbox_proven: false,
                signup_meta: Some(&signup_meta),
            };
            let user_id = match users::insert(&mut tx, user, now).await {
                Ok(id) => id,
                // Lost a race with a concurrent sign-up of the same address: that one mails
                // its own link; answer as for a known address.
                Err(StoreError::Conflict(_)) => return Ok(()),
                Err(err) => return Err(err.into()),
            };
            ensure_own_account(&mut tx, &user_id, &email, now).await?;
            user_id
        }
    };
    let (token, _) = insert_link_token(
        &mut tx,
        Purpose::VerifyEmail,
        &user_id,
        None,
        Some(&password_hash),
        now,
    )
    .await?;
    tx.commit().await?;
    send_verification(state, &email, &token).await;
    Ok(())
}

/// A person signing up gets a workspace of their own unless they already own one (an earlier
/// sign-up, or an account an agent created for them); someone who so far exists only through
/// invitations gets theirs now.
async fn ensure_own_account(
    tx: &mut Tx,
    user_id: &str,
    email: &str,
    now: Timestamp,
) -> ApiResult<()> {
    if !members::owned_accounts(tx, user_id).await?.is_empty() {
        return Ok(());
    }
    let account_id = accounts::insert(tx, &default_account_name(email), now).await?;
    members::insert(
        tx,
        &AccountScope::trusted(account_id.clone()),
        user_id,
        MemberRole::Owner,
        MemberStatus::Active,
        now,
    )
    .await?;
    let actor = Actor::human(email.to_owned(), Via::Api);
    audit::record_account(
        tx,
        &actor,
        &account_id,
        "account.signup",
        Some(user_id),
        json!({}),
        now,
    )
    .await?;
    Ok(())
}

async fn send_verification(state: &AppState, email: &str, token: &str) {
    let link = format!("{}/auth/verify?token={token}", state.config.public_url());
    state
        .mailer
        .send(messages::verify_email(email, &link))
        .await;
}

/// Consumes a verification token: the mailbox is proven and the password its sign-up chose is
/// set. A password someone else had set before (through an invite or a claim link, which others
/// see) is replaced, and every session opened with it is revoked. Every other outstanding
/// verification link of the person stops working. The caller redirects to the login page.
pub async fn verify_email(state: &AppState, token: &str) -> ApiResult<()> {
    let now = state.clock.now();
    let mut tx = state.store.begin().await?;
    let row = one_time_tokens::consume(&mut tx, &token_hash(token), Purpose::VerifyEmail, now)
        .await?
        .ok_or_else(|| ApiError::bad_request("token: invalid or expired verification link"))?;
    let user = users::find_in(&mut tx, &row.user_id)
        .await?
        .ok_or_else(|| ApiError::not_found("person"))?;
    let mut sessions_revoked = 0;
    if let Some(hash) = &row.password_hash {
        users::set_password_hash(&mut tx, &user.id, hash).await?;
        sessions_revoked = session_store::delete_for_user(&mut tx, &user.id).await?;
    }
    users::set_mailbox_proven(&mut tx, &user.id).await?;
    one_time_tokens::void_outstanding(&mut tx, &user.id, None, Purpose::VerifyEmail, now).await?;
    let actor = Actor::human(user.email.clone(), Via::Api);
    for account_id in members::owned_accounts(&mut tx, &row.user_id).await? {
        audit::record_account(
            &mut tx,
            &actor,
            &account_id,
            "account.verify_email",
            Some(&row.user_id),
            json!({ "sessions_revoked": sessions_revoked }),
            now,
        )
        .await?;
    }
    tx.commit().await?;
    Ok(())
}

/// The prompt types on offer (`prompt_type`) and their texts.
pub const LEAD_PROMPTS: [(&str, &str); 3] = [
    (
        "growth-engine",
        "Act as my growth engineer. Install Payback tracking on my site (GET /products/{slug}/tracking-key gives \
         the snippet), send signup and payment events server-side with POST /products/{slug}/events, then \
         read the funnel and tell me the weakest step and one change to test this week.",
    ),
    (
        "payback",
        "You are helping me decide whether my ad spend pays back. Connect to Payback with my API key, \
         read GET /portfolio and GET /products/{slug}/attribution?days=30 for each product, and tell me per \
         channel: spend, first-touch revenue, CAC and ROAS, with the unattributed row kept separate. \
         Propose spend changes only through POST /products/{slug}/proposals; never change ad spend yourself.",
    ),
    (
        "mcp",
        "Add Payback as a tool server for my coding agent, using my account API key as the bearer token. \
         Use it to read attribution, funnels and the approval queue; raise proposals for spend changes \
         and leave every decision to me.",
    ),
];

/// The text of a prompt type, if it is one on offer.
pub fn lead_prompt_text(prompt_type: &str) -> Option<&'static str> {
    LEAD_PROMPTS
        .iter()
        .find(|(name, _)| *name == prompt_type)
        .map(|(_, text)| *text)
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
        let names: Vec<&str> = LEAD_PROMPTS.iter().map(|(name, _)| *name).collect();
        ApiError::bad_request(format!("prompt_type: must be one of {}", names.join(", ")))
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

/// No `Debug`: it carries the API key and the claim link.
#[derive(Serialize, ToSchema)]
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
    if name.is_some_and(|n| n.chars().count() > ACCOUNT_NAME_MAX_CHARS) {
        return Err(ApiError::bad_request(format!(
            "name: must be at most {ACCOUNT_NAME_MAX_CHARS} characters"
        )));
    }
    if let Some(name) = name {
        check_one_line_field("name", name).map_err(ApiError::bad_request)?;
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
        mailbox_proven: false,
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

/// No `Debug`: the link is a bearer of the claim.
#[derive(Serialize, ToSchema)]
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
    /// The account's live API keys (the agent's among them), so the person claiming it sees
    /// who can act for it and can revoke what they do not want under API keys.
    pub api_keys: Vec<keys::ApiKeyItem>,
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
    let scope = AccountScope::trusted(account.id.clone());
    let api_keys = keys::list_in(state, &scope, limits::KEYS.max).await?;
    Ok(ClaimInfo {
        email: user.email,
        account_name: account.name,
        api_keys,
    })
}

/// Sets the owner's password through a claim link and signs them in. The link is checked before
/// the password is hashed, so a stream of made-up tokens costs no hashing. The claim link lets
/// its holder sign in, but does not prove the mailbox (the agent that signed up saw it too): the
/// owner of the mailbox can still sign up for the address and set their own password.
pub async fn claim_complete(
    state: &AppState,
    token: &str,
    password: String,
) -> ApiResult<LoginResponse> {
    check_password(&password).map_err(|msg| ApiError::bad_request(format!("password: {msg}")))?;
    let (user, _) = peek_link(
        state,
        token,
        Purpose::Claim,
        "invalid or expired claim link",
    )
    .await?;
    if user.password_hash.is_some() {
        return Err(ApiError::Conflict("account already claimed".to_owned()));
    }
    let hash = state.passwords.hash(password).await?;
    let now = state.clock.now();
    let mut tx = state.store.begin().await?;
    let row = one_time_tokens::consume(&mut tx, &token_hash(token), Purpose::Claim, now)
        .await?
        .ok_or_else(|| ApiError::bad_request("token: invalid or expired claim link"))?;
    let user = users::find_in(&mut tx, &row.user_id)
        .await?
        .ok_or_else(|| ApiError::not_found("person"))?;
    // Read again inside the transaction: a verification link may have set one meanwhile.
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
