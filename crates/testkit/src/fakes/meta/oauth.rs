//! Facebook Login, manually built flow, and the token checks every Graph call goes through.
//!
//! As Meta documents it ("Manually Build a Login Flow", "Long-Lived Access Tokens", "Debug
//! Tokens", "Permissions: request and revoke"):
//! - the Login dialog (`GET /dialog/oauth?client_id&redirect_uri&state&scope|config_id`)
//!   redirects to `redirect_uri?code=..&state=..`, or, when the human cancels, to
//!   `redirect_uri?error_reason=user_denied&error=access_denied&error_description=..&state=..`;
//!   an unknown app or a redirect URI that is not a Valid OAuth Redirect URI shows an error page,
//! - the dialog takes a PKCE challenge ("OIDC Code Flow with PKCE for Manually Built Facebook
//!   Login Flows": `code_challenge`, `code_challenge_method` `S256` = BASE64URL(SHA256(verifier))
//!   without padding, or `plain`); a code issued with one is exchanged only with the matching
//!   `code_verifier` (a missing or wrong one answers an `OAuthException`, code 100),
//! - `GET /oauth/access_token?client_id&redirect_uri&client_secret&code` answers
//!   `{access_token, token_type: "bearer", expires_in}` (short-lived); codes are single use and
//!   short-lived, and `redirect_uri` must be the dialog's (error subcodes 36007, 36008, 36009),
//! - `grant_type=fb_exchange_token&client_id&client_secret&fb_exchange_token` trades a valid
//!   user token for a long-lived one (about 60 days, `expires_in: 5183944`),
//! - `DELETE /me/permissions` removes the app (`{"success": true}`): every token of the human
//!   then fails with 190, subcode 458; `DELETE /me/permissions/{permission}` drops one,
//! - `appsecret_proof` is `hex(HMAC-SHA256(key: app secret, message: access token))`.

use axum::http::StatusCode;
use axum::http::header::{CONTENT_TYPE, LOCATION};
use axum::response::{IntoResponse, Response};
use base64::Engine as _;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use super::context::{Caller, Ctx};
use super::errors::{
    GraphError, Reply, app_removed, bad_proof, expired_token, invalid_param, invalid_token,
    missing_token, proof_required, session_invalidated, unsupported,
};
use super::params::Params;
use super::state::{
    CODE_SECONDS, Code, LONG_LIVED_SECONDS, SHORT_LIVED_SECONDS, State as FakeState, TokenKind,
    unix_now,
};

/// The dialog's error page (Meta shows one instead of redirecting to an unverified URI).
fn error_page(title: &str, detail: &str) -> Response {
    let body = format!("<!DOCTYPE html><title>{title}</title><h1>{title}</h1><p>{detail}</p>");
    (
        StatusCode::BAD_REQUEST,
        [(CONTENT_TYPE, "text/html; charset=utf-8")],
        body,
    )
        .into_response()
}

/// Permissions as the dialog takes them: comma- (or space-) separated.
fn permission_list(text: &str) -> Vec<String> {
    let mut list: Vec<String> = Vec::new();
    for permission in text
        .split([',', ' '])
        .map(str::trim)
        .filter(|p| !p.is_empty())
    {
        if !list.iter().any(|p| p == permission) {
            list.push(permission.to_owned());
        }
    }
    list
}

