//! Google's OAuth 2.0 for web server applications: the URL a person opens to grant Payback
//! access, the code exchange at the callback, access tokens from the stored refresh token, and
//! revocation when the grant's last connection goes.
//!
//! The `oauth2` crate builds the authorization URL (PKCE S256) and speaks the token endpoint; its
//! own reqwest glue targets another reqwest than ours, so `oauth_http::Adapter` implements the
//! crate's `AsyncHttpClient` over our `reqwest::Client`. Revocation is one form POST done directly: the crate
//! refuses a revocation URL that is not `https`, and tests point every endpoint at a loopback fake.
//!
//! Client credentials travel in the POST body (`client_id`, `client_secret`), as Google's guide
//! shows. Nothing here logs or formats a secret, a code, a verifier or a token: error messages
//! carry Google's `error` code and description, the HTTP status, or the transport's failure.

use std::fmt;
use std::time::Duration;

use oauth2::basic::{BasicClient, BasicErrorResponseType};
use oauth2::{
    AuthType, AuthorizationCode, ClientId, ClientSecret, CsrfToken, PkceCodeChallenge,
    PkceCodeVerifier, RedirectUrl, RefreshToken, RequestTokenError, Scope, TokenResponse, TokenUrl,
};
use serde::Deserialize;

use crate::ConnectorError;
use crate::oauth_http::{Adapter, EndpointFailure};

/// Google's authorization endpoint, where the person consents.
pub const GOOGLE_AUTH_URL: &str = "https://accounts.google.com/o/oauth2/v2/auth";
/// Google's token endpoint: code exchange and refresh.
pub const GOOGLE_TOKEN_URL: &str = "https://oauth2.googleapis.com/token";
/// Google's revocation endpoint.
pub const GOOGLE_REVOKE_URL: &str = "https://oauth2.googleapis.com/revoke";
/// The Google Ads API scope (read and manage campaigns).
pub const SEARCH_ADS_SCOPE: &str = "https://www.googleapis.com/auth/adwords";

/// A hung token endpoint must not hold a sync job's lease (or a person's callback) forever.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(60);

/// What a person reads when the refresh token no longer works.
pub const GRANT_REVOKED: &str = "the Google grant was revoked or has expired; reconnect";

/// Where Google's OAuth endpoints are; [`OAuthEndpoints::google`] in production, a loopback fake
/// in tests.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OAuthEndpoints {
    pub auth_url: String,
    pub token_url: String,
    pub revoke_url: String,
}

impl OAuthEndpoints {
    /// Google's own endpoints.
    pub fn google() -> Self {
        Self {
            auth_url: GOOGLE_AUTH_URL.to_owned(),
            token_url: GOOGLE_TOKEN_URL.to_owned(),
            revoke_url: GOOGLE_REVOKE_URL.to_owned(),
        }
    }
}

impl Default for OAuthEndpoints {
    fn default() -> Self {
        Self::google()
    }
}

/// Payback's OAuth client at Google. `Debug` never prints the secret.
#[derive(Clone)]
pub struct OAuthClient {
    client_id: String,
    client_secret: String,
    endpoints: OAuthEndpoints,
}

impl fmt::Debug for OAuthClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OAuthClient")
            .field("client_id", &self.client_id)
            .field("client_secret", &"[redacted]")
            .field("endpoints", &self.endpoints)
            .finish()
    }
}

/// The URL a person opens, and the PKCE verifier to keep with the state until the callback.
#[derive(Clone)]
pub struct AuthorizationRequest {
    pub url: String,
    pub pkce_verifier: String,
}

impl fmt::Debug for AuthorizationRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AuthorizationRequest")
            .field("url", &self.url)
            .field("pkce_verifier", &"[redacted]")
            .finish()
    }
}

/// What the code exchange gave. `refresh_token` is `None` when Google did not issue one (the
/// person had granted before and consent was not prompted). `Debug` never prints a token.
#[derive(Clone, PartialEq, Eq)]
pub struct GrantTokens {
    pub access_token: String,
    pub refresh_token: Option<String>,
    pub expires_in_seconds: Option<u64>,
    /// The scopes the person granted (they may uncheck some on the consent screen).
    pub scopes: Vec<String>,
}

impl fmt::Debug for GrantTokens {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GrantTokens")
            .field("access_token", &"[redacted]")
            .field(
                "refresh_token",
                &self.refresh_token.as_ref().map(|_| "[redacted]"),
            )
            .field("expires_in_seconds", &self.expires_in_seconds)
            .field("scopes", &self.scopes)
            .finish()
    }
}

impl OAuthClient {
    pub fn new(client_id: String, client_secret: String, endpoints: OAuthEndpoints) -> Self {
        Self {
            client_id,
            client_secret,
            endpoints,
        }
    }

