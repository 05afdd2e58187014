//! Sign in with SSO: an OpenID Connect relying party (the authorization code flow with PKCE),
//! Google by default. The `openidconnect` crate reads the provider's discovery document, builds
//! the authorization URL, speaks the token endpoint and checks the ID token; it talks HTTP over
//! our `reqwest::Client` through `oauth_http::Adapter`.
//!
//! `discovery` keeps what the provider published (per app state); `id_token` says which checks
//! the crate makes and adds the few it leaves to the client. Nothing here logs or formats the
//! client secret, a code, a verifier or a token: errors carry the provider's `error` code, the
//! HTTP status, or which check failed.

mod discovery;
mod id_token;

use std::fmt;

use openidconnect::core::{
    CoreAuthenticationFlow, CoreClient, CoreClientAuthMethod, CoreErrorResponseType,
    CoreTokenResponse,
};
use openidconnect::{
    AuthType, AuthorizationCode, ClientId, ClientSecret, CsrfToken, Nonce, PkceCodeChallenge,
    PkceCodeVerifier, RedirectUrl, RequestTokenError, Scope, StandardErrorResponse,
};
use payback_domain::Timestamp;

pub use discovery::{DiscoveryCache, Provider};

use crate::ConnectorError;
use crate::oauth_http::{Adapter, EndpointFailure};

/// The scopes asked for, besides `openid` (which the crate puts first): who the person is and
/// their email, nothing more (no offline access, no refresh token).
const SCOPES: [&str; 2] = ["email", "profile"];

/// Payback's client at the provider. `Debug` never prints the secret.
#[derive(Clone)]
pub struct OidcClient {
    client_id: String,
    client_secret: String,
}

impl fmt::Debug for OidcClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OidcClient")
            .field("client_id", &self.client_id)
            .field("client_secret", &"[redacted]")
            .finish()
    }
}

/// Where to send the person, and what to keep with the state until the callback.
#[derive(Clone)]
pub struct SignInRequest {
    pub url: String,
    pub state: String,
    pub nonce: String,
    pub pkce_verifier: String,
}

impl fmt::Debug for SignInRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SignInRequest")
            .field("url", &self.url)
            .field("pkce_verifier", &"[redacted]")
            .finish_non_exhaustive()
    }
}

/// Who the provider says signed in, once the ID token passed every check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignedIn {
    /// The provider's `sub`: the person's stable id at this issuer.
    pub subject: String,
    /// A verified email.
    pub email: String,
    /// The `name` claim, when given.
    pub name: Option<String>,
}

/// What the callback brings and what its state kept: the code to exchange, the redirect URI
/// it was issued for, and the state's PKCE verifier and nonce.
pub struct Callback<'a> {
    pub redirect_url: &'a str,
    pub code: &'a str,
    pub pkce_verifier: &'a str,
    pub nonce: &'a str,
}

impl fmt::Debug for Callback<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Callback")
            .field("redirect_url", &self.redirect_url)
            .finish_non_exhaustive()
    }
}

impl OidcClient {
    pub fn new(client_id: String, client_secret: String) -> Self {
        Self {
            client_id,
            client_secret,
        }
    }

    /// The authorization URL: `response_type=code`, the client id, `redirect_uri`,
    /// `scope=openid email profile`, a fresh random `state` and `nonce` (22 characters each)
    /// and a PKCE S256 challenge; the state, nonce and verifier come back to be stored.
    pub fn sign_in_request(
        &self,
        provider: &Provider,
        redirect_url: &str,
    ) -> Result<SignInRequest, ConnectorError> {
        let client = self.client(provider, redirect_url)?;
        let (challenge, verifier) = PkceCodeChallenge::new_random_sha256();
        let (url, state, nonce) = client
            .authorize_url(
                CoreAuthenticationFlow::AuthorizationCode,
                CsrfToken::new_random,
                Nonce::new_random,
            )
            .add_scopes(SCOPES.iter().map(|scope| Scope::new((*scope).to_owned())))
            .set_pkce_challenge(challenge)
            .url();
        Ok(SignInRequest {
            url: url.to_string(),
            state: state.secret().clone(),
            nonce: nonce.secret().clone(),
            pkce_verifier: verifier.secret().clone(),
        })
    }