/// `GET /dialog/oauth`: the Login dialog, played by the fake's human.
pub(crate) fn dialog(state: &mut FakeState, params: &Params) -> Response {
    let get = |name: &str| params.get(name).filter(|v| !v.is_empty());
    match get("client_id") {
        Some(id) if id == state.app_id => {}
        _ => {
            return error_page(
                "Invalid App ID",
                "The provided app ID does not look like a valid app ID.",
            );
        }
    }
    let blocked = || {
        error_page(
            "URL Blocked",
            "This redirect failed because the redirect URI is not whitelisted in the app's Client OAuth Settings. Make sure Client and Web OAuth Login are on and add all your app domains as Valid OAuth Redirect URIs.",
        )
    };
    let Some(redirect_uri) = get("redirect_uri") else {
        return blocked();
    };
    let Ok(mut target) = reqwest::Url::parse(redirect_uri) else {
        return blocked();
    };
    let registered = &state.oauth.redirect_uris;
    if !matches!(target.scheme(), "http" | "https")
        || (!registered.is_empty() && !registered.iter().any(|uri| uri == redirect_uri))
    {
        return blocked();
    }
    let response_types: Vec<&str> = get("response_type")
        .unwrap_or("code")
        .split([' ', ','])
        .filter(|t| !t.is_empty())
        .collect();
    if !response_types.contains(&"code")
        || response_types
            .iter()
            .any(|t| !matches!(*t, "code" | "granted_scopes"))
    {
        return error_page(
            "Unsupported response_type",
            "The fake Meta's Login dialog answers response_type=code (optionally with granted_scopes).",
        );
    }
    let requested = match get("config_id") {
        Some(config) => match state.oauth.login_configs.get(config) {
            Some(permissions) => permissions.clone(),
            None => {
                return error_page(
                    "Invalid Configuration",
                    "The config_id is not a Facebook Login for Business configuration of this app.",
                );
            }
        },
        None => permission_list(get("scope").unwrap_or("")),
    };
    let state_param = params.get("state").map(str::to_owned);
    let challenge = match (get("code_challenge"), get("code_challenge_method")) {
        (None, None) => None,
        (Some(challenge), method) => {
            let method = method.unwrap_or("plain");
            if !matches!(method, "S256" | "plain") {
                return error_page(
                    "Invalid code_challenge_method",
                    "code_challenge_method must be S256 or plain.",
                );
            }
            Some((challenge.to_owned(), method.to_owned()))
        }
        (None, Some(_)) => {
            return error_page(
                "Missing code_challenge",
                "code_challenge_method was given without a code_challenge.",
            );
        }
    };

    if state.oauth.human_refuses {
        {
            let mut query = target.query_pairs_mut();
            query
                .append_pair("error_reason", "user_denied")
                .append_pair("error", "access_denied")
                .append_pair("error_description", "Permissions error.");
            if let Some(value) = &state_param {
                query.append_pair("state", value);
            }
        }
        return (StatusCode::FOUND, [(LOCATION, target.to_string())]).into_response();
    }
    let mut granted = vec!["public_profile".to_owned()];
    for permission in &requested {
        if state.oauth.human_declines.contains(permission) {
            state.oauth.declined.insert(permission.clone());
        } else if !granted.contains(permission) {
            granted.push(permission.clone());
            state.oauth.declined.remove(permission);
        }
    }
    let code = state.mint("AQfakeCode");
    state.oauth.codes.insert(
        code.clone(),
        Code {
            redirect_uri: redirect_uri.to_owned(),
            scopes: granted.clone(),
            issued: std::time::Instant::now(),
            used: false,
            challenge,
        },
    );
    {
        let mut query = target.query_pairs_mut();
        query.append_pair("code", &code);
        if response_types.contains(&"granted_scopes") {
            query.append_pair("granted_scopes", &granted.join(","));
        }
        if let Some(value) = &state_param {
            query.append_pair("state", value);
        }
    }
    (StatusCode::FOUND, [(LOCATION, target.to_string())]).into_response()
}

fn token_answer(access_token: &str, expires_in: u64) -> Value {
    json!({
        "access_token": access_token,
        "token_type": "bearer",
        "expires_in": expires_in,
    })
}

