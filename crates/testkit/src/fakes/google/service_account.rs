//! Google's JWT bearer grant for service accounts at the token endpoint, as "Using OAuth 2.0 for
//! Server to Server Applications" documents it: `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer`
//! and an `assertion`, an RS256 JWT signed by the account's key with `iss` the account's email,
//! `scope` space-separated, `aud` the token endpoint, `iat` and `exp` at most an hour apart.
//! Refusals are `400 {"error": "invalid_grant" | "invalid_scope", "error_description": ...}`
//! in Google's words; success an access token (no refresh token) whose user is the account's
//! email, so each fake API answers it with what that email was given access to.
//!
//! One test key pair is committed (`keys/`: test-only keys, never used anywhere else), and a
//! second private key Google does not know (a deleted or foreign key).

use std::time::{SystemTime, UNIX_EPOCH};

use axum::http::StatusCode;
use axum::response::Response;
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use serde::Deserialize;
use serde_json::json;

use super::errors::json_response;
use super::oauth::{ACCESS_TOKEN_SECONDS, Grant, issue_access, no_store, oauth};
use super::state::State as FakeState;

/// The test service account's address.
pub const TEST_SERVICE_ACCOUNT_EMAIL: &str = "payback-reader@payback-test.iam.gserviceaccount.com";

/// The test account's private key (PKCS#8 PEM, as Google's key files carry it).
const TEST_PRIVATE_KEY: &str = include_str!("keys/test_service_account.pem");
/// Its public half, which the fake checks signatures with.
const TEST_PUBLIC_KEY: &str = include_str!("keys/test_service_account.pub.pem");
/// A key Google does not know for the account.
const UNTRUSTED_PRIVATE_KEY: &str = include_str!("keys/untrusted_service_account.pem");

/// The key file Google's console downloads for the test account, its `token_uri` the fake's
/// token endpoint (`FakeGoogle::token_url`).
pub fn test_key_json(token_uri: &str) -> String {
    key_json(TEST_PRIVATE_KEY, token_uri)
}

/// A key file for the same account signed by a key Google does not know: every exchange is
/// refused with `Invalid JWT Signature.`.
pub fn untrusted_key_json(token_uri: &str) -> String {
    key_json(UNTRUSTED_PRIVATE_KEY, token_uri)
}

fn key_json(private_key: &str, token_uri: &str) -> String {
    json!({
        "type": "service_account",
        "project_id": "payback-test",
        "private_key_id": "0f1e2d3c4b5a69788796a5b4c3d2e1f0a1b2c3d4",
        "private_key": private_key,
        "client_email": TEST_SERVICE_ACCOUNT_EMAIL,
        "client_id": "109876543210987654321",
        "auth_uri": "https://accounts.google.com/o/oauth2/auth",
        "token_uri": token_uri,
        "auth_provider_x509_cert_url": "https://www.googleapis.com/oauth2/v1/certs",
        "universe_domain": "googleapis.com",
    })
    .to_string()
}

/// An assertion's claims, once its signature checked out.
#[derive(Debug, Clone, Deserialize)]
pub struct AssertionClaims {
    pub iss: String,
    #[serde(default)]
    pub scope: String,
    pub aud: String,
    pub iat: u64,
    pub exp: u64,
}

impl AssertionClaims {
    /// The scopes asked, in order.
    pub fn scopes(&self) -> Vec<String> {
        self.scope.split_whitespace().map(str::to_owned).collect()
    }
}

/// A refusal: the OAuth error code and Google's description.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AssertionRefused {
    pub error: &'static str,
    pub description: String,
}

fn refused(error: &'static str, description: &str) -> AssertionRefused {
    AssertionRefused {
        error,
        description: description.to_owned(),
    }
}

