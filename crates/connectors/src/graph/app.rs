//! Payback's app at Meta and the Facebook Login flow, as Meta's "Manually Build a Login Flow"
//! and "Long-Lived Access Tokens" guides describe it: the person opens the Login dialog; the
//! callback's `code` is exchanged for a short-lived user token (`GET oauth/access_token` with
//! `client_id`, `redirect_uri`, `client_secret`, `code`), which is exchanged at once for a
//! long-lived one (`grant_type=fb_exchange_token`, about 60 days). Meta has no refresh token:
//! the long-lived token is what the grant keeps.
//!
//! The dialog carries a PKCE S256 challenge and the exchange its verifier (Meta's "OIDC Code
//! Flow with PKCE for Manually Built Facebook Login Flows": `code_challenge` =
//! BASE64URL(SHA256(verifier)) with `code_challenge_method=S256` on the dialog, `code_verifier`
//! at `oauth/access_token`), as the Google grant does: a code that leaks from the redirect is
//! worth nothing without the verifier Payback kept.
//!
//! The token endpoint takes the secret and the code in the query string, as documented, so a
//! transport error's URL is dropped from every message, and neither the secret, the code nor a
//! token is ever formatted.

use std::fmt;

use oauth2::PkceCodeChallenge;
use serde::Deserialize;

use super::client::REQUEST_TIMEOUT;
use super::errors::{Failure, FailureKind, scrub};
use super::{DEFAULT_DIALOG_URL, DEFAULT_GRAPH_BASE_URL, GRAPH_VERSION};
use crate::ConnectorError;
use crate::oauth::describe;

/// Payback's Meta app. `Debug` never prints the secret.
#[derive(Clone)]
pub struct GraphApp {
    pub client_id: String,
    pub client_secret: String,
    /// Default [`DEFAULT_DIALOG_URL`]; tests point it at a fake.
    pub dialog_url: String,
    /// The token endpoint; default [`default_token_url`] (a Graph path of [`GRAPH_VERSION`]).
    pub token_url: String,
}

impl fmt::Debug for GraphApp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GraphApp")
            .field("client_id", &self.client_id)
            .field("client_secret", &"[redacted]")
            .field("dialog_url", &self.dialog_url)
            .field("token_url", &self.token_url)
            .finish()
    }
}

/// A user access token from the grant. `Debug` never prints it.
#[derive(Clone, PartialEq, Eq)]
pub struct UserToken {
    pub access_token: String,
    /// Seconds until it expires, when Meta says (about 60 days for a long-lived token).
    pub expires_in_secs: Option<i64>,
}

impl fmt::Debug for UserToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("UserToken")
            .field("access_token", &"[redacted]")
            .field("expires_in_secs", &self.expires_in_secs)
            .finish()
    }
}

/// The Login dialog to open and the PKCE verifier to keep for the exchange. `Debug` never
/// prints the verifier.
#[derive(Clone)]
pub struct DialogRequest {
    pub url: String,
    pub pkce_verifier: String,
}

impl fmt::Debug for DialogRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DialogRequest")
            .field("url", &self.url)
            .field("pkce_verifier", &"[redacted]")
            .finish()
    }
}

/// `oauth/access_token`'s answer: `{"access_token", "token_type", "expires_in"}`.
#[derive(Deserialize)]
struct TokenAnswer {
    access_token: Option<String>,
    #[serde(default, deserialize_with = "super::wire::int")]
    expires_in: Option<i64>,
}

/// Meta's token endpoint: `oauth/access_token` under the Graph origin and version.
pub fn default_token_url() -> String {
    format!("{DEFAULT_GRAPH_BASE_URL}/{GRAPH_VERSION}/oauth/access_token")
}

impl GraphApp {
    /// The app against Meta's own dialog and Graph origin.
    pub fn new(client_id: String, client_secret: String) -> Self {
        Self {
            client_id,
            client_secret,
            dialog_url: DEFAULT_DIALOG_URL.to_owned(),
            token_url: default_token_url(),
        }
    }

    /// The Login dialog URL: `client_id`, `redirect_uri`, `state`, `scope` (comma-separated),
    /// `response_type=code` (the code flow; Meta's default, named anyway) and a fresh PKCE S256
    /// challenge, with the verifier [`GraphApp::exchange_code`] must be given.
    pub fn dialog_url(&self, redirect_uri: &str, state: &str, scopes: &[&str]) -> DialogRequest {
        let (challenge, verifier) = PkceCodeChallenge::new_random_sha256();
        let pairs = [
            ("client_id", self.client_id.as_str()),
            ("redirect_uri", redirect_uri),
            ("state", state),
            ("scope", &scopes.join(",")),
            ("response_type", "code"),
            ("code_challenge", challenge.as_str()),
            ("code_challenge_method", challenge.method().as_str()),
        ];
        let query = encode(&pairs);
        let separator = if self.dialog_url.contains('?') {
            '&'
        } else {
            '?'
        };
        DialogRequest {
            url: format!("{}{separator}{query}", self.dialog_url),
            pkce_verifier: verifier.secret().clone(),
        }
    }

