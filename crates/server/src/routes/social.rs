//! The social-network grant's connect flow (`/connect/socialco/...`), the key-based connects of
//! the social kinds (`social-ads-a`, `social-ads-b`, `social-a`) and the Meta campaign filter.

use axum::extract::{Path, State};
use axum::response::Response;
use payback_domain::connection::ConnectionKind;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiResult, ErrorBody};
use crate::extract::{Caller, Json, Query, ValidJson};
use crate::routes::connect::{
    CHOICE_MAX_CHARS, KIND_MAX_CHARS, SLUG_MAX_CHARS, STATE_MAX_CHARS, StatusQuery,
    callback_response,
};
use crate::routes::rules::secret_within;
use crate::routes::tags;
use crate::secret::Secret;
use crate::services::grants::{CallbackQuery, GrantClient, GrantStatus, Started};
use crate::services::social_connect::{
    self, AdsKeyInput, FilterSet, PREFIX_MAX_CHARS, PREFIXES_MAX, PageKeyInput, SocialConnected,
};
use crate::services::socialco::{self, Selection};
use crate::state::AppState;

/// An access token, in characters (Meta's and LinkedIn's are a few hundred).
pub const ACCESS_TOKEN_MAX_CHARS: usize = 4_000;
/// `kinds` of the social grant: at most one of each.
pub const SOCIAL_KINDS_MAX: usize = socialco::GRANT_KINDS.len();

/// The public callback the provider redirects the human to.
pub fn public() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(callback))
}

/// Routes behind a bearer.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(start))
        .routes(routes!(status))
        .routes(routes!(select))
        .routes(routes!(connect_social_ads_a))
        .routes(routes!(campaign_filter))
        .routes(routes!(connect_social_ads_b))
        .routes(routes!(connect_social_a))
}

#[derive(Debug, Deserialize, ToSchema, garde::Validate)]
#[serde(deny_unknown_fields)]
pub struct SocialStartRequest {
    /// The product the connections will belong to.
    #[garde(length(chars, min = 1, max = SLUG_MAX_CHARS))]
    product_slug: String,
    /// `social_ads_a`, `social_a`; left out: both.
    #[garde(inner(length(min = 1, max = SOCIAL_KINDS_MAX), inner(length(chars, max = KIND_MAX_CHARS))))]
    kinds: Option<Vec<String>>,
    /// `dashboard` (the callback redirects into the dashboard), `cli`, `mcp` or `api` (default).
    #[garde(skip)]
    client: Option<GrantClient>,
}

/// Starts the social-network grant (Facebook Login): a single-use state (15 minutes) and the
/// Login dialog URL a human opens, with the permissions the chosen kinds need. 503 until the
/// operator configured the app (`PAYBACK_SOCIALCO_CLIENT_ID`/`_SECRET`) and credential sealing
/// (`PAYBACK_SECRET_KEY`); 403 `network_wall` when `social_ads_a` is asked for an
/// adult-adjacent product.
#[utoipa::path(post, path = "/connect/socialco/start", tag = tags::CONNECTIONS, security(("bearer" = [])),
    request_body = SocialStartRequest,
    responses((status = 200, body = Started), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody, description = "policy wall: adult-adjacent products may not connect social_ads_a"),
        (status = 404, body = ErrorBody), (status = 503, body = ErrorBody)))]
async fn start(
    State(state): State<AppState>,
    caller: Caller,
    ValidJson(body): ValidJson<SocialStartRequest>,
) -> ApiResult<Json<Started>> {
    let client = body.client.unwrap_or_default();
    let kinds = body.kinds.as_deref();
    let started = socialco::start(&state, &caller, &body.product_slug, kinds, client).await?;
    Ok(Json(started))
}

/// Where Meta sends the human after the Login dialog (public; the single-use state ties it to
/// the flow). Exchanges the code for a short-lived then a long-lived user token (sealed), lists
/// the ad accounts and pages (with their linked Instagram business accounts) it reaches, then
/// redirects into the dashboard (`client: dashboard`) or shows a small page. A state not
/// confirmed on Payback's page (`auth_url`), or coming back without the cookie of the browser
/// that confirmed it, is refused with a 400 page and the flow left as it was.
#[utoipa::path(get, path = "/connect/socialco/callback", tag = tags::CONNECTIONS, params(CallbackQuery),
    responses((status = 302, description = "to `{public}/#/p/{slug}/connections?socialco_state=...` for the dashboard"),
        (status = 200, description = "a page saying the grant came through", content_type = "text/html"),
        (status = 400, description = "a page saying why it did not (`text/html`), or `{error}` for a path or query holding `%00`",
            content((ErrorBody = "application/json"), (String = "text/html")))))]
