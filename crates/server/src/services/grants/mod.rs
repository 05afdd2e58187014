//! What every provider's grant flow shares (the search-engine grant `searchco`, the
//! social-network grant `socialco`): a single-use state stored at `start` (15 minutes), the
//! public callback that claims it once, exchanges the code through the provider's own function,
//! seals what the exchange gave and records what the grant reaches; `status` for whoever
//! started it; the checks `select` makes before it activates connections, and the activation
//! itself, one file a step. A provider (`services::searchco`, `services::socialco`) brings
//! only what is its vendor's: the consent URL, the exchange, what is sealed, the revocation;
//! each kind a grant serves brings its scopes, the page's words, discovery and its choice from
//! its plug-in (`crate::kinds`, [`GrantedKind`]), so the flow names neither.
//!
//! The grants could be phished (issue 35): `auth_url` was the provider's consent URL, so a link
//! one workspace started could be sent to someone else, whose consent then sealed their token
//! into that workspace. `start` now answers a page of Payback's ([`confirmation`]) naming the
//! workspace, the product, who started the flow and what it reads or changes; only its form
//! ([`confirm`]) sends the person on to the provider, binding the state to the confirming
//! browser (a cookie whose hash the state keeps), and the callback takes only a state confirmed
//! in the browser that comes back: a link that skipped the page, or a provider link someone
//! confirmed for themselves and sent on, changes nothing.

mod callback;
pub mod choice;
mod confirmation;
mod granted;
mod selection;
mod start;
mod status;
mod sweep;

pub use callback::*;
pub use confirmation::*;
pub use granted::*;
pub use selection::*;
pub use start::*;
pub use status::*;
pub use sweep::*;

use std::future::Future;

use payback_domain::connection::ConnectionKind;
use payback_domain::source_kind::Family;
use payback_domain::{MINUTE_MS, Timestamp};
use payback_store::grant_states::GrantState;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use crate::error::{ApiError, ApiResult};
use crate::secret::Secret;
use crate::state::AppState;

/// How long a started flow waits for the human.
pub const STATE_TTL_MS: i64 = 15 * MINUTE_MS;

/// One grant provider as the shared flow needs it.
#[derive(Debug, Clone, Copy)]
pub struct Provider {
    /// The path word and `grant_states.provider`: `searchco`, `socialco`.
    pub word: &'static str,
    /// The vendor as people know it, for messages: `Google`, `Meta`.
    pub vendor: &'static str,
    /// The prefix of its state tokens.
    pub token_prefix: &'static str,
    /// The grant as messages name it: `search-engine grant`.
    pub name: &'static str,
    /// The kind table's family of the kinds one grant may serve.
    pub family: Family,
    /// The refusal of an empty `kinds`.
    pub no_kinds: &'static str,
}

impl Provider {
    /// The kinds one grant may serve, in the kind table's order (the order messages list
    /// them), whether or not this build connects them yet.
    pub fn kinds(self) -> impl Iterator<Item = ConnectionKind> {
        ConnectionKind::all().filter(move |kind| kind.family() == self.family)
    }
}

/// What one provider's grant brings to the shared flow: its authorization URL (with PKCE), its
/// token exchange, what it seals and how it revokes. What varies by kind (scopes, discovery,
/// the choice that makes a connection) comes from the kinds' registrations
/// ([`GrantedKind`]). `start`, `callback`, `status`, `select` and the sweep are written once
/// over both ([`start`], [`provider_callback`], [`select`], [`sweep_abandoned`]).
pub trait GrantProvider: Send + Sync + 'static {
    const PROVIDER: Provider;
    /// Payback's client at the provider.
    type Client: Send + Sync;
    /// What the code exchange gave.
    type Tokens: Send + Sync;

    /// The client from the configuration; 503 until the operator set it up.
    fn client(state: &AppState) -> ApiResult<Self::Client>;
    /// The authorization URL for this state, with its PKCE challenge.
    fn authorization(client: &Self::Client, consent: Consent<'_>) -> ApiResult<Authorization>;
    /// Exchanges the code; `Err` is the reason shown to the person.
    fn exchange(
        client: &Self::Client,
        code: Code<'_>,
    ) -> impl Future<Output = Result<Self::Tokens, String>> + Send;
    /// The secret to seal.
    fn secret(tokens: &Self::Tokens) -> Value;
    /// Ends a grant at the provider (the sweep of abandoned grants); `false` when the secret
    /// holds no token.
    fn revoke(state: &AppState, secret: &Value) -> impl Future<Output = ApiResult<bool>> + Send;
}

/// The provider's client id and secret from the configuration; 503 naming both settings until
/// the operator set them.
pub fn client_credentials<'a>(
    provider: Provider,
    id: Option<&'a str>,
    secret: Option<&'a Secret>,
) -> ApiResult<(String, String)> {
    match (id, secret) {
        (Some(id), Some(secret)) => Ok((id.to_owned(), secret.expose().to_owned())),
        _ => {
            let env = provider.word.to_uppercase();
            Err(ApiError::ServiceUnavailable(format!(
                "the {} is not configured (set PAYBACK_{env}_CLIENT_ID and PAYBACK_{env}_CLIENT_SECRET)",
                provider.name
            )))
        }
    }
}

/// The reason shown when the grant came through but discovery failed.
pub fn listing_failed(provider: Provider, what: &str, err: impl std::fmt::Display) -> String {
    format!(
        "{} granted access, but listing its {what} failed: {err}",
        provider.vendor
    )
}

/// What the consent asks for: the flow's state, the scopes and where to come back.
#[derive(Debug, Clone, Copy)]
pub struct Consent<'a> {
    pub state: &'a str,
    pub scopes: &'a [&'a str],
    pub redirect: &'a str,
}

/// What the callback brings to the exchange: the code, with the redirect URL and the PKCE
/// verifier it must be sent with, the HTTP client and the time it came back.
#[derive(Debug, Clone, Copy)]
pub struct Code<'a> {
    pub http: &'a reqwest::Client,
    pub now: Timestamp,
    pub code: &'a str,
    pub redirect: &'a str,
    pub pkce_verifier: &'a str,
}

/// The provider's authorization URL and the PKCE verifier the exchange must send.
#[derive(Debug)]
pub struct Authorization {
    pub url: String,
    pub pkce_verifier: String,
}

/// Who the flow reports back to when the human is done: the dashboard gets a redirect into
/// the product's connections page, everyone else a small page saying what happened.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum GrantClient {
    Dashboard,
    Cli,
    Mcp,
    #[default]
    Api,
}

impl GrantClient {
    pub fn as_str(self) -> &'static str {
        match self {
            GrantClient::Dashboard => "dashboard",
            GrantClient::Cli => "cli",
            GrantClient::Mcp => "mcp",
            GrantClient::Api => "api",
        }
    }
}

/// The kinds a flow was started for.
pub(super) fn kinds_of(grant: &GrantState) -> Vec<ConnectionKind> {
    let words: Vec<String> = serde_json::from_str(&grant.kinds).unwrap_or_default();
    words
        .iter()
        .filter_map(|word| ConnectionKind::parse(word))
        .collect()
}
