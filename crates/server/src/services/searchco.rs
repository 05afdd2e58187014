//! The search-engine grant (`searchco`, Google OAuth): one consent serves every kind chosen in
//! it. `start` stores a single-use state (15 minutes) with its PKCE verifier and answers the
//! consent URL; the provider sends the human to `callback`, which exchanges the code, seals the
//! refresh token, discovers what the grant reaches (ad accounts and their managers) and marks
//! the state `complete` or `error`; `status` shows it to whoever started it; `select` turns it
//! into connections, once. A kind whose connector has not arrived is refused at `start`, so a
//! grant never activates nothing.

use payback_connectors::oauth::{OAuthClient, OAuthEndpoints, SEARCH_ADS_SCOPE};
use payback_connectors::search_ads::{self, AdsCustomerOption};
use payback_domain::MINUTE_MS;
use payback_domain::connection::{ConnectionKind, ConnectionStatus};
use payback_store::connections::{self as connection_store, NewConnection};
use payback_store::grant_states::{self as store, GrantState, NewGrantState};
use payback_store::products::{self as product_store, ProductRow};
use payback_store::{AccountScope, new_id};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use utoipa::ToSchema;

use crate::error::{ApiError, ApiResult};
use crate::services::acting::Caller;
use crate::services::{audit, products, source_config};
use crate::state::AppState;

/// The provider word in paths and in `grant_states`.
pub const PROVIDER: &str = "searchco";
/// How long a started flow waits for the human.
const STATE_TTL_MS: i64 = 15 * MINUTE_MS;
/// How long a consented grant waits for its selection before its token is revoked.
const SELECTION_WINDOW_MS: i64 = 24 * 60 * MINUTE_MS;
/// Abandoned grants one sweep handles.
const SWEEP_BATCH: i64 = 50;
/// The kinds one search-engine grant may serve.
pub const GRANT_KINDS: [ConnectionKind; 4] = [
    ConnectionKind::AnalyticsA,
    ConnectionKind::Tagmgr,
    ConnectionKind::SearchAds,
    ConnectionKind::SearchConsole,
];

/// Who the flow reports back to when the human is done: the dashboard gets a redirect into
/// the product's connections page, everyone else a small page saying what happened.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum GrantClient {
    Dashboard,
    Cli,
    Mcp,
    #[default]
    Api,
}

impl GrantClient {
    fn as_str(self) -> &'static str {
        match self {
            GrantClient::Dashboard => "dashboard",
            GrantClient::Cli => "cli",
            GrantClient::Mcp => "mcp",
            GrantClient::Api => "api",
        }
    }
}

/// `POST /connect/searchco/start`'s answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct Started {
    pub state: String,
    pub auth_url: String,
    pub expires_at: String,
}

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

/// Where the provider sends the human back.
fn redirect_url(state: &AppState) -> String {
    format!("{}/connect/{PROVIDER}/callback", state.config.public_url())
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
    let scope = caller.scope()?;
    let product = products::find(state, scope, slug).await?;
    let kinds = grant_kinds(state, kind_words)?;
    let scopes: Vec<&str> = kinds.iter().map(|kind| scope_of(*kind)).collect();
    let token = format!("sc_{}", new_id().replace('-', ""));
    let request = oauth
        .authorization_url(&redirect_url(state), &scopes, &token)
        .map_err(|err| ApiError::internal(format!("the consent URL could not be built: {err}")))?;
    let now = state.clock.now();
    let expires_at = now.plus_millis(STATE_TTL_MS);
    let kind_list: Vec<&str> = kinds.iter().map(|kind| kind.as_str()).collect();
    let kinds_json = json!(kind_list).to_string();
    let actor = caller.actor();
    let new = NewGrantState {
        state: &token,
        provider: PROVIDER,
        product_id: &product.id,
        kinds: &kinds_json,
        client: client.as_str(),
        started_by: &actor.who,
        started_via: actor.via.as_str(),
        pkce_verifier: &request.pkce_verifier,
        expires_at,
    };
    let mut tx = state.store.begin().await?;
    store::insert(&mut tx, scope, new, now).await?;
    let payload = json!({ "provider": PROVIDER, "kinds": kind_list, "client": client.as_str() });
    audit::record_product(&mut tx, &actor, &product, "connect.start", payload, now).await?;
    tx.commit().await?;
    Ok(Started {
        state: token,
        auth_url: request.url,
        expires_at: expires_at.to_rfc3339(),
    })
}

