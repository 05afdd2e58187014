//! The grant providers' connect flow, one route set for both (`/connect/{provider}/start`,
//! `callback`, `status`, `select`; the confirmation page is `grant_page`): each documented path
//! has a thin handler naming its provider and its body, and the flow is written once in the
//! `*_flow` functions over `services::grants::GrantProvider`.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::{Html, IntoResponse, Response};
use payback_domain::source_kind::{Family, KINDS};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiResult, ErrorBody};
use crate::extract::{Caller, Json, Query, ValidJson};
use crate::routes::tags;
use crate::services::grants::{
    self, CallbackOutcome, CallbackQuery, Choices, GrantClient, GrantProvider, GrantStatus, Started,
};
use crate::services::searchco::Searchco;
use crate::services::socialco::Socialco;
use crate::state::AppState;
use crate::views::found;

/// The public callbacks the providers redirect the human to, and the grants' confirmation
/// pages (`routes/grant_page`), which `auth_url` opens first.
pub fn public() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(searchco_callback))
        .routes(routes!(socialco_callback))
        .merge(crate::routes::grant_page::router())
}

/// Routes behind a bearer.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(searchco_start))
        .routes(routes!(searchco_status))
        .routes(routes!(searchco_select))
        .routes(routes!(socialco_start))
        .routes(routes!(socialco_status))
        .routes(routes!(socialco_select))
        .merge(crate::routes::service_account::router())
}

/// A product slug, in characters (as products allow).
pub const SLUG_MAX_CHARS: usize = payback_domain::validation::SLUG_MAX_CHARS;
/// A state token, in characters (`start` answers 35).
pub const STATE_MAX_CHARS: usize = 100;
/// A chosen id or path, in characters.
pub const CHOICE_MAX_CHARS: usize = 300;
/// `kinds`: at most one of each of the grant's kinds, each word at most this long.
pub const KINDS_MAX: usize = family_size(Family::SearchGrant);
pub const KIND_MAX_CHARS: usize = 40;
/// `kinds` of the social grant: at most one of each.
pub const SOCIAL_KINDS_MAX: usize = family_size(Family::SocialGrant);

/// How many kinds of the kind table are of `family` (a grant's kinds).
const fn family_size(family: Family) -> usize {
    let mut count = 0;
    let mut row = 0;
    while row < KINDS.len() {
        if KINDS[row].family as u8 == family as u8 {
            count += 1;
        }
        row += 1;
    }
    count
}

/// `start`, for any provider.
async fn start_flow<P: GrantProvider>(
    state: &AppState,
    caller: &Caller,
    slug: &str,
    kinds: Option<&[String]>,
    client: Option<GrantClient>,
) -> ApiResult<Json<Started>> {
    let client = client.unwrap_or_default();
    Ok(Json(
        grants::start::<P>(state, caller, slug, kinds, client).await?,
    ))
}

/// `callback`, for any provider: the confirming browser's cookie read, the outcome answered.
async fn callback_flow<P: GrantProvider>(
    state: &AppState,
    headers: &HeaderMap,
    query: CallbackQuery,
) -> ApiResult<Response> {
    let browser = query
        .state
        .as_deref()
        .and_then(|token| crate::routes::grant_page::browser_cookie(headers, token));
    let outcome = grants::provider_callback::<P>(state, query, browser.as_deref()).await?;
    Ok(callback_response(outcome))
}

/// `status`, for any provider.
async fn status_flow<P: GrantProvider>(
    state: &AppState,
    caller: &Caller,
    query: &StatusQuery,
) -> ApiResult<Json<GrantStatus>> {
    let token = query.checked()?;
    Ok(Json(
        grants::status(state, caller, P::PROVIDER, token).await?,
    ))
}

/// `select`, for any provider.
async fn select_flow<P: GrantProvider>(
    state: &AppState,
    caller: &Caller,
    token: &str,
    choices: &Choices,
) -> ApiResult<Json<Selected>> {
    let activated = grants::select::<P>(state, caller, token, choices).await?;
    Ok(Json(Selected {
        ok: true,
        activated,
    }))
}

#[derive(Debug, Deserialize, ToSchema, garde::Validate)]
#[serde(deny_unknown_fields)]
pub struct StartRequest {
    /// The product the connections will belong to.
    #[garde(length(chars, min = 1, max = SLUG_MAX_CHARS))]
    product_slug: String,
    /// Kinds this grant serves: `analytics_a`, `tagmgr`, `search_ads`, `search_console`; a kind
    /// whose connector has not arrived yet is refused by name.
    #[garde(length(min = 1, max = KINDS_MAX), inner(length(chars, max = KIND_MAX_CHARS)))]
    kinds: Vec<String>,
    /// `dashboard` (the callback redirects into the dashboard), `cli`, `mcp` or `api`
    /// (default; the callback shows a small page).
    #[garde(skip)]
    client: Option<GrantClient>,
}

