//! The provider's endpoints, as Google documents them for OpenID Connect:
//! - `GET /.well-known/openid-configuration`: the discovery document (Google's fields, this
//!   fake's origin),
//! - `GET /o/oauth2/v2/auth`: the sign-in screen, played by the scripted human: it checks the
//!   client, the registered `redirect_uri`, `response_type=code`, an `openid` scope and a PKCE
//!   challenge, then redirects back with `code`, `state`, `scope`, `authuser` and `prompt`
//!   (or `error=access_denied`),
//! - `POST /token`: the code exchange (`grant_type=authorization_code`, the same
//!   `redirect_uri`, the `code_verifier`), the client authenticated with
//!   `client_secret_basic` or `client_secret_post` (one of them); codes are single use;
//!   answers `access_token`, `expires_in: 3599`, `scope`, `token_type: Bearer`, `id_token`,
//! - `GET /oauth2/v3/certs`: the key set,
//! - `GET /attacker/certs`: a key set the provider never names (the target of a forged `jku`).

use axum::body::Bytes;
use axum::extract::State;
use axum::http::header::{AUTHORIZATION, CACHE_CONTROL, CONTENT_TYPE, LOCATION};
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use base64::Engine;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use super::Shared;
use super::signing::{ATTACKER, sign_hs256, unsigned};
use super::state::{Code, Fault};
use crate::fakes::form::form_pairs;
use crate::fakes::lock;

fn param<'a>(pairs: &'a [(String, String)], name: &str) -> Option<&'a str> {
    pairs
        .iter()
        .find(|(key, _)| key == name)
        .map(|(_, value)| value.as_str())
        .filter(|value| !value.is_empty())
}

fn json_answer(status: StatusCode, body: Value) -> Response {
    (
        status,
        [
            (CONTENT_TYPE, "application/json; charset=utf-8"),
            (CACHE_CONTROL, "no-store"),
        ],
        body.to_string(),
    )
        .into_response()
}

/// RFC 6749 5.2's error body.
fn oauth_error(status: StatusCode, error: &str, description: &str) -> Response {
    json_answer(
        status,
        json!({ "error": error, "error_description": description }),
    )
}

/// Google's discovery document (the fields `accounts.google.com` publishes), at this origin.
pub(crate) async fn discovery(State(shared): State<Shared>) -> Response {
    let state = lock(&shared);
    if state.discovery_down {
        return (StatusCode::INTERNAL_SERVER_ERROR, "discovery is down").into_response();
    }
    let origin = state.origin.clone();
    let issuer = state
        .discovery_issuer
        .clone()
        .unwrap_or_else(|| origin.clone());
    json_answer(
        StatusCode::OK,
        json!({
            "issuer": issuer,
            "authorization_endpoint": format!("{origin}/o/oauth2/v2/auth"),
            "device_authorization_endpoint": format!("{origin}/device/code"),
            "token_endpoint": format!("{origin}/token"),
            "userinfo_endpoint": format!("{origin}/v1/userinfo"),
            "revocation_endpoint": format!("{origin}/revoke"),
            "jwks_uri": format!("{origin}/oauth2/v3/certs"),
            "response_types_supported": ["code", "token", "id_token", "code token", "code id_token",
                "token id_token", "code token id_token", "none"],
            "response_modes_supported": ["query", "fragment", "form_post"],
            "subject_types_supported": ["public"],
            "id_token_signing_alg_values_supported": ["RS256"],
            "scopes_supported": ["openid", "email", "profile"],
            "token_endpoint_auth_methods_supported": state.auth_methods_supported,
            "claims_supported": ["aud", "email", "email_verified", "exp", "family_name", "given_name",
                "iat", "iss", "name", "picture", "sub"],
            "code_challenge_methods_supported": ["plain", "S256"],
            "grant_types_supported": ["authorization_code", "refresh_token",
                "urn:ietf:params:oauth:grant-type:device_code",
                "urn:ietf:params:oauth:grant-type:jwt-bearer"]
        }),
    )
}

/// The published key set.
pub(crate) async fn certs(State(shared): State<Shared>) -> Response {
    let state = lock(&shared);
    let keys: Vec<Value> = state.published.iter().map(|key| key.public_jwk()).collect();
    json_answer(StatusCode::OK, json!({ "keys": keys }))
}

/// A key set holding the attacker's key: a client that followed a token's `jku` would find it.
pub(crate) async fn attacker_certs() -> Response {
    json_answer(StatusCode::OK, json!({ "keys": [ATTACKER.public_jwk()] }))
}

