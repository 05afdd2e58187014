//! `POST /products/{slug}/tracking/gtm-deploy`'s rules: the product's snippet published in its
//! tag manager container. It changes the live site, with no approval card to wait for, so only
//! a person's own session in the dashboard does it (as the ad account's URL suffix: issue 35's
//! rule that nothing an agent does changes what the founder's customers see until a human says
//! yes); API keys, the operator token, MCP and chat get 403 before anything is read, and no
//! agent tool publishes. The grant's scopes are checked before anything is written at Google.

use payback_connectors::ConnectorError;
use payback_connectors::tagmgr::{self, DeployError, DeployRequest};
use payback_domain::Via;
use payback_store::{connections, tag_manager, tracking_keys};
use serde::Serialize;
use serde_json::json;
use utoipa::ToSchema;

use super::{KIND, config, connected};
use crate::error::{ApiError, ApiResult};
use crate::services::acting::{Caller, Principal};
use crate::services::{audit, products, tracking};
use crate::state::AppState;

/// The refusal every caller but a person in the dashboard gets.
pub(super) const ONLY_A_PERSON: &str = "only a person signed in to the dashboard may publish to Tag Manager (it changes the live site); ask the founder to press Publish to Tag Manager on the tracking page";

/// The Custom HTML tag Payback keeps in the container (one: a later deploy updates it).
const TAG_NAME: &str = "Payback tracking snippet";

/// A publish, in Tag Manager's names.
#[derive(Debug, Serialize, ToSchema)]
pub struct GtmDeployed {
    pub ok: bool,
    pub workspace_name: String,
    pub version_name: String,
    pub published: bool,
}

/// What a deploy came to.
#[derive(Debug)]
pub(super) enum Outcome {
    Published(GtmDeployed),
    /// The grant (or the service account) may not write: 403 with `reconnect: true`.
    Reconnect(String),
}

/// A person's own session through the dashboard.
fn may_deploy(caller: &Caller) -> bool {
    matches!(caller.principal, Principal::Person(_)) && caller.via == Via::Dashboard
}

/// Publishes the product's snippet in its container. 403 for any caller but a person in the
/// dashboard; 404 another account's product; 409 without an active tag manager or a write
/// key; [`Outcome::Reconnect`] when the grant lacks the write scopes (nothing written) or Google
/// refuses a write; 502 on a compiler error (nothing published) or another failure.
pub(super) async fn deploy(state: &AppState, caller: &Caller, slug: &str) -> ApiResult<Outcome> {
    if !may_deploy(caller) {
        return Err(ApiError::Forbidden(ONLY_A_PERSON.to_owned()));
    }
    let product = products::find(state, caller.scope()?, slug).await?;
    let row = connections::find(&state.store, &product.id, KIND.as_str())
        .await?
        .filter(connected)
        .ok_or_else(|| {
            ApiError::Conflict(
                "tag manager not connected: connect Google Tag Manager for this product first"
                    .to_owned(),
            )
        })?;
    let key = tracking_keys::live_for_product(&state.store, &product.id)
        .await?
        .ok_or_else(|| {
            ApiError::Conflict(
                "no write key: open the tracking page (or GET the tracking key) to mint one first"
                    .to_owned(),
            )
        })?;
    let config = config(state, &row).await?;
    let now = state.clock.now();
    let stamp = now.to_rfc3339();
    let workspace_name = format!("Payback snippet {stamp}");
    let version_name = format!("Payback tracking snippet {stamp}");
    let notes = format!(
        "Published from Payback for {}: the tracking snippet as one Custom HTML tag on all pages.",
        product.slug
    );
    let snippet = tracking::snippet(state, &key.key);
    let request = DeployRequest {
        snippet: &snippet,
        tag_name: TAG_NAME,
        workspace_name: &workspace_name,
        version_name: &version_name,
        notes: &notes,
    };
    let deployed = match tagmgr::deploy(&state.http, &config, request).await {
        Ok(deployed) => deployed,
        Err(err) => return refused(err),
    };
    let scope = caller.scope()?;
    let mut tx = state.store.begin().await?;
    tag_manager::record_deploy(
        &mut tx,
        scope,
        &row.id,
        tag_manager::Deploy {
            container_path: &config.container_path,
            workspace_name: &deployed.workspace_name,
            version_name: &deployed.version_name,
            published: deployed.published,
        },
        now,
    )
    .await?;
    audit::record_product(
        &mut tx,
        &caller.actor(),
        &product,
        "tracking.gtm_deploy",
        json!({
            "connection_id": row.id,
            "container_path": config.container_path,
            "workspace_name": deployed.workspace_name,
            "version_name": deployed.version_name,
            "version_path": deployed.version_path,
            "published": deployed.published,
        }),
        now,
    )
    .await?;
    tx.commit().await?;
    Ok(Outcome::Published(GtmDeployed {
        ok: true,
        workspace_name: deployed.workspace_name,
        version_name: deployed.version_name,
        published: deployed.published,
    }))
}

/// A deploy Google (or the grant) refused, as the caller hears it.
fn refused(err: DeployError) -> ApiResult<Outcome> {
    match err {
        DeployError::MissingScopes(missing) => Ok(Outcome::Reconnect(format!(
            "the Google grant lets Payback read Tag Manager but not publish (it lacks {}); \
             nothing was written: reconnect Google Tag Manager and allow every permission",
            missing.join(", ")
        ))),
        DeployError::Forbidden { error, wrote } => Ok(Outcome::Reconnect(format!(
            "Tag Manager refused the publish ({error}); {}: reconnect Google Tag Manager, or \
             give the login (or Payback's service account) Publish permission on the container",
            wrote.words()
        ))),
        DeployError::CompilerError { workspace_name, at } => Err(ApiError::BadGateway(format!(
            "Tag Manager found a compiler error ({at}) in workspace {workspace_name:?}; nothing \
             was published: open the workspace in Tag Manager to see it"
        ))),
        DeployError::Failed {
            error: ConnectorError::Unauthorized(reason),
            wrote,
        } => Ok(Outcome::Reconnect(format!(
            "Google refused Payback's access ({reason}); {}: reconnect Google Tag Manager",
            wrote.words()
        ))),
        DeployError::Failed { error, wrote } => Err(ApiError::BadGateway(format!(
            "publishing to Tag Manager failed: {error}; {}",
            wrote.words()
        ))),
    }
}
