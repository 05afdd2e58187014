//! The search-ads account's final URL suffix: the tracking parameters Google appends to every
//! ad's landing URL, which is how a paid click carries its campaign, ad group, keyword and ad
//! into the events Payback joins with spend. Reading is harmless and always answers (a read
//! that cannot happen says why in `read_error`); writing changes every ad's landing URL, so it
//! happens only on an explicit call by a person signed in to the dashboard, keeps the account's
//! own parameters, and is audited.
//!
//! Who may write is checked here, not in the route, so every door (HTTP, MCP, chat, jobs) meets
//! the same rule: nothing an agent does changes an ad network until a human says yes (issue 35),
//! and this write has no approval card to wait for, so only a person's own session makes it.

use payback_connectors::search_ads::{self, suffix};
use payback_domain::connection::ConnectionKind;
use payback_domain::{Timestamp, Via};
use payback_store::connections::{self as store, ConnectionRow};
use payback_store::products::ProductRow;
use serde::Serialize;
use serde_json::{Value, json};
use utoipa::ToSchema;

use crate::error::{ApiError, ApiResult};
use crate::services::acting::{Caller, Principal};
use crate::services::{audit, products, source_config};
use crate::state::AppState;

/// `GET .../connections/search-ads/url-suffix`.
#[derive(Debug, Serialize, ToSchema)]
pub struct UrlSuffixReport {
    /// The product has a `search_ads` connection (404 otherwise).
    pub connected: bool,
    pub customer_id: Option<String>,
    /// The account-level suffix as Google has it; null when none is set or it could not be read.
    pub final_url_suffix: Option<String>,
    /// Google's own click id (`gclid`) on every click; null when it could not be read.
    pub auto_tagging_enabled: Option<bool>,
    /// Every parameter Payback needs is present.
    pub complete: bool,
    /// The parameters Payback needs that the suffix lacks.
    pub missing: Vec<String>,
    /// The suffix with the missing parameters appended (the account's own kept, in order).
    pub proposed_suffix: String,
    /// Payback's parameters alone, for an account without a suffix.
    pub recommended_suffix: String,
    /// When Payback last wrote the suffix; null when it never did.
    pub deployed_at: Option<String>,
    /// Why a live read was impossible; null when it succeeded.
    pub read_error: Option<String>,
}

/// `POST .../connections/search-ads/url-suffix`.
#[derive(Debug, Serialize, ToSchema)]
pub struct UrlSuffixWritten {
    pub ok: bool,
    /// The suffix the account now has.
    pub suffix: String,
    /// The parameters this call added.
    pub added: Vec<String>,
    /// Nothing was written: every parameter was already there.
    pub already_complete: bool,
}

async fn connection(
    state: &AppState,
    caller: &Caller,
    slug: &str,
) -> ApiResult<(ProductRow, ConnectionRow)> {
    let product = products::find(state, caller.scope()?, slug).await?;
    // The kind whose accounts carry a final URL suffix (Google Ads), as the kind table says.
    let kind = ConnectionKind::all()
        .find(|kind| kind.spec().final_url_suffix)
        .ok_or_else(|| ApiError::internal("no kind carries a final URL suffix"))?;
    let row = store::find(&state.store, &product.id, kind.as_str())
        .await?
        .ok_or_else(|| ApiError::not_found(&format!("{kind} connection")))?;
    Ok((product, row))
}

fn config_value(row: &ConnectionRow) -> Value {
    serde_json::from_str(&row.config).unwrap_or_else(|_| json!({}))
}

