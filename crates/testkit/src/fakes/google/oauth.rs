//! Google's OAuth 2.0 provider for web server applications: the authorization endpoint
//! (`GET /o/oauth2/v2/auth`), the token endpoint (`POST /token`: `authorization_code` with
//! PKCE, `refresh_token`, and service accounts' JWT bearer grant in `service_account.rs`) and the revocation endpoint (`POST /revoke`).
//!
//! As Google documents it:
//! - the consent screen redirects to `redirect_uri` with `code`, `scope` and `state`, or with
//!   `error=access_denied` when the human cancels; a bad client or redirect URI shows an error
//!   page and never redirects,
//! - a refresh token comes with the code exchange only when `access_type=offline`, and only on
//!   the human's first consent to the client unless `prompt=consent` asked again,
//! - codes are single use (a second exchange also revokes what the first one issued) and live
//!   ten minutes; access tokens an hour (`expires_in: 3599`),
//! - `code_verifier` must match the `code_challenge` (`S256`: BASE64URL(SHA256(verifier)) without
//!   padding; `plain`: equal), a verifier without a challenge is refused too,
//! - the client authenticates with `client_id`/`client_secret` in the form or HTTP Basic,
//! - revoking an access or a refresh token removes the human's consent to the client: every
//!   token issued to it stops working.

use axum::body::Bytes;
use axum::extract::State;
use axum::http::header::{AUTHORIZATION, CONTENT_TYPE, HOST, LOCATION};
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use base64::Engine;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use serde_json::json;
use sha2::{Digest, Sha256};

use super::errors::{consent_screen_error, json_response, no_store, oauth};
use super::state::{ACCESS_TOKEN_SECONDS, Access, CODE_SECONDS, Code, Grant, State as FakeState};
use super::{Shared, lock};
use crate::fakes::form::form_pairs;

/// The JWT bearer grant of service accounts (`service_account.rs`).
const JWT_BEARER: &str = "urn:ietf:params:oauth:grant-type:jwt-bearer";

fn param<'a>(pairs: &'a [(String, String)], name: &str) -> Option<&'a str> {
    pairs
        .iter()
        .find(|(key, _)| key == name)
        .map(|(_, value)| value.as_str())
}

