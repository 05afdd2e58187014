//! The spec's auth levels as extractors: [`Caller`] (B, any bearer), [`Owner`] (O),
//! [`SessionCaller`] (S). A missing or invalid bearer answers 401 `{error}`.

use axum::extract::FromRequestParts;
use axum::http::header::AUTHORIZATION;
use axum::http::request::Parts;
use payback_domain::{
    AccountRole, Actor, DAY_MS, MINUTE_MS, MemberRole, MemberStatus, Timestamp, Via,
};
use payback_store::{AccountScope, Visibility, api_keys, sessions, users};

use crate::crypto::{API_KEY_PREFIX, SESSION_PREFIX, constant_time_eq, token_hash};
use crate::error::ApiError;
use crate::secret::Secret;
use crate::state::AppState;

/// Sessions expire after this long without use.
pub const SESSION_IDLE_MS: i64 = 7 * DAY_MS;
/// Last-used stamps are written at most this often, so busy clients do not write per request.
const TOUCH_EVERY_MS: i64 = MINUTE_MS;

/// A signed-in person acting through a dashboard session.
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
}

/// Level B: any valid bearer credential, resolved to who is calling and for which account.
#[derive(Debug, Clone)]
pub struct Caller {
    pub principal: Principal,
    account: Option<AccountScope>,
    pub is_operator: bool,
    operator_name: String,
}

impl Caller {
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
            Principal::OperatorToken => None,
        }
    }

    /// Who is recorded in history for changes this caller makes.
    pub fn actor(&self) -> Actor {
        match &self.principal {
            Principal::Person(person) => Actor::human(person.email.clone(), Via::Dashboard),
            Principal::ApiKey { .. } => Actor::keeper(Via::Api),
            Principal::OperatorToken => Actor::human(self.operator_name.clone(), Via::Api),
        }
    }
}

impl FromRequestParts<AppState> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let token = bearer_token(parts)?;
        let now = state.clock.now();
        let operator_name = state
            .config
            .operator_email
            .clone()
            .unwrap_or_else(|| "operator".to_owned());
        if token.starts_with(SESSION_PREFIX) {
            let person_caller = session_caller(state, token, now).await?;
            Ok(Caller {
                operator_name,
                ..person_caller
            })
        } else if token.starts_with(API_KEY_PREFIX) {
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
            // A key acts for its own account only, even in an operator account: only the
            // operator token and operator members' sessions see across tenants (issue 19).
            Ok(Caller {
                principal: Principal::ApiKey {
                    key_id: key.id,
                    created_by: key.created_by,
                },
                account: Some(AccountScope::trusted(key.account_id)),
                is_operator: false,
                operator_name,
            })
        } else if state
            .config
            .operator_token
            .as_ref()
            .map(Secret::expose)
            .is_some_and(|op| constant_time_eq(op, token))
        {
            Ok(Caller {
                principal: Principal::OperatorToken,
                account: None,
                is_operator: true,
                operator_name,
            })
        } else {
            Err(ApiError::Unauthorized("invalid bearer token".to_owned()))
        }
    }
}

async fn session_caller(state: &AppState, token: &str, now: Timestamp) -> Result<Caller, ApiError> {
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
    if row.member_status != MemberStatus::Active.as_str() {
        return Err(ApiError::Unauthorized(
            "invalid or expired session".to_owned(),
        ));
    }
    if now.millis() - row.last_used_at >= TOUCH_EVERY_MS {
        sessions::touch(&state.store, &hash, now).await?;
        users::touch_last_seen(&state.store, &row.user_id, now).await?;
    }
    Ok(Caller {
        principal: Principal::Person(Person {
            user_id: row.user_id,
            email: row.email,
            member_role: MemberRole::parse(&row.member_role).unwrap_or(MemberRole::Member),
            session_hash: hash,
        }),
        account: Some(AccountScope::trusted(row.account_id)),
        is_operator: row.account_role == AccountRole::Operator.as_str(),
        operator_name: String::new(),
    })
}

fn bearer_token(parts: &Parts) -> Result<&str, ApiError> {
    let header = parts.headers.get(AUTHORIZATION).ok_or_else(|| {
        ApiError::Unauthorized(
            "missing bearer token: send Authorization: Bearer <token>".to_owned(),
        )
    })?;
    let value = header.to_str().map_err(|_| {
        ApiError::Unauthorized("the Authorization header is not valid text".to_owned())
    })?;
    let (scheme, token) = value.split_once(' ').ok_or_else(|| {
        ApiError::Unauthorized("the Authorization header must be `Bearer <token>`".to_owned())
    })?;
    if !scheme.eq_ignore_ascii_case("bearer") || token.trim().is_empty() {
        return Err(ApiError::Unauthorized(
            "the Authorization header must be `Bearer <token>`".to_owned(),
        ));
    }
    Ok(token.trim())
}

/// Level O: a person who owns the current account. Everyone else answers 403 `Not an owner`.
#[derive(Debug, Clone)]
pub struct Owner(pub Caller, pub Person);

impl FromRequestParts<AppState> for Owner {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let caller = Caller::from_request_parts(parts, state).await?;
        match caller.person() {
            Some(person) if person.member_role == MemberRole::Owner => {
                let person = person.clone();
                Ok(Owner(caller, person))
            }
            _ => Err(ApiError::Forbidden("Not an owner".to_owned())),
        }
    }
}

/// Level S: a dashboard session. API keys and the operator token answer 400.
#[derive(Debug, Clone)]
pub struct SessionCaller(pub Caller, pub Person);

impl FromRequestParts<AppState> for SessionCaller {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let caller = Caller::from_request_parts(parts, state).await?;
        let person = caller
            .person()
            .cloned()
            .ok_or_else(|| ApiError::bad_request("this call needs a dashboard session (svc_sess_...), not an API key or the operator token"))?;
        Ok(SessionCaller(caller, person))
    }
}
