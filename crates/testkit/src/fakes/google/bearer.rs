//! The `Authorization: Bearer <access token>` every API call carries, read the one way each API
//! here reads it.

// A refusal here is the whole HTTP answer, carried up as the `Err` of the helpers that build it;
// boxing it would buy nothing on a test fake's error path.
#![allow(clippy::result_large_err)]

use axum::http::HeaderMap;
use axum::response::Response;

use super::errors::missing_credential;
use super::oauth::check_user_access;
use super::state::State;

/// The access token of `Authorization: Bearer <token>`: 401 `missing_credential` without the
/// header, `invalid()` for another scheme or an empty token.
pub(crate) fn bearer_token(
    headers: &HeaderMap,
    invalid: fn() -> Response,
) -> Result<&str, Response> {
    let Some(authorization) = headers
        .get("authorization")
        .and_then(|value| value.to_str().ok())
    else {
        return Err(missing_credential());
    };
    match authorization.trim().split_once(' ') {
        Some((scheme, token))
            if scheme.eq_ignore_ascii_case("Bearer") && !token.trim().is_empty() =>
        {
            Ok(token.trim())
        }
        _ => Err(invalid()),
    }
}

/// The user and the scopes of the call's live access token; `invalid()` for a token that is
/// unknown, expired or revoked.
pub(crate) fn user_access(
    state: &State,
    headers: &HeaderMap,
    invalid: fn() -> Response,
) -> Result<(String, Vec<String>), Response> {
    let token = bearer_token(headers, invalid)?;
    check_user_access(state, token).map_err(|_| invalid())
}
