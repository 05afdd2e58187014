//! `POST /connect/{provider}/select`: the person's choices turned into connections by the
//! kinds they were asked for, once, in one transaction sharing the grant's credential.

use payback_domain::connection::{ConnectionKind, ConnectionStatus, GrantFlowStatus};
use payback_domain::{Actor, Timestamp};
use payback_store::connections::{self as connection_store, NewConnection};
use payback_store::grant_states::{self as store, GrantState};
use payback_store::products::ProductRow;
use payback_store::{AccountScope, Tx};
use serde_json::{Value, json};

use super::{GrantProvider, GrantedKinds, Provider, find_grant, kinds_of};
use crate::error::{ApiError, ApiResult};
use crate::services::acting::Caller;
use crate::services::audit;
use crate::state::AppState;

/// `select`'s body as the flow reads it: each choice field of the provider's body with what
/// was given for it.
pub type Choices = [(&'static str, Option<String>)];

/// `POST /connect/{provider}/select`: activates the chosen entities, once. 404 unknown state,
/// 409 not complete (yet, or ended in an error) or already selected, 400 a choice for a kind
/// the grant was not asked for or that it does not offer (and whatever a kind's own checks
/// refuse). Each kind asked for needs its choice unless exactly one option exists.
pub async fn select<P: GrantProvider>(
    state: &AppState,
    caller: &Caller,
    token: &str,
    choices: &Choices,
) -> ApiResult<Vec<String>> {
    let chosen = selectable(state, caller, P::PROVIDER, token).await?;
    let registered = GrantedKinds::<P>::of(state);
    for (field, given) in choices {
        if given.is_none() {
            continue;
        }
        match registered
            .iter()
            .find(|granted| granted.choice_field() == *field)
        {
            Some(granted) if chosen.asked_for(granted.kind()) => {}
            Some(granted) => {
                return Err(ApiError::bad_request(format!(
                    "{field}: {} was not part of this grant",
                    granted.kind()
                )));
            }
            None => {
                return Err(ApiError::bad_request(format!(
                    "{field}: that kind was not part of this grant"
                )));
            }
        }
    }
    let mut activations = Vec::new();
    for granted in registered
        .iter()
        .filter(|granted| chosen.asked_for(granted.kind()))
    {
        granted.admit(state, caller, &chosen.product).await?;
        let choice = choices
            .iter()
            .find(|(field, _)| *field == granted.choice_field())
            .and_then(|(_, given)| given.as_deref());
        activations.push(granted.activate(state, caller, &chosen, choice).await?);
    }
    activate(state, caller, P::PROVIDER, &chosen, activations).await
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
    let kinds = kinds_of(&grant);
    Ok(Selectable {
        grant,
        product,
        options,
        kinds,
    })
}

pub(super) fn already_selected() -> ApiError {
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
            Some(credential_id),
            activation,
            now,
        )
        .await?;
    }
    tx.commit().await?;
    Ok(activated)
}

/// Makes (or replaces) one connection of the grant's `provider` with its history event, in the
/// caller's transaction; `credential_id` is the grant's sealed credential (none for Payback's
/// service account, whose key is the operator's and never stored per connection). A
/// connection replaced drops its old credential when nothing else uses it.
#[allow(clippy::too_many_arguments)]
pub(crate) async fn connect(
    tx: &mut Tx,
    scope: &AccountScope,
    actor: &Actor,
    product: &ProductRow,
    provider: Provider,
    credential_id: Option<&str>,
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
        credential_id,
        event_maps: None,
    };
    let (connection_id, previous) = connection_store::upsert(tx, scope, new, now).await?;
    if let Some(previous) = previous.filter(|previous| Some(previous.as_str()) != credential_id) {
        connection_store::delete_credential_if_unused(tx, &previous).await?;
    }
    let mut payload = activation.audit;
    payload["connection_id"] = json!(connection_id);
    payload["kind"] = json!(activation.kind.as_str());
    payload["grant"] = json!(provider.word);
    audit::record_product(tx, actor, product, "connection.connect", payload, now).await?;
    Ok(())
}
