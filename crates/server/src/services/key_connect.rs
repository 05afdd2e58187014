//! What every connect with a pasted key shares: the steps in their order ([`connect`]: the
//! vault, the caller's product, the kind's proof of the key, the store), the key sealed and
//! stored with its connection and history event in one transaction, and a vendor's refusal of
//! the key turned into an answer naming the field at fault.

use std::future::Future;

use payback_connectors::{ConnectorError, Source};
use payback_domain::connection::{ConnectionKind, ConnectionStatus};
use payback_store::connections::{self as store, NewConnection};
use payback_store::products::ProductRow;
use serde::Serialize;
use serde_json::{Value, json};
use utoipa::ToSchema;

use crate::error::{ApiError, ApiResult};
use crate::services::acting::Caller;
use crate::services::{audit, products, source_config};
use crate::state::AppState;

/// A keyed connect's answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct Connected {
    pub ok: bool,
    pub connection_id: String,
}

impl Connected {
    pub fn new(connection_id: String) -> Self {
        Self {
            ok: true,
            connection_id,
        }
    }
}

/// What a keyed connection is stored with.
#[derive(Debug)]
pub struct Keyed {
    pub kind: ConnectionKind,
    /// The sealed part (`{"access_token": ...}`), never shown again.
    pub secret: Value,
    /// The non-secret settings shown in `GET /connections`.
    pub config: Value,
    /// The history event's payload; `connection_id` and `kind` are added.
    pub audit: Value,
}

/// A connect with a pasted key, in the order every keyed kind answers: 503 without
/// `PAYBACK_SECRET_KEY` and 404 for a product the caller cannot see, both before the body's
/// settings are read further or anything is sent; then `proven`, the kind's check of the key
/// with the vendor (which maps the vendor's refusals, may spend a budget first: replay_a's
/// daily requests, and answers what to store); then that connection stored ([`store_keyed`]).
/// `proven` is a future, so none of it runs until the product is found.
pub async fn connect(
    state: &AppState,
    caller: &Caller,
    slug: &str,
    proven: impl Future<Output = ApiResult<Keyed>>,
) -> ApiResult<Connected> {
    source_config::vault(state)?;
    let product = products::find(state, caller.scope()?, slug).await?;
    let keyed = proven.await?;
    let connection_id = store_keyed(state, caller, &product, keyed).await?;
    Ok(Connected::new(connection_id))
}

/// The usual proof of a key: one `test` of the kind's source (whatever that source does first,
/// such as taking from a budget, included), its refusal mapped by `refused`; `keyed` once it
/// passes.
pub async fn prove(
    source: impl Source,
    refused: impl FnOnce(ConnectorError) -> ApiError,
    keyed: Keyed,
) -> ApiResult<Keyed> {
    source.test().await.map_err(refused)?;
    Ok(keyed)
}

/// Seals the secret and writes the connection (replacing the product's connection of that kind
/// and, unless shared, its credential) and its `connection.connect` event in one transaction;
/// the first sync is due at once. 503 without `PAYBACK_SECRET_KEY`.
pub async fn store_keyed(
    state: &AppState,
    caller: &Caller,
    product: &ProductRow,
    keyed: Keyed,
) -> ApiResult<String> {
    let vault = source_config::vault(state)?;
    let scope = caller.scope()?;
    let sealed = vault.seal(scope.account_id(), keyed.secret.to_string().as_bytes())?;
    let config = keyed.config.to_string();
    let now = state.clock.now();
    let mut tx = state.store.begin().await?;
    let credential_id = store::insert_credential(&mut tx, scope, &sealed, now).await?;
    let new = NewConnection {
        product_id: &product.id,
        kind: keyed.kind.as_str(),
        status: ConnectionStatus::Active.as_str(),
        config: &config,
        credential_id: Some(&credential_id),
        event_maps: None,
    };
    let (id, previous) = store::upsert(&mut tx, scope, new, now).await?;
    if let Some(previous) = previous {
        store::delete_credential_if_unused(&mut tx, &previous).await?;
    }
    let mut payload = keyed.audit;
    payload["connection_id"] = json!(id);
    payload["kind"] = json!(keyed.kind.as_str());
    audit::record_product(
        &mut tx,
        &caller.actor(),
        product,
        "connection.connect",
        payload,
        now,
    )
    .await?;
    tx.commit().await?;
    Ok(id)
}

/// A vendor's refusal of a connect, as a 4xx naming the field at fault (502 when the vendor
/// could not answer).
pub fn refused(err: ConnectorError, id_field: &str) -> ApiError {
    match err {
        ConnectorError::Unauthorized(reason) => {
            ApiError::bad_request(format!("access_token: refused: {reason}"))
        }
        ConnectorError::Config(reason) | ConnectorError::Vendor(reason) => {
            ApiError::bad_request(format!("{id_field}: {reason}"))
        }
        other => ApiError::BadGateway(other.to_string()),
    }
}

/// A vendor's refusal of a pasted key: the key refused as a 400 naming `secret_field` and quoting
/// the vendor's reason (`api_key: refused by Ahrefs: ...`); a setting the connector found wrong,
/// which names its own field, as a 400; 502 when the vendor could not answer or failed.
pub fn key_refused(err: ConnectorError, secret_field: &str, vendor: &str) -> ApiError {
    match err {
        ConnectorError::Unauthorized(reason) => {
            ApiError::bad_request(format!("{secret_field}: refused by {vendor}: {reason}"))
        }
        ConnectorError::Config(reason) => ApiError::bad_request(reason),
        other => ApiError::BadGateway(other.to_string()),
    }
}

/// An access token, in characters (Meta's and LinkedIn's are a few hundred).
pub const ACCESS_TOKEN_MAX_CHARS: usize = 4_000;
