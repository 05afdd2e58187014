//! The grants' confirmation page (issue 35, "the grants can be phished"): `auth_url` of
//! `POST /connect/{searchco|socialco}/start` is `GET /connect/{provider}/confirm?state=`, a page of
//! Payback's naming the workspace, the product, who started the flow and what it reads or
//! changes; its form (`POST` to the same path, the state in a hidden field) sends the person on
//! to the provider with a 303. Public, as the callback: the person's browser carries no
//! credential of ours. The rules are `services::grants::{confirmation, confirm}`; the markup is
//! `html.rs`.
//!
//! The form binds the state to the confirming browser: its 303 sets a cookie
//! (`payback_grant_{state}`, `HttpOnly`, `SameSite=Lax`, 15 minutes, scoped to the provider's
//! `/connect/{provider}/` paths) whose value's hash the state keeps, and the callback takes the
//! state only with that cookie. So a provider link someone confirmed for themselves and then
//! sent to another person is refused when that person's browser comes back.
//!
//! The form is refused from another site (`Sec-Fetch-Site` other than `same-origin`, or an
//! `Origin` other than the public URL's): a page elsewhere that posts the form at once would skip
//! what the person must read. The page can't be framed (`X-Frame-Options`, `frame-ancestors`), is
//! not cached, and sends its URL (it holds the state) to no other origin (`Referrer-Policy:
//! same-origin`; `no-referrer` would make browsers send `Origin: null` on the form's own post).

mod html;

use axum::extract::State;
use axum::extract::rejection::FormRejection;
use axum::http::header::{
    CACHE_CONTROL, CONTENT_TYPE, COOKIE, HeaderName, LOCATION, REFERRER_POLICY, SET_COOKIE,
    X_CONTENT_TYPE_OPTIONS, X_FRAME_OPTIONS,
};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiResult, ErrorBody};
use crate::extract::Query;
use crate::routes::tags;
use crate::services::grants::{self, PageOutcome, Provider};
use crate::services::{searchco, socialco};
use crate::state::AppState;

pub use html::escape;

/// The pages of both grants.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(searchco_page, searchco_confirm))
        .routes(routes!(socialco_page, socialco_confirm))
}

/// The page's query.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PageQuery {
    /// The state `start` answered (its `auth_url` carries it).
    pub state: Option<String>,
}

/// The page's form.
#[derive(Debug, Deserialize, ToSchema)]
pub struct ConfirmForm {
    /// The state, from the page's hidden field.
    pub state: Option<String>,
}

/// The search-engine grant's confirmation page: 200 with the form, or 400 with the reason
/// (unknown, expired or used state).
#[utoipa::path(get, path = "/connect/searchco/confirm", tag = tags::CONNECTIONS, params(PageQuery),
    responses((status = 200, description = "the page naming the workspace, product, starter and access, with its form", content_type = "text/html", body = String),
        (status = 400, description = "a page saying why the link is not usable (`text/html`), or `{error}` for a query holding `%00`",
            content((String = "text/html"), (ErrorBody = "application/json")))))]
async fn searchco_page(
    State(state): State<AppState>,
    Query(query): Query<PageQuery>,
) -> ApiResult<Response> {
    page(&state, searchco::GOOGLE, query).await
}

/// The search-engine grant's form: 303 to Google's consent screen (the same state, PKCE
/// challenge, scopes and redirect URI), marking the state confirmed and bound to this browser by
/// the cookie it sets (the callback refuses a state that was not, or another browser); 400 for
/// an unknown, expired or used state, or one another browser confirmed; 403 posted from another
/// site.
#[utoipa::path(post, path = "/connect/searchco/confirm", tag = tags::CONNECTIONS,
    request_body(content = ConfirmForm, content_type = "application/x-www-form-urlencoded"),
    responses((status = 303, description = "to the provider's authorization URL, setting the `payback_grant_{state}` cookie the callback requires"),
        (status = 400, description = "a page saying why the link is not usable (`text/html`), or `{error}` for a path holding `%00`",
            content((String = "text/html"), (ErrorBody = "application/json"))),
        (status = 403, description = "a page: the form was posted from another site", content_type = "text/html", body = String)))]
async fn searchco_confirm(
    State(state): State<AppState>,
    headers: HeaderMap,
    form: Result<axum::Form<ConfirmForm>, FormRejection>,
) -> ApiResult<Response> {
    confirm(&state, searchco::GOOGLE, &headers, form).await
}

/// The social-network grant's confirmation page: 200 with the form, or 400 with the reason.
#[utoipa::path(get, path = "/connect/socialco/confirm", tag = tags::CONNECTIONS, params(PageQuery),
    responses((status = 200, description = "the page naming the workspace, product, starter and access, with its form", content_type = "text/html", body = String),
        (status = 400, description = "a page saying why the link is not usable (`text/html`), or `{error}` for a query holding `%00`",
            content((String = "text/html"), (ErrorBody = "application/json")))))]
async fn socialco_page(
    State(state): State<AppState>,
    Query(query): Query<PageQuery>,
) -> ApiResult<Response> {
    page(&state, socialco::META, query).await
}

/// The social-network grant's form: 303 to Meta's Login dialog (the same state, PKCE challenge,
/// scopes and redirect URI), marking the state confirmed and bound to this browser by the
/// cookie it sets; 400 for an unknown, expired or used state, or one another browser
/// confirmed; 403 posted from another site.
#[utoipa::path(post, path = "/connect/socialco/confirm", tag = tags::CONNECTIONS,
    request_body(content = ConfirmForm, content_type = "application/x-www-form-urlencoded"),
    responses((status = 303, description = "to the provider's authorization URL, setting the `payback_grant_{state}` cookie the callback requires"),
        (status = 400, description = "a page saying why the link is not usable (`text/html`), or `{error}` for a path holding `%00`",
            content((String = "text/html"), (ErrorBody = "application/json"))),
        (status = 403, description = "a page: the form was posted from another site", content_type = "text/html", body = String)))]
