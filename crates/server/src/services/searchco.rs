//! The search-engine grant (`searchco`, Google OAuth) as a [`GrantProvider`]: one consent
//! serves every kind chosen in it. What is Google's own: the consent URL (offline access,
//! PKCE), the code exchanged for a refresh token (what is sealed) and its revocation. Each kind
//! it serves registers its scopes, discovery and choice (`crate::kinds`); the flow itself is
//! `services::grants`.

use payback_connectors::oauth::{GrantTokens, OAuthClient, OAuthEndpoints};
use payback_domain::source_kind::Family;
use serde_json::{Value, json};

use crate::error::{ApiError, ApiResult};
use crate::services::grants::{self, Authorization, Code, Consent, GrantProvider, Provider};
use crate::state::AppState;

/// The provider word in paths and in `grant_states`, Google's name and the grant's kinds.
pub const GOOGLE: Provider = Provider {
    word: "searchco",
    vendor: "Google",
    token_prefix: "sc_",
    name: "search-engine grant",
    family: Family::SearchGrant,
    no_kinds: "kinds: choose at least one kind",
};

/// The search-engine grant.
#[derive(Debug, Clone, Copy)]
pub struct Searchco;

/// The OAuth client from the configuration; 503 until the operator set it up.
pub fn oauth_client(state: &AppState) -> ApiResult<OAuthClient> {
    let config = &state.config;
    let endpoints = OAuthEndpoints {
        auth_url: config.searchco_auth_url.clone(),
        token_url: config.searchco_token_url.clone(),
        revoke_url: config.searchco_revoke_url.clone(),
    };
    let (id, secret) = grants::client_credentials(
        GOOGLE,
        config.searchco_client_id.as_deref(),
        config.searchco_client_secret.as_ref(),
    )?;
    Ok(OAuthClient::new(id, secret, endpoints))
}

impl GrantProvider for Searchco {
    const PROVIDER: Provider = GOOGLE;
    type Client = OAuthClient;
    /// The refresh token.
    type Tokens = String;

    fn client(state: &AppState) -> ApiResult<OAuthClient> {
        oauth_client(state)
    }

    fn authorization(client: &OAuthClient, consent: Consent<'_>) -> ApiResult<Authorization> {
        let request = client
            .authorization_url(consent.redirect, consent.scopes, consent.state)
            .map_err(|err| {
                ApiError::internal(format!("the consent URL could not be built: {err}"))
            })?;
        Ok(Authorization {
            url: request.url,
            pkce_verifier: request.pkce_verifier,
        })
    }

    async fn exchange(oauth: &OAuthClient, code: Code<'_>) -> Result<String, String> {
        match oauth
            .exchange_code(code.http, code.redirect, code.code, code.pkce_verifier)
            .await
        {
            Ok(GrantTokens {
                refresh_token: Some(refresh_token),
                ..
            }) => Ok(refresh_token),
            Ok(_) => Err("Google gave no refresh token; remove Payback's access in your Google account's security settings, then connect again".to_owned()),
            Err(err) => Err(format!("the token exchange with Google failed: {err}")),
        }
    }

    fn secret(refresh_token: &String) -> Value {
        json!({ "refresh_token": refresh_token })
    }

    /// The refresh token revoked at Google.
    async fn revoke(state: &AppState, secret: &Value) -> ApiResult<bool> {
        let Some(token) = secret["refresh_token"].as_str() else {
            return Ok(false);
        };
        oauth_client(state)?
            .revoke(&state.http, token)
            .await
            .map_err(|err| ApiError::BadGateway(format!("revoking at Google failed: {err}")))?;
        Ok(true)
    }
}
