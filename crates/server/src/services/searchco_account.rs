//! The search-engine grant's service-account path (`/connect/searchco/service-account/start`
//! and `/verify`): instead of a person's consent, the tenant gives Payback's Google service
//! account (`PAYBACK_SEARCHCO_SERVICE_ACCOUNT_KEY_FILE`) access to their analytics property,
//! tag manager container or Search Console site, and Payback proves that access with a live
//! read before it connects. Search ads are not on this path (Google Ads has no service
//! accounts for it).
//!
//! A kind joins the path by answering [`GrantedKind::service_account`] with its
//! [`ServiceAccountKind`]: what the account reaches (the grant's own discovery, through the
//! account's credential) and the live read that proves a chosen id.

use std::sync::Arc;

use payback_connectors::google::{GoogleAuth, ServiceAccountKey};
use payback_connectors::oauth::OAuthClient;
use payback_store::products::ProductRow;
use serde::Serialize;
use serde_json::{Value, json};
use utoipa::ToSchema;

use crate::error::{ApiError, ApiResult};
use crate::services::acting::Caller;
use crate::services::grants::{
    self, Activation, BoxFuture, Choices, GrantProvider, GrantedKind, GrantedKinds,
};
use crate::services::searchco::Searchco;
use crate::services::{products, source_config};
use crate::state::AppState;

/// A Google kind's discovery for the grant (`GrantedKind::discover`): the same read its service
/// account makes ([`ServiceAccountKind::discover`]), with the granting login's refresh token, so
/// the two ways in always offer the same options.
pub fn discover_granted<'a>(
    kind: &'a dyn ServiceAccountKind,
    state: &'a AppState,
    client: &'a OAuthClient,
    refresh_token: &'a str,
) -> BoxFuture<'a, Result<Value, String>> {
    Box::pin(async move {
        let auth = GoogleAuth::Grant {
            oauth: client.clone(),
            refresh_token: refresh_token.to_owned(),
        };
        kind.discover(state, &auth).await
    })
}

/// What the service-account path asks of a kind it serves.
pub trait ServiceAccountKind: Send + Sync + 'static {
    /// What the account reaches for this kind: the same object the grant's discovery merges
    /// into the status's `options` (`analytics_a_properties`, ...); `Err` the reason shown.
    fn discover<'a>(
        &'a self,
        state: &'a AppState,
        auth: &'a GoogleAuth,
    ) -> BoxFuture<'a, Result<Value, String>>;

    /// What a person does in Google's product to give the account access, step by step;
    /// `{email}` stands for the account's address.
    fn instructions(&self) -> &'static [&'static str] {
        &[
            "Open the Google product that holds what you connect, and its user or access management.",
            "Add {email} with a read-only role.",
            "Back here, verify and choose what to connect.",
        ]
    }

    /// The connection for `choice` (an id of `options`, which `discover` answered with the same
    /// credential), proven by a live read with `auth`; 400 naming the kind's choice field when
    /// the account cannot read it. The activation's config says nothing of the credential: the
    /// path adds `auth: service_account`.
    fn verify<'a>(
        &'a self,
        state: &'a AppState,
        auth: &'a GoogleAuth,
        options: &'a Value,
        choice: &'a str,
    ) -> BoxFuture<'a, ApiResult<Activation>>;
}

/// `start`'s answer: the address to give access to, the kinds, and how to give it per kind.
#[derive(Debug, Serialize, ToSchema)]
pub struct AccountStarted {
    pub sa_email: String,
    pub kinds: Vec<String>,
    /// Per kind, the steps in Google's product that give the account access.
    #[schema(value_type = Object)]
    pub instructions: Value,
}

/// `verify`'s answer: the options the account reaches (no ids given), or the connections made.
#[derive(Debug, Serialize, ToSchema)]
pub struct AccountVerified {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ok: Option<bool>,
    pub sa_email: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub activated: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub options: Option<Value>,
}

/// `POST /connect/searchco/service-account/start`: which address to give access to, and how.
/// Nothing is stored: the tenant gives access in Google's products, then calls `verify`.
/// 503 without the operator's key; 400 naming `kinds` (search ads, an unknown or unavailable
/// kind); 404 another account's product.
pub async fn start(
    state: &AppState,
    caller: &Caller,
    slug: &str,
    words: &[String],
) -> ApiResult<AccountStarted> {
    let key = source_config::service_account_key(state).await?;
    let kinds = account_kinds(state, words)?;
    let product = products::find(state, caller.scope()?, slug).await?;
    for granted in &kinds {
        granted.admit(state, caller, &product).await?;
    }
    let email = key.client_email();
    let mut instructions = serde_json::Map::new();
    for granted in &kinds {
        instructions.insert(
            granted.kind().as_str().to_owned(),
            json!(steps(granted.as_ref(), email)),
        );
    }
    Ok(AccountStarted {
        sa_email: email.to_owned(),
        kinds: kinds.iter().map(|k| k.kind().as_str().to_owned()).collect(),
        instructions: Value::Object(instructions),
    })
}