/// What the human sees after the provider sent them back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CallbackOutcome {
    /// Back to the dashboard's connections page of the product, with the state to poll.
    Redirect(String),
    /// A small page: `ok` says whether the grant came through; `message` what to do next.
    Page { ok: bool, message: String },
}

/// The provider's redirect: `state` with `code`, or with `error` when consent was refused.
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CallbackQuery {
    /// The state `start` answered.
    pub state: Option<String>,
    /// The authorization code to exchange.
    pub code: Option<String>,
    /// The provider's error (`access_denied` when the human refused consent).
    pub error: Option<String>,
}

/// `GET /connect/searchco/callback`: public (the human's browser carries no credential of ours);
/// only the single-use state ties it to an account.
pub async fn callback(state: &AppState, query: CallbackQuery) -> ApiResult<CallbackOutcome> {
    let unknown = || CallbackOutcome::Page {
        ok: false,
        message: "This connect link is not valid. Start connecting again from Payback.".to_owned(),
    };
    let Some(token) = query.state.as_deref().filter(|token| token.len() <= 100) else {
        return Ok(unknown());
    };
    let Some(grant) = store::find(&state.store, PROVIDER, token).await? else {
        return Ok(unknown());
    };
    let now = state.clock.now();
    let scope = AccountScope::trusted(grant.account_id.clone());
    let product = product_store::find_by_id(&state.store, &scope, &grant.product_id)
        .await?
        .ok_or_else(|| ApiError::internal("a grant state without its product"))?;
    let ended = |message: String| finish_page(state, &grant, &product, false, message);
    if now.millis() >= grant.expires_at {
        let message = "the connect link expired after 15 minutes; start again".to_owned();
        store::fail(&state.store, token, &message).await?;
        return Ok(ended(message));
    }
    if !store::claim_callback(&state.store, token, now).await? {
        return Ok(ended(
            "this connect link was already used; start again to connect another account".to_owned(),
        ));
    }
    let result = match (query.error.as_deref(), query.code.as_deref()) {
        (Some("access_denied"), _) => Err(
            "consent was refused at Google, so Payback has no access; start again and allow access"
                .to_owned(),
        ),
        (Some(error), _) => Err(format!(
            "Google answered `{}` instead of a grant; start again",
            error.chars().take(100).collect::<String>()
        )),
        (None, None) => Err("Google sent no authorization code; start again".to_owned()),
        (None, Some(code)) => grant_from_code(state, &grant, code).await,
    };
    match result {
        Ok(()) => Ok(finish_page(
            state,
            &grant,
            &product,
            true,
            "Google is connected. Return to Payback to choose the account.".to_owned(),
        )),
        Err(message) => {
            store::fail(&state.store, token, &message).await?;
            let actor = started_by(&grant);
            let mut tx = state.store.begin().await?;
            let payload = json!({ "provider": PROVIDER, "error": message });
            audit::record_product(&mut tx, &actor, &product, "connect.error", payload, now).await?;
            tx.commit().await?;
            Ok(ended(message))
        }
    }
}

fn started_by(grant: &GrantState) -> payback_domain::Actor {
    payback_domain::Actor {
        who: grant.started_by.clone(),
        via: payback_domain::actor::Via::parse(&grant.started_via)
            .unwrap_or(payback_domain::actor::Via::Api),
    }
}

/// The dashboard gets a redirect to the product's connections page; other clients a page.
fn finish_page(
    state: &AppState,
    grant: &GrantState,
    product: &ProductRow,
    ok: bool,
    message: String,
) -> CallbackOutcome {
    if grant.client == GrantClient::Dashboard.as_str() {
        CallbackOutcome::Redirect(format!(
            "{}/#/p/{}/connections?{PROVIDER}_state={}",
            state.config.public_url(),
            product.slug,
            grant.state
        ))
    } else {
        CallbackOutcome::Page { ok, message }
    }
}