    pub fn endpoints(&self) -> &OAuthEndpoints {
        &self.endpoints
    }

    /// The consent URL: `response_type=code`, the scopes, `state`, `redirect_uri`,
    /// `access_type=offline` (a refresh token), `prompt=consent` (a refresh token even when the
    /// person granted before), `include_granted_scopes=true`, and a PKCE S256 challenge whose
    /// verifier comes back to be stored with the state.
    pub fn authorization_url(
        &self,
        redirect_url: &str,
        scopes: &[&str],
        state: &str,
    ) -> Result<AuthorizationRequest, ConnectorError> {
        let auth_url = oauth2::AuthUrl::new(self.endpoints.auth_url.clone()).map_err(|_| {
            ConnectorError::Config("the Google authorization URL is not a URL".into())
        })?;
        let client = self
            .base()
            .set_auth_uri(auth_url)
            .set_redirect_uri(redirect(redirect_url)?);
        let (challenge, verifier) = PkceCodeChallenge::new_random_sha256();
        let (url, _state) = client
            .authorize_url(|| CsrfToken::new(state.to_owned()))
            .add_scopes(scopes.iter().map(|scope| Scope::new((*scope).to_owned())))
            .add_extra_param("access_type", "offline")
            .add_extra_param("prompt", "consent")
            .add_extra_param("include_granted_scopes", "true")
            .set_pkce_challenge(challenge)
            .url();
        Ok(AuthorizationRequest {
            url: url.to_string(),
            pkce_verifier: verifier.secret().clone(),
        })
    }

    /// Exchanges the callback's `code` (with the verifier stored with its state) for tokens.
    pub async fn exchange_code(
        &self,
        http: &reqwest::Client,
        redirect_url: &str,
        code: &str,
        pkce_verifier: &str,
    ) -> Result<GrantTokens, ConnectorError> {
        let client = self
            .base()
            .set_token_uri(self.token_url()?)
            .set_redirect_uri(redirect(redirect_url)?);
        let response = client
            .exchange_code(AuthorizationCode::new(code.to_owned()))
            .set_pkce_verifier(PkceCodeVerifier::new(pkce_verifier.to_owned()))
            .request_async(&Adapter(http.clone()))
            .await
            .map_err(|err| token_error("exchanging the authorization code", err))?;
        Ok(GrantTokens {
            access_token: response.access_token().secret().clone(),
            refresh_token: response.refresh_token().map(|token| token.secret().clone()),
            expires_in_seconds: response.expires_in().map(|left| left.as_secs()),
            scopes: response
                .scopes()
                .map(|scopes| scopes.iter().map(|scope| scope.to_string()).collect())
                .unwrap_or_default(),
        })
    }

    /// A fresh access token from the stored refresh token. `invalid_grant` (revoked, expired,
    /// or the password changed) is [`ConnectorError::Unauthorized`] with [`GRANT_REVOKED`].
    pub async fn access_token(
        &self,
        http: &reqwest::Client,
        refresh_token: &str,
    ) -> Result<String, ConnectorError> {
        let client = self.base().set_token_uri(self.token_url()?);
        let refresh = RefreshToken::new(refresh_token.to_owned());
        let response = client
            .exchange_refresh_token(&refresh)
            .request_async(&Adapter(http.clone()))
            .await
            .map_err(|err| token_error("refreshing the access token", err))?;
        Ok(response.access_token().secret().clone())
    }

    /// The scopes an access token from `refresh_token` carries now, as Google's refresh answer
    /// names them (`scope`): what the person granted, fewer than asked after granular consent.
    /// `None` when the answer names none. Nothing is kept: it is one token request.
    pub async fn granted_scopes(
        &self,
        http: &reqwest::Client,
        refresh_token: &str,
    ) -> Result<Option<Vec<String>>, ConnectorError> {
        let client = self.base().set_token_uri(self.token_url()?);
        let refresh = RefreshToken::new(refresh_token.to_owned());
        let response = client
            .exchange_refresh_token(&refresh)
            .request_async(&Adapter(http.clone()))
            .await
            .map_err(|err| token_error("refreshing the access token", err))?;
        Ok(response
            .scopes()
            .map(|scopes| scopes.iter().map(|scope| scope.to_string()).collect()))
    }