    /// Exchanges the callback's `code` (with the dialog's PKCE verifier) for a short-lived
    /// user token, then that for a long-lived one, which is returned. `redirect_uri` must be
    /// the dialog's, character for character (Meta compares them).
    pub async fn exchange_code(
        &self,
        http: &reqwest::Client,
        redirect_uri: &str,
        code: &str,
        pkce_verifier: &str,
    ) -> Result<UserToken, ConnectorError> {
        let short = self
            .token_call(
                http,
                "exchanging the authorization code",
                &[
                    ("client_id", self.client_id.clone()),
                    ("redirect_uri", redirect_uri.to_owned()),
                    ("client_secret", self.client_secret.clone()),
                    ("code", code.to_owned()),
                    ("code_verifier", pkce_verifier.to_owned()),
                ],
                &[code, pkce_verifier],
            )
            .await?;
        let long = self
            .token_call(
                http,
                "exchanging for a long-lived token",
                &[
                    ("grant_type", "fb_exchange_token".to_owned()),
                    ("client_id", self.client_id.clone()),
                    ("client_secret", self.client_secret.clone()),
                    ("fb_exchange_token", short.access_token.clone()),
                ],
                &[&short.access_token],
            )
            .await?;
        tracing::info!(
            expires_in_secs = long.expires_in_secs,
            "meta grant exchanged for a long-lived token"
        );
        Ok(long)
    }

    /// One `GET oauth/access_token`; `secrets` (besides the app secret) are scrubbed from any
    /// line Meta's answer produces.
    async fn token_call(
        &self,
        http: &reqwest::Client,
        what: &str,
        query: &[(&str, String)],
        secrets: &[&str],
    ) -> Result<UserToken, ConnectorError> {
        let url = self.token_url.as_str();
        let transport = |err: reqwest::Error| {
            ConnectorError::Unreachable(format!(
                "Meta's token endpoint ({what}): {}",
                describe(&err.without_url())
            ))
        };
        let response = http
            .get(url)
            .query(query)
            .timeout(REQUEST_TIMEOUT)
            .send()
            .await
            .map_err(transport)?;
        let status = response.status();
        let headers = response.headers().clone();
        let bytes = response.bytes().await.map_err(transport)?;
        if !status.is_success() {
            let mut failure = Failure::read(
                "GET oauth/access_token",
                status.as_u16(),
                &headers,
                &bytes,
                &self.client_secret,
            );
            for secret in secrets {
                failure.line = scrub(&failure.line, secret);
            }
            return Err(match failure.kind {
                // A used, expired or foreign code is refused as an OAuthException (100 or 190).
                FailureKind::TokenRefused | FailureKind::Other | FailureKind::Permission => {
                    ConnectorError::Unauthorized(format!(
                        "{}; {what} failed: start the connection again",
                        failure.line
                    ))
                }
                _ => failure.into_error(0),
            });
        }
        let answer: TokenAnswer = serde_json::from_slice(&bytes).map_err(|err| {
            ConnectorError::Vendor(format!(
                "Meta's token endpoint ({what}) answered a shape Payback does not read ({:?} \
                 error at line {} column {})",
                err.classify(),
                err.line(),
                err.column()
            ))
        })?;
        let access_token = answer
            .access_token
            .filter(|token| !token.trim().is_empty())
            .ok_or_else(|| {
                ConnectorError::Vendor(format!(
                    "Meta's token endpoint ({what}) answered no access_token"
                ))
            })?;
        Ok(UserToken {
            access_token,
            expires_in_secs: answer.expires_in,
        })
    }
}

/// `application/x-www-form-urlencoded` text of `pairs` (the encoding Meta's dialog reads):
/// unreserved bytes as they are, a space as `+`, everything else percent-encoded.
fn encode(pairs: &[(&str, &str)]) -> String {
    let mut text = String::new();
    for (index, (name, value)) in pairs.iter().enumerate() {
        if index > 0 {
            text.push('&');
        }
        escape_into(&mut text, name);
        text.push('=');
        escape_into(&mut text, value);
    }
    text
}

