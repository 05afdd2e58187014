//! Signing in and out, and what a signed-in person sees of themselves.

use payback_domain::validation::{
    PERSON_NAME_MAX_CHARS, check_length, check_one_line_field, check_password, normalize_email,
};
use payback_domain::{Actor, MemberRole, Timestamp, Via};
use payback_store::{AccountScope, Tx, accounts, members, sessions, users};
use serde_json::json;

use crate::crypto::{SESSION_PREFIX, new_token, token_hash};
use crate::error::{ApiError, ApiResult};
use crate::services::acting::{Caller, Person, Principal, SESSION_IDLE_MS};
use crate::services::audit;
use crate::state::AppState;
use crate::views::{AccountView, LoginResponse, WorkspaceItem};

/// Mints a session for `user_id` in `account_id` inside `tx`; returns the token.
pub async fn open_session(
    tx: &mut Tx,
    user_id: &str,
    account_id: &str,
    now: Timestamp,
) -> ApiResult<String> {
    let token = new_token(SESSION_PREFIX);
    sessions::insert(tx, &token_hash(&token), user_id, account_id, now).await?;
    // Signing in is being seen: the team page should not read "never" for someone signed in now.
    users::seen_at_sign_in(tx, user_id, now).await?;
    Ok(token)
}

/// The login response for a freshly opened session.
pub async fn login_response(
    state: &AppState,
    token: String,
    user_id: &str,
    account_id: &str,
) -> ApiResult<LoginResponse> {
    let now = state.clock.now();
    Ok(LoginResponse {
        token,
        expires_at: now.plus_millis(SESSION_IDLE_MS).to_rfc3339(),
        account: account_view(state, user_id, account_id).await?,
        accounts: workspaces_of(state, user_id).await?,
    })
}

pub async fn workspaces_of(state: &AppState, user_id: &str) -> ApiResult<Vec<WorkspaceItem>> {
    Ok(members::workspaces_of(&state.store, user_id)
        .await?
        .into_iter()
        .map(WorkspaceItem::from)
        .collect())
}

/// The Account as `user_id` sees `account_id`.
pub async fn account_view(
    state: &AppState,
    user_id: &str,
    account_id: &str,
) -> ApiResult<AccountView> {
    let account = accounts::find(&state.store, account_id)
        .await?
        .ok_or_else(|| ApiError::not_found("account"))?;
    let user = users::find(&state.store, user_id)
        .await?
        .ok_or_else(|| ApiError::not_found("person"))?;
    let member = members::find(&state.store, &AccountScope::trusted(account_id), user_id).await?;
    let role = member.map(|m| m.role()).unwrap_or(MemberRole::Member);
    Ok(AccountView::new(&account, &user, role, &state.config))
}

const WRONG_CREDENTIALS: &str = "wrong email or password";

/// A real argon2id hash (same parameters as stored passwords) of a password nobody uses. Logins
/// for unknown emails, or people without a password, verify against it so that every refused
/// login costs the same time and response timing does not reveal which emails are registered.
const TIMING_EQUALIZER_HASH: &str = "$argon2id$v=19$m=19456,t=2,p=1$AoZJlr6SKNY5pmKww3KQRg$olejS/hptFS5jV2pW7KBlLOeyhWIwyclzVrQV5hPi8k";

pub async fn login(
    state: &AppState,
    email: &str,
    password: Option<String>,
) -> ApiResult<LoginResponse> {
    let email = normalize_email(email);
    let user = users::find_by_email(&state.store, &email).await?;
    let stored = user.as_ref().and_then(|u| u.password_hash.clone());
    let matches = state
        .passwords
        .verify(
            password.unwrap_or_default(),
            stored
                .clone()
                .unwrap_or_else(|| TIMING_EQUALIZER_HASH.to_owned()),
        )
        .await?;
    let (Some(user), Some(_), true) = (user, stored, matches) else {
        return Err(ApiError::Unauthorized(WRONG_CREDENTIALS.to_owned()));
    };
    if !user.verified {
        return Err(ApiError::Forbidden(
            "email not verified: open the confirmation link we sent you".to_owned(),
        ));
    }
    let workspace = members::workspaces_of(&state.store, &user.id)
        .await?
        .into_iter()
        .next()
        .ok_or_else(|| {
            ApiError::Forbidden("your access to every workspace is disabled".to_owned())
        })?;
    let now = state.clock.now();
    let mut tx = state.store.begin().await?;
    let token = open_session(&mut tx, &user.id, &workspace.account_id, now).await?;
    let actor = Actor::human(user.email.clone(), Via::Dashboard);
    audit::record_account(
        &mut tx,
        &actor,
        &workspace.account_id,
        "auth.login",
        Some(&user.id),
        json!({}),
        now,
    )
    .await?;
    tx.commit().await?;
    login_response(state, token, &user.id, &workspace.account_id).await
}

