//! The ID token's checks (OpenID Connect Core 3.1.3.7). The `openidconnect` crate does the
//! checks it knows: the signature over a key of the provider's key set chosen by `kid` (never
//! the token's `jku` or `jwk`, which the crate does not even read), the algorithm (RS256 only,
//! the crate's default, stated again below), `iss` equal to the issuer, `aud` holding the client
//! id and no other audience (the crate's default trusts no other audience; it is kept), `exp`
//! in the future by the app's clock, and the nonce. This file adds only what it leaves to the
//! client: one refetch of the key set when no key has the token's `kid` (the provider rotated
//! its keys), `azp` naming the client when present, and a verified email.

use chrono::{DateTime, Utc};
use openidconnect::core::{
    CoreIdToken, CoreIdTokenVerifier, CoreJsonWebKeySet, CoreJwsSigningAlgorithm,
};
use openidconnect::{
    ClaimsVerificationError, ClientId, IssuerUrl, Nonce, SignatureVerificationError,
};
use payback_domain::Timestamp;

use super::SignedIn;
use super::discovery::Provider;
use crate::ConnectorError;

/// The token's claims once every check passed; the refusal says which check failed and never
/// quotes the token.
pub(crate) async fn verify(
    http: &reqwest::Client,
    provider: &Provider,
    client_id: &str,
    token: &CoreIdToken,
    nonce: &str,
    now: Timestamp,
) -> Result<SignedIn, ConnectorError> {
    let keys = provider.keys.read().await.clone();
    let claims = match check(provider, client_id, &keys, token, nonce, now) {
        Err(ClaimsVerificationError::SignatureVerification(
            SignatureVerificationError::NoMatchingKey,
        )) => {
            // No key of the set we hold has this `kid`: the provider may have rotated its keys
            // since we read them. One refetch, then the token either verifies or is refused.
            let fresh = provider.refetch_keys(http).await?;
            check(provider, client_id, &fresh, token, nonce, now)
        }
        other => other,
    }
    .map_err(refused)?;
    // A token for several parties names the one it was issued to in `azp`; when present it
    // must be us (the crate leaves `azp` to the client).
    if let Some(azp) = claims.authorized_party()
        && azp.as_str() != client_id
    {
        return Err(ConnectorError::Unauthorized(
            "the ID token was issued to another party (azp)".into(),
        ));
    }
    let Some(email) = claims.email() else {
        return Err(ConnectorError::Unauthorized(
            "the ID token carries no email".into(),
        ));
    };
    // The crate does not judge the claims' contents: an address the provider has not verified
    // proves nothing about who holds the mailbox, so it must never sign anyone in.
    if claims.email_verified() != Some(true) {
        return Err(ConnectorError::Unauthorized(
            "the provider has not verified the email".into(),
        ));
    }
    Ok(SignedIn {
        subject: claims.subject().as_str().to_owned(),
        email: email.as_str().to_owned(),
        name: claims
            .name()
            .and_then(|name| name.get(None))
            .map(|name| name.as_str().to_owned()),
    })
}

/// The crate's checks of `token` against `keys`.
fn check<'t>(
    provider: &Provider,
    client_id: &str,
    keys: &CoreJsonWebKeySet,
    token: &'t CoreIdToken,
    nonce: &str,
    now: Timestamp,
) -> Result<&'t openidconnect::core::CoreIdTokenClaims, ClaimsVerificationError> {
    let issuer: IssuerUrl = provider.metadata.issuer().clone();
    let now = DateTime::<Utc>::from_timestamp_millis(now.millis()).unwrap_or_default();
    // A public-client verifier holds no client secret, so a MAC-signed (HS256) token can never
    // verify, whatever the allowed algorithms; `none` is no signature algorithm at all.
    let verifier = CoreIdTokenVerifier::new_public_client(
        ClientId::new(client_id.to_owned()),
        issuer,
        keys.clone(),
    )
    .set_allowed_algs([CoreJwsSigningAlgorithm::RsaSsaPkcs1V15Sha256])
    .set_time_fn(move || now);
    token.claims(&verifier, &Nonce::new(nonce.to_owned()))
}

/// Which check refused the token. The crate's texts name the expected and found values
/// (issuer, audiences), none of them secret; the token itself is never quoted.
fn refused(err: ClaimsVerificationError) -> ConnectorError {
    let reason = match err {
        ClaimsVerificationError::SignatureVerification(cause) => format!("signature: {cause}"),
        other => other.to_string(),
    };
    ConnectorError::Unauthorized(format!("the ID token was refused: {reason}"))
}
