//! Exclude filters: patterns over landing paths that mark pages `is_excluded` and keep
//! discovery from adding them. A pattern is at most 200 characters and starts with `/` or `*`.
//! Without `*` it is a segment prefix: `/blog` matches `/blog` and `/blog/x`, not `/blogger`
//! (`/` matches every path). With `*` it is a glob over the whole path, each `*` any characters
//! (`/` included): `/docs/*/v2` or `*.pdf`. Only enabled filters exclude. Every change is
//! written to the product's history in the transaction that makes it.

use payback_domain::Timestamp;
use payback_store::Tx;
use payback_store::landing_pages::filters::{self as store, FilterRow};
use payback_store::products::ProductRow;
use serde::Serialize;
use serde_json::json;
use utoipa::ToSchema;

use crate::error::{ApiError, ApiResult};
use crate::services::acting::Caller;
use crate::services::{audit, products};
use crate::state::AppState;

/// `pattern`, in characters.
pub const PATTERN_MAX_CHARS: usize = 200;
/// What a pattern looks like, as the OpenAPI document states it: a `/` or `*` first, no spaces.
pub const PATTERN_RULE: &str = r"^[/*]\S*$";

/// The spec's exclude filter.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct ExcludeFilterView {
    pub id: String,
    pub product_id: String,
    pub pattern: String,
    pub enabled: bool,
    pub created_at: String,
    pub updated_at: String,
}

impl From<FilterRow> for ExcludeFilterView {
    fn from(row: FilterRow) -> Self {
        Self {
            id: row.id,
            product_id: row.product_id,
            pattern: row.pattern,
            enabled: row.enabled,
            created_at: Timestamp::from_millis(row.created_at).to_rfc3339(),
            updated_at: Timestamp::from_millis(row.updated_at).to_rfc3339(),
        }
    }
}

/// The pattern as it is stored; 400 naming `pattern` otherwise ([`PATTERN_RULE`]).
pub fn check_pattern(pattern: &str) -> ApiResult<String> {
    let bad = |message: &str| ApiError::bad_request(format!("pattern: {message}"));
    if pattern.chars().count() > PATTERN_MAX_CHARS {
        return Err(bad(&format!(
            "must be at most {PATTERN_MAX_CHARS} characters"
        )));
    }
    if !(pattern.starts_with('/') || pattern.starts_with('*')) {
        return Err(bad("must start with `/` or `*`"));
    }
    if pattern.chars().any(char::is_whitespace) {
        return Err(bad("must not contain spaces"));
    }
    Ok(pattern.to_owned())
}

/// Whether `pattern` matches `path` (the rules above).
pub fn matches(pattern: &str, path: &str) -> bool {
    if pattern.contains('*') {
        return glob(pattern.as_bytes(), path.as_bytes());
    }
    let prefix = pattern.trim_end_matches('/');
    prefix.is_empty()
        || path == prefix
        || path
            .strip_prefix(prefix)
            .is_some_and(|rest| rest.starts_with('/'))
}

/// Whether an enabled filter of `filters` matches `path`.
pub fn is_excluded(filters: &[FilterRow], path: &str) -> bool {
    filters
        .iter()
        .any(|filter| filter.enabled && matches(&filter.pattern, path))
}

/// `*` any run of bytes, everything else itself; the whole text must match. Backtracks only
/// to the last `*`, so it is linear in practice and never exponential.
fn glob(pattern: &[u8], text: &[u8]) -> bool {
    let (mut p, mut t) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while t < text.len() {
        if p < pattern.len() && pattern[p] == b'*' {
            star = Some((p, t));
            p += 1;
        } else if p < pattern.len() && pattern[p] == text[t] {
            p += 1;
            t += 1;
        } else if let Some((star_p, star_t)) = star {
            p = star_p + 1;
            t = star_t + 1;
            star = Some((star_p, star_t + 1));
        } else {
            return false;
        }
    }
    pattern[p..].iter().all(|byte| *byte == b'*')
}

pub async fn list(
    state: &AppState,
    caller: &Caller,
    slug: &str,
) -> ApiResult<Vec<ExcludeFilterView>> {
    let scope = caller.scope()?;
    let product = products::find(state, scope, slug).await?;
    let rows = store::list(&state.store, scope, &product.id).await?;
    Ok(rows.into_iter().map(ExcludeFilterView::from).collect())
}

