//! The social-network grant (`socialco`, Facebook Login) as a [`GrantProvider`]: one consent
//! serves `social_ads_a` (the ad account: spend in, approved budgets out) and `social_a` (a page
//! and its linked photo-sharing business account). The flow is the shared one of
//! `services::grants`; what is Meta's own: the Login dialog's scopes, the code exchanged for a
//! short-lived user token and that for a long-lived one (Meta gives no refresh token; the
//! long-lived token is what is sealed), the dialog's PKCE S256 challenge and the exchange's
//! verifier, and discovery of the ad accounts and pages the token reaches. An adult-adjacent
//! product is refused `social_ads_a` at `start` and again at `select` (the policy wall).

use payback_connectors::graph::{self, GraphApp};
use payback_connectors::social_ads_a;
use payback_connectors::{AdAccountOption, graph::PageOption};
use payback_domain::connection::ConnectionKind;
use payback_store::products::ProductRow;
use serde_json::{Value, json};

use crate::error::{ApiError, ApiResult};
use crate::services::acting::Caller;
use crate::services::grants::{
    self, Activation, Authorization, Code, Consent, GrantProvider, Provider, Selectable,
};
use crate::services::{social_connect, source_config};
use crate::state::AppState;

/// The kinds one social-network grant may serve.
pub const GRANT_KINDS: [ConnectionKind; 2] = [ConnectionKind::SocialAdsA, ConnectionKind::SocialA];
/// The provider word in paths and in `grant_states`, Meta's name and the grant's kinds.
pub const META: Provider = Provider {
    word: "socialco",
    vendor: "Meta",
    token_prefix: "so_",
    name: "social-network grant",
    kinds: &GRANT_KINDS,
    no_kinds: "kinds: choose at least one kind, or leave kinds out for both",
};

/// The social-network grant.
#[derive(Debug, Clone, Copy)]
pub struct Socialco;

/// A long-lived user token and when it expires.
#[derive(Debug)]
pub struct UserToken {
    access_token: String,
    expires_at: Option<String>,
}

/// `POST /connect/socialco/select`'s choices.
#[derive(Debug, Default)]
pub struct Selection {
    pub ad_account_id: Option<String>,
    pub page_id: Option<String>,
}

impl GrantProvider for Socialco {
    type Client = GraphApp;
    type Tokens = UserToken;
    type Selection = Selection;
    const PROVIDER: Provider = META;

