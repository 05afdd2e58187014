//! What every provider's grant flow shares (the search-engine grant `searchco`, the
//! social-network grant `socialco`): a single-use state stored at `start` (15 minutes), the
//! public callback that claims it once, exchanges the code through the provider's own function,
//! seals what the exchange gave and records what the grant reaches; `status` for whoever
//! started it; the checks `select` makes before it activates connections, and the activation
//! itself. The provider modules hold only what differs: scopes, the exchange, discovery, and
//! which choices make which connections.

use std::future::Future;

use payback_domain::connection::{ConnectionKind, ConnectionStatus, GrantFlowStatus};
use payback_domain::{Actor, MINUTE_MS, Timestamp};
use payback_store::connections::{self as connection_store, NewConnection};
use payback_store::grant_states::{self as store, GrantState, NewGrantState};
use payback_store::products::{self as product_store, ProductRow};
use payback_store::{AccountScope, Tx, new_id};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use utoipa::ToSchema;

use crate::error::{ApiError, ApiResult};
use crate::services::acting::Caller;
use crate::services::{audit, source_config};
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

/// `POST /connect/{provider}/start`'s answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct Started {
    pub state: String,
    pub auth_url: String,
    pub expires_at: String,
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
    /// The PKCE verifier, where the provider takes one (empty otherwise).
    pub pkce_verifier: &'a str,
    pub auth_url: String,
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
    };
    let mut tx = state.store.begin().await?;
    store::insert(&mut tx, scope, new, now).await?;
    let payload =
        json!({ "provider": provider.word, "kinds": kind_list, "client": flow.client.as_str() });
    audit::record_product(&mut tx, &actor, flow.product, "connect.start", payload, now).await?;
    tx.commit().await?;
    Ok(Started {
        state: flow.token,
        auth_url: flow.auth_url,
        expires_at: expires_at.to_rfc3339(),
    })
}

/// What the human sees after the provider sent them back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CallbackOutcome {
    /// Back to the dashboard's connections page of the product, with the state to poll.
    Redirect(String),
    /// A small page: `ok` says whether the grant came through; `message` what to do next.
    Page { ok: bool, message: String },
}

/// The provider's redirect: `state` with `code`, or with `error` when consent was refused.
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CallbackQuery {
    /// The state `start` answered.
    pub state: Option<String>,
    /// The authorization code to exchange.
    pub code: Option<String>,
    /// The provider's error (`access_denied` when the human refused consent).
    pub error: Option<String>,
}

/// What a provider's exchange gave: the secret to seal (e.g. `{refresh_token}`) and what the
/// grant reaches, for the human to choose from.
#[derive(Debug)]
pub struct Granted {
    pub secret: Value,
    pub options: Value,
}

