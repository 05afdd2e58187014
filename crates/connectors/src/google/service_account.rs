//! A Google service account's key (the JSON file Google's console downloads) and the access
//! tokens it buys: an RS256-signed JWT `{iss: client_email, scope, aud: token_uri, iat, exp}`
//! posted to the key's `token_uri` as the JWT bearer grant (RFC 7523), as Google's
//! "Using OAuth 2.0 for Server to Server Applications" describes. No refresh token exists on
//! this path: each operation signs a fresh assertion.
//!
//! The private key is parsed once, when the key is read, and never formatted: `Debug` shows the
//! account's email only, and a refusal quotes Google's `error` and `error_description`.

use std::fmt;
use std::path::Path;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde::{Deserialize, Serialize};

use crate::ConnectorError;

/// The JWT bearer grant's `grant_type`.
const JWT_BEARER: &str = "urn:ietf:params:oauth:grant-type:jwt-bearer";

/// How long an assertion is good for: Google takes at most an hour.
const ASSERTION_SECONDS: u64 = 3600;

/// A hung token endpoint must not hold a sync job's lease forever.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(60);

/// The fields of Google's key file Payback reads.
#[derive(Deserialize)]
struct KeyFile {
    #[serde(rename = "type")]
    key_type: String,
    client_email: String,
    private_key: String,
    #[serde(default)]
    private_key_id: Option<String>,
    token_uri: String,
}

/// A service account's key, ready to sign. `Debug` never prints the private key.
#[derive(Clone)]
pub struct ServiceAccountKey {
    client_email: String,
    private_key_id: Option<String>,
    token_uri: String,
    signing_key: EncodingKey,
}

/// The assertion's claims, in Google's names.
#[derive(Serialize)]
struct Claims<'a> {
    iss: &'a str,
    scope: String,
    aud: &'a str,
    iat: u64,
    exp: u64,
}

/// The token endpoint's answer.
#[derive(Deserialize)]
struct TokenAnswer {
    access_token: String,
}

/// The token endpoint's error body (`{"error": "invalid_grant", "error_description": ...}`).
#[derive(Deserialize, Default)]
struct TokenError {
    #[serde(default)]
    error: String,
    #[serde(default)]
    error_description: String,
}

impl ServiceAccountKey {
    /// Reads a key file's JSON; anything else than a service account's key with an RSA private
    /// key is refused, naming what is wrong (never quoting the key).
    pub fn from_json(text: &str) -> Result<Self, ConnectorError> {
        let file: KeyFile = serde_json::from_str(text).map_err(|err| {
            ConnectorError::Config(format!(
                "the service-account key is not Google's JSON key file: {}",
                // serde's message names the missing field or the position, never the value.
                err
            ))
        })?;
        if file.key_type != "service_account" {
            return Err(ConnectorError::Config(format!(
                "the key file's type is {:?}, not \"service_account\"",
                file.key_type
            )));
        }
        for (field, value) in [
            ("client_email", &file.client_email),
            ("token_uri", &file.token_uri),
        ] {
            if value.trim().is_empty() {
                return Err(ConnectorError::Config(format!(
                    "the service-account key has no {field}"
                )));
            }
        }
        let signing_key = EncodingKey::from_rsa_pem(file.private_key.as_bytes()).map_err(|_| {
            ConnectorError::Config(
                "the service-account key's private_key is not an RSA key in PEM".to_owned(),
            )
        })?;
        Ok(Self {
            client_email: file.client_email,
            private_key_id: file.private_key_id.filter(|id| !id.is_empty()),
            token_uri: file.token_uri,
            signing_key,
        })
    }

    /// Reads the key file at `path`.
    pub async fn from_file(path: &Path) -> Result<Self, ConnectorError> {
        let text = tokio::fs::read_to_string(path).await.map_err(|err| {
            ConnectorError::Config(format!(
                "the service-account key file {} could not be read: {err}",
                path.display()
            ))
        })?;
        Self::from_json(&text)
    }

    /// The account's address, which a tenant gives access to their property, container or site.
    pub fn client_email(&self) -> &str {
        &self.client_email
    }