/// Checks `assertion` as Google's token endpoint at `audience` does: RS256 signed by the test
/// account's key, `iss` that account, `aud` the endpoint, a lifetime of at most an hour that
/// has begun (five minutes of clock skew) and not ended, and a scope. Any fake that stands in
/// for a token endpoint of Google's may use it.
pub fn verify_assertion(
    assertion: &str,
    audience: &str,
) -> Result<AssertionClaims, AssertionRefused> {
    let header = jsonwebtoken::decode_header(assertion)
        .map_err(|_| refused("invalid_grant", "Invalid JWT: the assertion is not a JWT."))?;
    if header.alg != Algorithm::RS256 {
        return Err(refused("invalid_grant", "Invalid JWT Signature."));
    }
    let key = DecodingKey::from_rsa_pem(TEST_PUBLIC_KEY.as_bytes())
        .map_err(|_| refused("invalid_grant", "the fake's public key did not load"))?;
    let mut validation = Validation::new(Algorithm::RS256);
    // Google checks the lifetime itself (below), in its own words.
    validation.validate_exp = false;
    validation.set_audience(&[audience]);
    validation.set_required_spec_claims(&["iss", "aud", "exp"]);
    let claims = jsonwebtoken::decode::<AssertionClaims>(assertion, &key, &validation)
        .map_err(|err| match err.kind() {
            jsonwebtoken::errors::ErrorKind::InvalidAudience => refused(
                "invalid_grant",
                &format!("Invalid JWT: Failed audience check. The expected value is {audience}"),
            ),
            _ => refused("invalid_grant", "Invalid JWT Signature."),
        })?
        .claims;
    if claims.iss != TEST_SERVICE_ACCOUNT_EMAIL {
        return Err(refused("invalid_grant", "Invalid email or User ID"));
    }
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|since| since.as_secs())
        .unwrap_or_default();
    let short_lived = claims.exp > claims.iat && claims.exp - claims.iat <= 3600;
    if !short_lived || claims.iat > now + 300 || claims.exp <= now {
        return Err(refused(
            "invalid_grant",
            "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable \
             timeframe. Check your iat and exp values in the JWT claim.",
        ));
    }
    if claims.scopes().is_empty() {
        return Err(refused(
            "invalid_scope",
            "Invalid OAuth scope or ID token audience provided.",
        ));
    }
    Ok(claims)
}

/// The token endpoint's answer to a JWT bearer grant: an access token for the account's email
/// with the asserted scopes, or Google's refusal.
pub(crate) fn exchange(state: &mut FakeState, assertion: Option<&str>, audience: &str) -> Response {
    let Some(assertion) = assertion.filter(|text| !text.is_empty()) else {
        return oauth(
            StatusCode::BAD_REQUEST,
            "invalid_request",
            "Missing required parameter: assertion",
        );
    };
    let claims = match verify_assertion(assertion, audience) {
        Ok(claims) => claims,
        Err(refusal) => return oauth(StatusCode::BAD_REQUEST, refusal.error, &refusal.description),
    };
    let grant = state.oauth.add_grant(Grant {
        client_id: claims.iss.clone(),
        scopes: claims.scopes(),
        refresh_token: None,
        revoked: false,
        user: claims.iss.clone(),
    });
    let access_token = issue_access(state, grant);
    no_store(json_response(
        StatusCode::OK,
        &json!({
            "access_token": access_token,
            "expires_in": ACCESS_TOKEN_SECONDS,
            "token_type": "Bearer",
        }),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_file_signs_what_the_fake_accepts_and_a_foreign_key_does_not() {
        // The fake's own check, through jsonwebtoken as the connector signs.
        let sign = |pem: &str, aud: &str, lifetime: u64| {
            let now = SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .unwrap()
                .as_secs();
            let claims = json!({"iss": TEST_SERVICE_ACCOUNT_EMAIL, "scope": "a b", "aud": aud,
                "iat": now, "exp": now + lifetime});
            let key = jsonwebtoken::EncodingKey::from_rsa_pem(pem.as_bytes()).unwrap();
            jsonwebtoken::encode(&jsonwebtoken::Header::new(Algorithm::RS256), &claims, &key)
                .unwrap()
        };
        let aud = "http://127.0.0.1:1/token";
        let claims = verify_assertion(&sign(TEST_PRIVATE_KEY, aud, 3600), aud).unwrap();
        assert_eq!(claims.scopes(), ["a", "b"]);
        let foreign = verify_assertion(&sign(UNTRUSTED_PRIVATE_KEY, aud, 3600), aud).unwrap_err();
        assert_eq!(foreign.description, "Invalid JWT Signature.");
        let elsewhere =
            verify_assertion(&sign(TEST_PRIVATE_KEY, "https://x/token", 3600), aud).unwrap_err();
        assert!(elsewhere.description.contains("audience"), "{elsewhere:?}");
        let long = verify_assertion(&sign(TEST_PRIVATE_KEY, aud, 7200), aud).unwrap_err();
        assert!(long.description.contains("short-lived"), "{long:?}");
    }
}