pub async fn create(
    state: &AppState,
    caller: &Caller,
    slug: &str,
    pattern: &str,
    enabled: Option<bool>,
) -> ApiResult<ExcludeFilterView> {
    let pattern = check_pattern(pattern)?;
    let scope = caller.scope()?;
    let product = products::find(state, scope, slug).await?;
    let now = state.clock.now();
    let mut tx = state.store.begin().await?;
    let row = store::insert(
        &mut tx,
        scope,
        &product.id,
        &pattern,
        enabled.unwrap_or(true),
        now,
    )
    .await?;
    record(
        &mut tx,
        caller,
        &product,
        "landing_filter.create",
        &row,
        now,
    )
    .await?;
    tx.commit().await?;
    Ok(row.into())
}

pub async fn update(
    state: &AppState,
    caller: &Caller,
    slug: &str,
    id: &str,
    pattern: Option<&str>,
    enabled: Option<bool>,
) -> ApiResult<ExcludeFilterView> {
    if pattern.is_none() && enabled.is_none() {
        return Err(ApiError::bad_request(
            "nothing to update: send pattern or enabled",
        ));
    }
    let pattern = pattern.map(check_pattern).transpose()?;
    let scope = caller.scope()?;
    let product = products::find(state, scope, slug).await?;
    let now = state.clock.now();
    let mut tx = state.store.begin().await?;
    let row = store::update(
        &mut tx,
        scope,
        &product.id,
        id,
        pattern.as_deref(),
        enabled,
        now,
    )
    .await?
    .ok_or_else(|| ApiError::not_found("filter"))?;
    record(
        &mut tx,
        caller,
        &product,
        "landing_filter.update",
        &row,
        now,
    )
    .await?;
    tx.commit().await?;
    Ok(row.into())
}

pub async fn delete(state: &AppState, caller: &Caller, slug: &str, id: &str) -> ApiResult<()> {
    let scope = caller.scope()?;
    let product = products::find(state, scope, slug).await?;
    let mut tx = state.store.begin().await?;
    let row = store::delete(&mut tx, scope, &product.id, id)
        .await?
        .ok_or_else(|| ApiError::not_found("filter"))?;
    let now = state.clock.now();
    record(
        &mut tx,
        caller,
        &product,
        "landing_filter.delete",
        &row,
        now,
    )
    .await?;
    tx.commit().await?;
    Ok(())
}

/// Writes a filter change to the product's history, inside the change's transaction.
async fn record(
    tx: &mut Tx,
    caller: &Caller,
    product: &ProductRow,
    action: &str,
    row: &FilterRow,
    now: Timestamp,
) -> ApiResult<()> {
    let payload = json!({ "filter_id": row.id, "pattern": row.pattern, "enabled": row.enabled });
    audit::record_product(tx, &caller.actor(), product, action, payload, now).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixes_match_whole_segments() {
        assert!(matches("/blog", "/blog"));
        assert!(matches("/blog", "/blog/x"));
        assert!(matches("/blog/", "/blog/x"));
        assert!(!matches("/blog", "/blogger"));
        assert!(!matches("/blog/x", "/blog"));
        assert!(matches("/", "/anything"));
    }

    #[test]
    fn stars_match_any_characters_over_the_whole_path() {
        assert!(matches("*.pdf", "/files/a.pdf"));
        assert!(!matches("*.pdf", "/files/a.pdf/x"));
        assert!(matches("/docs/*/v2", "/docs/a/b/v2"));
        assert!(!matches("/docs/*/v2", "/docs/a/v3"));
        assert!(matches("/blog*", "/blogger"));
        assert!(matches("*", "/"));
        assert!(matches("/a*b*c", "/axxbyyc"));
        assert!(!matches("/a*b*c", "/axxbyy"));
    }

    #[test]
    fn patterns_start_with_a_slash_or_a_star() {
        assert_eq!(check_pattern("/blog").ok().as_deref(), Some("/blog"));
        assert!(check_pattern("*").is_ok());
        for bad in ["blog", "", " /a", "/a b", &format!("/{}", "a".repeat(200))] {
            assert!(check_pattern(bad).is_err(), "{bad}");
        }
    }
}
