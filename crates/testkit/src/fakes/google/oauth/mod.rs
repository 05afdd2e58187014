//! Google's OAuth 2.0 provider for web server applications: the authorization endpoint
//! (`GET /o/oauth2/v2/auth`), the token endpoint (`POST /token`: `authorization_code` with
//! PKCE, `refresh_token`, and service accounts' JWT bearer grant in
//! `../service_account.rs`) and the revocation endpoint (`POST /revoke`).
//!
//! As Google documents it:
//! - the consent screen redirects to `redirect_uri` with `code`, `scope` and `state`, or with
//!   `error=access_denied` when the human cancels; a bad client or redirect URI shows an error
//!   page and never redirects,
//! - a refresh token comes with the code exchange only when `access_type=offline`, and only on
//!   the human's first consent to the client unless `prompt=consent` asked again,
//! - codes are single use (a second exchange also revokes what the first one issued) and live
//!   ten minutes; access tokens an hour (`expires_in: 3599`),
//! - `code_verifier` must match the `code_challenge` (`S256`: BASE64URL(SHA256(verifier)) without
//!   padding; `plain`: equal), a verifier without a challenge is refused too,
//! - the client authenticates with `client_id`/`client_secret` in the form or HTTP Basic,
//! - revoking an access or a refresh token removes the human's consent to the client: every
//!   token issued to it stops working.

mod access;
mod authorize;
mod controls;
mod errors;
mod grants;
mod state;
mod token;

pub(crate) use access::{
    Refused, check_access, check_user_access, issue_access, issue_offline, revoke, revoke_client,
};
pub(crate) use authorize::authorize;
#[cfg(test)]
pub(crate) use authorize::s256;
pub(crate) use errors::{no_store, oauth, scheduled_oauth};
pub use state::DEFAULT_USER;
pub(crate) use state::{ACCESS_TOKEN_SECONDS, Grant, Oauth};
pub(crate) use token::token;

/// The value of the first `name` among form or query pairs.
fn param<'a>(pairs: &'a [(String, String)], name: &str) -> Option<&'a str> {
    pairs
        .iter()
        .find(|(key, _)| key == name)
        .map(|(_, value)| value.as_str())
}

#[cfg(test)]
mod tests;
