//! Discovery: the product's top landing paths by sessions, as a session source counted them
//! (`landing_sessions` snapshots), and the URLs a replay tool listed (Clarity's friction rows),
//! become tracked pages (`source` = that kind) unless an enabled filter excludes them or the
//! product tracks them already. Idempotent (a tracked path
//! is skipped, and the insert ignores one added meanwhile) and cheap (one grouped read of the
//! window's snapshots by their metric index), so it runs on every list read, and a sync that
//! has just written those snapshots may call [`discover`] too.

use std::collections::HashSet;

use payback_domain::landing_path::landing_path;
use payback_store::AccountScope;
use payback_store::landing_pages::{filters, friction, pages, traffic};
use payback_store::products::ProductRow;

use crate::error::ApiResult;
use crate::kinds::replay::URL_LISTING_KINDS;
use crate::services::landing_pages::filters::is_excluded;
use crate::services::landing_pages::traffic::SESSION_KINDS;
use crate::state::AppState;
use payback_domain::span::Span;

/// Sessions a path needs over the window to be discovered.
pub const MIN_SESSIONS: f64 = 10.0;
/// The most top paths one discovery looks at.
pub const MAX_DISCOVERED: i64 = 50;

/// Tracks the top session paths of `span` of every session kind and the URLs replay tools
/// listed in it; answers how many pages it added. Paths that are not paths (GA4's
/// `(not set)`, anything not starting with `/`) are skipped.
pub async fn discover(state: &AppState, product: &ProductRow, span: Span) -> ApiResult<u64> {
    let (first, last) = (span.first_day(), span.last_day());
    let mut added = 0;
    for kind in SESSION_KINDS {
        let top = traffic::top_session_paths(
            &state.store,
            &product.id,
            kind,
            &first,
            &last,
            MIN_SESSIONS,
            MAX_DISCOVERED,
        )
        .await?;
        let paths = top.into_iter().map(|row| row.path).collect();
        added += track(state, product, kind, paths).await?;
    }
    for kind in URL_LISTING_KINDS {
        let kind = kind.as_str();
        let seen = friction::paths_seen(
            &state.store,
            &product.id,
            kind,
            &first,
            &last,
            MAX_DISCOVERED,
        )
        .await?;
        let paths = seen.into_iter().map(|row| row.path).collect();
        added += track(state, product, kind, paths).await?;
    }
    Ok(added)
}

/// Tracks those of `found` (as `kind` found them, best first) that are paths, not tracked yet
/// and not excluded; answers how many it added.
async fn track(
    state: &AppState,
    product: &ProductRow,
    kind: &str,
    found: Vec<String>,
) -> ApiResult<u64> {
    if found.is_empty() {
        return Ok(0);
    }
    let scope = AccountScope::trusted(product.account_id.clone());
    let tracked: HashSet<String> = pages::paths(&state.store, &scope, &product.id)
        .await?
        .into_iter()
        .collect();
    let exclusions = filters::list(&state.store, &scope, &product.id).await?;
    let mut candidates: Vec<(String, String)> = Vec::new();
    for raw in found {
        if !raw.starts_with('/') {
            continue;
        }
        let path = landing_path(&raw);
        let seen = candidates.iter().any(|(known, _)| *known == path);
        if seen || tracked.contains(&path) || is_excluded(&exclusions, &path) {
            continue;
        }
        let url = page_url(product.domain.as_deref(), &path);
        candidates.push((path, url));
    }
    let new: Vec<pages::NewPage<'_>> = candidates
        .iter()
        .map(|(path, url)| pages::NewPage { path, url })
        .collect();
    Ok(pages::insert_missing(
        &state.store,
        &scope,
        &product.id,
        &new,
        kind,
        state.clock.now(),
    )
    .await?)
}

/// A discovered page's URL: on the product's domain when it has one, else the path alone (it
/// can be tracked and counted, not fetched).
fn page_url(domain: Option<&str>, path: &str) -> String {
    match domain.filter(|domain| !domain.is_empty()) {
        Some(domain) => format!("https://{domain}{path}"),
        None => path.to_owned(),
    }
}