    /// The ad account's permissions for `social_ads_a`, the page's for `social_a`.
    fn scopes(kind: ConnectionKind) -> &'static [&'static str] {
        if kind == ConnectionKind::SocialAdsA {
            graph::SOCIAL_ADS_SCOPES
        } else {
            graph::SOCIAL_PAGE_SCOPES
        }
    }

    fn client(state: &AppState) -> ApiResult<GraphApp> {
        app(state)
    }

    fn unavailable_hint(_kind: ConnectionKind) -> String {
        String::new()
    }

    /// The policy wall: no `social_ads_a` for an adult-adjacent product.
    async fn admit(
        state: &AppState,
        caller: &Caller,
        product: &ProductRow,
        kinds: &[ConnectionKind],
    ) -> ApiResult<()> {
        if kinds.contains(&ConnectionKind::SocialAdsA) {
            social_connect::adult_wall(state, caller, product, ConnectionKind::SocialAdsA).await?;
        }
        Ok(())
    }

    fn authorization(app: &GraphApp, consent: Consent<'_>) -> ApiResult<Authorization> {
        let dialog = app.dialog_url(consent.redirect, consent.state, consent.scopes);
        Ok(Authorization {
            url: dialog.url,
            pkce_verifier: dialog.pkce_verifier,
        })
    }

    /// The code for a long-lived user token.
    async fn exchange(app: &GraphApp, code: Code<'_>) -> Result<UserToken, String> {
        let token = app
            .exchange_code(code.http, code.redirect, code.code, code.pkce_verifier)
            .await
            .map_err(|err| format!("the token exchange with Meta failed: {err}"))?;
        let expires_at = token.expires_in_secs.map(|secs| {
            code.now
                .plus_millis(secs.saturating_mul(1_000))
                .to_rfc3339()
        });
        Ok(UserToken {
            access_token: token.access_token,
            expires_at,
        })
    }

    async fn discover(
        state: &AppState,
        _client: &GraphApp,
        token: &UserToken,
        kinds: &[ConnectionKind],
    ) -> Result<Value, String> {
        let access_token = token.access_token.as_str();
        let mut options = json!({});
        // The grant's order, whatever the order asked in: ad accounts, then pages.
        for kind in GRANT_KINDS.iter().filter(|kind| kinds.contains(kind)) {
            let base = source_config::vendor_base_url(state, *kind);
            if *kind == ConnectionKind::SocialAdsA {
                let accounts = graph::discover_ad_accounts(&state.http, &base, access_token)
                    .await
                    .map_err(|err| grants::listing_failed(META, "ad accounts", err))?;
                options["ad_accounts"] = json!(accounts);
            } else {
                let pages = graph::discover_pages(&state.http, &base, access_token)
                    .await
                    .map_err(|err| grants::listing_failed(META, "pages", err))?;
                options["pages"] = json!(pages);
            }
        }
        Ok(options)
    }

    fn secret(token: &UserToken) -> Value {
        json!({ "access_token": token.access_token, "expires_at": token.expires_at })
    }

    /// The chosen ad account and page. Each kind the grant was asked for needs its choice
    /// unless exactly one option exists; 400 a choice the grant does not offer, an ad account
    /// in another currency or not active, 403 the policy wall (adult-adjacent products).
    async fn activations(
        state: &AppState,
        caller: &Caller,
        chosen: &Selectable,
        selection: Selection,
    ) -> ApiResult<Vec<Activation>> {
        let mut activations = Vec::new();
        if chosen.asked_for(ConnectionKind::SocialAdsA) {
            social_connect::adult_wall(state, caller, &chosen.product, ConnectionKind::SocialAdsA)
                .await?;
            let accounts: Vec<AdAccountOption> =
                serde_json::from_value(chosen.options["ad_accounts"].clone()).unwrap_or_default();
            let account = social_connect::choose_ad_account(
                &accounts,
                selection.ad_account_id.as_deref(),
                &chosen.product,
                social_ads_a::plain_ad_account_id,
            )?;
            activations.push(Activation {
                kind: ConnectionKind::SocialAdsA,
                config: social_connect::ad_account_config(account, &[]),
                audit: json!({ "ad_account_id": account.id }),
            });
        } else if selection.ad_account_id.is_some() {
            return Err(ApiError::bad_request(
                "ad_account_id: social_ads_a was not part of this grant",
            ));
        }
        if chosen.asked_for(ConnectionKind::SocialA) {
            let pages: Vec<PageOption> =
                serde_json::from_value(chosen.options["pages"].clone()).unwrap_or_default();
            let page = social_connect::choose_page(&pages, selection.page_id.as_deref())?;
            activations.push(Activation {
                kind: ConnectionKind::SocialA,
                config: social_connect::page_config(page),
                audit: json!({ "page_id": page.id }),
            });
        } else if selection.page_id.is_some() {
            return Err(ApiError::bad_request(
                "page_id: social_a was not part of this grant",
            ));
        }
        Ok(activations)
    }

    /// The user token's permissions deleted at Meta.
    async fn revoke(state: &AppState, secret: &Value) -> ApiResult<bool> {
        let Some(token) = secret["access_token"].as_str() else {
            return Ok(false);
        };
        let base = source_config::vendor_base_url(state, ConnectionKind::SocialAdsA);
        graph::revoke(&state.http, &base, token)
            .await
            .map_err(|err| ApiError::BadGateway(format!("revoking at Meta failed: {err}")))?;
        Ok(true)
    }
}

/// Payback's app at Meta from the configuration; 503 until the operator set it up.
pub fn app(state: &AppState) -> ApiResult<GraphApp> {
    let config = &state.config;
    let (id, secret) = grants::client_credentials(
        META,
        config.socialco_client_id.as_deref(),
        config.socialco_client_secret.as_ref(),
    )?;
    let mut app = GraphApp::new(id, secret);
    if let Some(url) = &config.socialco_auth_url {
        url.clone_into(&mut app.dialog_url);
    }
    if let Some(url) = &config.socialco_token_url {
        url.clone_into(&mut app.token_url);
    }
    Ok(app)
}
