//! `social_ads_b`: LinkedIn ads, connected with a pasted token. Spend lands as
//! `paid_linkedin`; read only (proposals never name this network).

use std::future::Future;

use axum::extract::{Path, State};
use payback_connectors::social_ads_b::{
    self, DEFAULT_API_BASE_URL, SocialAdsBConfig, SocialAdsBSource,
};
use payback_connectors::{AdAccountOption, ConnectorError, Source};
use payback_domain::connection::ConnectionKind;
use payback_store::connections::ConnectionRow;
use payback_store::products::ProductRow;
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{Plugin, boxed};
use crate::error::{ApiResult, ErrorBody};
use crate::extract::{Caller, Json, ValidJson};
use crate::input::rules::secret_within;
use crate::routes::connect::CHOICE_MAX_CHARS;
use crate::routes::tags;
use crate::secret::Secret;
use crate::services::ad_accounts::{self, AdNetwork, AdsKeyInput, Probe, SocialConnected};
use crate::services::key_connect::ACCESS_TOKEN_MAX_CHARS;
use crate::services::source_config;
use crate::state::{AppState, OpenFuture};

const KIND: ConnectionKind = ConnectionKind::SocialAdsB;

pub fn plugin() -> Plugin {
    Plugin {
        kind: KIND,
        open,
        routes: || OpenApiRouter::new().routes(routes!(connect)),
        grant: None,
        rules: || super::token_rules("SocialAdsBRequest", "ad_account_id"),
    }
}

/// Where LinkedIn's API answers.
fn origin(state: &AppState) -> String {
    source_config::vendor_origin(state, KIND, DEFAULT_API_BASE_URL)
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
async fn connect(
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
    Ok(Json(
        ad_accounts::connect_ads(&state, &caller, &slug, &LinkedinAds, input).await?,
    ))
}

/// LinkedIn ads in the shared key-based connect.
struct LinkedinAds;

impl AdNetwork for LinkedinAds {
    const KIND: ConnectionKind = KIND;
    const DEFAULT_ORIGIN: &'static str = DEFAULT_API_BASE_URL;
    const PLAIN_ID: fn(&str) -> Option<String> = social_ads_b::plain_ad_account_id;

    fn discover<'a>(
        &'a self,
        state: &'a AppState,
        origin: &'a str,
        token: &'a str,
    ) -> impl Future<Output = Result<Vec<AdAccountOption>, ConnectorError>> + Send + 'a {
        social_ads_b::discover_ad_accounts(&state.http, origin, token)
    }

    fn source(&self, state: &AppState, probe: Probe<'_>) -> Box<dyn Source> {
        let mut config =
            SocialAdsBConfig::new(probe.token.to_owned(), probe.ad_account_id.to_owned());
        probe.origin.clone_into(&mut config.api_base_url);
        boxed(SocialAdsBSource::new(
            state.http.clone(),
            config,
            probe.currency,
        ))
    }
}

/// The ad account a connection reads.
#[derive(Deserialize)]
struct Settings {
    ad_account_id: String,
}

/// The LinkedIn token and the ad account.
fn open<'a>(
    state: &'a AppState,
    product: &'a ProductRow,
    row: &'a ConnectionRow,
) -> OpenFuture<'a> {
    Box::pin(async move {
        let settings: Settings = source_config::settings_of(row)?;
        let mut config = SocialAdsBConfig::new(
            source_config::access_token(state, row).await?,
            settings.ad_account_id,
        );
        config.api_base_url = origin(state);
        Ok(boxed(SocialAdsBSource::new(
            state.http.clone(),
            config,
            &product.currency,
        )))
    })
}
