//! The token endpoint's two grants of a client: exchanging an authorization code (single use,
//! ten minutes, PKCE checked) and refreshing (the scopes of the grant, or fewer).

use axum::http::StatusCode;
use axum::response::Response;

use super::access::issue_access;
use super::authorize::{is_pkce_text, s256};
use super::errors::oauth;
use super::param;
use super::state::{CODE_SECONDS, Grant};
use super::token::token_answer;
use crate::fakes::google::state::State as FakeState;

pub(super) fn exchange_code(
    state: &mut FakeState,
    pairs: &[(String, String)],
    client_id: &str,
) -> Response {
    let Some(code) = param(pairs, "code") else {
        return oauth(
            StatusCode::BAD_REQUEST,
            "invalid_request",
            "Missing required parameter: code",
        );
    };
    let Some(issued) = state.oauth.codes.get(code).cloned() else {
        return oauth(
            StatusCode::BAD_REQUEST,
            "invalid_grant",
            "Malformed auth code.",
        );
    };
    if let Some(grant) = issued.exchanged {
        // A replayed code: refuse it and revoke what it was exchanged for.
        if let Some(grant) = state.oauth.grants.get_mut(grant) {
            grant.revoked = true;
        }
        return oauth(StatusCode::BAD_REQUEST, "invalid_grant", "Bad Request");
    }
    if issued.client_id != client_id || issued.issued.elapsed().as_secs() > CODE_SECONDS {
        return oauth(StatusCode::BAD_REQUEST, "invalid_grant", "Bad Request");
    }
    match param(pairs, "redirect_uri") {
        None => {
            return oauth(
                StatusCode::BAD_REQUEST,
                "invalid_request",
                "Missing required parameter: redirect_uri",
            );
        }
        Some(uri) if uri != issued.redirect_uri => {
            return oauth(
                StatusCode::BAD_REQUEST,
                "redirect_uri_mismatch",
                "Bad Request",
            );
        }
        Some(_) => {}
    }
    let verifier = param(pairs, "code_verifier");
    match (&issued.challenge, verifier) {
        (None, None) => {}
        (None, Some(_)) => {
            return oauth(
                StatusCode::BAD_REQUEST,
                "invalid_grant",
                "code_verifier or verifier is not needed.",
            );
        }
        (Some(_), None) => {
            return oauth(
                StatusCode::BAD_REQUEST,
                "invalid_grant",
                "Missing code verifier.",
            );
        }
        (Some((challenge, method)), Some(verifier)) => {
            let derived = if method == "S256" {
                s256(verifier)
            } else {
                verifier.to_owned()
            };
            if !is_pkce_text(verifier) || &derived != challenge {
                return oauth(
                    StatusCode::BAD_REQUEST,
                    "invalid_grant",
                    "Invalid code verifier.",
                );
            }
        }
    }
    let refresh_token = issued.with_refresh.then(|| state.mint("1//fake-"));
    let grant = state.oauth.add_grant(Grant {
        client_id: client_id.to_owned(),
        scopes: issued.scopes.clone(),
        refresh_token: refresh_token.clone(),
        revoked: false,
        user: issued.user.clone(),
    });
    if let Some(code) = state.oauth.codes.get_mut(code) {
        code.exchanged = Some(grant);
    }
    let access_token = issue_access(state, grant);
    token_answer(&access_token, &issued.scopes, refresh_token.as_deref())
}

pub(super) fn refresh(
    state: &mut FakeState,
    pairs: &[(String, String)],
    client_id: &str,
) -> Response {
    let Some(refresh_token) = param(pairs, "refresh_token") else {
        return oauth(
            StatusCode::BAD_REQUEST,
            "invalid_request",
            "Missing required parameter: refresh_token",
        );
    };
    let found = state
        .oauth
        .grants
        .iter()
        .position(|grant| grant.refresh_token.as_deref() == Some(refresh_token));
    let Some(index) = found.filter(|index| !state.oauth.grants[*index].revoked) else {
        return oauth(
            StatusCode::BAD_REQUEST,
            "invalid_grant",
            "Token has been expired or revoked.",
        );
    };
    let grant = state.oauth.grants[index].clone();
    if grant.client_id != client_id {
        return oauth(
            StatusCode::UNAUTHORIZED,
            "unauthorized_client",
            "Unauthorized",
        );
    }
    if let Some(scope) = param(pairs, "scope")
        && scope
            .split(' ')
            .filter(|s| !s.is_empty())
            .any(|s| !grant.scopes.iter().any(|g| g == s))
    {
        return oauth(
            StatusCode::BAD_REQUEST,
            "invalid_scope",
            "Some requested scopes were invalid.",
        );
    }
    let access_token = issue_access(state, index);
    token_answer(&access_token, &grant.scopes, None)
}
