//! `POST /connect/{provider}/start`: the kinds checked, the state stored with its PKCE verifier
//! and history event, and the confirmation page's link answered.

use std::sync::Arc;

use payback_domain::connection::ConnectionKind;
use payback_store::grant_states::{self as store, NewGrantState, StartedAs};
use payback_store::new_id;
use payback_store::products::ProductRow;
use serde::Serialize;
use serde_json::json;
use utoipa::ToSchema;

use super::{
    Consent, GrantClient, GrantProvider, GrantedKind, GrantedKinds, Provider, STATE_TTL_MS,
};
use crate::error::{ApiError, ApiResult};
use crate::services::acting::{Caller, Principal};
use crate::services::{audit, products, source_config};
use crate::state::AppState;

/// The chosen kinds, checked: each one of the grant's, each registered with it in this build
/// and available in this instance; left out, all of the grant's that are.
pub(crate) fn grant_kinds<P: GrantProvider>(
    state: &AppState,
    words: Option<&[String]>,
) -> ApiResult<Vec<Arc<dyn GrantedKind<P>>>> {
    let provider = P::PROVIDER;
    let Some(words) = words else {
        return Ok(GrantedKinds::<P>::of(state)
            .iter()
            .filter(|granted| granted.available(state))
            .cloned()
            .collect());
    };
    if words.is_empty() {
        return Err(ApiError::bad_request(provider.no_kinds));
    }
    let mut kinds: Vec<Arc<dyn GrantedKind<P>>> = Vec::new();
    for word in words {
        let kind = ConnectionKind::parse(word)
            .filter(|kind| kind.family() == provider.family)
            .ok_or_else(|| {
                let all: Vec<&str> = provider.kinds().map(ConnectionKind::as_str).collect();
                ApiError::bad_request(format!(
                    "kinds: `{word}` is not a kind of the {} ({})",
                    provider.name,
                    all.join(", ")
                ))
            })?;
        let granted = GrantedKinds::<P>::find(state, kind)
            .filter(|granted| granted.available(state))
            .ok_or_else(|| {
                let available: Vec<&str> = GrantedKinds::<P>::of(state)
                    .iter()
                    .filter(|granted| granted.available(state))
                    .map(|granted| granted.kind().as_str())
                    .collect();
                ApiError::bad_request(format!(
                    "kinds: {kind} is not available yet; connect {} now and {kind} once it arrives",
                    available.join(" or ")
                ))
            })?;
        if !kinds.iter().any(|chosen| chosen.kind() == kind) {
            kinds.push(Arc::clone(granted));
        }
    }
    Ok(kinds)
}

/// `POST /connect/{provider}/start`: the client (503), credential sealing (503), the product
/// (404), the kinds (400), each kind's own checks, then the state and its consent URL.
pub async fn start<P: GrantProvider>(
    state: &AppState,
    caller: &Caller,
    slug: &str,
    kind_words: Option<&[String]>,
    client: GrantClient,
) -> ApiResult<Started> {
    let provider_client = P::client(state)?;
    source_config::vault(state)?;
    let product = products::find(state, caller.scope()?, slug).await?;
    let granted = grant_kinds::<P>(state, kind_words)?;
    for kind in &granted {
        kind.admit(state, caller, &product).await?;
    }
    let mut scopes: Vec<&'static str> = Vec::new();
    for scope in granted.iter().flat_map(|kind| kind.scopes()) {
        if !scopes.contains(scope) {
            scopes.push(scope);
        }
    }
    let kinds: Vec<ConnectionKind> = granted.iter().map(|kind| kind.kind()).collect();
    let token = new_token(P::PROVIDER);
    let redirect = redirect_url(state, P::PROVIDER);
    let consent = Consent {
        state: &token,
        scopes: &scopes,
        redirect: &redirect,
    };
    let authorization = P::authorization(&provider_client, consent)?;
    let flow = StartedFlow {
        token,
        product: &product,
        kinds: &kinds,
        client,
        pkce_verifier: &authorization.pkce_verifier,
        provider_url: authorization.url,
    };
    record_start(state, caller, P::PROVIDER, flow).await
}