/// `GET /o/oauth2/v2/auth`: the consent screen, played by the fake's human.
pub(crate) async fn authorize(State(shared): State<Shared>, uri: Uri) -> Response {
    let pairs = form_pairs(uri.query().unwrap_or(""));
    let get = |name: &str| param(&pairs, name).filter(|value| !value.is_empty());
    let mut state = lock(&shared);
    let bad = |description: &str| {
        consent_screen_error(StatusCode::BAD_REQUEST, "invalid_request", description)
    };

    let Some(client_id) = get("client_id") else {
        return bad("Missing required parameter: client_id");
    };
    if client_id != state.client_id {
        return consent_screen_error(
            StatusCode::UNAUTHORIZED,
            "invalid_client",
            "The OAuth client was not found.",
        );
    }
    let Some(redirect_uri) = get("redirect_uri") else {
        return bad("Missing required parameter: redirect_uri");
    };
    let Ok(mut target) = reqwest::Url::parse(redirect_uri) else {
        return bad("Invalid parameter value for redirect_uri: not an absolute URI");
    };
    if !matches!(target.scheme(), "http" | "https") || target.fragment().is_some() {
        return bad(
            "Invalid parameter value for redirect_uri: an http(s) URI without a fragment is required",
        );
    }
    let registered = &state.oauth.redirect_uris;
    if !registered.is_empty() && !registered.iter().any(|uri| uri == redirect_uri) {
        return consent_screen_error(
            StatusCode::BAD_REQUEST,
            "redirect_uri_mismatch",
            &format!(
                "The redirect URI in the request, {redirect_uri}, does not match the ones authorized for the OAuth client."
            ),
        );
    }
    match get("response_type") {
        Some("code") => {}
        Some(other) => {
            return bad(&format!(
                "Invalid response_type: {other} (this flow takes code)"
            ));
        }
        None => return bad("Missing required parameter: response_type"),
    }
    let Some(scope) = get("scope") else {
        return bad("Missing required parameter: scope");
    };
    let offline = match get("access_type") {
        None | Some("online") => false,
        Some("offline") => true,
        Some(other) => return bad(&format!("Invalid access_type: {other}")),
    };
    let prompts: Vec<&str> = get("prompt")
        .unwrap_or("")
        .split(' ')
        .filter(|p| !p.is_empty())
        .collect();
    if prompts
        .iter()
        .any(|p| !matches!(*p, "none" | "consent" | "select_account"))
        || (prompts.contains(&"none") && prompts.len() > 1)
    {
        return bad(
            "Invalid prompt: takes none, or consent and select_account separated by spaces",
        );
    }
    let challenge = match (get("code_challenge"), get("code_challenge_method")) {
        (Some(challenge), method) => {
            let method = method.unwrap_or("plain");
            if !matches!(method, "S256" | "plain") {
                return bad(&format!("Invalid code_challenge_method: {method}"));
            }
            if !is_pkce_text(challenge) {
                return bad("Invalid code_challenge: 43 to 128 characters of [A-Za-z0-9-._~]");
            }
            Some((challenge.to_owned(), method.to_owned()))
        }
        (None, Some(_)) => return bad("Missing required parameter: code_challenge"),
        (None, None) => None,
    };

    let state_param = param(&pairs, "state").map(str::to_owned);
    let mut redirect = |error: Option<&str>, code: Option<(&str, &str)>| {
        {
            let mut query = target.query_pairs_mut();
            if let Some(value) = &state_param {
                query.append_pair("state", value);
            }
            if let Some(error) = error {
                query.append_pair("error", error);
            }
            if let Some((code, scope)) = code {
                query.append_pair("code", code);
                query.append_pair("scope", scope);
            }
        }
        (StatusCode::FOUND, [(LOCATION, target.to_string())]).into_response()
    };

    if state.oauth.human_refuses {
        return redirect(Some("access_denied"), None);
    }
    let consented_before = state.oauth.consented.contains(client_id);
    if prompts.contains(&"none") && !consented_before {
        return redirect(Some("consent_required"), None);
    }
    let requested: Vec<String> = scope
        .split(' ')
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect();
    let granted: Vec<String> = match &state.oauth.human_grants_only {
        Some(only) => requested
            .iter()
            .filter(|s| only.contains(s))
            .cloned()
            .collect(),
        None => requested,
    };
    if granted.is_empty() {
        return redirect(Some("access_denied"), None);
    }
    let with_refresh = offline && (!consented_before || prompts.contains(&"consent"));
    state.oauth.consented.insert(client_id.to_owned());
    let code = state.mint("4/0fake-");
    let user = state.oauth.human.clone();
    state.oauth.codes.insert(
        code.clone(),
        Code {
            client_id: client_id.to_owned(),
            redirect_uri: redirect_uri.to_owned(),
            scopes: granted.clone(),
            challenge,
            with_refresh,
            issued: std::time::Instant::now(),
            exchanged: None,
            user,
        },
    );
    redirect(None, Some((&code, &granted.join(" "))))
}

/// RFC 7636: 43 to 128 unreserved characters.
fn is_pkce_text(text: &str) -> bool {
    (43..=128).contains(&text.len())
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~'))
}

/// `BASE64URL(SHA256(verifier))` without padding.
pub(crate) fn s256(verifier: &str) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()))
}

/// The client credentials of a token request: HTTP Basic, or the form's `client_id` and
/// `client_secret`.
fn client_credentials(
    headers: &HeaderMap,
    pairs: &[(String, String)],
) -> Result<(String, Option<String>), Box<Response>> {
    let form_id = param(pairs, "client_id").map(str::to_owned);
    let form_secret = param(pairs, "client_secret").map(str::to_owned);
    let basic = headers
        .get(AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| {
            value
                .strip_prefix("Basic ")
                .or_else(|| value.strip_prefix("basic "))
        })
        .map(|encoded| {
            let decoded = STANDARD
                .decode(encoded.trim())
                .ok()
                .and_then(|bytes| String::from_utf8(bytes).ok());
            let (id, secret) = decoded
                .as_deref()
                .and_then(|text| text.split_once(':'))
                .ok_or_else(|| {
                    Box::new(oauth(
                        StatusCode::UNAUTHORIZED,
                        "invalid_client",
                        "Unauthorized",
                    ))
                })?;
            // RFC 6749 2.3.1: each part is form-urlencoded before joining.
            Ok::<_, Box<Response>>((percent_decode(id), percent_decode(secret)))
        })
        .transpose()?;
    match (basic, form_id) {
        (Some((id, secret)), form_id) => {
            if form_id.is_some_and(|form_id| form_id != id)
                || form_secret.is_some_and(|form_secret| form_secret != secret)
            {
                return Err(Box::new(oauth(
                    StatusCode::BAD_REQUEST,
                    "invalid_request",
                    "Client credentials in the Authorization header and the body disagree.",
                )));
            }
            Ok((id, Some(secret)))
        }
        (None, Some(id)) => Ok((id, form_secret)),
        (None, None) => Err(Box::new(oauth(
            StatusCode::BAD_REQUEST,
            "invalid_request",
            "Could not determine client ID from request.",
        ))),
    }
}

