//! The tracking key info's `gtm_deploy`: the connected container, whether the audit found the
//! snippet live there, and Payback's last publish in it; `None` unless the tag manager is
//! connected.

use payback_store::products::ProductRow;
use payback_store::{AccountScope, connections, tag_manager};
use serde::Deserialize;
use serde_json::{Value, json};

use super::{KIND, connected};
use crate::error::ApiResult;
use crate::services::grants::BoxFuture;
use crate::state::AppState;

#[derive(Deserialize)]
struct Settings {
    container_path: String,
}

/// `{container_path, snippet_live, workspace_name, version_name, published, deployed_at}`;
/// `snippet_live` false until an audit found it, the deploy's fields null until Payback
/// published in this container.
pub(super) fn gtm_deploy<'a>(
    state: &'a AppState,
    product: &'a ProductRow,
) -> BoxFuture<'a, ApiResult<Option<Value>>> {
    Box::pin(async move {
        let Some(row) = connections::find(&state.store, &product.id, KIND.as_str())
            .await?
            .filter(connected)
        else {
            return Ok(None);
        };
        let settings: Settings = crate::services::source_config::settings_of(&row)?;
        let scope = AccountScope::trusted(row.account_id.clone());
        let known = tag_manager::find(&state.store, &scope, &row.id)
            .await?
            .filter(|known| known.container_path == settings.container_path);
        let at = |millis: Option<i64>| {
            millis.map(|millis| payback_domain::Timestamp::from_millis(millis).to_rfc3339())
        };
        Ok(Some(match known {
            Some(known) => json!({
                "container_path": settings.container_path,
                "snippet_live": known.snippet_live.unwrap_or(false),
                "workspace_name": known.workspace_name,
                "version_name": known.version_name,
                "published": known.published.unwrap_or(false),
                "deployed_at": at(known.deployed_at),
            }),
            None => json!({
                "container_path": settings.container_path,
                "snippet_live": false,
                "workspace_name": null,
                "version_name": null,
                "published": false,
                "deployed_at": null,
            }),
        }))
    })
}
