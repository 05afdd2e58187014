//! `tagmgr`: one Google Tag Manager container, connected through the search-engine grant or
//! Payback's service account. Tag manager has no funnel data: its sync is the tag audit (is
//! the product's snippet live in the container's published version?), and
//! `POST /products/{slug}/tracking/gtm-deploy` publishes the snippet there when a person asks.
//! What it knows shows in the tracking key info's `gtm_connected` and `gtm_deploy`
//! (`services::tracking`), through the [`GtmStatus`] it registers.
//!
//! One file per concern: `grant` (the grant's and the service account's kind), `source` (the
//! audit as the connection's source), `deploy` (the publish's rules), `route` (its handler),
//! `status` (what the tracking page shows).

mod deploy;
mod grant;
mod route;
mod source;
mod status;

use std::sync::Arc;

use payback_connectors::tagmgr::{self, SCOPES, TagManagerConfig};
use payback_domain::connection::{ConnectionKind, ConnectionStatus};
use payback_store::connections::ConnectionRow;
use payback_store::products::ProductRow;
use serde::Deserialize;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{Granted, Plugin};
use crate::error::ApiResult;
use crate::services::source_config;
use crate::services::tracking::GtmStatus;
use crate::state::{AppState, OpenFuture};

const KIND: ConnectionKind = ConnectionKind::Tagmgr;

pub fn plugin() -> Plugin {
    Plugin {
        kind: KIND,
        open,
        routes: || OpenApiRouter::new().routes(routes!(route::gtm_deploy)),
        grant: Some(Granted::Searchco(Arc::new(grant::TagManager))),
        rules: super::no_rules,
    }
}

/// What the tracking key info asks of the tag manager, registered in the state's plug-ins.
pub fn gtm_status() -> GtmStatus {
    GtmStatus(status::gtm_deploy)
}

/// What `select` (or the service-account path) stored of the chosen container.
#[derive(Deserialize)]
struct Settings {
    container_path: String,
}

/// The connection's container and credential (the grant's refresh token with Payback's OAuth
/// client, or Payback's service account, asking for every tag manager scope).
async fn config(state: &AppState, row: &ConnectionRow) -> ApiResult<TagManagerConfig> {
    let settings: Settings = source_config::settings_of(row)?;
    let auth = source_config::google_auth(state, row, &SCOPES).await?;
    let mut config = TagManagerConfig::new(settings.container_path, auth);
    config.api_base_url = api_base_url(state);
    Ok(config)
}

/// The audit as the connection's source (a sync audits; nothing lands in the funnel).
fn open<'a>(
    state: &'a AppState,
    product: &'a ProductRow,
    row: &'a ConnectionRow,
) -> OpenFuture<'a> {
    Box::pin(async move {
        let config = config(state, row).await?;
        Ok(
            Box::new(source::AuditSource::new(state, product, row, config))
                as Box<dyn payback_connectors::Source>,
        )
    })
}

/// `PAYBACK_TAGMGR_API_URL`, else Google's origin.
fn api_base_url(state: &AppState) -> String {
    source_config::vendor_origin(state, KIND, tagmgr::DEFAULT_API_BASE_URL)
}

/// A connection made and not switched off: active, or active with its last run failed (a
/// failed audit does not unplug the tag manager; a deploy may still fix what failed). A
/// service account's connection has no stored credential, so none is asked for here.
fn connected(row: &ConnectionRow) -> bool {
    matches!(
        row.status,
        ConnectionStatus::Active | ConnectionStatus::Error
    )
}
