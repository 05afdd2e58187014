//! The key-based connects of the social kinds (`social-ads-a`, `social-ads-b`, `social-a`) and
//! the Meta campaign filter (the social-network grant's flow is `routes/connect.rs`).

use axum::extract::{Path, State};
use payback_domain::connection::ConnectionKind;
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiResult, ErrorBody};
use crate::extract::{Caller, Json, ValidJson};
use crate::input::rules::secret_within;
use crate::routes::connect::CHOICE_MAX_CHARS;
use crate::routes::tags;
use crate::secret::Secret;
use crate::services::social_connect::{
    self, AdsKeyInput, FilterSet, PREFIX_MAX_CHARS, PREFIXES_MAX, PageKeyInput, SocialConnected,
};
use crate::state::AppState;

/// An access token, in characters (Meta's and LinkedIn's are a few hundred).
pub const ACCESS_TOKEN_MAX_CHARS: usize = 4_000;

/// Routes behind a bearer.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(connect_social_ads_a))
        .routes(routes!(campaign_filter))
        .routes(routes!(connect_social_ads_b))
        .routes(routes!(connect_social_a))
}

fn prefixes_within(prefixes: &Option<Vec<String>>, _: &()) -> garde::Result {
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
pub struct SocialAdsARequest {
    /// A Meta access token with the `ads_read` permission (`ads_management` to apply approved
    /// budgets). Stored encrypted, never returned.
    #[garde(custom(secret_within::<ACCESS_TOKEN_MAX_CHARS>))]
    access_token: Secret,
    /// The ad account, digits without `act_`; left out, the token's accounts are listed in
    /// `accounts` and the only active one in the product's currency is connected (none is when
    /// there are several).
    #[garde(inner(length(chars, min = 1, max = CHOICE_MAX_CHARS)))]
    ad_account_id: Option<String>,
    /// Only campaigns whose name starts with one of these (case-insensitive) are read; empty or
    /// left out: all.
    #[garde(custom(prefixes_within))]
    campaign_name_prefixes: Option<Vec<String>>,
}

/// Connects a Meta ad account with an access token: spend lands as `paid_meta` (campaign, ad
/// set as `ad_group`, ad), and approved `meta` budgets are applied to it. The token is proven
/// first (the account answers, is active, counts in the product's currency). 403
/// `network_wall` for an adult-adjacent product (audited as `connection.refused`).
#[utoipa::path(post, path = "/products/{slug}/connections/social-ads-a", tag = tags::CONNECTIONS,
    security(("bearer" = [])), params(("slug" = String, Path, description = "product slug")),
    request_body = SocialAdsARequest,
    responses((status = 200, body = SocialConnected), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody, description = "policy wall: adult-adjacent products may not connect social ads"),
        (status = 404, body = ErrorBody), (status = 502, body = ErrorBody, description = "Meta could not be reached"),
        (status = 503, body = ErrorBody, description = "PAYBACK_SECRET_KEY is not configured")))]
async fn connect_social_ads_a(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
    ValidJson(body): ValidJson<SocialAdsARequest>,
) -> ApiResult<Json<SocialConnected>> {
    let input = AdsKeyInput {
        access_token: body.access_token,
        ad_account_id: body.ad_account_id,
        campaign_name_prefixes: body.campaign_name_prefixes,
    };
    let kind = ConnectionKind::SocialAdsA;
    Ok(Json(
        social_connect::connect_ads(&state, &caller, &slug, kind, input).await?,
    ))
}

#[derive(Debug, Deserialize, ToSchema, garde::Validate)]
#[serde(deny_unknown_fields)]
pub struct CampaignFilterRequest {
    /// Campaign name prefixes (case-insensitive); empty clears the filter.
    #[garde(custom(prefix_list_within))]
    campaign_name_prefixes: Vec<String>,
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
async fn campaign_filter(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
    ValidJson(body): ValidJson<CampaignFilterRequest>,
) -> ApiResult<Json<FilterSet>> {
    Ok(Json(
        social_connect::set_campaign_filter(&state, &caller, &slug, body.campaign_name_prefixes)
            .await?,
    ))
}

#[derive(Debug, Deserialize, ToSchema, garde::Validate)]
#[serde(deny_unknown_fields)]
pub struct SocialAdsBRequest {
    /// A LinkedIn access token with `r_ads` and `r_ads_reporting`. Stored encrypted.
    #[garde(custom(secret_within::<ACCESS_TOKEN_MAX_CHARS>))]
    access_token: Secret,
    /// The ad account's numeric id; left out, the token's accounts are listed in `accounts`
    /// and the only active one in the product's currency is connected.
    #[garde(inner(length(chars, min = 1, max = CHOICE_MAX_CHARS)))]
    ad_account_id: Option<String>,
}

/// Connects a LinkedIn ad account: spend lands as `paid_linkedin` (campaign, creative as
/// `ad`). Read only: proposals never name this network. The token is proven first.
#[utoipa::path(post, path = "/products/{slug}/connections/social-ads-b", tag = tags::CONNECTIONS,
    security(("bearer" = [])), params(("slug" = String, Path, description = "product slug")),
    request_body = SocialAdsBRequest,
    responses((status = 200, body = SocialConnected), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 502, body = ErrorBody, description = "LinkedIn could not be reached"),
        (status = 503, body = ErrorBody, description = "PAYBACK_SECRET_KEY is not configured")))]
async fn connect_social_ads_b(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
    ValidJson(body): ValidJson<SocialAdsBRequest>,
) -> ApiResult<Json<SocialConnected>> {
    let input = AdsKeyInput {
        access_token: body.access_token,
        ad_account_id: body.ad_account_id,
        campaign_name_prefixes: None,
    };
    let kind = ConnectionKind::SocialAdsB;
    Ok(Json(
        social_connect::connect_ads(&state, &caller, &slug, kind, input).await?,
    ))
}

#[derive(Debug, Deserialize, ToSchema, garde::Validate)]
#[serde(deny_unknown_fields)]
pub struct SocialARequest {
    /// A Meta page access token (or a user token that manages the page). Stored encrypted.
    #[garde(custom(secret_within::<ACCESS_TOKEN_MAX_CHARS>))]
    access_token: Secret,
    /// The page's numeric id; left out, the token's pages are listed in `pages` and the only
    /// one is connected.
    #[garde(inner(length(chars, min = 1, max = CHOICE_MAX_CHARS)))]
    page_id: Option<String>,
}

/// Connects a Facebook page (and its linked Instagram business account): daily followers,
/// impressions and engagement land as snapshots feeding the timeseries' `social_*` columns,
/// and recent posts are stored.
#[utoipa::path(post, path = "/products/{slug}/connections/social-a", tag = tags::CONNECTIONS,
    security(("bearer" = [])), params(("slug" = String, Path, description = "product slug")),
    request_body = SocialARequest,
    responses((status = 200, body = SocialConnected), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 502, body = ErrorBody, description = "Meta could not be reached"),
        (status = 503, body = ErrorBody, description = "PAYBACK_SECRET_KEY is not configured")))]
async fn connect_social_a(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
    ValidJson(body): ValidJson<SocialARequest>,
) -> ApiResult<Json<SocialConnected>> {
    let input = PageKeyInput {
        access_token: body.access_token,
        page_id: body.page_id,
    };
    Ok(Json(
        social_connect::connect_page(&state, &caller, &slug, input).await?,
    ))
}