async fn callback(
    State(state): State<AppState>,
    headers: axum::http::HeaderMap,
    Query(query): Query<CallbackQuery>,
) -> ApiResult<Response> {
    let browser = query
        .state
        .as_deref()
        .and_then(|token| crate::routes::grant_page::browser_cookie(&headers, token));
    Ok(callback_response(
        socialco::callback(&state, query, browser.as_deref()).await?,
    ))
}

/// The flow's state: `pending`, then `complete` with `options` (`ad_accounts`: id, name,
/// currency, status; `pages`: id, name, instagram_account), or `error` with the reason.
/// Another account's state answers 404.
#[utoipa::path(get, path = "/connect/socialco/status", tag = tags::CONNECTIONS, security(("bearer" = [])),
    params(StatusQuery),
    responses((status = 200, body = GrantStatus), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
async fn status(
    State(state): State<AppState>,
    caller: Caller,
    Query(query): Query<StatusQuery>,
) -> ApiResult<Json<GrantStatus>> {
    Ok(Json(
        socialco::status(&state, &caller, query.checked()?).await?,
    ))
}

#[derive(Debug, Deserialize, ToSchema, garde::Validate)]
#[serde(deny_unknown_fields)]
pub struct SocialSelectRequest {
    /// The state `start` answered.
    #[garde(length(chars, min = 1, max = STATE_MAX_CHARS))]
    state: String,
    /// The ad account for `social_ads_a`, digits without `act_`; optional when exactly one
    /// active account in the product's currency was discovered.
    #[garde(inner(length(chars, min = 1, max = CHOICE_MAX_CHARS)))]
    ad_account_id: Option<String>,
    /// The page for `social_a`; optional when exactly one was discovered.
    #[garde(inner(length(chars, min = 1, max = CHOICE_MAX_CHARS)))]
    page_id: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SocialSelected {
    ok: bool,
    /// The kinds now connected.
    activated: Vec<String>,
}

/// Activates what the human chose from a complete grant, once (each connection's first sync is
/// due at once). 404 unknown or another account's state; 409 consent not complete, ended in an
/// error, or already selected; 400 a choice the grant does not offer, an inactive account or
/// one in another currency; 403 `network_wall` for an adult-adjacent product's ad account.
#[utoipa::path(post, path = "/connect/socialco/select", tag = tags::CONNECTIONS, security(("bearer" = [])),
    request_body = SocialSelectRequest,
    responses((status = 200, body = SocialSelected), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn select(
    State(state): State<AppState>,
    caller: Caller,
    ValidJson(body): ValidJson<SocialSelectRequest>,
) -> ApiResult<Json<SocialSelected>> {
    let selection = Selection {
        ad_account_id: body.ad_account_id,
        page_id: body.page_id,
    };
    let activated = socialco::select(&state, &caller, &body.state, selection).await?;
    Ok(Json(SocialSelected {
        ok: true,
        activated,
    }))
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
pub struct SocialAdsRequest {
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
    request_body = SocialAdsRequest,
    responses((status = 200, body = SocialConnected), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody, description = "policy wall: adult-adjacent products may not connect social ads"),
        (status = 404, body = ErrorBody), (status = 502, body = ErrorBody, description = "Meta could not be reached"),
        (status = 503, body = ErrorBody, description = "PAYBACK_SECRET_KEY is not configured")))]
async fn connect_social_ads_a(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
    ValidJson(body): ValidJson<SocialAdsRequest>,
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
pub struct ProAdsRequest {
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
    request_body = ProAdsRequest,
    responses((status = 200, body = SocialConnected), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 502, body = ErrorBody, description = "LinkedIn could not be reached"),
        (status = 503, body = ErrorBody, description = "PAYBACK_SECRET_KEY is not configured")))]
async fn connect_social_ads_b(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
    ValidJson(body): ValidJson<ProAdsRequest>,
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
pub struct SocialPageRequest {
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
    request_body = SocialPageRequest,
    responses((status = 200, body = SocialConnected), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 502, body = ErrorBody, description = "Meta could not be reached"),
        (status = 503, body = ErrorBody, description = "PAYBACK_SECRET_KEY is not configured")))]
async fn connect_social_a(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
    ValidJson(body): ValidJson<SocialPageRequest>,
) -> ApiResult<Json<SocialConnected>> {
    let input = PageKeyInput {
        access_token: body.access_token,
        page_id: body.page_id,
    };
    Ok(Json(
        social_connect::connect_page(&state, &caller, &slug, input).await?,
    ))
}