    /// Exchanges the callback's `code` once (same `redirect_uri`, the verifier of its state)
    /// and checks the ID token it brings against the state's `nonce`, by the app's clock.
    pub async fn sign_in(
        &self,
        http: &reqwest::Client,
        provider: &Provider,
        callback: Callback<'_>,
        now: Timestamp,
    ) -> Result<SignedIn, ConnectorError> {
        let client = self.client(provider, callback.redirect_url)?;
        let request = client
            .exchange_code(AuthorizationCode::new(callback.code.to_owned()))
            .map_err(|_| {
                ConnectorError::Vendor("the provider's discovery names no token endpoint".into())
            })?;
        let response: CoreTokenResponse = request
            .set_pkce_verifier(PkceCodeVerifier::new(callback.pkce_verifier.to_owned()))
            .request_async(&Adapter(http.clone()))
            .await
            .map_err(token_error)?;
        let token = response.extra_fields().id_token().ok_or_else(|| {
            ConnectorError::Vendor("the provider's token response has no id_token".into())
        })?;
        id_token::verify(http, provider, &self.client_id, token, callback.nonce, now).await
    }

    /// The crate's client over the discovered endpoints. The secret goes in HTTP Basic
    /// (`client_secret_basic`, the default when the provider lists no method) unless the
    /// provider lists only `client_secret_post`.
    fn client(
        &self,
        provider: &Provider,
        redirect_url: &str,
    ) -> Result<
        CoreClient<
            openidconnect::EndpointSet,
            openidconnect::EndpointNotSet,
            openidconnect::EndpointNotSet,
            openidconnect::EndpointNotSet,
            openidconnect::EndpointMaybeSet,
            openidconnect::EndpointMaybeSet,
        >,
        ConnectorError,
    > {
        let redirect = RedirectUrl::new(redirect_url.to_owned()).map_err(|_| {
            ConnectorError::Config(format!("the redirect URL {redirect_url:?} is not a URL"))
        })?;
        let methods = provider.metadata.token_endpoint_auth_methods_supported();
        let basic = methods.is_none_or(|methods| {
            methods.contains(&CoreClientAuthMethod::ClientSecretBasic)
                || !methods.contains(&CoreClientAuthMethod::ClientSecretPost)
        });
        let client = CoreClient::from_provider_metadata(
            provider.metadata.clone(),
            ClientId::new(self.client_id.clone()),
            Some(ClientSecret::new(self.client_secret.clone())),
        )
        .set_redirect_uri(redirect)
        .set_auth_type(if basic {
            AuthType::BasicAuth
        } else {
            AuthType::RequestBody
        });
        Ok(client)
    }
}

/// The token endpoint's refusal as ours. A body that does not parse is never quoted: on a 200
/// it holds tokens.
fn token_error(
    err: RequestTokenError<EndpointFailure, StandardErrorResponse<CoreErrorResponseType>>,
) -> ConnectorError {
    match err {
        RequestTokenError::ServerResponse(response) => {
            let mut line = format!("the provider refused the code: {}", response.error());
            if let Some(text) = response.error_description() {
                line.push_str(&format!(" ({text})"));
            }
            ConnectorError::Unauthorized(line)
        }
        RequestTokenError::Request(EndpointFailure::Status(429)) => {
            ConnectorError::RateLimited("the provider's token endpoint answered 429".into())
        }
        RequestTokenError::Request(failure) => {
            ConnectorError::Unreachable(format!("the provider's token endpoint: {failure}"))
        }
        RequestTokenError::Parse(err, _body) => ConnectorError::Vendor(format!(
            "the provider's token endpoint answered a shape Payback does not read (at {})",
            err.path()
        )),
        RequestTokenError::Other(text) => {
            ConnectorError::Vendor(format!("the provider's token endpoint: {text}"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_never_shows_the_secret_or_the_verifier() {
        let client = OidcClient::new("client-1".into(), "very-secret".into());
        assert!(!format!("{client:?}").contains("very-secret"));
        let request = SignInRequest {
            url: "https://accounts.example/auth?state=s".into(),
            state: "state-value".into(),
            nonce: "nonce-value".into(),
            pkce_verifier: "verifier-value".into(),
        };
        let shown = format!("{request:?}");
        assert!(!shown.contains("verifier-value"), "{shown}");
    }

    #[test]
    fn the_token_endpoints_refusal_keeps_its_code_and_kind() {
        let refused: StandardErrorResponse<CoreErrorResponseType> =
            serde_json::from_str(r#"{"error":"invalid_grant","error_description":"Bad Request"}"#)
                .unwrap();
        let err = token_error(RequestTokenError::ServerResponse(refused));
        assert!(
            matches!(&err, ConnectorError::Unauthorized(line) if line.contains("invalid_grant"))
        );
        let down = token_error(RequestTokenError::Request(EndpointFailure::Status(503)));
        assert!(matches!(down, ConnectorError::Unreachable(_)));
    }
}