/// `POST /connect/{provider}/start`'s answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct Started {
    pub state: String,
    /// Payback's confirmation page for the person to open
    /// (`{public}/connect/{provider}/confirm?state=...`): it names the workspace, the product,
    /// who started the flow and what it reads or changes, and its button sends the person on to
    /// the provider's consent screen. The callback takes the state only from the browser that
    /// confirmed there.
    pub auth_url: String,
    pub expires_at: String,
}

/// The confirmation page `start` answers as `auth_url`: the state travels in the URL (it is
/// what the person's browser carries, as it will to the provider).
pub fn page_url(state: &AppState, provider: Provider, token: &str) -> String {
    format!(
        "{}/connect/{}/confirm?state={token}",
        state.config.public_url(),
        provider.word
    )
}

/// Where the provider sends the human back.
pub fn redirect_url(state: &AppState, provider: Provider) -> String {
    format!(
        "{}/connect/{}/callback",
        state.config.public_url(),
        provider.word
    )
}

/// A fresh state token of the provider.
pub fn new_token(provider: Provider) -> String {
    format!("{}{}", provider.token_prefix, new_id().replace('-', ""))
}

/// What `start` stores besides the token.
#[derive(Debug)]
pub struct StartedFlow<'a> {
    pub token: String,
    pub product: &'a ProductRow,
    pub kinds: &'a [ConnectionKind],
    pub client: GrantClient,
    /// The PKCE verifier the exchange must send.
    pub pkce_verifier: &'a str,
    /// The provider's authorization URL (with the state and the PKCE challenge), where the
    /// confirmation page sends the person.
    pub provider_url: String,
}

/// Stores the started flow and its history event; answers `start`'s body.
pub async fn record_start(
    state: &AppState,
    caller: &Caller,
    provider: Provider,
    flow: StartedFlow<'_>,
) -> ApiResult<Started> {
    let scope = caller.scope()?;
    let now = state.clock.now();
    let expires_at = now.plus_millis(STATE_TTL_MS);
    let kind_list: Vec<&str> = flow.kinds.iter().map(|kind| kind.as_str()).collect();
    let kinds_json = json!(kind_list).to_string();
    let actor = caller.actor();
    let mut tx = state.store.begin().await?;
    // The page names the starter as they are now: a key's name and its creator's email are
    // kept with the state, so renaming or revoking the key later does not change what the
    // person was shown.
    let key = match &caller.principal {
        Principal::ApiKey { key_id, .. } => store::key_starter(&mut tx, scope, key_id)
            .await?
            .map(|(name, creator)| (key_id.as_str(), name, creator)),
        _ => None,
    };
    let started_as = match (&caller.principal, &key) {
        (Principal::Person(_), _) => StartedAs::Person,
        (Principal::ApiKey { .. }, Some((id, name, creator))) => StartedAs::ApiKey {
            id,
            name,
            creator: creator.as_deref(),
        },
        (Principal::ApiKey { .. }, None) => {
            return Err(ApiError::internal(
                "a calling API key not found in its account",
            ));
        }
        (Principal::OperatorToken, _) => StartedAs::Operator,
        (Principal::System, _) => StartedAs::System,
    };
    let new = NewGrantState {
        state: &flow.token,
        provider: provider.word,
        product_id: &flow.product.id,
        kinds: &kinds_json,
        client: flow.client.as_str(),
        started_by: &actor.who,
        started_via: actor.via,
        pkce_verifier: flow.pkce_verifier,
        expires_at,
        started_as,
        provider_url: &flow.provider_url,
    };
    store::insert(&mut tx, scope, new, now).await?;
    let payload =
        json!({ "provider": provider.word, "kinds": kind_list, "client": flow.client.as_str() });
    audit::record_product(&mut tx, &actor, flow.product, "connect.start", payload, now).await?;
    tx.commit().await?;
    Ok(Started {
        auth_url: page_url(state, provider, &flow.token),
        state: flow.token,
        expires_at: expires_at.to_rfc3339(),
    })
}
