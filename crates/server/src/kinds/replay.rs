//! What the two replay kinds (`replay_a`, `product_analytics_a`) share for
//! `services::recordings`: which kinds sample recordings, and where each one's recordings are
//! watched (Clarity's dashboard filtered by path, PostHog's replay list), read from their
//! plug-ins' settings, so the service names no kind.

use payback_connectors::{product_analytics_a, replay_a};
use payback_domain::connection::ConnectionKind;
use payback_store::connections::ConnectionRow;

use crate::error::{ApiError, ApiResult};
use crate::state::AppState;

/// The replay kinds, in the order `sources` lists them and `recordings_url` prefers them.
pub const REPLAY_KINDS: [ConnectionKind; 2] =
    [ConnectionKind::ReplayA, ConnectionKind::ProductAnalyticsA];

/// The replay kinds whose friction rows name the URLs their tool saw, which discovery tracks as
/// pages: Clarity's export lists URLs; PostHog's pages come through its sessions' entry paths.
pub const URL_LISTING_KINDS: [ConnectionKind; 1] = [ConnectionKind::ReplayA];

/// Where `row`'s recordings are watched, narrowed to `path` where the tool can be; none for a
/// kind that is not a replay kind.
pub fn watch_url(
    state: &AppState,
    row: &ConnectionRow,
    path: Option<&str>,
) -> ApiResult<Option<String>> {
    let malformed =
        || ApiError::internal(format!("a {} connection's config is malformed", row.kind));
    Ok(match row.kind {
        ConnectionKind::ReplayA => {
            let settings: super::replay_a::Settings =
                serde_json::from_str(&row.config).map_err(|_| malformed())?;
            Some(replay_a::recordings_url(&settings.project_id, path))
        }
        ConnectionKind::ProductAnalyticsA => {
            let settings: super::product_analytics_a::Settings =
                serde_json::from_str(&row.config).map_err(|_| malformed())?;
            Some(product_analytics_a::recordings_url(
                &settings.origin(state),
                &settings.project_id,
            ))
        }
        _ => None,
    })
}