    /// Revokes `token` (the refresh token revokes the whole grant). A token Google no longer
    /// knows (`invalid_token`: already revoked or expired) counts as revoked: it cannot be used.
    pub async fn revoke(&self, http: &reqwest::Client, token: &str) -> Result<(), ConnectorError> {
        let response = http
            .post(&self.endpoints.revoke_url)
            .form(&[("token", token)])
            .timeout(REQUEST_TIMEOUT)
            .send()
            .await
            .map_err(|err| {
                ConnectorError::Unreachable(format!("Google's revoke endpoint: {}", describe(&err)))
            })?;
        let status = response.status();
        if status.is_success() {
            return Ok(());
        }
        let body = response.bytes().await.unwrap_or_default();
        let error = serde_json::from_slice::<OAuthErrorBody>(&body).unwrap_or_default();
        if error.error.as_deref() == Some("invalid_token") {
            tracing::info!("google revoke: the token was already revoked or expired");
            return Ok(());
        }
        let line = format!(
            "Google's revoke endpoint answered {}{}",
            status.as_u16(),
            error.describe()
        );
        Err(match status.as_u16() {
            429 => ConnectorError::RateLimited(line),
            500..=599 => ConnectorError::Unreachable(line),
            _ => ConnectorError::Vendor(line),
        })
    }

    /// The client without endpoints: each call sets the ones it needs (`oauth2`'s typestate).
    fn base(&self) -> BasicClient {
        BasicClient::new(ClientId::new(self.client_id.clone()))
            .set_client_secret(ClientSecret::new(self.client_secret.clone()))
            .set_auth_type(AuthType::RequestBody)
    }

    fn token_url(&self) -> Result<TokenUrl, ConnectorError> {
        TokenUrl::new(self.endpoints.token_url.clone())
            .map_err(|_| ConnectorError::Config("the Google token URL is not a URL".into()))
    }
}

fn redirect(redirect_url: &str) -> Result<RedirectUrl, ConnectorError> {
    RedirectUrl::new(redirect_url.to_owned()).map_err(|_| {
        ConnectorError::Config(format!("the redirect URL {redirect_url:?} is not a URL"))
    })
}

/// `{error, error_description}`: RFC 6749's error body, as Google's token and revoke endpoints
/// answer it.
#[derive(Debug, Default, Deserialize)]
struct OAuthErrorBody {
    #[serde(default)]
    error: Option<String>,
    #[serde(default)]
    error_description: Option<String>,
}

impl OAuthErrorBody {
    fn describe(&self) -> String {
        match (&self.error, &self.error_description) {
            (Some(code), Some(text)) => format!(": {code} ({text})"),
            (Some(code), None) => format!(": {code}"),
            (None, Some(text)) => format!(": {text}"),
            (None, None) => String::new(),
        }
    }
}

/// `oauth2`'s error as ours. A body that does not parse is never quoted: on a 200 it holds tokens.
fn token_error(
    doing: &str,
    err: RequestTokenError<EndpointFailure, oauth2::basic::BasicErrorResponse>,
) -> ConnectorError {
    match err {
        RequestTokenError::ServerResponse(response) => {
            let code = response.error();
            let mut line = format!("Google's token endpoint refused {doing}: {code}");
            if let Some(text) = response.error_description() {
                line.push_str(&format!(" ({text})"));
            }
            match code {
                BasicErrorResponseType::InvalidGrant => {
                    ConnectorError::Unauthorized(format!("{GRANT_REVOKED} ({line})"))
                }
                BasicErrorResponseType::InvalidClient
                | BasicErrorResponseType::UnauthorizedClient => ConnectorError::Config(format!(
                    "{line}: check the Google OAuth client id and secret"
                )),
                _ => ConnectorError::Vendor(line),
            }
        }
        RequestTokenError::Request(EndpointFailure::Status(429)) => ConnectorError::RateLimited(
            format!("Google's token endpoint answered 429 while {doing}"),
        ),
        RequestTokenError::Request(EndpointFailure::Status(status)) => ConnectorError::Unreachable(
            format!("Google's token endpoint answered {status} while {doing}"),
        ),
        RequestTokenError::Request(EndpointFailure::Transport(text)) => {
            ConnectorError::Unreachable(format!("Google's token endpoint, {doing}: {text}"))
        }
        RequestTokenError::Parse(err, _body) => ConnectorError::Vendor(format!(
            "Google's token endpoint answered a shape Payback does not read while {doing} (at {})",
            err.path()
        )),
        RequestTokenError::Other(text) => {
            ConnectorError::Vendor(format!("Google's token endpoint, {doing}: {text}"))
        }
    }
}

