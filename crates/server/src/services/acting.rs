//! The acting party of a service call: who is calling, for which account, and through which
//! door (`via`), as plain values any door can build. HTTP builds a [`Caller`] in
//! `extract/auth.rs` (sessions through the dashboard, API keys and the operator token through
//! the API); the chat assistant and the MCP server resolve their bearer with
//! [`caller_for_token`] and their own [`Via`]; jobs act as [`Caller::system`]. Services never
//! import axum: they take a `&Caller` and answer `ApiResult<T>`, the crate's one error type,
//! whose mapping to HTTP statuses lives in `error.rs` (`IntoResponse`) for the HTTP door alone.

use payback_domain::{AccountRole, Actor, DAY_MS, MINUTE_MS, MemberRole, MemberStatus, Via};
use payback_store::api_keys::{self, KeyAuthRow};
use payback_store::{AccountScope, Visibility, sessions, users};

use crate::crypto::{API_KEY_PREFIX, SESSION_PREFIX, constant_time_eq, token_hash};
use crate::error::{ApiError, ApiResult};
use crate::secret::Secret;
use crate::state::AppState;

/// Sessions expire after this long without use.
pub const SESSION_IDLE_MS: i64 = 7 * DAY_MS;
/// Last-used stamps are written at most this often, so busy clients do not write per request.
const TOUCH_EVERY_MS: i64 = MINUTE_MS;

/// A signed-in person acting through a session.
#[derive(Debug, Clone)]
pub struct Person {
    pub user_id: String,
    pub email: String,
    pub member_role: MemberRole,
    pub session_hash: String,
}

#[derive(Debug, Clone)]
pub enum Principal {
    Person(Person),
    /// `created_by`: the person at the root of the key's chain of minting (`None`: an agent's
    /// sign-up key, or one minted by such a key).
    ApiKey {
        key_id: String,
        created_by: Option<String>,
    },
    OperatorToken,
    /// The server itself, acting for one account from a job; recorded as `system`.
    System,
}

/// Who is calling, for which account, and through which door.
#[derive(Debug, Clone)]
pub struct Caller {
    pub principal: Principal,
    account: Option<AccountScope>,
    pub is_operator: bool,
    operator_name: String,
    /// The door the call came through, recorded in history with each change.
    pub via: Via,
}

impl Caller {
    /// A person signed in to `account` through a session, calling through `via`.
    pub fn for_session(person: Person, account: AccountScope, is_operator: bool, via: Via) -> Self {
        Self {
            principal: Principal::Person(person),
            account: Some(account),
            is_operator,
            operator_name: String::new(),
            via,
        }
    }

    /// A live API key, calling through `via`. A key acts for its own account only, even in an
    /// operator account: only the operator token and operator members' sessions see across
    /// tenants (issue 19).
    pub fn for_api_key(key: KeyAuthRow, via: Via) -> Self {
        Self {
            principal: Principal::ApiKey {
                key_id: key.id,
                created_by: key.created_by,
            },
            account: Some(AccountScope::trusted(key.account_id)),
            is_operator: false,
            operator_name: String::new(),
            via,
        }
    }

    /// The operator token: every account, none to act for; recorded as `operator_name`.
    pub fn for_operator_token(operator_name: impl Into<String>, via: Via) -> Self {
        Self {
            principal: Principal::OperatorToken,
            account: None,
            is_operator: true,
            operator_name: operator_name.into(),
            via,
        }
    }

    /// A job acting for `account`, recorded as `system` via `job`.
    pub fn system(account: AccountScope) -> Self {
        Self {
            principal: Principal::System,
            account: Some(account),
            is_operator: false,
            operator_name: String::new(),
            via: Via::Job,
        }
    }

    /// The same caller, recorded as calling through `via`.
    #[must_use]
    pub fn through(self, via: Via) -> Self {
        Self { via, ..self }
    }

    /// The account the caller acts for. The operator token acts for none.
    pub fn scope(&self) -> Result<&AccountScope, ApiError> {
        self.account.as_ref().ok_or_else(|| {
            ApiError::bad_request("the operator token acts for no account; sign in as a member of the account instead")
        })
    }

