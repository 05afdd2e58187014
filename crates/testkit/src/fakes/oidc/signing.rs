//! The fake provider's keys and ID tokens. Google signs its ID tokens with RS256 and publishes
//! the public keys at its `jwks_uri` (each with `kid`, `kty: RSA`, `alg: RS256`, `use: sig`,
//! `n`, `e`), rotating them from time to time; this fake does the same with test-only key pairs
//! (`keys/`, generated for these tests and used nowhere else), and forges the tokens the faults
//! need (HMAC with the client secret, `alg: none`, a key it never published, a `jku` header).

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::jwk::{Jwk, KeyAlgorithm, PublicKeyUse};
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde_json::{Value, json};

/// A test-only key pair and the `kid` it is published under.
#[derive(Clone)]
pub(crate) struct SigningKey {
    pub kid: &'static str,
    pem: &'static str,
}

impl std::fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SigningKey")
            .field("kid", &self.kid)
            .finish()
    }
}

/// The key the provider signs with first.
pub(crate) const FIRST: SigningKey = SigningKey {
    kid: "fake-oidc-key-1",
    pem: include_str!("keys/signing_first.pem"),
};
/// The key it rotates to.
pub(crate) const ROTATED: SigningKey = SigningKey {
    kid: "fake-oidc-key-2",
    pem: include_str!("keys/signing_rotated.pem"),
};
/// A key it never publishes.
pub(crate) const ATTACKER: SigningKey = SigningKey {
    kid: "attacker-key",
    pem: include_str!("keys/attacker.pem"),
};

impl SigningKey {
    fn encoding(&self) -> EncodingKey {
        EncodingKey::from_rsa_pem(self.pem.as_bytes())
            .unwrap_or_else(|err| panic!("the fake OIDC key {}: {err}", self.kid))
    }

    /// The public key as Google's JWKS lists it.
    pub fn public_jwk(&self) -> Value {
        let mut jwk = Jwk::from_encoding_key(&self.encoding(), Algorithm::RS256)
            .unwrap_or_else(|err| panic!("the fake OIDC key {}'s JWK: {err}", self.kid));
        jwk.common.key_id = Some(self.kid.to_owned());
        jwk.common.public_key_use = Some(PublicKeyUse::Signature);
        jwk.common.key_algorithm = Some(KeyAlgorithm::RS256);
        serde_json::to_value(jwk).unwrap_or_else(|err| panic!("JWK as JSON: {err}"))
    }

    /// `claims` signed RS256 under this key's `kid`, with a `jku` header when given.
    pub fn sign(&self, claims: &Value, jku: Option<String>) -> String {
        let mut header = Header::new(Algorithm::RS256);
        header.kid = Some(self.kid.to_owned());
        header.jku = jku;
        jsonwebtoken::encode(&header, claims, &self.encoding())
            .unwrap_or_else(|err| panic!("signing the fake ID token: {err}"))
    }
}

/// `claims` MACed with HS256 under `secret` (the client secret: the classic forgery against a
/// client that would accept a symmetric algorithm), under `kid`.
pub(crate) fn sign_hs256(claims: &Value, secret: &str, kid: &str) -> String {
    let mut header = Header::new(Algorithm::HS256);
    header.kid = Some(kid.to_owned());
    jsonwebtoken::encode(
        &header,
        claims,
        &EncodingKey::from_secret(secret.as_bytes()),
    )
    .unwrap_or_else(|err| panic!("signing the HS256 token: {err}"))
}

/// An unsecured JWT (`alg: none`, empty signature), which no library here can make.
pub(crate) fn unsigned(claims: &Value, kid: &str) -> String {
    let header = json!({ "alg": "none", "typ": "JWT", "kid": kid });
    format!(
        "{}.{}.",
        URL_SAFE_NO_PAD.encode(header.to_string()),
        URL_SAFE_NO_PAD.encode(claims.to_string())
    )
}