/// The transport error with its causes (reqwest's own line is only "error sending request").
/// The URLs are Google's endpoints and carry no secret.
pub(crate) fn describe(err: &reqwest::Error) -> String {
    let mut text = err.to_string();
    let mut source = std::error::Error::source(err);
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn client() -> OAuthClient {
        OAuthClient::new(
            "client-123.apps.googleusercontent.com".into(),
            "very-secret".into(),
            OAuthEndpoints::google(),
        )
    }

    fn query(url: &str) -> Vec<(String, String)> {
        let parsed = reqwest::Url::parse(url).unwrap();
        parsed
            .query_pairs()
            .map(|(k, v)| (k.into_owned(), v.into_owned()))
            .collect()
    }

    fn param<'a>(pairs: &'a [(String, String)], name: &str) -> Option<&'a str> {
        pairs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    #[test]
    fn the_consent_url_asks_for_offline_access_with_pkce() {
        let request = client()
            .authorization_url(
                "https://payback.example/connect/searchco/callback",
                &[SEARCH_ADS_SCOPE],
                "state-abc",
            )
            .unwrap();
        assert!(request.url.starts_with(GOOGLE_AUTH_URL));
        let pairs = query(&request.url);
        assert_eq!(param(&pairs, "response_type"), Some("code"));
        assert_eq!(
            param(&pairs, "client_id"),
            Some("client-123.apps.googleusercontent.com")
        );
        assert_eq!(param(&pairs, "state"), Some("state-abc"));
        assert_eq!(
            param(&pairs, "redirect_uri"),
            Some("https://payback.example/connect/searchco/callback")
        );
        assert_eq!(param(&pairs, "scope"), Some(SEARCH_ADS_SCOPE));
        assert_eq!(param(&pairs, "access_type"), Some("offline"));
        assert_eq!(param(&pairs, "prompt"), Some("consent"));
        assert_eq!(param(&pairs, "include_granted_scopes"), Some("true"));
        assert_eq!(param(&pairs, "code_challenge_method"), Some("S256"));
        // The challenge is the verifier's SHA-256, base64url without padding.
        let challenge = PkceCodeChallenge::from_code_verifier_sha256(&PkceCodeVerifier::new(
            request.pkce_verifier.clone(),
        ));
        assert_eq!(param(&pairs, "code_challenge"), Some(challenge.as_str()));
        // Nothing secret in the URL or in Debug.
        assert!(!request.url.contains("very-secret"));
        assert!(!format!("{request:?}").contains(&request.pkce_verifier));
        assert!(!format!("{:?}", client()).contains("very-secret"));
    }

    #[test]
    fn several_scopes_are_space_separated() {
        let request = client()
            .authorization_url(
                "http://127.0.0.1:9/cb",
                &[
                    SEARCH_ADS_SCOPE,
                    "https://www.googleapis.com/auth/analytics.readonly",
                ],
                "s",
            )
            .unwrap();
        let pairs = query(&request.url);
        assert_eq!(
            param(&pairs, "scope"),
            Some(
                "https://www.googleapis.com/auth/adwords https://www.googleapis.com/auth/analytics.readonly"
            )
        );
    }

    #[test]
    fn a_bad_redirect_url_is_a_configuration_error() {
        let err = client()
            .authorization_url("not a url", &[SEARCH_ADS_SCOPE], "s")
            .unwrap_err();
        assert!(matches!(err, ConnectorError::Config(_)), "{err}");
    }

    #[test]
    fn invalid_grant_asks_to_reconnect() {
        let body: oauth2::basic::BasicErrorResponse = serde_json::from_str(
            r#"{"error":"invalid_grant","error_description":"Token has been expired or revoked."}"#,
        )
        .unwrap();
        let err = token_error(
            "refreshing the access token",
            RequestTokenError::ServerResponse(body),
        );
        match err {
            ConnectorError::Unauthorized(line) => {
                assert!(line.starts_with(GRANT_REVOKED), "{line}");
                assert!(
                    line.contains("Token has been expired or revoked."),
                    "{line}"
                );
            }
            other => panic!("expected Unauthorized, got {other:?}"),
        }
    }

    #[test]
    fn endpoint_failures_keep_their_kind() {
        let limited = token_error(
            "x",
            RequestTokenError::Request(EndpointFailure::Status(429)),
        );
        assert!(matches!(limited, ConnectorError::RateLimited(_)));
        let down = token_error(
            "x",
            RequestTokenError::Request(EndpointFailure::Status(503)),
        );
        assert!(matches!(down, ConnectorError::Unreachable(_)));
        let client: oauth2::basic::BasicErrorResponse =
            serde_json::from_str(r#"{"error":"invalid_client"}"#).unwrap();
        let config = token_error("x", RequestTokenError::ServerResponse(client));
        assert!(matches!(config, ConnectorError::Config(_)));
    }

    #[test]
    fn tokens_never_show_in_debug() {
        let tokens = GrantTokens {
            access_token: "ya29.access".into(),
            refresh_token: Some("1//refresh".into()),
            expires_in_seconds: Some(3599),
            scopes: vec![SEARCH_ADS_SCOPE.into()],
        };
        let text = format!("{tokens:?}");
        assert!(
            !text.contains("ya29.access") && !text.contains("1//refresh"),
            "{text}"
        );
    }
}