fn percent_decode(text: &str) -> String {
    form_pairs(&format!("x={text}"))
        .pop()
        .map(|(_, value)| value)
        .unwrap_or_default()
}

fn token_answer(access_token: &str, scopes: &[String], refresh_token: Option<&str>) -> Response {
    let mut body = json!({
        "access_token": access_token,
        "expires_in": ACCESS_TOKEN_SECONDS,
        "scope": scopes.join(" "),
        "token_type": "Bearer",
    });
    if let Some(refresh_token) = refresh_token {
        body["refresh_token"] = json!(refresh_token);
    }
    no_store(json_response(StatusCode::OK, &body))
}

/// `POST /token`.
pub(crate) async fn token(
    State(shared): State<Shared>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let form = headers
        .get(CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| {
            value
                .to_ascii_lowercase()
                .starts_with("application/x-www-form-urlencoded")
        });
    if !form {
        return oauth(
            StatusCode::BAD_REQUEST,
            "invalid_request",
            "The token endpoint takes an application/x-www-form-urlencoded body.",
        );
    }
    let pairs = form_pairs(&String::from_utf8_lossy(&body));
    // A service account authenticates by its signed assertion alone, without a client.
    if param(&pairs, "grant_type") == Some(JWT_BEARER) {
        let audience = headers
            .get(HOST)
            .and_then(|host| host.to_str().ok())
            .map(|host| format!("http://{host}/token"))
            .unwrap_or_default();
        return super::service_account::exchange(
            &mut lock(&shared),
            param(&pairs, "assertion"),
            &audience,
        );
    }
    let (client_id, secret) = match client_credentials(&headers, &pairs) {
        Ok(credentials) => credentials,
        Err(response) => return *response,
    };
    let mut state = lock(&shared);
    if client_id != state.client_id {
        return oauth(
            StatusCode::UNAUTHORIZED,
            "invalid_client",
            "The OAuth client was not found.",
        );
    }
    if secret.as_deref() != Some(state.client_secret.as_str()) {
        return oauth(StatusCode::UNAUTHORIZED, "invalid_client", "Unauthorized");
    }
    match param(&pairs, "grant_type") {
        Some("authorization_code") => exchange_code(&mut state, &pairs, &client_id),
        Some("refresh_token") => refresh(&mut state, &pairs, &client_id),
        Some(other) => oauth(
            StatusCode::BAD_REQUEST,
            "unsupported_grant_type",
            &format!("Invalid grant_type: {other}"),
        ),
        None => oauth(
            StatusCode::BAD_REQUEST,
            "invalid_request",
            "Missing required parameter: grant_type",
        ),
    }
}

fn exchange_code(state: &mut FakeState, pairs: &[(String, String)], client_id: &str) -> Response {
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
    state.oauth.grants.push(Grant {
        client_id: client_id.to_owned(),
        scopes: issued.scopes.clone(),
        refresh_token: refresh_token.clone(),
        revoked: false,
        user: issued.user.clone(),
    });
    let grant = state.oauth.grants.len() - 1;
    if let Some(code) = state.oauth.codes.get_mut(code) {
        code.exchanged = Some(grant);
    }
    let access_token = issue_access(state, grant);
    token_answer(&access_token, &issued.scopes, refresh_token.as_deref())
}

fn refresh(state: &mut FakeState, pairs: &[(String, String)], client_id: &str) -> Response {
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
    state.oauth.grants.push(Grant {
        client_id,
        scopes,
        refresh_token: Some(refresh_token.clone()),
        revoked: false,
        user: state.oauth.human.clone(),
    });
    let grant = state.oauth.grants.len() - 1;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn s256_matches_rfc_7636_appendix_b() {
        assert_eq!(
            s256("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"),
            "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
        );
    }
}