/// Starts the search-engine grant: a single-use state (15 minutes) and the consent URL a human
/// opens (offline access, PKCE, consent prompt, the scopes the chosen kinds need). 503 until the
/// operator configured the OAuth client (`PAYBACK_SEARCHCO_CLIENT_ID`/`_SECRET`) and credential
/// sealing (`PAYBACK_SECRET_KEY`).
#[utoipa::path(post, path = "/connect/searchco/start", tag = tags::CONNECTIONS, security(("bearer" = [])),
    request_body = StartRequest,
    responses((status = 200, body = Started), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 503, body = ErrorBody)))]
async fn searchco_start(
    state: State<AppState>,
    caller: Caller,
    ValidJson(body): ValidJson<StartRequest>,
) -> ApiResult<Json<Started>> {
    let kinds = Some(body.kinds.as_slice());
    start_flow::<Searchco>(&state, &caller, &body.product_slug, kinds, body.client).await
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
async fn socialco_start(
    state: State<AppState>,
    caller: Caller,
    ValidJson(body): ValidJson<SocialStartRequest>,
) -> ApiResult<Json<Started>> {
    let kinds = body.kinds.as_deref();
    start_flow::<Socialco>(&state, &caller, &body.product_slug, kinds, body.client).await
}

/// Where the provider sends the human after consent (public: the browser carries no Payback
/// credential; the single-use state ties it to the flow). Exchanges the code, seals the refresh
/// token, discovers the Google Ads accounts the grant reaches, then redirects into the
/// dashboard (`client: dashboard`) or shows a small page. An expired, replayed or unknown
/// state, refused consent or a failed exchange mark the flow `error` with the reason. A state
/// not confirmed on Payback's page (`auth_url`), or coming back without the cookie of the
/// browser that confirmed it, is refused with a 400 page and the flow left as it was.
#[utoipa::path(get, path = "/connect/searchco/callback", tag = tags::CONNECTIONS, params(CallbackQuery),
    responses((status = 302, description = "to `{public}/#/p/{slug}/connections?searchco_state=...` for the dashboard"),
        (status = 200, description = "a page saying the grant came through", content_type = "text/html"),
        (status = 400, description = "a page saying why it did not (`text/html`), or `{error}` for a path or query holding `%00`",
            content((ErrorBody = "application/json"), (String = "text/html")))))]
async fn searchco_callback(
    state: State<AppState>,
    headers: HeaderMap,
    query: Query<CallbackQuery>,
) -> ApiResult<Response> {
    callback_flow::<Searchco>(&state, &headers, query.0).await
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
async fn socialco_callback(
    state: State<AppState>,
    headers: HeaderMap,
    query: Query<CallbackQuery>,
) -> ApiResult<Response> {
    callback_flow::<Socialco>(&state, &headers, query.0).await
}

/// The provider's redirect answered: into the dashboard, or a small page.
pub fn callback_response(outcome: CallbackOutcome) -> Response {
    match outcome {
        CallbackOutcome::Redirect(location) => found(&location),
        CallbackOutcome::Page { ok, message } => {
            let status = if ok {
                axum::http::StatusCode::OK
            } else {
                axum::http::StatusCode::BAD_REQUEST
            };
            (status, Html(page(ok, &message))).into_response()
        }
    }
}

/// The callback's page: the outcome in one sentence.
fn page(ok: bool, message: &str) -> String {
    let title = if ok { "Connected" } else { "Not connected" };
    let escaped = message
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Payback: {title}</title></head>\
         <body style=\"font-family: system-ui, sans-serif; max-width: 36rem; margin: 4rem auto\">\
         <h1>{title}</h1><p>{escaped}</p></body></html>"
    )
}

/// `GET /connect/{provider}/status`'s query, for both providers.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct StatusQuery {
    /// The state `start` answered.
    pub state: String,
}

impl StatusQuery {
    /// The state, at most [`STATE_MAX_CHARS`] characters (400 naming `state` otherwise).
    pub fn checked(&self) -> ApiResult<&str> {
        if self.state.chars().count() > STATE_MAX_CHARS {
            return Err(crate::error::ApiError::bad_request(format!(
                "state: at most {STATE_MAX_CHARS} characters"
            )));
        }
        Ok(&self.state)
    }
}