async fn socialco_confirm(
    State(state): State<AppState>,
    headers: HeaderMap,
    form: Result<axum::Form<ConfirmForm>, FormRejection>,
) -> ApiResult<Response> {
    confirm(&state, socialco::META, &headers, form).await
}

async fn page(state: &AppState, provider: Provider, query: PageQuery) -> ApiResult<Response> {
    let public = public_origin(state);
    Ok(
        match grants::confirmation(state, provider, query.state.as_deref()).await? {
            PageOutcome::Ready(view) => {
                let action = format!(
                    "{}/connect/{}/confirm",
                    state.config.public_url(),
                    provider.word
                );
                let csp = format!(
                    "default-src 'none'; style-src 'unsafe-inline'; form-action {public} {}; \
                     frame-ancestors 'none'; base-uri 'none'",
                    view.provider_origin
                );
                html_response(StatusCode::OK, html::confirmation(&view, &action), &csp)
            }
            PageOutcome::Refused(reason) => refused(StatusCode::BAD_REQUEST, &reason),
        },
    )
}

async fn confirm(
    state: &AppState,
    provider: Provider,
    headers: &HeaderMap,
    form: Result<axum::Form<ConfirmForm>, FormRejection>,
) -> ApiResult<Response> {
    if let Some(reason) = cross_site(headers, &public_origin(state)) {
        return Ok(refused(StatusCode::FORBIDDEN, reason));
    }
    let token = match &form {
        Ok(axum::Form(form)) => form.state.as_deref(),
        Err(_) => None,
    };
    let browser = token.and_then(|token| browser_cookie(headers, token));
    Ok(
        match grants::confirm(state, provider, token, browser.as_deref()).await? {
            PageOutcome::Ready(confirmed) => {
                let mut response = StatusCode::SEE_OTHER.into_response();
                let secure = state.config.public_url().starts_with("https://");
                let headers = response.headers_mut();
                if let Ok(location) = HeaderValue::from_str(&confirmed.provider_url) {
                    headers.insert(LOCATION, location);
                }
                let cookie = format!(
                    "{}={}; Path=/connect/{}/; Max-Age={}; HttpOnly; SameSite=Lax{}",
                    cookie_name(token.unwrap_or_default()),
                    confirmed.browser,
                    provider.word,
                    grants::STATE_TTL_MS / 1_000,
                    if secure { "; Secure" } else { "" }
                );
                if let Ok(cookie) = HeaderValue::from_str(&cookie) {
                    headers.insert(SET_COOKIE, cookie);
                }
                headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
                headers.insert(REFERRER_POLICY, HeaderValue::from_static("same-origin"));
                response
            }
            PageOutcome::Refused(reason) => refused(StatusCode::BAD_REQUEST, &reason),
        },
    )
}

/// The cookie that binds a state to the browser that confirmed it.
fn cookie_name(state: &str) -> String {
    format!("payback_grant_{state}")
}

/// The value of the confirming browser's cookie for `state` in a request's `Cookie` headers.
/// `SameSite=Lax` lets it come with the provider's redirect to the callback (a top-level
/// navigation) and keeps it off another site's form posts.
pub fn browser_cookie(headers: &HeaderMap, state: &str) -> Option<String> {
    let name = cookie_name(state);
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|line| line.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(key, _)| *key == name)
        .map(|(_, value)| value.trim_matches('"').to_owned())
}

/// The origin of the public URL (`https://payback.example`), which the form posts to.
fn public_origin(state: &AppState) -> String {
    reqwest::Url::parse(&state.config.public_url())
        .map(|url| url.origin().ascii_serialization())
        .unwrap_or_else(|_| state.config.public_url())
}

/// Why a form post came from another site, if it did: a browser names where a post comes from
/// (`Sec-Fetch-Site`, `Origin`); a post without either (no browser) is taken, since what the
/// page guards against happens in a person's browser.
fn cross_site(headers: &HeaderMap, public_origin: &str) -> Option<&'static str> {
    let text = |name: &str| {
        headers
            .get(HeaderName::from_bytes(name.as_bytes()).ok()?)
            .and_then(|value| value.to_str().ok())
    };
    if text("sec-fetch-site").is_some_and(|site| site != "same-origin") {
        return Some(
            "This confirmation came from another site, not from Payback's page. Open the connect link Payback gave you and confirm there.",
        );
    }
    if text("origin").is_some_and(|origin| origin != public_origin) {
        return Some(
            "This confirmation came from another origin than Payback's. Open the connect link Payback gave you and confirm there.",
        );
    }
    None
}

fn refused(status: StatusCode, reason: &str) -> Response {
    html_response(
        status,
        html::refused(reason),
        "default-src 'none'; style-src 'unsafe-inline'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'",
    )
}

/// An HTML answer with the page's headers: no framing, no caching, no referrer to other origins.
fn html_response(status: StatusCode, body: String, csp: &str) -> Response {
    let mut response = (status, body).into_response();
    let headers = response.headers_mut();
    headers.insert(
        CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    if let Ok(csp) = HeaderValue::from_str(csp) {
        headers.insert(HeaderName::from_static("content-security-policy"), csp);
    }
    headers.insert(X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(REFERRER_POLICY, HeaderValue::from_static("same-origin"));
    headers.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    response
}