/// The error page the sign-in screen shows instead of redirecting (a bad client or redirect URI
/// is never redirected to).
fn screen_error(status: StatusCode, error: &str, description: &str) -> Response {
    (
        status,
        [(CONTENT_TYPE, "text/html; charset=utf-8")],
        format!(
            "<h1>Error {}: {error}</h1><p>{description}</p>",
            status.as_u16()
        ),
    )
        .into_response()
}

/// `GET /o/oauth2/v2/auth`.
pub(crate) async fn authorize(State(shared): State<Shared>, uri: Uri) -> Response {
    let pairs = form_pairs(uri.query().unwrap_or(""));
    let get = |name: &str| param(&pairs, name);
    let mut state = lock(&shared);
    let bad =
        |description: &str| screen_error(StatusCode::BAD_REQUEST, "invalid_request", description);
    if get("client_id") != Some(state.client_id.as_str()) {
        return screen_error(
            StatusCode::UNAUTHORIZED,
            "invalid_client",
            "The OAuth client was not found.",
        );
    }
    let Some(redirect_uri) = get("redirect_uri") else {
        return bad("Missing required parameter: redirect_uri");
    };
    if !state.redirect_uris.is_empty() && !state.redirect_uris.iter().any(|uri| uri == redirect_uri)
    {
        return screen_error(
            StatusCode::BAD_REQUEST,
            "redirect_uri_mismatch",
            "The redirect URI in the request does not match the ones authorized for the OAuth client.",
        );
    }
    let Ok(mut target) = reqwest::Url::parse(redirect_uri) else {
        return bad("Invalid parameter value for redirect_uri");
    };
    if get("response_type") != Some("code") {
        return bad("Invalid response_type (this flow takes code)");
    }
    let Some(scope) = get("scope") else {
        return bad("Missing required parameter: scope");
    };
    if !scope.split(' ').any(|s| s == "openid") {
        return bad("Some requested scopes were invalid: openid is required for OpenID Connect");
    }
    let (Some(challenge), Some("S256")) = (get("code_challenge"), get("code_challenge_method"))
    else {
        return bad("This fake expects PKCE with code_challenge_method=S256");
    };
    let nonce = get("nonce").unwrap_or_default().to_owned();
    let challenge = challenge.to_owned();
    let scope = scope.to_owned();
    let state_param = get("state").map(str::to_owned);
    if state.fault == Some(Fault::ProviderError) {
        {
            let mut query = target.query_pairs_mut();
            if let Some(value) = &state_param {
                query.append_pair("state", value);
            }
            query.append_pair("error", "access_denied");
        }
        return (StatusCode::FOUND, [(LOCATION, target.to_string())]).into_response();
    }
    let code = state.mint("4/0AfakeOidcCode");
    let human = state.human.clone();
    let client_id = state.client_id.clone();
    state.codes.insert(
        code.clone(),
        Code {
            client_id,
            redirect_uri: redirect_uri.to_owned(),
            challenge,
            nonce,
            scope: scope.clone(),
            human,
            exchanged: false,
        },
    );
    {
        let mut query = target.query_pairs_mut();
        if let Some(value) = &state_param {
            query.append_pair("state", value);
        }
        query.append_pair("code", &code);
        query.append_pair("scope", &scope);
        query.append_pair("authuser", "0");
        query.append_pair("prompt", "consent");
    }
    (StatusCode::FOUND, [(LOCATION, target.to_string())]).into_response()
}

/// A refusal of the token endpoint: status, `error`, `error_description`.
type Refusal = (StatusCode, &'static str, &'static str);

/// The client's credentials from HTTP Basic (RFC 6749 2.3.1: each form-urlencoded, then
/// base64) or from the form body; both at once is refused.
fn client_credentials(
    headers: &HeaderMap,
    pairs: &[(String, String)],
) -> Result<(String, String, &'static str), Refusal> {
    let basic = headers
        .get(AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.strip_prefix("Basic "))
        .and_then(|encoded| STANDARD.decode(encoded).ok())
        .and_then(|bytes| String::from_utf8(bytes).ok())
        .and_then(|text| {
            let (id, secret) = text.split_once(':')?;
            let decode = |part: &str| {
                form_pairs(&format!("x={part}"))
                    .into_iter()
                    .next()
                    .map(|(_, value)| value)
                    .unwrap_or_default()
            };
            Some((decode(id), decode(secret)))
        });
    let posted = param(pairs, "client_secret").map(|secret| {
        (
            param(pairs, "client_id").unwrap_or_default().to_owned(),
            secret.to_owned(),
        )
    });
    match (basic, posted) {
        (Some(_), Some(_)) => Err((
            StatusCode::BAD_REQUEST,
            "invalid_request",
            "The client authenticated with more than one method.",
        )),
        (Some((id, secret)), None) => Ok((id, secret, "client_secret_basic")),
        (None, Some((id, secret))) => Ok((id, secret, "client_secret_post")),
        (None, None) => Err((
            StatusCode::UNAUTHORIZED,
            "invalid_client",
            "The OAuth client was not found.",
        )),
    }
}