/// `GET|POST /oauth/access_token`.
pub(crate) fn access_token(state: &mut FakeState, params: &Params) -> Reply {
    let get = |name: &str| params.get(name).filter(|v| !v.is_empty());
    match get("client_id") {
        None => return Err(GraphError::new(101, "Missing client_id parameter.")),
        Some(id) if id != state.app_id => {
            return Err(GraphError::new(
                101,
                "Error validating application. Invalid application ID.",
            ));
        }
        Some(_) => {}
    }
    if get("client_secret") != Some(state.app_secret.as_str()) {
        return Err(GraphError::new(1, "Error validating client secret."));
    }
    match get("grant_type") {
        Some("fb_exchange_token") => {
            let Some(short) = get("fb_exchange_token") else {
                return Err(invalid_param("Missing fb_exchange_token parameter"));
            };
            let caller = authenticate(state, short)?;
            if caller.kind != TokenKind::User {
                return Err(invalid_param(
                    "The fake Meta exchanges user access tokens only",
                ));
            }
            let long = state.issue_token(TokenKind::User, caller.scopes, Some(LONG_LIVED_SECONDS));
            Ok(token_answer(&long, LONG_LIVED_SECONDS))
        }
        Some("client_credentials") => Ok(json!({
            "access_token": format!("{}|{}", state.app_id, state.app_secret),
            "token_type": "bearer",
        })),
        Some(other) => Err(invalid_param(format!("Unsupported grant_type: {other}"))),
        None => exchange_code(state, params),
    }
}

fn exchange_code(state: &mut FakeState, params: &Params) -> Reply {
    let get = |name: &str| params.get(name).filter(|v| !v.is_empty());
    let Some(code) = get("code") else {
        return Err(GraphError::new(100, "Missing authorization code"));
    };
    let Some(redirect_uri) = get("redirect_uri") else {
        return Err(GraphError::new(100, "Missing redirect_uri parameter."));
    };
    let Some(issued) = state.oauth.codes.get(code).cloned() else {
        return Err(GraphError::new(100, "Invalid verification code format.").subcode(36007));
    };
    if issued.used {
        return Err(GraphError::new(100, "This authorization code has been used.").subcode(36009));
    }
    if issued.issued.elapsed().as_secs() > CODE_SECONDS {
        return Err(GraphError::new(100, "This authorization code has expired.").subcode(36007));
    }
    if issued.redirect_uri != redirect_uri {
        return Err(GraphError::new(
            100,
            "Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request",
        )
        .subcode(36008));
    }
    if let Some((challenge, method)) = &issued.challenge {
        let Some(verifier) = get("code_verifier") else {
            return Err(GraphError::new(
                100,
                "Missing code_verifier parameter: this code was issued with a code_challenge.",
            ));
        };
        let derived = if method == "S256" {
            base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(Sha256::digest(verifier))
        } else {
            verifier.to_owned()
        };
        if &derived != challenge {
            return Err(GraphError::new(
                100,
                "Invalid code_verifier: it does not match the code_challenge of the Login dialog.",
            ));
        }
    }
    if let Some(code) = state.oauth.codes.get_mut(code) {
        code.used = true;
    }
    let token = state.issue_token(TokenKind::User, issued.scopes, Some(SHORT_LIVED_SECONDS));
    Ok(token_answer(&token, SHORT_LIVED_SECONDS))
}

/// The caller behind `token`, or the documented 190 error.
pub(crate) fn authenticate(state: &FakeState, token: &str) -> Result<Caller, GraphError> {
    let Some(found) = state.tokens.get(token) else {
        return Err(invalid_token());
    };
    if found.revoked {
        return Err(app_removed(&state.app_id));
    }
    if found.invalidated {
        return Err(session_invalidated());
    }
    if found.expired || found.expires_at.is_some_and(|at| unix_now() >= at) {
        return Err(expired_token());
    }
    Ok(Caller {
        token: token.to_owned(),
        kind: found.kind,
        scopes: found.scopes.clone(),
    })
}

/// HMAC-SHA256 (RFC 2104), for `appsecret_proof`.
pub(crate) fn hmac_sha256(key: &[u8], message: &[u8]) -> [u8; 32] {
    let mut block = [0u8; 64];
    if key.len() > block.len() {
        block[..32].copy_from_slice(&Sha256::digest(key));
    } else {
        block[..key.len()].copy_from_slice(key);
    }
    let mut inner = Sha256::new();
    inner.update(block.map(|b| b ^ 0x36));
    inner.update(message);
    let inner = inner.finalize();
    let mut outer = Sha256::new();
    outer.update(block.map(|b| b ^ 0x5c));
    outer.update(inner);
    outer.finalize().into()
}

