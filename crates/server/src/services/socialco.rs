//! The social-network grant (`socialco`, Facebook Login) as a [`GrantProvider`]: one consent
//! serves each kind chosen in it (the ad account, the page). What is Meta's own: the Login
//! dialog with its PKCE S256 challenge, the code exchanged for a short-lived user token and
//! that for a long-lived one (Meta gives no refresh token; the long-lived token is what is
//! sealed), and its revocation. Each kind it serves registers its scopes, discovery, choice
//! and policy checks (`crate::kinds`); the flow is the shared one of `services::grants`.

use payback_connectors::graph::{self, GraphApp};
use payback_domain::source_kind::Family;
use serde_json::{Value, json};

use crate::error::{ApiError, ApiResult};
use crate::services::grants::{self, Authorization, Code, Consent, GrantProvider, Provider};
use crate::state::AppState;

/// The provider word in paths and in `grant_states`, Meta's name and the grant's kinds.
pub const META: Provider = Provider {
    word: "socialco",
    vendor: "Meta",
    token_prefix: "so_",
    name: "social-network grant",
    family: Family::SocialGrant,
    no_kinds: "kinds: choose at least one kind, or leave kinds out for both",
};

/// The social-network grant.
#[derive(Debug, Clone, Copy)]
pub struct Socialco;

/// A long-lived user token and when it expires.
#[derive(Debug)]
pub struct UserToken {
    pub access_token: String,
    pub expires_at: Option<String>,
}

impl GrantProvider for Socialco {
    type Client = GraphApp;
    type Tokens = UserToken;
    const PROVIDER: Provider = META;

    fn client(state: &AppState) -> ApiResult<GraphApp> {
        app(state)
    }

    fn authorization(app: &GraphApp, consent: Consent<'_>) -> ApiResult<Authorization> {
        let dialog = app.dialog_url(consent.redirect, consent.state, consent.scopes);
        Ok(Authorization {
            url: dialog.url,
            pkce_verifier: dialog.pkce_verifier,
        })
    }

    /// The code for a long-lived user token.
    async fn exchange(app: &GraphApp, code: Code<'_>) -> Result<UserToken, String> {
        let token = app
            .exchange_code(code.http, code.redirect, code.code, code.pkce_verifier)
            .await
            .map_err(|err| format!("the token exchange with Meta failed: {err}"))?;
        let expires_at = token.expires_in_secs.map(|secs| {
            code.now
                .plus_millis(secs.saturating_mul(1_000))
                .to_rfc3339()
        });
        Ok(UserToken {
            access_token: token.access_token,
            expires_at,
        })
    }

    fn secret(token: &UserToken) -> Value {
        json!({ "access_token": token.access_token, "expires_at": token.expires_at })
    }

    /// The user token's permissions deleted at Meta.
    async fn revoke(state: &AppState, secret: &Value) -> ApiResult<bool> {
        let Some(token) = secret["access_token"].as_str() else {
            return Ok(false);
        };
        graph::revoke(&state.http, &graph_origin(state), token)
            .await
            .map_err(|err| ApiError::BadGateway(format!("revoking at Meta failed: {err}")))?;
        Ok(true)
    }
}

/// Where the Graph API answers for the grant itself: the first of its kinds' configured
/// origins (`PAYBACK_<KIND>_API_URL`), else Meta's.
fn graph_origin(state: &AppState) -> String {
    META.kinds()
        .find_map(|kind| state.config.api_url(kind))
        .unwrap_or(graph::DEFAULT_GRAPH_BASE_URL)
        .to_owned()
}

/// Payback's app at Meta from the configuration; 503 until the operator set it up.
pub fn app(state: &AppState) -> ApiResult<GraphApp> {
    let config = &state.config;
    let (id, secret) = grants::client_credentials(
        META,
        config.socialco_client_id.as_deref(),
        config.socialco_client_secret.as_ref(),
    )?;
    let mut app = GraphApp::new(id, secret);
    if let Some(url) = &config.socialco_auth_url {
        url.clone_into(&mut app.dialog_url);
    }
    if let Some(url) = &config.socialco_token_url {
        url.clone_into(&mut app.token_url);
    }
    Ok(app)
}
