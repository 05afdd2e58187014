//! `social_ads_a`: Meta ads. Connected through the social-network grant or with a pasted token;
//! spend lands as `paid_meta`, approved `meta` budgets are applied to it, a campaign filter
//! narrows what is read, and adult-adjacent products are refused (the policy wall).

mod campaign_filter;
mod grant;

use std::future::Future;
use std::sync::Arc;

use axum::extract::{Path, State};
use payback_connectors::graph::{self, DEFAULT_GRAPH_BASE_URL};
use payback_connectors::social_ads_a::{self, SocialAdsAConfig, SocialAdsASource};
use payback_connectors::{AdAccountOption, ConnectorError, Source};
use payback_domain::connection::ConnectionKind;
use payback_store::connections::ConnectionRow;
use payback_store::products::ProductRow;
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{Granted, Plugin, boxed};
use crate::error::{ApiResult, ErrorBody};
use crate::extract::{Caller, Json, ValidJson};
use crate::input::rules::secret_within;
use crate::openapi::rule::{At, Rule};
use crate::routes::connect::CHOICE_MAX_CHARS;
use crate::routes::tags;
use crate::secret::Secret;
use crate::services::ad_accounts::{
    self, AdNetwork, AdsKeyInput, PREFIX_MAX_CHARS, PREFIXES_MAX, Probe, SocialConnected,
};
use crate::services::key_connect::ACCESS_TOKEN_MAX_CHARS;
use crate::services::source_config;
use crate::state::{AppState, OpenFuture};

pub(super) const KIND: ConnectionKind = ConnectionKind::SocialAdsA;

pub use campaign_filter::CampaignFilterRequest;

pub fn plugin() -> Plugin {
    Plugin {
        kind: KIND,
        open,
        routes: || {
            OpenApiRouter::new()
                .routes(routes!(connect))
                .routes(routes!(campaign_filter::set))
        },
        grant: Some(Granted::Socialco(Arc::new(grant::MetaAds))),
        rules,
    }
}

/// The token, the account and the campaign filter's prefixes.
fn rules() -> Vec<(At, Vec<Rule>)> {
    let prefixes = || {
        vec![
            Rule::Items(0, PREFIXES_MAX),
            Rule::Each(vec![Rule::Chars(0, PREFIX_MAX_CHARS)]),
        ]
    };
    let mut rules = super::token_rules("SocialAdsARequest", "ad_account_id");
    rules.push((
        At::Field("SocialAdsARequest", "campaign_name_prefixes"),
        prefixes(),
    ));
    rules.push((
        At::Field("CampaignFilterRequest", "campaign_name_prefixes"),
        prefixes(),
    ));
    rules
}

/// Where the Graph API answers for Meta ads.
fn origin(state: &AppState) -> String {
    source_config::vendor_origin(state, KIND, DEFAULT_GRAPH_BASE_URL)
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
    #[garde(custom(campaign_filter::prefixes_within))]
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
async fn connect(
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
    Ok(Json(
        ad_accounts::connect_ads(&state, &caller, &slug, &MetaAdsNetwork, input).await?,
    ))
}

/// Meta ads in the shared key-based connect.
struct MetaAdsNetwork;

impl AdNetwork for MetaAdsNetwork {
    const KIND: ConnectionKind = KIND;
    const DEFAULT_ORIGIN: &'static str = DEFAULT_GRAPH_BASE_URL;
    const PLAIN_ID: fn(&str) -> Option<String> = social_ads_a::plain_ad_account_id;

    fn discover<'a>(
        &'a self,
        state: &'a AppState,
        origin: &'a str,
        token: &'a str,
    ) -> impl Future<Output = Result<Vec<AdAccountOption>, ConnectorError>> + Send + 'a {
        graph::discover_ad_accounts(&state.http, origin, token)
    }

    fn source(&self, state: &AppState, probe: Probe<'_>) -> Box<dyn Source> {
        let mut config = SocialAdsAConfig::new(
            probe.token.to_owned(),
            probe.ad_account_id.to_owned(),
            probe.prefixes.to_vec(),
        );
        probe.origin.clone_into(&mut config.graph_base_url);
        boxed(SocialAdsASource::new(
            state.http.clone(),
            config,
            probe.currency,
        ))
    }

    /// The policy wall.
    fn admit<'a>(
        &'a self,
        state: &'a AppState,
        caller: &'a Caller,
        product: &'a ProductRow,
    ) -> impl Future<Output = ApiResult<()>> + Send + 'a {
        ad_accounts::adult_wall(state, caller, product, KIND)
    }
}

/// The ad account a connection reads and its campaign filter, as connected.
#[derive(Deserialize)]
struct Settings {
    ad_account_id: String,
    /// Set when the social-network grant made the connection: its token is Payback's to
    /// revoke at disconnect; a pasted token stays the customer's.
    grant: Option<String>,
    #[serde(default)]
    campaign_name_prefixes: Vec<String>,
}

/// The Meta token, the ad account and its campaign filter.
fn open<'a>(
    state: &'a AppState,
    product: &'a ProductRow,
    row: &'a ConnectionRow,
) -> OpenFuture<'a> {
    Box::pin(async move {
        let settings: Settings = source_config::settings_of(row)?;
        let mut config = SocialAdsAConfig::new(
            source_config::access_token(state, row).await?,
            settings.ad_account_id,
            settings.campaign_name_prefixes,
        );
        config.revoke_on_disconnect = settings.grant.is_some();
        config.graph_base_url = origin(state);
        Ok(boxed(SocialAdsASource::new(
            state.http.clone(),
            config,
            &product.currency,
        )))
    })
}
