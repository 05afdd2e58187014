//! The authorization endpoint, `GET /o/oauth2/v2/auth`: the consent screen, played by the fake's
//! human, redirecting back with a code (or `error=access_denied`), or an error page when it
//! cannot redirect.

use axum::extract::State;
use axum::http::header::LOCATION;
use axum::http::{StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use sha2::{Digest, Sha256};

use super::errors::consent_screen_error;
use super::param;
use super::state::Code;
use crate::fakes::form::form_pairs;
use crate::fakes::google::{Shared, lock};

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
pub(super) fn is_pkce_text(text: &str) -> bool {
    (43..=128).contains(&text.len())
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~'))
}

/// `BASE64URL(SHA256(verifier))` without padding.
pub(crate) fn s256(verifier: &str) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()))
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