    /// Where assertions are exchanged.
    pub fn token_uri(&self) -> &str {
        &self.token_uri
    }

    /// A signed assertion for `scopes`, issued now.
    ///
    /// The wall clock, not the app's `Clock`: Google checks `iat`/`exp` against real time, so a
    /// test's manual clock must not move them.
    fn assertion(&self, scopes: &[&str]) -> Result<String, ConnectorError> {
        let iat = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|since| since.as_secs())
            .unwrap_or_default();
        let claims = Claims {
            iss: &self.client_email,
            scope: scopes.join(" "),
            aud: &self.token_uri,
            iat,
            exp: iat + ASSERTION_SECONDS,
        };
        let mut header = Header::new(Algorithm::RS256);
        header.kid = self.private_key_id.clone();
        jsonwebtoken::encode(&header, &claims, &self.signing_key).map_err(|err| {
            ConnectorError::Config(format!("the service-account assertion did not sign: {err}"))
        })
    }

    /// An access token for `scopes`: one signed assertion exchanged at `token_uri`. Google's
    /// refusal (`invalid_grant`: a deleted key, a bad signature, a clock off) is `Unauthorized`.
    pub async fn access_token(
        &self,
        http: &reqwest::Client,
        scopes: &[&str],
    ) -> Result<String, ConnectorError> {
        let assertion = self.assertion(scopes)?;
        let response = http
            .post(&self.token_uri)
            .timeout(REQUEST_TIMEOUT)
            .form(&[
                ("grant_type", JWT_BEARER),
                ("assertion", assertion.as_str()),
            ])
            .send()
            .await
            .map_err(|err| {
                ConnectorError::Unreachable(format!(
                    "Google's token endpoint did not answer the service account: {}",
                    crate::oauth::describe(&err)
                ))
            })?;
        let status = response.status();
        let body = response.bytes().await.map_err(|err| {
            ConnectorError::Unreachable(format!(
                "Google's token endpoint's answer did not arrive: {}",
                crate::oauth::describe(&err)
            ))
        })?;
        if status.is_success() {
            // A body that does not parse is never quoted: it holds the token.
            return serde_json::from_slice::<TokenAnswer>(&body)
                .map(|answer| answer.access_token)
                .map_err(|_| {
                    ConnectorError::Vendor(
                        "Google's token endpoint answered the service account without an \
                         access_token"
                            .to_owned(),
                    )
                });
        }
        let refusal: TokenError = serde_json::from_slice(&body).unwrap_or_default();
        let line = format!(
            "Google refused the service account {} ({} {}{}{})",
            self.client_email,
            status.as_u16(),
            refusal.error,
            if refusal.error_description.is_empty() {
                ""
            } else {
                ": "
            },
            refusal.error_description
        );
        Err(if status.is_server_error() {
            ConnectorError::Unreachable(line)
        } else {
            ConnectorError::Unauthorized(line)
        })
    }
}

impl fmt::Debug for ServiceAccountKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ServiceAccountKey")
            .field("client_email", &self.client_email)
            .field("token_uri", &self.token_uri)
            .field("private_key", &"[redacted]")
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_file_of_another_type_or_without_an_rsa_key_is_refused() {
        let not_sa = r#"{"type":"authorized_user","client_email":"a@b","private_key":"x","token_uri":"https://oauth2.googleapis.com/token"}"#;
        let Err(ConnectorError::Config(message)) = ServiceAccountKey::from_json(not_sa) else {
            panic!("an authorized_user file is not a service account's key");
        };
        assert!(message.contains("service_account"), "{message}");
        let no_key = r#"{"type":"service_account","client_email":"a@b","private_key":"-----BEGIN PRIVATE KEY-----\nsecret-bytes\n-----END PRIVATE KEY-----\n","token_uri":"https://oauth2.googleapis.com/token"}"#;
        let Err(ConnectorError::Config(message)) = ServiceAccountKey::from_json(no_key) else {
            panic!("a broken PEM is refused");
        };
        assert!(!message.contains("secret-bytes"), "{message}");
        assert!(ServiceAccountKey::from_json("{").is_err());
    }
}
