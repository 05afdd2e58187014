//! The search-engine grant (`searchco`, Google OAuth): one consent serves every kind chosen in
//! it. `start` stores a single-use state (15 minutes) with its PKCE verifier and answers the
//! consent URL; the provider sends the human to `callback`, which exchanges the code, seals the
//! refresh token, discovers what the grant reaches (ad accounts and their managers) and marks
//! the state `complete` or `error`; `status` shows it to whoever started it; `select` turns it
//! into connections, once. A kind whose connector has not arrived is refused at `start`, so a
//! grant never activates nothing.

use payback_connectors::oauth::{OAuthClient, OAuthEndpoints, SEARCH_ADS_SCOPE};
use payback_connectors::search_ads::{self, AdsCustomerOption};
use payback_domain::connection::ConnectionKind;
use payback_store::grant_states::GrantState;
use payback_store::products::ProductRow;
use serde_json::{Value, json};

use crate::error::{ApiError, ApiResult};
use crate::services::acting::Caller;
use crate::services::grants::{
    self, Activation, CallbackOutcome, CallbackQuery, GrantClient, GrantStatus, Granted, Provider,
    Started, StartedFlow,
};
use crate::services::{products, source_config};
use crate::state::AppState;

/// The provider word in paths and in `grant_states`.
pub const PROVIDER: &str = "searchco";
pub const GOOGLE: Provider = Provider {
    word: PROVIDER,
    vendor: "Google",
    token_prefix: "sc_",
};
/// The kinds one search-engine grant may serve.
pub const GRANT_KINDS: [ConnectionKind; 4] = [
    ConnectionKind::AnalyticsA,
    ConnectionKind::Tagmgr,
    ConnectionKind::SearchAds,
    ConnectionKind::SearchConsole,
];

/// The OAuth client from the configuration; 503 until the operator set it up.
pub fn oauth_client(state: &AppState) -> ApiResult<OAuthClient> {
    let config = &state.config;
    let (Some(id), Some(secret)) = (&config.searchco_client_id, &config.searchco_client_secret)
    else {
        return Err(ApiError::ServiceUnavailable(
            "the search-engine grant is not configured (set PAYBACK_SEARCHCO_CLIENT_ID and PAYBACK_SEARCHCO_CLIENT_SECRET)"
                .to_owned(),
        ));
    };
    let endpoints = OAuthEndpoints {
        auth_url: config.searchco_auth_url.clone(),
        token_url: config.searchco_token_url.clone(),
        revoke_url: config.searchco_revoke_url.clone(),
    };
    Ok(OAuthClient::new(
        id.clone(),
        secret.expose().to_owned(),
        endpoints,
    ))
}

/// The scope a kind needs at the provider.
fn scope_of(kind: ConnectionKind) -> &'static str {
    match kind {
        ConnectionKind::SearchAds => SEARCH_ADS_SCOPE,
        ConnectionKind::AnalyticsA => "https://www.googleapis.com/auth/analytics.readonly",
        ConnectionKind::Tagmgr => "https://www.googleapis.com/auth/tagmanager.readonly",
        _ => "https://www.googleapis.com/auth/webmasters.readonly",
    }
}

