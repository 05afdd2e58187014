//! The spec's auth levels as extractors: [`Caller`] (B, any bearer), [`Owner`] (O),
//! [`SessionCaller`] (S). A missing or invalid bearer answers 401 `{error}`. The types they
//! build live in `services/acting.rs`, which other doors use without HTTP; this file only reads
//! the `Authorization` header and names the HTTP door: sessions call through the dashboard, API
//! keys and the operator token through the API, as history records them.

use axum::extract::FromRequestParts;
use axum::http::header::AUTHORIZATION;
use axum::http::request::Parts;
use payback_domain::{MemberRole, Via};

use crate::error::ApiError;
use crate::services::acting::caller_for_token;
pub use crate::services::acting::{Caller, Person, Principal};
use crate::state::AppState;

impl FromRequestParts<AppState> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let token = bearer_token(parts)?;
        let caller = caller_for_token(state, token, Via::Api).await?;
        let via = match caller.principal {
            Principal::Person(_) => Via::Dashboard,
            Principal::ApiKey { .. } | Principal::OperatorToken | Principal::System => Via::Api,
        };
        Ok(caller.through(via))
    }
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
