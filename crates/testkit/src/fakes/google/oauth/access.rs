//! Access tokens: issuing them under a grant, checking one an API call carries, and revoking
//! (`POST /revoke`, or the human removing the app's access).

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{StatusCode, Uri};
use axum::response::Response;
use serde_json::json;

use super::errors::{no_store, oauth};
use super::param;
use super::state::{ACCESS_TOKEN_SECONDS, Access, Grant};
use crate::fakes::form::form_pairs;
use crate::fakes::google::errors::json_response;
use crate::fakes::google::state::State as FakeState;
use crate::fakes::google::{Shared, lock};

pub(crate) fn issue_access(state: &mut FakeState, grant: usize) -> String {
    let token = state.mint("ya29.fake-");
    state.oauth.access.insert(
        token.clone(),
        Access {
            grant,
            issued: std::time::Instant::now(),
            expired: false,
        },
    );
    token
}

/// A grant with offline access, as if the human had consented (tests that start connected).
pub(crate) fn issue_offline(state: &mut FakeState, scopes: Vec<String>) -> (String, String) {
    let client_id = state.client_id.clone();
    let refresh_token = state.mint("1//fake-");
    state.oauth.consented.insert(client_id.clone());
    let grant = state.oauth.add_grant(Grant {
        client_id,
        scopes,
        refresh_token: Some(refresh_token.clone()),
        revoked: false,
        user: state.oauth.human.clone(),
    });
    (issue_access(state, grant), refresh_token)
}

/// `POST /revoke` with `token` in the form body or the query string.
pub(crate) async fn revoke(State(shared): State<Shared>, uri: Uri, body: Bytes) -> Response {
    let mut pairs = form_pairs(&String::from_utf8_lossy(&body));
    pairs.extend(form_pairs(uri.query().unwrap_or("")));
    let Some(token) = param(&pairs, "token")
        .filter(|t| !t.is_empty())
        .map(str::to_owned)
    else {
        return oauth(
            StatusCode::BAD_REQUEST,
            "invalid_request",
            "Missing required parameter: token",
        );
    };
    let mut state = lock(&shared);
    let grant = state
        .oauth
        .grants
        .iter()
        .position(|grant| grant.refresh_token.as_deref() == Some(token.as_str()))
        .or_else(|| state.oauth.access.get(&token).map(|access| access.grant));
    let Some(grant) = grant.filter(|index| !state.oauth.grants[*index].revoked) else {
        return oauth(
            StatusCode::BAD_REQUEST,
            "invalid_token",
            "Token expired or revoked",
        );
    };
    let client_id = state.oauth.grants[grant].client_id.clone();
    revoke_client(&mut state, &client_id);
    no_store(json_response(StatusCode::OK, &json!({})))
}

/// Removes the human's consent to `client_id`: every grant to it is revoked.
pub(crate) fn revoke_client(state: &mut FakeState, client_id: &str) {
    for grant in state
        .oauth
        .grants
        .iter_mut()
        .filter(|grant| grant.client_id == client_id)
    {
        grant.revoked = true;
    }
    state.oauth.consented.remove(client_id);
}

/// Why an access token was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Refused {
    Invalid,
    Expired,
    Revoked,
}

/// The user and the scopes of a live access token, or why it is refused.
pub(crate) fn check_user_access(
    state: &FakeState,
    token: &str,
) -> Result<(String, Vec<String>), Refused> {
    let scopes = check_access(state, token)?;
    let user = state
        .oauth
        .access
        .get(token)
        .and_then(|access| state.oauth.grants.get(access.grant))
        .map(|grant| grant.user.clone())
        .ok_or(Refused::Invalid)?;
    Ok((user, scopes))
}

/// The scopes an access token carries, or why it is refused.
pub(crate) fn check_access(state: &FakeState, token: &str) -> Result<Vec<String>, Refused> {
    let access = state.oauth.access.get(token).ok_or(Refused::Invalid)?;
    let grant = state
        .oauth
        .grants
        .get(access.grant)
        .ok_or(Refused::Invalid)?;
    if grant.revoked {
        return Err(Refused::Revoked);
    }
    if access.expired || access.issued.elapsed().as_secs() >= ACCESS_TOKEN_SECONDS {
        return Err(Refused::Expired);
    }
    Ok(grant.scopes.clone())
}