fn escape_into(text: &mut String, part: &str) {
    for byte in part.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'*' => {
                text.push(char::from(byte))
            }
            b' ' => text.push('+'),
            other => text.push_str(&format!("%{other:02X}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;
    use std::sync::{Arc, Mutex};

    use axum::Router;
    use axum::extract::{Query, State};
    use axum::http::StatusCode;
    use axum::response::{IntoResponse, Response};
    use axum::routing::get;

    use super::*;
    use crate::graph::SOCIAL_ADS_SCOPES;

    fn app() -> GraphApp {
        GraphApp::new("1234567890".into(), "app-secret-value".into())
    }

    fn query(url: &str) -> Vec<(String, String)> {
        reqwest::Url::parse(url)
            .unwrap()
            .query_pairs()
            .map(|(k, v)| (k.into_owned(), v.into_owned()))
            .collect()
    }

    /// BASE64URL(SHA256(verifier)), no padding, as RFC 7636 and Meta's PKCE guide define it.
    fn s256(verifier: &str) -> String {
        let verifier = oauth2::PkceCodeVerifier::new(verifier.to_owned());
        PkceCodeChallenge::from_code_verifier_sha256(&verifier)
            .as_str()
            .to_owned()
    }

    #[test]
    fn the_dialog_url_asks_for_a_code_with_the_scopes() {
        let request = app().dialog_url(
            "https://payback.example/connect/socialco/callback",
            "st&ate=1 é",
            SOCIAL_ADS_SCOPES,
        );
        let url = request.url.as_str();
        assert!((43..=128).contains(&request.pkce_verifier.len()));
        let challenge = s256(&request.pkce_verifier);
        assert!(
            url.starts_with("https://www.facebook.com/v27.0/dialog/oauth?"),
            "{url}"
        );
        assert_eq!(
            query(url),
            [
                ("client_id".to_owned(), "1234567890".to_owned()),
                (
                    "redirect_uri".to_owned(),
                    "https://payback.example/connect/socialco/callback".to_owned()
                ),
                ("state".to_owned(), "st&ate=1 é".to_owned()),
                ("scope".to_owned(), "ads_read,ads_management".to_owned()),
                ("response_type".to_owned(), "code".to_owned()),
                ("code_challenge".to_owned(), challenge),
                ("code_challenge_method".to_owned(), "S256".to_owned()),
            ]
        );
        assert!(!url.contains("app-secret-value") && !url.contains(&request.pkce_verifier));
        assert!(!format!("{request:?}").contains(&request.pkce_verifier));
    }

    #[test]
    fn debug_never_prints_a_secret() {
        let text = format!("{:?}", app());
        assert!(!text.contains("app-secret-value"), "{text}");
        let token = UserToken {
            access_token: "EAAB-long-lived".into(),
            expires_in_secs: Some(5_183_944),
        };
        let text = format!("{token:?}");
        assert!(
            !text.contains("EAAB-long-lived") && text.contains("5183944"),
            "{text}"
        );
    }

    type Seen = Arc<Mutex<Vec<HashMap<String, String>>>>;

    async fn token_endpoint(
        State(seen): State<Seen>,
        Query(query): Query<HashMap<String, String>>,
    ) -> Response {
        seen.lock().unwrap().push(query.clone());
        match (query.get("code"), query.get("grant_type")) {
            (Some(code), _) if code == "good-code" => (
                StatusCode::OK,
                r#"{"access_token": "EAAB-short", "token_type": "bearer", "expires_in": 5400}"#,
            )
                .into_response(),
            (Some(_), _) => (
                StatusCode::BAD_REQUEST,
                r#"{"error": {"message": "This authorization code has been used.", "type": "OAuthException", "code": 100, "error_subcode": 36009, "fbtrace_id": "F"}}"#,
            )
                .into_response(),
            (None, Some(grant)) if grant == "fb_exchange_token" => (
                StatusCode::OK,
                r#"{"access_token": "EAAB-long", "token_type": "bearer", "expires_in": 5183944}"#,
            )
                .into_response(),
            _ => StatusCode::BAD_REQUEST.into_response(),
        }
    }

    #[tokio::test]
    async fn a_code_becomes_a_long_lived_token() {
        let _ = rustls::crypto::ring::default_provider().install_default();
        let seen = Seen::default();
        let router = Router::new()
            .route("/v27.0/oauth/access_token", get(token_endpoint))
            .with_state(seen.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move {
            let _ = axum::serve(listener, router).await;
        });
        let mut app = app();
        app.token_url = format!("{base}/v27.0/oauth/access_token");
        let http = reqwest::Client::new();
        let token = app
            .exchange_code(
                &http,
                "https://payback.example/cb",
                "good-code",
                "the-verifier",
            )
            .await
            .unwrap();
        assert_eq!(token.access_token, "EAAB-long");
        assert_eq!(token.expires_in_secs, Some(5_183_944));
        {
            let seen = seen.lock().unwrap();
            assert_eq!(seen.len(), 2);
            assert_eq!(seen[0]["client_id"], "1234567890");
            assert_eq!(seen[0]["client_secret"], "app-secret-value");
            assert_eq!(seen[0]["redirect_uri"], "https://payback.example/cb");
            assert_eq!(seen[0]["code_verifier"], "the-verifier");
            assert_eq!(seen[1]["fb_exchange_token"], "EAAB-short");
            assert_eq!(seen[1]["grant_type"], "fb_exchange_token");
        }

        let err = app
            .exchange_code(
                &http,
                "https://payback.example/cb",
                "used-code",
                "the-verifier",
            )
            .await
            .unwrap_err();
        match err {
            ConnectorError::Unauthorized(line) => {
                assert!(
                    line.contains("This authorization code has been used."),
                    "{line}"
                );
                assert!(!line.contains("used-code") && !line.contains("app-secret-value"));
            }
            other => panic!("{other:?}"),
        }
    }
}
