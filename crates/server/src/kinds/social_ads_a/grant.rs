//! Meta ads as the social-network grant serves them: the ad account's permissions, the ad
//! accounts the grant reaches, the chosen one, and the policy wall at start and select.

use payback_connectors::AdAccountOption;
use payback_connectors::graph::{self, SOCIAL_ADS_SCOPES};
use payback_connectors::social_ads_a;
use payback_domain::connection::ConnectionKind;
use payback_store::products::ProductRow;
use serde_json::{Value, json};

use super::{KIND, origin};
use crate::error::ApiResult;
use crate::services::acting::Caller;
use crate::services::ad_accounts;
use crate::services::grants::{
    self, Access, Activation, BoxFuture, GrantProvider, GrantedKind, Selectable,
};
use crate::services::socialco::{Socialco, UserToken};
use crate::state::AppState;

/// `social_ads_a` in the social-network grant.
pub struct MetaAds;

impl GrantedKind<Socialco> for MetaAds {
    fn kind(&self) -> ConnectionKind {
        KIND
    }

    fn scopes(&self) -> &'static [&'static str] {
        SOCIAL_ADS_SCOPES
    }

    fn access(&self) -> Access {
        Access {
            title: "Meta ads (Facebook and Instagram ads)",
            lines: &[
                "Read the ad account you choose next: its campaigns, ad sets, ads and insights (spend, clicks, conversions).",
                "Change a campaign or ad set budget only after a person approves that change in Payback's approval queue.",
            ],
        }
    }

    fn choice_field(&self) -> &'static str {
        "ad_account_id"
    }

    /// The policy wall: no Meta ads for an adult-adjacent product.
    fn admit<'a>(
        &'a self,
        state: &'a AppState,
        caller: &'a Caller,
        product: &'a ProductRow,
    ) -> BoxFuture<'a, ApiResult<()>> {
        Box::pin(ad_accounts::adult_wall(state, caller, product, KIND))
    }

    fn discover<'a>(
        &'a self,
        state: &'a AppState,
        _app: &'a graph::GraphApp,
        token: &'a UserToken,
    ) -> BoxFuture<'a, Result<Value, String>> {
        Box::pin(async move {
            let accounts =
                graph::discover_ad_accounts(&state.http, &origin(state), &token.access_token)
                    .await
                    .map_err(|err| {
                        grants::listing_failed(Socialco::PROVIDER, "ad accounts", err)
                    })?;
            Ok(json!({ "ad_accounts": accounts }))
        })
    }

    /// The chosen ad account; optional when exactly one active account in the product's
    /// currency was discovered.
    fn activate<'a>(
        &'a self,
        _state: &'a AppState,
        _caller: &'a Caller,
        chosen: &'a Selectable,
        choice: Option<&'a str>,
    ) -> BoxFuture<'a, ApiResult<Activation>> {
        Box::pin(async move {
            let accounts: Vec<AdAccountOption> =
                serde_json::from_value(chosen.options["ad_accounts"].clone()).unwrap_or_default();
            let account = ad_accounts::choose_ad_account(
                &accounts,
                choice,
                &chosen.product,
                social_ads_a::plain_ad_account_id,
            )?;
            Ok(Activation {
                kind: KIND,
                config: ad_accounts::ad_account_config(account, &[]),
                audit: json!({ "ad_account_id": account.id }),
            })
        })
    }
}