/// The flow's state: `pending` until the human finished consent, then `complete` with the
/// `options` to choose from (`ads_customers`), or `error` with the reason. Another account's
/// state answers 404.
#[utoipa::path(get, path = "/connect/searchco/status", tag = tags::CONNECTIONS, security(("bearer" = [])),
    params(StatusQuery),
    responses((status = 200, body = GrantStatus), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
async fn searchco_status(
    state: State<AppState>,
    caller: Caller,
    query: Query<StatusQuery>,
) -> ApiResult<Json<GrantStatus>> {
    status_flow::<Searchco>(&state, &caller, &query.0).await
}

/// The flow's state: `pending`, then `complete` with `options` (`ad_accounts`: id, name,
/// currency, status; `pages`: id, name, instagram_account), or `error` with the reason.
/// Another account's state answers 404.
#[utoipa::path(get, path = "/connect/socialco/status", tag = tags::CONNECTIONS, security(("bearer" = [])),
    params(StatusQuery),
    responses((status = 200, body = GrantStatus), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
async fn socialco_status(
    state: State<AppState>,
    caller: Caller,
    query: Query<StatusQuery>,
) -> ApiResult<Json<GrantStatus>> {
    status_flow::<Socialco>(&state, &caller, &query.0).await
}

/// `select`'s answer, for both providers.
#[derive(Debug, Serialize, ToSchema)]
pub struct Selected {
    ok: bool,
    /// The kinds now connected.
    activated: Vec<String>,
}

#[derive(Debug, Deserialize, ToSchema, garde::Validate)]
#[serde(deny_unknown_fields)]
pub struct SelectRequest {
    /// The state `start` answered.
    #[garde(length(chars, min = 1, max = STATE_MAX_CHARS))]
    state: String,
    /// The Google Ads account to connect, dashes allowed (`123-456-7890`); optional when the
    /// grant reaches exactly one account that runs campaigns. The manager login is taken from
    /// the discovered list.
    #[garde(inner(length(chars, min = 1, max = CHOICE_MAX_CHARS)))]
    ads_customer_id: Option<String>,
    /// For `analytics_a` (not available yet).
    #[garde(inner(length(chars, min = 1, max = CHOICE_MAX_CHARS)))]
    analytics_a_property_id: Option<String>,
    /// For `tagmgr`: the container to connect, `accounts/{a}/containers/{c}` as the status's
    /// `tagmgr_containers` list it; optional when the grant reaches exactly one.
    #[garde(inner(length(chars, min = 1, max = CHOICE_MAX_CHARS)))]
    tagmgr_container_path: Option<String>,
    /// For `search_console`: the site to connect, as the status's `search_console_sites` list it; optional
    /// when the grant reaches exactly one (enable the kind with `PAYBACK_SEARCHCO_SEARCH_CONSOLE=true`).
    #[garde(inner(length(chars, min = 1, max = CHOICE_MAX_CHARS)))]
    search_console_site_url: Option<String>,
}

/// Activates what the human chose from a complete grant, once: the `search_ads` connection for
/// the chosen account (its first sync is due at once). 404 unknown or another account's state;
/// 409 consent not complete, ended in an error, or already selected; 400 a choice the grant
/// does not offer, or an account in another currency than the product's.
#[utoipa::path(post, path = "/connect/searchco/select", tag = tags::CONNECTIONS, security(("bearer" = [])),
    request_body = SelectRequest,
    responses((status = 200, body = Selected), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn searchco_select(
    state: State<AppState>,
    caller: Caller,
    ValidJson(body): ValidJson<SelectRequest>,
) -> ApiResult<Json<Selected>> {
    let choices = [
        ("ads_customer_id", body.ads_customer_id),
        ("analytics_a_property_id", body.analytics_a_property_id),
        ("tagmgr_container_path", body.tagmgr_container_path),
        ("search_console_site_url", body.search_console_site_url),
    ];
    select_flow::<Searchco>(&state, &caller, &body.state, &choices).await
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

/// Activates what the human chose from a complete grant, once (each connection's first sync is
/// due at once). 404 unknown or another account's state; 409 consent not complete, ended in an
/// error, or already selected; 400 a choice the grant does not offer, an inactive account or
/// one in another currency; 403 `network_wall` for an adult-adjacent product's ad account.
#[utoipa::path(post, path = "/connect/socialco/select", tag = tags::CONNECTIONS, security(("bearer" = [])),
    request_body = SocialSelectRequest,
    responses((status = 200, body = Selected), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn socialco_select(
    state: State<AppState>,
    caller: Caller,
    ValidJson(body): ValidJson<SocialSelectRequest>,
) -> ApiResult<Json<Selected>> {
    let choices = [
        ("ad_account_id", body.ad_account_id),
        ("page_id", body.page_id),
    ];
    select_flow::<Socialco>(&state, &caller, &body.state, &choices).await
}