/// The chosen kinds, checked: each one of the grant's, each with a connector in this build.
fn grant_kinds(state: &AppState, words: &[String]) -> ApiResult<Vec<ConnectionKind>> {
    if words.is_empty() {
        return Err(ApiError::bad_request("kinds: choose at least one kind"));
    }
    let mut kinds = Vec::new();
    for word in words {
        let kind = ConnectionKind::parse(word)
            .filter(|kind| GRANT_KINDS.contains(kind))
            .ok_or_else(|| {
                ApiError::bad_request(format!(
                    "kinds: `{word}` is not a kind of the search-engine grant (analytics_a, tagmgr, search_ads, search_console)"
                ))
            })?;
        if !state.sources.reads(kind) {
            return Err(ApiError::bad_request(format!(
                "kinds: {kind} is not available yet; connect search_ads now and {kind} once it arrives"
            )));
        }
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    Ok(kinds)
}

/// `POST /connect/searchco/start`.
pub async fn start(
    state: &AppState,
    caller: &Caller,
    slug: &str,
    kind_words: &[String],
    client: GrantClient,
) -> ApiResult<Started> {
    let oauth = oauth_client(state)?;
    source_config::vault(state)?;
    let product = products::find(state, caller.scope()?, slug).await?;
    let kinds = grant_kinds(state, kind_words)?;
    let scopes: Vec<&str> = kinds.iter().map(|kind| scope_of(*kind)).collect();
    let token = grants::new_token(GOOGLE);
    let request = oauth
        .authorization_url(&grants::redirect_url(state, GOOGLE), &scopes, &token)
        .map_err(|err| ApiError::internal(format!("the consent URL could not be built: {err}")))?;
    let flow = StartedFlow {
        token,
        product: &product,
        kinds: &kinds,
        client,
        pkce_verifier: &request.pkce_verifier,
        provider_url: request.url,
    };
    grants::record_start(state, caller, GOOGLE, flow).await
}

/// `GET /connect/searchco/callback`: public (the human's browser carries no credential of ours);
/// the single-use state ties it to an account, and the cookie of the browser that confirmed it
/// on Payback's page to the person. `browser` is the value of the confirming browser's cookie, if the request carried one.
pub async fn callback(
    state: &AppState,
    query: CallbackQuery,
    browser: Option<&str>,
) -> ApiResult<CallbackOutcome> {
    grants::callback(state, GOOGLE, query, browser, |grant, code| async move {
        grant_from_code(state, &grant, &code).await
    })
    .await
}

/// Exchanges the code and discovers what the grant reaches; `Err` is the reason shown to the
/// person.
async fn grant_from_code(
    state: &AppState,
    grant: &GrantState,
    code: &str,
) -> Result<Granted, String> {
    let internal =
        |err: ApiError| format!("Payback could not finish connecting ({err}); start again");
    let oauth = oauth_client(state).map_err(internal)?;
    let tokens = oauth
        .exchange_code(
            &state.http,
            &grants::redirect_url(state, GOOGLE),
            code,
            &grant.pkce_verifier,
        )
        .await
        .map_err(|err| format!("the token exchange with Google failed: {err}"))?;
    let Some(refresh_token) = tokens.refresh_token else {
        return Err("Google gave no refresh token; remove Payback's access in your Google account's security settings, then connect again".to_owned());
    };
    let kinds: Vec<String> = serde_json::from_str(&grant.kinds).unwrap_or_default();
    let mut options = json!({});
    if kinds
        .iter()
        .any(|kind| kind == ConnectionKind::SearchAds.as_str())
    {
        let (api_base_url, developer_token) = ads_api(state).map_err(internal)?;
        let customers = search_ads::discover_customers(
            &state.http,
            &api_base_url,
            &developer_token,
            &oauth,
            &refresh_token,
        )
        .await
        .map_err(|err| {
            format!("Google granted access, but listing its Google Ads accounts failed: {err}")
        })?;
        options["ads_customers"] = json!(customers);
    }
    Ok(Granted {
        secret: json!({ "refresh_token": refresh_token }),
        options,
    })
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

/// `GET /connect/searchco/status`: 404 for another account's state or an unknown one.
pub async fn status(state: &AppState, caller: &Caller, token: &str) -> ApiResult<GrantStatus> {
    grants::status(state, caller, GOOGLE, token).await
}

/// `POST /connect/searchco/select`'s choices.
#[derive(Debug, Default)]
pub struct Selection {
    pub ads_customer_id: Option<String>,
    pub analytics_a_property_id: Option<String>,
    pub tagmgr_container_path: Option<String>,
    pub search_console_site_url: Option<String>,
}

/// `POST /connect/searchco/select`: activates the chosen entities, once. 404 unknown state,
/// 409 not complete (yet, or ended in an error) or already selected, 400 a choice the grant
/// does not offer.
pub async fn select(
    state: &AppState,
    caller: &Caller,
    token: &str,
    selection: Selection,
) -> ApiResult<Vec<String>> {
    let chosen = grants::selectable(state, caller, GOOGLE, token).await?;
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
    let activation = Activation {
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
    };
    grants::activate(state, caller, GOOGLE, &chosen, vec![activation]).await
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

/// Ends a grant at Google: its refresh token revoked (the sweep of abandoned grants).
pub async fn revoke(state: &AppState, secret: &Value) -> ApiResult<bool> {
    let Some(token) = secret["refresh_token"].as_str() else {
        return Ok(false);
    };
    let oauth = oauth_client(state)?;
    oauth
        .revoke(&state.http, token)
        .await
        .map_err(|err| ApiError::BadGateway(format!("revoking at Google failed: {err}")))?;
    Ok(true)
}