/// Exchanges the code, discovers what the grant reaches and completes the state; `Err` is the
/// reason shown to the person.
async fn grant_from_code(state: &AppState, grant: &GrantState, code: &str) -> Result<(), String> {
    let internal =
        |err: ApiError| format!("Payback could not finish connecting ({err}); start again");
    let oauth = oauth_client(state).map_err(internal)?;
    let tokens = oauth
        .exchange_code(
            &state.http,
            &redirect_url(state),
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
    let vault = source_config::vault(state).map_err(internal)?;
    let secret = json!({ "refresh_token": refresh_token }).to_string();
    let sealed = vault
        .seal(&grant.account_id, secret.as_bytes())
        .map_err(internal)?;
    let scope = AccountScope::trusted(grant.account_id.clone());
    let now = state.clock.now();
    let stored = async {
        let mut tx = state.store.begin().await?;
        let credential_id =
            connection_store::insert_credential(&mut tx, &scope, &sealed, now).await?;
        store::complete(&mut tx, &grant.state, &credential_id, &options.to_string()).await?;
        tx.commit().await?;
        Ok::<(), ApiError>(())
    };
    stored.await.map_err(internal)
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

/// `GET /connect/searchco/status`'s answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct GrantStatus {
    /// `pending`, `complete` or `error`.
    pub status: String,
    pub product_slug: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// After `select`: `{activated: [kinds]}`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub results: Option<Value>,
    /// Once complete: what the grant reaches, e.g. `{ads_customers: [{customer_id,
    /// descriptive_name, currency_code, manager, login_customer_id, status}]}`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub options: Option<Value>,
}

/// `GET /connect/searchco/status`: 404 for another account's state or an unknown one.
pub async fn status(state: &AppState, caller: &Caller, token: &str) -> ApiResult<GrantStatus> {
    let (grant, product) = find_grant(state, caller, token).await?;
    let now = state.clock.now();
    let expired = grant.status == "pending" && now.millis() >= grant.expires_at;
    let parse = |text: &Option<String>| {
        text.as_deref()
            .and_then(|text| serde_json::from_str::<Value>(text).ok())
    };
    Ok(GrantStatus {
        status: if expired { "error" } else { &grant.status }.to_owned(),
        product_slug: product.slug,
        error: if expired {
            Some("the connect link expired after 15 minutes; start again".to_owned())
        } else {
            grant.error.clone()
        },
        results: parse(&grant.results),
        options: parse(&grant.options),
    })
}

async fn find_grant(
    state: &AppState,
    caller: &Caller,
    token: &str,
) -> ApiResult<(GrantState, ProductRow)> {
    let scope = caller.scope()?;
    let not_found = || ApiError::not_found("connect state");
    let grant = store::find_in(&state.store, scope, PROVIDER, token)
        .await?
        .ok_or_else(not_found)?;
    let product = product_store::find_by_id(&state.store, scope, &grant.product_id)
        .await?
        .ok_or_else(not_found)?;
    Ok((grant, product))
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
    let (grant, product) = find_grant(state, caller, token).await?;
    match grant.status.as_str() {
        "complete" if grant.selected_at.is_none() => {}
        "complete" => {
            return Err(ApiError::Conflict(
                "this grant's accounts were already selected; start again to connect another"
                    .to_owned(),
            ));
        }
        "error" => {
            return Err(ApiError::Conflict(format!(
                "this grant ended with an error: {}",
                grant.error.as_deref().unwrap_or("unknown")
            )));
        }
        _ => {
            return Err(ApiError::Conflict(
                "the human has not completed consent yet; poll status until it is complete"
                    .to_owned(),
            ));
        }
    }
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
    let options: Value = grant
        .options
        .as_deref()
        .and_then(|text| serde_json::from_str(text).ok())
        .unwrap_or_default();
    let customers: Vec<AdsCustomerOption> =
        serde_json::from_value(options["ads_customers"].clone()).unwrap_or_default();
    let customer = choose_customer(&customers, selection.ads_customer_id.as_deref(), &product)?;
    let credential_id = grant
        .credential_id
        .as_deref()
        .ok_or_else(|| ApiError::internal("a complete grant without its credential"))?;
    let config = json!({
        "customer_id": customer.customer_id,
        "login_customer_id": customer.login_customer_id,
        "customer_name": customer.descriptive_name,
        "currency": customer.currency_code,
        "grant": PROVIDER,
    })
    .to_string();
    let activated = vec![ConnectionKind::SearchAds.as_str().to_owned()];
    let results = json!({ "activated": activated }).to_string();
    let scope = caller.scope()?;
    let now = state.clock.now();
    let actor = caller.actor();
    let mut tx = state.store.begin().await?;
    if !store::claim_selection(&mut tx, token, &results, now).await? {
        return Err(ApiError::Conflict(
            "this grant's accounts were already selected; start again to connect another"
                .to_owned(),
        ));
    }
    let new = NewConnection {
        product_id: &product.id,
        kind: ConnectionKind::SearchAds.as_str(),
        status: ConnectionStatus::Active.as_str(),
        config: &config,
        credential_id: Some(credential_id),
        event_maps: None,
    };
    let (connection_id, previous) = connection_store::upsert(&mut tx, scope, new, now).await?;
    if let Some(previous) = previous.filter(|previous| previous != credential_id) {
        connection_store::delete_credential_if_unused(&mut tx, &previous).await?;
    }
    let payload = json!({
        "connection_id": connection_id,
        "kind": ConnectionKind::SearchAds.as_str(),
        "customer_id": customer.customer_id,
        "login_customer_id": customer.login_customer_id,
        "grant": PROVIDER,
    });
    audit::record_product(
        &mut tx,
        &actor,
        &product,
        "connection.connect",
        payload,
        now,
    )
    .await?;
    tx.commit().await?;
    Ok(activated)
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

/// The `sweep_grants` job: a grant consented to but not selected within a day holds a sealed
/// refresh token nobody uses; it is revoked at Google, its credential deleted, and the state
/// marked `error` (a late `select` is refused). Revocation failures are logged and the token
/// forgotten all the same: keeping it would keep the access.
pub async fn sweep_abandoned(
    state: &AppState,
    now: payback_domain::Timestamp,
) -> ApiResult<String> {
    let before = now.minus_millis(SELECTION_WINDOW_MS);
    let abandoned = store::abandoned(&state.store, before, SWEEP_BATCH).await?;
    let oauth = oauth_client(state).ok();
    let mut revoked = 0;
    for grant in &abandoned {
        let Some(credential_id) = grant.credential_id.as_deref() else {
            continue;
        };
        if let (Some(oauth), Some(token)) =
            (&oauth, refresh_token(state, grant, credential_id).await)
        {
            match oauth.revoke(&state.http, &token).await {
                Ok(()) => revoked += 1,
                Err(err) => {
                    tracing::warn!(state = %grant.state, error = %err, "revoking an abandoned grant failed");
                }
            }
        }
        let mut tx = state.store.begin().await?;
        store::forget_credential(
            &mut tx,
            &grant.state,
            "no account was selected within a day; Payback revoked its access; start again",
        )
        .await?;
        connection_store::delete_credential_if_unused(&mut tx, credential_id).await?;
        tx.commit().await?;
    }
    Ok(format!(
        "{} abandoned grant(s) forgotten, {revoked} revoked at Google",
        abandoned.len()
    ))
}

/// The grant's refresh token, opened; `None` when it cannot be (no sealing key, a malformed
/// credential): the sweep then only forgets it.
async fn refresh_token(
    state: &AppState,
    grant: &GrantState,
    credential_id: &str,
) -> Option<String> {
    let vault = source_config::vault(state).ok()?;
    let sealed = connection_store::credential(&state.store, credential_id)
        .await
        .ok()??;
    let plain = vault.open(&grant.account_id, &sealed).ok()?;
    let secret: Value = serde_json::from_slice(&plain).ok()?;
    secret["refresh_token"].as_str().map(str::to_owned)
}