    /// What portfolio-wide reads may see: operators see every account.
    pub fn visibility(&self) -> Result<Visibility, ApiError> {
        if self.is_operator {
            Ok(Visibility::AllAccounts)
        } else {
            Ok(Visibility::Account(self.scope()?.clone()))
        }
    }

    pub fn person(&self) -> Option<&Person> {
        match &self.principal {
            Principal::Person(person) => Some(person),
            _ => None,
        }
    }

    /// The person a key minted by this caller is attributed to: the signed-in person, or the
    /// creator behind the calling key, so a chain of keys stays tied to the human at its root.
    pub fn person_behind(&self) -> Option<&str> {
        match &self.principal {
            Principal::Person(person) => Some(&person.user_id),
            Principal::ApiKey { created_by, .. } => created_by.as_deref(),
            Principal::OperatorToken | Principal::System => None,
        }
    }

    /// Who is recorded in history for changes this caller makes, and through which door.
    pub fn actor(&self) -> Actor {
        match &self.principal {
            Principal::Person(person) => Actor::human(person.email.clone(), self.via),
            Principal::ApiKey { .. } => Actor::keeper(self.via),
            Principal::OperatorToken => Actor::human(self.operator_name.clone(), self.via),
            Principal::System => Actor {
                via: self.via,
                ..Actor::system()
            },
        }
    }
}

/// Resolves a bearer token (a session, an API key or the operator token) into the caller it
/// stands for, calling through `via`, with every check of the HTTP door: unknown and revoked
/// keys, keys whose creator is no longer an active member, sessions of disabled members and
/// sessions idle for 7 days (deleted on sight) answer 401. Last-used stamps are written at most
/// once a minute.
pub async fn caller_for_token(state: &AppState, token: &str, via: Via) -> ApiResult<Caller> {
    if token.starts_with(SESSION_PREFIX) {
        session_caller(state, token, via).await
    } else if token.starts_with(API_KEY_PREFIX) {
        let now = state.clock.now();
        // The lookup also refuses a key whose creator is no longer an active member of its
        // account, so disabling a person stops their keys even before they are revoked.
        let key = api_keys::find_live_by_hash(&state.store, &token_hash(token))
            .await?
            .ok_or_else(|| ApiError::Unauthorized("invalid or revoked API key".to_owned()))?;
        if key
            .last_used_at
            .is_none_or(|at| now.millis() - at >= TOUCH_EVERY_MS)
        {
            api_keys::touch(&state.store, &key.id, now).await?;
        }
        Ok(Caller::for_api_key(key, via))
    } else if state
        .config
        .operator_token
        .as_ref()
        .map(Secret::expose)
        .is_some_and(|op| constant_time_eq(op, token))
    {
        let operator_name = state.config.operator_email.as_deref().unwrap_or("operator");
        Ok(Caller::for_operator_token(operator_name, via))
    } else {
        Err(ApiError::Unauthorized("invalid bearer token".to_owned()))
    }
}

async fn session_caller(state: &AppState, token: &str, via: Via) -> ApiResult<Caller> {
    let now = state.clock.now();
    let hash = token_hash(token);
    let row = sessions::find_for_auth(&state.store, &hash)
        .await?
        .ok_or_else(|| ApiError::Unauthorized("invalid or expired session".to_owned()))?;
    if now.millis() - row.last_used_at >= SESSION_IDLE_MS {
        sessions::delete(&state.store, &hash).await?;
        return Err(ApiError::Unauthorized(
            "session expired after 7 idle days; log in again".to_owned(),
        ));
    }
    if row.member_status != MemberStatus::Active {
        return Err(ApiError::Unauthorized(
            "invalid or expired session".to_owned(),
        ));
    }
    if now.millis() - row.last_used_at >= TOUCH_EVERY_MS {
        sessions::touch(&state.store, &hash, now).await?;
        users::touch_last_seen(&state.store, &row.user_id, now).await?;
    }
    let person = Person {
        user_id: row.user_id,
        email: row.email,
        member_role: row.member_role,
        session_hash: hash,
    };
    let is_operator = row.account_role == AccountRole::Operator;
    Ok(Caller::for_session(
        person,
        AccountScope::trusted(row.account_id),
        is_operator,
        via,
    ))
}