/// The kinds of a `start`: the grant's own checks (`kinds` non-empty, each a search-engine kind
/// available here), then only those a service account can connect (not `search_ads`: Google
/// Ads gives service accounts no access).
fn account_kinds(
    state: &AppState,
    words: &[String],
) -> ApiResult<Vec<Arc<dyn GrantedKind<Searchco>>>> {
    let kinds = grants::grant_kinds::<Searchco>(state, Some(words))?;
    if let Some(other) = kinds
        .iter()
        .find(|granted| granted.service_account().is_none())
    {
        return Err(ApiError::bad_request(format!(
            "kinds: {} cannot be connected by a service account; connect it with POST \
             /connect/searchco/start",
            other.kind()
        )));
    }
    Ok(kinds)
}

/// The kind's steps with the account's address written in.
fn steps(granted: &dyn GrantedKind<Searchco>, email: &str) -> Vec<String> {
    granted
        .service_account()
        .map(|account| account.instructions())
        .unwrap_or_default()
        .iter()
        .map(|line| line.replace("{email}", email))
        .collect()
}

/// `POST /connect/searchco/service-account/verify`. With no id: what the account reaches, per
/// kind available here (a kind whose listing failed is under `options.errors` with Google's
/// reason), nothing made. With ids: each proven by a live read, then every connection made in
/// one transaction, active, its backfill due at once. 400 naming the field of an id the
/// account cannot read (or of a kind not available here); 503 without the key; 404 another
/// account's product.
pub async fn verify(
    state: &AppState,
    caller: &Caller,
    slug: &str,
    choices: &Choices,
) -> ApiResult<AccountVerified> {
    let key = Arc::new(source_config::service_account_key(state).await?);
    let product = products::find(state, caller.scope()?, slug).await?;
    let sa_email = key.client_email().to_owned();
    let chosen = chosen_kinds(state, choices)?;
    if chosen.is_empty() {
        let options = reachable(state, &key).await;
        return Ok(AccountVerified {
            status: None,
            ok: None,
            sa_email,
            activated: None,
            options: Some(options),
        });
    }
    let mut activations = Vec::new();
    for (granted, choice) in &chosen {
        granted.admit(state, caller, &product).await?;
        let field = granted.choice_field();
        let Some(account) = granted.service_account() else {
            continue;
        };
        let auth = GoogleAuth::ServiceAccount {
            key: Arc::clone(&key),
            scopes: granted.scopes(),
        };
        let options = account
            .discover(state, &auth)
            .await
            .map_err(|reason| ApiError::bad_request(format!("{field}: {reason}")))?;
        let mut activation = account.verify(state, &auth, &options, choice).await?;
        activation.config["auth"] = json!(source_config::SERVICE_ACCOUNT_AUTH);
        activation.audit["auth"] = json!(source_config::SERVICE_ACCOUNT_AUTH);
        activations.push(activation);
    }
    let activated = connect_all(state, caller, &product, activations).await?;
    Ok(AccountVerified {
        status: Some("complete"),
        ok: Some(true),
        sa_email,
        activated: Some(activated),
        options: None,
    })
}

/// A search-engine kind with the id `verify` was given for it.
type Chosen<'a> = (Arc<dyn GrantedKind<Searchco>>, &'a str);

/// The kinds `verify` was given ids for, each with its id; 400 naming the field of a kind not
/// available here.
fn chosen_kinds<'a>(state: &AppState, choices: &'a Choices) -> ApiResult<Vec<Chosen<'a>>> {
    let mut chosen = Vec::new();
    for (field, given) in choices {
        let Some(id) = given.as_deref() else {
            continue;
        };
        let granted = GrantedKinds::<Searchco>::of(state)
            .iter()
            .find(|granted| granted.choice_field() == *field)
            .filter(|granted| granted.available(state) && granted.service_account().is_some())
            .ok_or_else(|| {
                ApiError::bad_request(format!(
                    "{field}: that kind is not available for service accounts on this server"
                ))
            })?;
        chosen.push((Arc::clone(granted), id));
    }
    Ok(chosen)
}

/// Every available kind's listing through the account, merged; failures under `errors`.
async fn reachable(state: &AppState, key: &Arc<ServiceAccountKey>) -> Value {
    let mut options = serde_json::Map::new();
    let mut errors = serde_json::Map::new();
    for granted in GrantedKinds::<Searchco>::of(state)
        .iter()
        .filter(|granted| granted.available(state))
    {
        let Some(account) = granted.service_account() else {
            continue;
        };
        let auth = GoogleAuth::ServiceAccount {
            key: Arc::clone(key),
            scopes: granted.scopes(),
        };
        match account.discover(state, &auth).await {
            Ok(Value::Object(found)) => options.extend(found),
            Ok(_) => {}
            Err(reason) => {
                errors.insert(granted.kind().as_str().to_owned(), json!(reason));
            }
        }
    }
    if !errors.is_empty() {
        options.insert("errors".to_owned(), Value::Object(errors));
    }
    Value::Object(options)
}

/// Makes the proven connections with their history events, in one transaction.
async fn connect_all(
    state: &AppState,
    caller: &Caller,
    product: &ProductRow,
    activations: Vec<Activation>,
) -> ApiResult<Vec<String>> {
    let activated: Vec<String> = activations
        .iter()
        .map(|activation| activation.kind.as_str().to_owned())
        .collect();
    let scope = caller.scope()?;
    let actor = caller.actor();
    let now = state.clock.now();
    let mut tx = state.store.begin().await?;
    for activation in activations {
        grants::connect(
            &mut tx,
            scope,
            &actor,
            product,
            Searchco::PROVIDER,
            None,
            activation,
            now,
        )
        .await?;
    }
    tx.commit().await?;
    Ok(activated)
}
