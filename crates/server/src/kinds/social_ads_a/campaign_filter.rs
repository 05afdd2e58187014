//! Meta's campaign filter: which campaigns of the ad account are read, by name prefix. Setting
//! it drops the stored spend of every campaign it no longer takes.

use axum::extract::{Path, State};
use payback_connectors::social_ads_a;
use payback_store::connections as store;
use payback_store::spend;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use utoipa::ToSchema;

use super::KIND;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{Caller, Json, ValidJson};
use crate::routes::tags;
use crate::services::ad_accounts::{PREFIX_MAX_CHARS, PREFIXES_MAX, clean_prefixes};
use crate::services::{audit, products};
use crate::state::AppState;

/// A connect's optional prefixes, within the filter's limits.
pub fn prefixes_within(prefixes: &Option<Vec<String>>, _: &()) -> garde::Result {
    match prefixes {
        Some(prefixes) => prefix_list_within(prefixes, &()),
        None => Ok(()),
    }
}

fn prefix_list_within(prefixes: &[String], _: &()) -> garde::Result {
    if prefixes.len() > PREFIXES_MAX {
        return Err(garde::Error::new(format!("at most {PREFIXES_MAX}")));
    }
    if prefixes
        .iter()
        .any(|prefix| prefix.chars().count() > PREFIX_MAX_CHARS)
    {
        return Err(garde::Error::new(format!(
            "each at most {PREFIX_MAX_CHARS} characters"
        )));
    }
    Ok(())
}

#[derive(Debug, Deserialize, ToSchema, garde::Validate)]
#[serde(deny_unknown_fields)]
pub struct CampaignFilterRequest {
    /// Campaign name prefixes (case-insensitive); empty clears the filter.
    #[garde(custom(prefix_list_within))]
    campaign_name_prefixes: Vec<String>,
}

/// `POST .../social-ads-a/campaign-filter`'s answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct FilterSet {
    pub ok: bool,
    pub campaign_name_prefixes: Vec<String>,
    /// Stored spend rows of campaigns the filter no longer takes, dropped now.
    pub dropped_rows: u64,
}

/// Sets which Meta campaigns are read: the next sync ingests only campaigns whose name starts
/// with a prefix, and the ad account's already-stored spend of every other campaign is dropped
/// now (all days; `dropped_rows`). Audited as `connection.campaign_filter`. 404 without a
/// `social-ads-a` connection.
#[utoipa::path(post, path = "/products/{slug}/connections/social-ads-a/campaign-filter", tag = tags::CONNECTIONS,
    security(("bearer" = [])), params(("slug" = String, Path, description = "product slug")),
    request_body = CampaignFilterRequest,
    responses((status = 200, body = FilterSet), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
pub async fn set(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
    ValidJson(body): ValidJson<CampaignFilterRequest>,
) -> ApiResult<Json<FilterSet>> {
    Ok(Json(
        set_filter(&state, &caller, &slug, body.campaign_name_prefixes).await?,
    ))
}

/// Sets the filter and drops the ad account's stored spend of every campaign it no longer
/// takes (all days), in one transaction.
async fn set_filter(
    state: &AppState,
    caller: &Caller,
    slug: &str,
    prefixes: Vec<String>,
) -> ApiResult<FilterSet> {
    let prefixes = clean_prefixes(prefixes)?;
    let product = products::find(state, caller.scope()?, slug).await?;
    let not_found = || ApiError::NotFound("no social-ads-a connection for this product".to_owned());
    let now = state.clock.now();
    let mut tx = state.store.begin().await?;
    let row = store::find_locked(&mut tx, &product.id, KIND.as_str())
        .await?
        .ok_or_else(not_found)?;
    let mut config: Value = serde_json::from_str(&row.config)
        .map_err(|_| ApiError::internal("a connection's config is malformed"))?;
    let ad_account = config["ad_account_id"]
        .as_str()
        .ok_or_else(|| ApiError::internal("a social_ads_a connection without its ad account"))?
        .to_owned();
    config["campaign_name_prefixes"] = json!(prefixes);
    store::set_config(&mut tx, &row.id, &config.to_string()).await?;
    let network = KIND.spec().spend.map_or("meta", |landing| landing.network);
    let stored = spend::account_campaigns(&mut tx, &product.id, network, &ad_account).await?;
    let dropped_campaigns: Vec<String> = stored
        .into_iter()
        .filter(|campaign| {
            !social_ads_a::campaign_matches(
                campaign.campaign_name.as_deref().unwrap_or(""),
                &prefixes,
            )
        })
        .map(|campaign| campaign.campaign_id)
        .collect();
    let dropped_rows = spend::delete_account_campaigns(
        &mut tx,
        &product.id,
        network,
        &ad_account,
        &dropped_campaigns,
    )
    .await?;
    let payload = json!({
        "connection_id": row.id,
        "kind": KIND.as_str(),
        "campaign_name_prefixes": prefixes,
        "dropped_campaigns": dropped_campaigns,
        "dropped_rows": dropped_rows,
    });
    audit::record_product(
        &mut tx,
        &caller.actor(),
        &product,
        "connection.campaign_filter",
        payload,
        now,
    )
    .await?;
    tx.commit().await?;
    Ok(FilterSet {
        ok: true,
        campaign_name_prefixes: prefixes,
        dropped_rows,
    })
}
