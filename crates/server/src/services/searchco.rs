//! The search-engine grant (`searchco`, Google OAuth) as a [`GrantProvider`]: one consent
//! serves every kind chosen in it. What is Google's own: the scope of each kind, the consent URL
//! (offline access, PKCE), the code exchanged for a refresh token (what is sealed), discovery of
//! the ad accounts and their managers, and the account choice. The flow itself is
//! `services::grants`. A kind whose connector has not arrived is refused at `start`, so a grant
//! never activates nothing.

use payback_connectors::oauth::{GrantTokens, OAuthClient, OAuthEndpoints, SEARCH_ADS_SCOPE};
use payback_connectors::search_ads::{self, AdsCustomerOption};
use payback_domain::connection::ConnectionKind;
use payback_store::products::ProductRow;
use serde_json::{Value, json};

use crate::error::{ApiError, ApiResult};
use crate::services::acting::Caller;
use crate::services::grants::{
    self, Activation, Authorization, Code, Consent, GrantProvider, Provider, Selectable,
};
use crate::state::AppState;

/// The kinds one search-engine grant may serve.
pub const GRANT_KINDS: [ConnectionKind; 4] = [
    ConnectionKind::AnalyticsA,
    ConnectionKind::Tagmgr,
    ConnectionKind::SearchAds,
    ConnectionKind::SearchConsole,
];
/// The provider word in paths and in `grant_states`, Google's name and the grant's kinds.
pub const GOOGLE: Provider = Provider {
    word: "searchco",
    vendor: "Google",
    token_prefix: "sc_",
    name: "search-engine grant",
    kinds: &GRANT_KINDS,
    no_kinds: "kinds: choose at least one kind",
};

/// The search-engine grant.
#[derive(Debug, Clone, Copy)]
pub struct Searchco;

/// The OAuth client from the configuration; 503 until the operator set it up.
pub fn oauth_client(state: &AppState) -> ApiResult<OAuthClient> {
    let config = &state.config;
    let endpoints = OAuthEndpoints {
        auth_url: config.searchco_auth_url.clone(),
        token_url: config.searchco_token_url.clone(),
        revoke_url: config.searchco_revoke_url.clone(),
    };
    let (id, secret) = grants::client_credentials(
        GOOGLE,
        config.searchco_client_id.as_deref(),
        config.searchco_client_secret.as_ref(),
    )?;
    Ok(OAuthClient::new(id, secret, endpoints))
}

/// The ads API's base URL and Payback's developer token; 503 without the token.
pub fn ads_api(state: &AppState) -> ApiResult<(String, String)> {
    let token = state
        .config
        .search_ads_developer_token
        .as_ref()
        .ok_or_else(|| {
            ApiError::ServiceUnavailable(
                "search ads are not configured (set PAYBACK_SEARCH_ADS_DEVELOPER_TOKEN)".to_owned(),
            )
        })?;
    let base = state
        .config
        .api_url(ConnectionKind::SearchAds)
        .unwrap_or(search_ads::DEFAULT_API_BASE_URL)
        .to_owned();
    Ok((base, token.expose().to_owned()))
}

/// `POST /connect/searchco/select`'s choices.
#[derive(Debug, Default)]
pub struct Selection {
    pub ads_customer_id: Option<String>,
    pub analytics_a_property_id: Option<String>,
    pub tagmgr_container_path: Option<String>,
    pub search_console_site_url: Option<String>,
}

impl GrantProvider for Searchco {
    const PROVIDER: Provider = GOOGLE;
    type Client = OAuthClient;
    /// The refresh token.
    type Tokens = String;
    type Selection = Selection;

    fn client(state: &AppState) -> ApiResult<OAuthClient> {
        oauth_client(state)
    }