/// `POST /token`: the authorization code grant.
pub(crate) async fn token(
    State(shared): State<Shared>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let pairs = form_pairs(&String::from_utf8_lossy(&body));
    let mut state = lock(&shared);
    let (client_id, client_secret, method) = match client_credentials(&headers, &pairs) {
        Ok(found) => found,
        Err((status, error, description)) => return oauth_error(status, error, description),
    };
    if client_id != state.client_id || client_secret != state.client_secret {
        return oauth_error(
            StatusCode::UNAUTHORIZED,
            "invalid_client",
            "The OAuth client was not found.",
        );
    }
    if !state.auth_methods_supported.contains(&method) {
        return oauth_error(
            StatusCode::UNAUTHORIZED,
            "invalid_client",
            "The client authentication method is not supported.",
        );
    }
    state.auth_methods.push(method);
    if param(&pairs, "grant_type") != Some("authorization_code") {
        return oauth_error(
            StatusCode::BAD_REQUEST,
            "unsupported_grant_type",
            "Invalid grant_type.",
        );
    }
    let invalid_grant = || oauth_error(StatusCode::BAD_REQUEST, "invalid_grant", "Bad Request");
    if state.fault == Some(Fault::TokenRefused) {
        return invalid_grant();
    }
    let Some(code) = param(&pairs, "code").map(str::to_owned) else {
        return oauth_error(
            StatusCode::BAD_REQUEST,
            "invalid_request",
            "Missing required parameter: code",
        );
    };
    let Some(issued) = state.codes.get_mut(&code) else {
        return invalid_grant();
    };
    if issued.exchanged || issued.client_id != client_id {
        return invalid_grant();
    }
    issued.exchanged = true;
    let issued = issued.clone();
    if param(&pairs, "redirect_uri") != Some(issued.redirect_uri.as_str()) {
        return oauth_error(
            StatusCode::BAD_REQUEST,
            "redirect_uri_mismatch",
            "Bad Request",
        );
    }
    let verifier = param(&pairs, "code_verifier").unwrap_or_default();
    let challenge = URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()));
    if challenge != issued.challenge {
        return invalid_grant();
    }
    let access_token = state.mint("ya29.fakeOidcAccess");
    let mut body = json!({
        "access_token": access_token,
        "expires_in": 3599,
        "scope": issued.scope,
        "token_type": "Bearer",
    });
    if state.fault != Some(Fault::MissingIdToken) {
        let id_token = id_token(&state, &issued);
        state.issued.push(id_token.clone());
        body["id_token"] = Value::String(id_token);
    }
    json_answer(StatusCode::OK, body)
}

/// The ID token for an exchanged code, as Google shapes it, with the test's fault.
fn id_token(state: &super::state::State, code: &Code) -> String {
    let now = state.clock.now().millis() / 1000;
    let fault = state.fault;
    let issuer = if fault == Some(Fault::WrongIssuer) {
        "https://accounts.example.org".to_owned()
    } else {
        state.issuer().to_owned()
    };
    let audience = if fault == Some(Fault::OtherAudience) {
        json!([state.client_id, "another-client.apps.googleusercontent.com"])
    } else {
        json!(state.client_id)
    };
    let (iat, exp) = if fault == Some(Fault::Expired) {
        (now - 7200, now - 3600)
    } else {
        (now, now + 3600)
    };
    let nonce = if fault == Some(Fault::WrongNonce) {
        "a-nonce-this-client-never-sent".to_owned()
    } else {
        code.nonce.clone()
    };
    let mut claims = json!({
        "iss": issuer,
        "azp": state.client_id,
        "aud": audience,
        "sub": code.human.sub,
        "email": code.human.email,
        "email_verified": code.human.email_verified && fault != Some(Fault::UnverifiedEmail),
        "nonce": nonce,
        "iat": iat,
        "exp": exp,
    });
    if let Some(name) = &code.human.name {
        claims["name"] = json!(name);
    }
    match fault {
        Some(Fault::Hs256) => sign_hs256(&claims, &state.client_secret, state.signing.kid),
        Some(Fault::AlgNone) => unsigned(&claims, state.signing.kid),
        Some(Fault::UnknownKid) => ATTACKER.sign(&claims, None),
        Some(Fault::Jku) => {
            ATTACKER.sign(&claims, Some(format!("{}/attacker/certs", state.origin)))
        }
        _ => state.signing.sign(&claims, None),
    }
}