/// The public callback: claims the state once, runs `exchange` with the code, seals its secret
/// and completes the state; any failure marks the state `error` with a person's reason (the
/// exchange's `Err` is that reason).
pub async fn callback<F, Fut>(
    state: &AppState,
    provider: Provider,
    query: CallbackQuery,
    exchange: F,
) -> ApiResult<CallbackOutcome>
where
    F: FnOnce(GrantState, String) -> Fut,
    Fut: Future<Output = Result<Granted, String>>,
{
    let unknown = || CallbackOutcome::Page {
        ok: false,
        message: "This connect link is not valid. Start connecting again from Payback.".to_owned(),
    };
    let Some(token) = query.state.as_deref().filter(|token| token.len() <= 100) else {
        return Ok(unknown());
    };
    let Some(grant) = store::find(&state.store, provider.word, token).await? else {
        return Ok(unknown());
    };
    let now = state.clock.now();
    let scope = AccountScope::trusted(grant.account_id.clone());
    let product = product_store::find_by_id(&state.store, &scope, &grant.product_id)
        .await?
        .ok_or_else(|| ApiError::internal("a grant state without its product"))?;
    let ended = |message: String| finish_page(state, provider, &grant, &product, false, message);
    if now.millis() >= grant.expires_at {
        let message = "the connect link expired after 15 minutes; start again".to_owned();
        store::fail(&state.store, token, &message).await?;
        return Ok(ended(message));
    }
    if !store::claim_callback(&state.store, token, now).await? {
        return Ok(ended(
            "this connect link was already used; start again to connect another account".to_owned(),
        ));
    }
    let vendor = provider.vendor;
    let result = match (query.error.as_deref(), query.code) {
        (Some("access_denied"), _) => Err(format!(
            "consent was refused at {vendor}, so Payback has no access; start again and allow access"
        )),
        (Some(error), _) => Err(format!(
            "{vendor} answered `{}` instead of a grant; start again",
            error.chars().take(100).collect::<String>()
        )),
        (None, None) => Err(format!("{vendor} sent no authorization code; start again")),
        (None, Some(code)) => match exchange(grant.clone(), code).await {
            Ok(granted) => complete(state, &grant, granted).await,
            Err(message) => Err(message),
        },
    };
    match result {
        Ok(()) => Ok(finish_page(
            state,
            provider,
            &grant,
            &product,
            true,
            format!("{vendor} is connected. Return to Payback to choose what to connect."),
        )),
        Err(message) => {
            store::fail(&state.store, token, &message).await?;
            let actor = started_by(&grant);
            let mut tx = state.store.begin().await?;
            let payload = json!({ "provider": provider.word, "error": message });
            audit::record_product(&mut tx, &actor, &product, "connect.error", payload, now).await?;
            tx.commit().await?;
            Ok(ended(message))
        }
    }
}

/// Seals the exchange's secret and marks the state complete with its options.
async fn complete(state: &AppState, grant: &GrantState, granted: Granted) -> Result<(), String> {
    let internal =
        |err: ApiError| format!("Payback could not finish connecting ({err}); start again");
    let vault = source_config::vault(state).map_err(internal)?;
    let sealed = vault
        .seal(&grant.account_id, granted.secret.to_string().as_bytes())
        .map_err(internal)?;
    let scope = AccountScope::trusted(grant.account_id.clone());
    let now = state.clock.now();
    let stored = async {
        let mut tx = state.store.begin().await?;
        let credential_id =
            connection_store::insert_credential(&mut tx, &scope, &sealed, now).await?;
        store::complete(
            &mut tx,
            &grant.state,
            &credential_id,
            &granted.options.to_string(),
        )
        .await?;
        tx.commit().await?;
        Ok::<(), ApiError>(())
    };
    stored.await.map_err(internal)
}

/// Who started the flow, as history records them.
pub fn started_by(grant: &GrantState) -> Actor {
    Actor {
        who: grant.started_by.clone(),
        via: grant.started_via,
    }
}

/// The dashboard gets a redirect to the product's connections page; other clients a page.
fn finish_page(
    state: &AppState,
    provider: Provider,
    grant: &GrantState,
    product: &ProductRow,
    ok: bool,
    message: String,
) -> CallbackOutcome {
    if grant.client == GrantClient::Dashboard.as_str() {
        CallbackOutcome::Redirect(format!(
            "{}/#/p/{}/connections?{}_state={}",
            state.config.public_url(),
            product.slug,
            provider.word,
            grant.state
        ))
    } else {
        CallbackOutcome::Page { ok, message }
    }
}

/// `GET /connect/{provider}/status`'s answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct GrantStatus {
    /// `pending`, `complete` or `error`.
    pub status: String,
    pub product_slug: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// After `select`: `{activated: [kinds]}`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub results: Option<Value>,
    /// Once complete: what the grant reaches, e.g. `{ads_customers: [...]}` (search) or
    /// `{ad_accounts: [...], pages: [...]}` (social).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub options: Option<Value>,
}