    fn scopes(kind: ConnectionKind) -> &'static [&'static str] {
        match kind {
            ConnectionKind::SearchAds => &[SEARCH_ADS_SCOPE],
            ConnectionKind::AnalyticsA => &["https://www.googleapis.com/auth/analytics.readonly"],
            ConnectionKind::Tagmgr => &["https://www.googleapis.com/auth/tagmanager.readonly"],
            _ => &["https://www.googleapis.com/auth/webmasters.readonly"],
        }
    }

    fn unavailable_hint(kind: ConnectionKind) -> String {
        format!("; connect search_ads now and {kind} once it arrives")
    }

    fn authorization(client: &OAuthClient, consent: Consent<'_>) -> ApiResult<Authorization> {
        let request = client
            .authorization_url(consent.redirect, consent.scopes, consent.state)
            .map_err(|err| {
                ApiError::internal(format!("the consent URL could not be built: {err}"))
            })?;
        Ok(Authorization {
            url: request.url,
            pkce_verifier: request.pkce_verifier,
        })
    }

    async fn exchange(oauth: &OAuthClient, code: Code<'_>) -> Result<String, String> {
        match oauth
            .exchange_code(code.http, code.redirect, code.code, code.pkce_verifier)
            .await
        {
            Ok(GrantTokens {
                refresh_token: Some(refresh_token),
                ..
            }) => Ok(refresh_token),
            Ok(_) => Err("Google gave no refresh token; remove Payback's access in your Google account's security settings, then connect again".to_owned()),
            Err(err) => Err(format!("the token exchange with Google failed: {err}")),
        }
    }

    async fn discover(
        state: &AppState,
        client: &OAuthClient,
        refresh_token: &String,
        kinds: &[ConnectionKind],
    ) -> Result<Value, String> {
        let mut options = json!({});
        if kinds.contains(&ConnectionKind::SearchAds) {
            let (api_base_url, developer_token) = ads_api(state).map_err(|err| {
                format!("Payback could not finish connecting ({err}); start again")
            })?;
            let customers = search_ads::discover_customers(
                &state.http,
                &api_base_url,
                &developer_token,
                client,
                refresh_token,
            )
            .await
            .map_err(|err| grants::listing_failed(GOOGLE, "Google Ads accounts", err))?;
            options["ads_customers"] = json!(customers);
        }
        Ok(options)
    }

    fn secret(refresh_token: &String) -> Value {
        json!({ "refresh_token": refresh_token })
    }

    /// The `search_ads` connection for the chosen account; the other kinds' choices are
    /// refused (their connectors have not arrived, so `start` never takes them).
    async fn activations(
        _state: &AppState,
        _caller: &Caller,
        chosen: &Selectable,
        selection: Selection,
    ) -> ApiResult<Vec<Activation>> {
        for (field, given) in [
            (
                "analytics_a_property_id",
                &selection.analytics_a_property_id,
            ),
            ("tagmgr_container_path", &selection.tagmgr_container_path),
            (
                "search_console_site_url",
                &selection.search_console_site_url,
            ),
        ] {
            if given.is_some() {
                return Err(ApiError::bad_request(format!(
                    "{field}: that kind was not part of this grant"
                )));
            }
        }
        let customers: Vec<AdsCustomerOption> =
            serde_json::from_value(chosen.options["ads_customers"].clone()).unwrap_or_default();
        let customer = choose_customer(
            &customers,
            selection.ads_customer_id.as_deref(),
            &chosen.product,
        )?;
        Ok(vec![Activation {
            kind: ConnectionKind::SearchAds,
            config: json!({
                "customer_id": customer.customer_id,
                "login_customer_id": customer.login_customer_id,
                "customer_name": customer.descriptive_name,
                "currency": customer.currency_code,
            }),
            audit: json!({
                "customer_id": customer.customer_id,
                "login_customer_id": customer.login_customer_id,
            }),
        }])
    }

    /// The refresh token revoked at Google.
    async fn revoke(state: &AppState, secret: &Value) -> ApiResult<bool> {
        let Some(token) = secret["refresh_token"].as_str() else {
            return Ok(false);
        };
        oauth_client(state)?
            .revoke(&state.http, token)
            .await
            .map_err(|err| ApiError::BadGateway(format!("revoking at Google failed: {err}")))?;
        Ok(true)
    }
}

/// The ad account to connect: the one named (dashes stripped), or the only one there is.
fn choose_customer<'a>(
    customers: &'a [AdsCustomerOption],
    chosen: Option<&str>,
    product: &ProductRow,
) -> ApiResult<&'a AdsCustomerOption> {
    let selectable: Vec<&AdsCustomerOption> = customers.iter().filter(|c| !c.manager).collect();
    let customer = match chosen {
        Some(text) => {
            let id = search_ads::plain_customer_id(text).ok_or_else(|| {
                ApiError::bad_request(
                    "ads_customer_id: must be a Google Ads customer id such as 123-456-7890",
                )
            })?;
            let found = customers
                .iter()
                .find(|c| c.customer_id == id)
                .ok_or_else(|| {
                    ApiError::bad_request(format!(
                        "ads_customer_id: {id} is not an account this grant reaches"
                    ))
                })?;
            if found.manager {
                return Err(ApiError::bad_request(format!(
                    "ads_customer_id: {id} is a manager account; choose one of the accounts it manages"
                )));
            }
            found
        }
        None => match selectable.as_slice() {
            [only] => only,
            [] => {
                return Err(ApiError::bad_request(
                    "ads_customer_id: this grant reaches no Google Ads account that runs campaigns",
                ));
            }
            _ => {
                return Err(ApiError::bad_request(format!(
                    "ads_customer_id: choose one of {}",
                    selectable
                        .iter()
                        .map(|c| c.customer_id.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )));
            }
        },
    };
    if let Some(currency) = customer.currency_code.as_deref()
        && !currency.eq_ignore_ascii_case(&product.currency)
    {
        return Err(ApiError::bad_request(format!(
            "ads_customer_id: the account reports in {currency} but {} counts in {}; spend is never mixed across currencies",
            product.slug, product.currency
        )));
    }
    Ok(customer)
}