/// Ends a session. API keys and the operator token have no session to end; for them logout is
/// a no-op that still answers ok (revoke keys with `/auth/keys/{id}/revoke`).
pub async fn logout(state: &AppState, caller: &Caller) -> ApiResult<()> {
    if let Some(person) = caller.person() {
        sessions::delete(&state.store, &person.session_hash).await?;
    }
    Ok(())
}

/// `GET /auth/me`. Through an API key (or a job), which is no person, the Account describes the
/// account's first owner with `member_role: member` (a key has a member's powers, never an owner's).
pub async fn me(state: &AppState, caller: &Caller) -> ApiResult<AccountView> {
    let scope = caller.scope()?;
    match &caller.principal {
        Principal::Person(person) => account_view(state, &person.user_id, scope.account_id()).await,
        Principal::ApiKey { .. } | Principal::OperatorToken | Principal::System => {
            let owner = members::first_owner(&state.store, scope).await?;
            let owner = owner.ok_or_else(|| ApiError::not_found("account owner"))?;
            let mut view = account_view(state, &owner.user_id, scope.account_id()).await?;
            view.member_role = MemberRole::Member;
            Ok(view)
        }
    }
}

/// No `Debug`: it carries passwords.
#[derive(Default)]
pub struct ProfileEdit {
    /// `Some(None)` clears the name.
    pub name: Option<Option<String>>,
    pub current_password: Option<String>,
    pub new_password: Option<String>,
}

/// `POST /auth/me`: name and password. A password change revokes every other session.
pub async fn update_me(
    state: &AppState,
    caller: &Caller,
    edit: ProfileEdit,
) -> ApiResult<AccountView> {
    let person: &Person = caller.person().ok_or_else(|| {
        ApiError::bad_request("no person to edit: API keys and the operator token have no profile")
    })?;
    if edit.name.is_none() && edit.new_password.is_none() {
        return Err(ApiError::bad_request(
            "nothing to update: send name or new_password",
        ));
    }
    if let Some(Some(name)) = &edit.name {
        check_length(name, 0, PERSON_NAME_MAX_CHARS)
            .map_err(|msg| ApiError::bad_request(format!("name: {msg}")))?;
        check_one_line_field("name", name).map_err(ApiError::bad_request)?;
    }
    let user = users::find(&state.store, &person.user_id)
        .await?
        .ok_or_else(|| ApiError::not_found("person"))?;
    let new_hash = match &edit.new_password {
        None => None,
        Some(new_password) => {
            check_password(new_password)
                .map_err(|msg| ApiError::bad_request(format!("new_password: {msg}")))?;
            if let Some(stored) = user.password_hash.clone() {
                let current = edit.current_password.clone().ok_or_else(|| {
                    ApiError::bad_request("current_password: required to change the password")
                })?;
                if !state.passwords.verify(current, stored).await? {
                    return Err(ApiError::Unauthorized(
                        "current password is wrong".to_owned(),
                    ));
                }
            }
            Some(state.passwords.hash(new_password.clone()).await?)
        }
    };
    let now = state.clock.now();
    let scope = caller.scope()?;
    let mut tx = state.store.begin().await?;
    if let Some(name) = &edit.name {
        // A blank name is no name: the Account shows null, never an empty string.
        let name = name.as_deref().map(str::trim).filter(|n| !n.is_empty());
        users::set_name(&mut tx, &person.user_id, name).await?;
    }
    let mut revoked = 0;
    if let Some(hash) = &new_hash {
        users::set_password_hash(&mut tx, &person.user_id, hash).await?;
        revoked = sessions::delete_others(&mut tx, &person.user_id, &person.session_hash).await?;
    }
    let payload = json!({ "name_changed": edit.name.is_some(), "password_changed": new_hash.is_some(), "sessions_revoked": revoked });
    audit::record_account(
        &mut tx,
        &caller.actor(),
        scope.account_id(),
        "profile.update",
        Some(&person.user_id),
        payload,
        now,
    )
    .await?;
    tx.commit().await?;
    account_view(state, &person.user_id, scope.account_id()).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crypto::verify_password;

    #[tokio::test]
    async fn the_timing_equalizer_is_a_real_argon2id_hash() {
        // If it failed to parse, verification would return at once and the timing would leak.
        let hash = TIMING_EQUALIZER_HASH.to_owned();
        assert!(
            verify_password("payback-timing-equalizer".to_owned(), hash.clone())
                .await
                .unwrap()
        );
        assert!(
            !verify_password("anything else".to_owned(), hash)
                .await
                .unwrap()
        );
    }
}