/// Reads the suffix; a failure to read is an answer, not an error.
pub async fn read(state: &AppState, caller: &Caller, slug: &str) -> ApiResult<UrlSuffixReport> {
    let (_, row) = connection(state, caller, slug).await?;
    let config = config_value(&row);
    let live = match source_config::search_ads(state, &row).await {
        Ok(ads) => search_ads::read_url_suffix(&state.http, &ads)
            .await
            .map_err(|err| err.to_string()),
        Err(err) => Err(err.to_string()),
    };
    let (existing, auto_tagging, read_error) = match live {
        Ok(read) => (read.final_url_suffix, Some(read.auto_tagging_enabled), None),
        Err(error) => (None, None, Some(error)),
    };
    let current = existing.as_deref().unwrap_or("");
    Ok(UrlSuffixReport {
        connected: true,
        customer_id: config["customer_id"].as_str().map(str::to_owned),
        complete: read_error.is_none() && suffix::complete(current),
        missing: suffix::missing(current),
        proposed_suffix: suffix::proposed(current),
        recommended_suffix: suffix::recommended(),
        deployed_at: config["url_suffix_deployed_at"].as_str().map(str::to_owned),
        final_url_suffix: existing,
        auto_tagging_enabled: auto_tagging,
        read_error,
    })
}

/// The refusal every caller but a person in the dashboard gets from [`write`].
pub const ONLY_A_PERSON: &str = "only a person signed in to the dashboard may change the ad account's URL suffix; ask the founder to press the button in the dashboard";

/// A person's own session through the dashboard: API keys, the operator token and jobs are not
/// people, and a person's session through MCP or chat is an agent acting for them.
fn may_write(caller: &Caller) -> bool {
    matches!(caller.principal, Principal::Person(_)) && caller.via == Via::Dashboard
}

/// Appends the missing parameters to the account's suffix. 403 for every caller but a person
/// signed in to the dashboard ([`ONLY_A_PERSON`]), before anything is read; 409 while the
/// connection cannot be used (pending, disabled, no credentials, the service not configured for
/// search ads), 502 when Google refuses or cannot be reached.
pub async fn write(state: &AppState, caller: &Caller, slug: &str) -> ApiResult<UrlSuffixWritten> {
    if !may_write(caller) {
        return Err(ApiError::Forbidden(ONLY_A_PERSON.to_owned()));
    }
    let (product, row) = connection(state, caller, slug).await?;
    if matches!(
        row.status,
        payback_domain::connection::ConnectionStatus::Pending
            | payback_domain::connection::ConnectionStatus::Disabled
    ) || row.credential_id.is_none()
    {
        return Err(ApiError::Conflict(format!(
            "the search_ads connection is not usable yet (status {}); finish connecting it first",
            row.status
        )));
    }
    let ads = source_config::search_ads(state, &row)
        .await
        .map_err(|err| {
            ApiError::Conflict(format!(
                "the search_ads connection is not usable yet: {err}"
            ))
        })?;
    let read = search_ads::read_url_suffix(&state.http, &ads)
        .await
        .map_err(|err| ApiError::BadGateway(format!("reading the URL suffix failed: {err}")))?;
    let before = read.final_url_suffix.unwrap_or_default();
    let added = suffix::missing(&before);
    if added.is_empty() {
        return Ok(UrlSuffixWritten {
            ok: true,
            suffix: before,
            added,
            already_complete: true,
        });
    }
    let after = suffix::proposed(&before);
    search_ads::write_url_suffix(&state.http, &ads, &after)
        .await
        .map_err(|err| ApiError::BadGateway(format!("writing the URL suffix failed: {err}")))?;
    record(state, caller, &product, &row, &before, &after, &added).await?;
    Ok(UrlSuffixWritten {
        ok: true,
        suffix: after,
        added,
        already_complete: false,
    })
}

/// Audits the write and remembers when it happened.
async fn record(
    state: &AppState,
    caller: &Caller,
    product: &ProductRow,
    row: &ConnectionRow,
    before: &str,
    after: &str,
    added: &[String],
) -> ApiResult<()> {
    let now: Timestamp = state.clock.now();
    let mut config = config_value(row);
    config["url_suffix_deployed_at"] = json!(now.to_rfc3339());
    let mut tx = state.store.begin().await?;
    store::set_config(&mut tx, &row.id, &config.to_string()).await?;
    let payload = json!({
        "connection_id": row.id,
        "customer_id": config["customer_id"],
        "before": before,
        "after": after,
        "added": added,
    });
    audit::record_product(
        &mut tx,
        &caller.actor(),
        product,
        "search_ads.url_suffix",
        payload,
        now,
    )
    .await?;
    tx.commit().await?;
    Ok(())
}