/// `GET /connect/{provider}/status`: 404 for another account's state or an unknown one.
pub async fn status(
    state: &AppState,
    caller: &Caller,
    provider: Provider,
    token: &str,
) -> ApiResult<GrantStatus> {
    let (grant, product) = find_grant(state, caller, provider, token).await?;
    let now = state.clock.now();
    let expired = grant.status == GrantFlowStatus::Pending && now.millis() >= grant.expires_at;
    let parse = |text: &Option<String>| {
        text.as_deref()
            .and_then(|text| serde_json::from_str::<Value>(text).ok())
    };
    Ok(GrantStatus {
        status: if expired {
            GrantFlowStatus::Error
        } else {
            grant.status
        }
        .as_str()
        .to_owned(),
        product_slug: product.slug,
        error: if expired {
            Some("the connect link expired after 15 minutes; start again".to_owned())
        } else {
            grant.error.clone()
        },
        results: parse(&grant.results),
        options: parse(&grant.options),
    })
}

async fn find_grant(
    state: &AppState,
    caller: &Caller,
    provider: Provider,
    token: &str,
) -> ApiResult<(GrantState, ProductRow)> {
    let scope = caller.scope()?;
    let not_found = || ApiError::not_found("connect state");
    let grant = store::find_in(&state.store, scope, provider.word, token)
        .await?
        .ok_or_else(not_found)?;
    let product = product_store::find_by_id(&state.store, scope, &grant.product_id)
        .await?
        .ok_or_else(not_found)?;
    Ok((grant, product))
}

/// A grant ready for `select`, with its options and the kinds it was asked for.
#[derive(Debug)]
pub struct Selectable {
    pub grant: GrantState,
    pub product: ProductRow,
    pub options: Value,
    pub kinds: Vec<ConnectionKind>,
}

impl Selectable {
    pub fn credential_id(&self) -> ApiResult<&str> {
        self.grant
            .credential_id
            .as_deref()
            .ok_or_else(|| ApiError::internal("a complete grant without its credential"))
    }

    pub fn asked_for(&self, kind: ConnectionKind) -> bool {
        self.kinds.contains(&kind)
    }
}

/// The grant `select` may act on: 404 unknown or another account's, 409 not complete (yet, or
/// ended in an error) or already selected.
pub async fn selectable(
    state: &AppState,
    caller: &Caller,
    provider: Provider,
    token: &str,
) -> ApiResult<Selectable> {
    let (grant, product) = find_grant(state, caller, provider, token).await?;
    match grant.status {
        GrantFlowStatus::Complete if grant.selected_at.is_none() => {}
        GrantFlowStatus::Complete => return Err(already_selected()),
        GrantFlowStatus::Error => {
            return Err(ApiError::Conflict(format!(
                "this grant ended with an error: {}",
                grant.error.as_deref().unwrap_or("unknown")
            )));
        }
        GrantFlowStatus::Pending => {
            return Err(ApiError::Conflict(
                "the human has not completed consent yet; poll status until it is complete"
                    .to_owned(),
            ));
        }
    }
    let options = grant
        .options
        .as_deref()
        .and_then(|text| serde_json::from_str(text).ok())
        .unwrap_or_default();
    let words: Vec<String> = serde_json::from_str(&grant.kinds).unwrap_or_default();
    let kinds = words
        .iter()
        .filter_map(|word| ConnectionKind::parse(word))
        .collect();
    Ok(Selectable {
        grant,
        product,
        options,
        kinds,
    })
}

fn already_selected() -> ApiError {
    ApiError::Conflict(
        "this grant's accounts were already selected; start again to connect another".to_owned(),
    )
}

/// One connection `select` makes: its kind, its non-secret settings, and its history payload.
#[derive(Debug)]
pub struct Activation {
    pub kind: ConnectionKind,
    pub config: Value,
    pub audit: Value,
}

/// Claims the selection once and makes each connection (sharing the grant's credential), in
/// one transaction; answers the kinds activated.
pub async fn activate(
    state: &AppState,
    caller: &Caller,
    provider: Provider,
    chosen: &Selectable,
    activations: Vec<Activation>,
) -> ApiResult<Vec<String>> {
    let credential_id = chosen.credential_id()?;
    let activated: Vec<String> = activations
        .iter()
        .map(|activation| activation.kind.as_str().to_owned())
        .collect();
    let results = json!({ "activated": activated }).to_string();
    let scope = caller.scope()?;
    let now = state.clock.now();
    let actor = caller.actor();
    let mut tx = state.store.begin().await?;
    if !store::claim_selection(&mut tx, &chosen.grant.state, &results, now).await? {
        return Err(already_selected());
    }
    for activation in activations {
        connect(
            &mut tx,
            scope,
            &actor,
            &chosen.product,
            provider,
            credential_id,
            activation,
            now,
        )
        .await?;
    }
    tx.commit().await?;
    Ok(activated)
}