pub(crate) fn appsecret_proof(app_secret: &str, token: &str) -> String {
    hmac_sha256(app_secret.as_bytes(), token.as_bytes())
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

/// A wrong `appsecret_proof` is refused; a missing one only when the app requires it.
pub(crate) fn check_proof(
    state: &FakeState,
    token: &str,
    params: &Params,
) -> Result<(), GraphError> {
    match params.get("appsecret_proof") {
        Some(proof) if proof.eq_ignore_ascii_case(&appsecret_proof(&state.app_secret, token)) => {
            Ok(())
        }
        Some(_) => Err(bad_proof()),
        None if state.oauth.require_proof => Err(proof_required()),
        None => Ok(()),
    }
}

/// `GET /debug_token?input_token=..` with an app token (`{app-id}|{app-secret}`) or a valid
/// user token.
pub(crate) fn debug_token(state: &FakeState, params: &Params, token: Option<&str>) -> Reply {
    let Some(token) = token else {
        return Err(missing_token(false));
    };
    let app_token = format!("{}|{}", state.app_id, state.app_secret);
    if token != app_token {
        authenticate(state, token)?;
    }
    let Some(input) = params.get("input_token").filter(|t| !t.is_empty()) else {
        return Err(invalid_param("The parameter input_token is required"));
    };
    let Some(found) = state.tokens.get(input) else {
        return Ok(json!({"data": {
            "error": {"code": 190, "message": "Invalid OAuth access token - Cannot parse access token"},
            "is_valid": false,
            "scopes": [],
        }}));
    };
    let mut data = json!({
        "app_id": state.app_id,
        "type": match found.kind { TokenKind::User => "USER", TokenKind::Page(_) => "PAGE" },
        "application": "Payback (fake Meta app)",
        "data_access_expires_at": unix_now() + 90 * 86_400,
        "expires_at": found.expires_at.unwrap_or(0),
        "is_valid": authenticate(state, input).is_ok(),
        "scopes": found.scopes,
        "user_id": state.user_id.to_string(),
    });
    if let TokenKind::Page(page) = found.kind {
        data["profile_id"] = json!(page.to_string());
    }
    Ok(json!({ "data": data }))
}

/// `GET /me/permissions`.
pub(crate) fn permissions(state: &FakeState, ctx: &Ctx<'_>) -> Reply {
    let mut data: Vec<Value> = ctx
        .caller
        .scopes
        .iter()
        .map(|p| json!({"permission": p, "status": "granted"}))
        .collect();
    data.extend(
        state
            .oauth
            .declined
            .iter()
            .filter(|p| !ctx.caller.has(p))
            .map(|p| json!({"permission": p, "status": "declined"})),
    );
    Ok(json!({ "data": data }))
}

/// `DELETE /me/permissions` (the human removes the app: every token stops working) or
/// `DELETE /me/permissions/{permission}` (one permission goes from every token).
pub(crate) fn revoke(state: &mut FakeState, ctx: &Ctx<'_>, permission: Option<&str>) -> Reply {
    if !ctx.caller.is_user() {
        return Err(unsupported("delete", "permissions"));
    }
    match permission {
        None => {
            for token in state.tokens.values_mut() {
                token.revoked = true;
            }
        }
        Some(permission) => {
            for token in state.tokens.values_mut() {
                token.scopes.retain(|s| s != permission);
            }
            state.oauth.declined.insert(permission.to_owned());
        }
    }
    Ok(json!({ "success": true }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hmac_matches_rfc_4231_case_2() {
        let mac = hmac_sha256(b"Jefe", b"what do ya want for nothing?");
        let hex: String = mac.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(
            hex,
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }

    #[test]
    fn permission_lists_take_commas_or_spaces_once() {
        assert_eq!(
            permission_list("ads_read,ads_management ads_read, pages_show_list"),
            ["ads_read", "ads_management", "pages_show_list"]
        );
    }
}