#[allow(clippy::too_many_arguments)]
async fn connect(
    tx: &mut Tx,
    scope: &AccountScope,
    actor: &Actor,
    product: &ProductRow,
    provider: Provider,
    credential_id: &str,
    activation: Activation,
    now: Timestamp,
) -> ApiResult<()> {
    let mut config = activation.config;
    config["grant"] = json!(provider.word);
    let config = config.to_string();
    let new = NewConnection {
        product_id: &product.id,
        kind: activation.kind.as_str(),
        status: ConnectionStatus::Active.as_str(),
        config: &config,
        credential_id: Some(credential_id),
        event_maps: None,
    };
    let (connection_id, previous) = connection_store::upsert(tx, scope, new, now).await?;
    if let Some(previous) = previous.filter(|previous| previous != credential_id) {
        connection_store::delete_credential_if_unused(tx, &previous).await?;
    }
    let mut payload = activation.audit;
    payload["connection_id"] = json!(connection_id);
    payload["kind"] = json!(activation.kind.as_str());
    payload["grant"] = json!(provider.word);
    audit::record_product(tx, actor, product, "connection.connect", payload, now).await?;
    Ok(())
}

/// The sealed secret of a grant's credential, opened; `None` when it cannot be (no sealing
/// key, a malformed credential): a sweep then only forgets it.
pub async fn open_grant_secret(
    state: &AppState,
    grant: &GrantState,
    credential_id: &str,
) -> Option<Value> {
    let vault = source_config::vault(state).ok()?;
    let sealed = connection_store::credential(&state.store, credential_id)
        .await
        .ok()??;
    let plain = vault.open(&grant.account_id, &sealed).ok()?;
    serde_json::from_slice(&plain).ok()
}

/// How long a consented grant waits for its selection before its token is revoked.
const SELECTION_WINDOW_MS: i64 = 24 * 60 * MINUTE_MS;
/// Abandoned grants one sweep handles.
const SWEEP_BATCH: i64 = 50;

/// The `sweep_grants` job: a grant consented to but not selected within a day holds a sealed
/// token nobody uses; it is revoked at its provider, its credential deleted, and the state
/// marked `error` (a late `select` is refused). Revocation failures are logged and the token
/// forgotten all the same: keeping it would keep the access.
pub async fn sweep_abandoned(state: &AppState, now: Timestamp) -> ApiResult<String> {
    let before = now.minus_millis(SELECTION_WINDOW_MS);
    let abandoned = store::abandoned(&state.store, before, SWEEP_BATCH).await?;
    let mut revoked = 0;
    for grant in &abandoned {
        let Some(credential_id) = grant.credential_id.as_deref() else {
            continue;
        };
        if let Some(secret) = open_grant_secret(state, grant, credential_id).await {
            let outcome = match grant.provider.as_str() {
                crate::services::searchco::PROVIDER => {
                    crate::services::searchco::revoke(state, &secret).await
                }
                crate::services::socialco::PROVIDER => {
                    crate::services::socialco::revoke(state, &secret).await
                }
                _ => Ok(false),
            };
            match outcome {
                Ok(true) => revoked += 1,
                Ok(false) => {}
                Err(err) => {
                    tracing::warn!(state = %grant.state, error = %err, "revoking an abandoned grant failed");
                }
            }
        }
        let mut tx = state.store.begin().await?;
        store::forget_credential(
            &mut tx,
            &grant.state,
            "no account was selected within a day; Payback revoked its access; start again",
        )
        .await?;
        connection_store::delete_credential_if_unused(&mut tx, credential_id).await?;
        tx.commit().await?;
    }
    Ok(format!(
        "{} abandoned grant(s) forgotten, {revoked} revoked upstream",
        abandoned.len()
    ))
}
