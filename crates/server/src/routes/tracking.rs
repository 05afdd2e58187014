//! Event ingestion (server-side and browser) and the tracking key.

use axum::extract::{Path, Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::Response;
use axum::routing::options;
use payback_domain::event::IncomingEvent;
use serde::{Deserialize, Serialize};
use tower_http::cors::{Any, CorsLayer};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::body_limit::limit_body;
use crate::error::{ApiResult, ErrorBody};
use crate::extract::{BeaconJson, Caller, Json};
use crate::rate_limit::AddressLimit;
use crate::routes::tags;
use crate::services::ingest::{self, Source};
use crate::services::products;
use crate::services::tracking::{self, RotatedKey, TrackingKeyInfo};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(server_events))
        .routes(routes!(tracking_key, rotate_tracking_key))
}

/// `/t/events` answers any origin: the snippet runs on the customer's site. Anyone may call it,
/// so it is limited per client address (`per_address`, before the body is read) and to bodies of
/// `max_body` bytes; CORS is the outer layer, so a page can read those refusals too, and it
/// answers preflights itself (a site's own `fetch` of `application/json` sends one), so they
/// never reach the rate limit: a preflight is no batch.
pub fn browser_router(per_address: &AddressLimit, max_body: usize) -> OpenApiRouter<AppState> {
    let cors = CorsLayer::new()
        .allow_origin(Any)
        .allow_methods([Method::POST, Method::OPTIONS])
        .allow_headers([header::CONTENT_TYPE])
        .max_age(std::time::Duration::from_secs(86_400))
        // `Retry-After` is not a CORS-safelisted response header: a page reads it only when told.
        .expose_headers([header::CONTENT_TYPE, header::RETRY_AFTER]);
    let batches = limit_body(
        OpenApiRouter::new().routes(routes!(browser_events)),
        max_body,
        "; send the events as several smaller batches",
    );
    // OPTIONS needs a route of its own: without one it falls to the method router's fallback,
    // which the app's `method_not_allowed_fallback` replaces with one outside these layers, so
    // the CORS layer never saw a preflight and it answered 405. The CORS layer answers every
    // OPTIONS before the route, and the route sits outside the limits all the same.
    per_address
        .apply(batches)
        .merge(OpenApiRouter::new().route("/t/events", options(plain_options)))
        .layer(cors)
        .layer(middleware::from_fn(preflight_without_content))
        .layer(
            tower_http::set_header::SetResponseHeaderLayer::if_not_present(
                header::CACHE_CONTROL,
                HeaderValue::from_static("no-store"),
            ),
        )
}

/// Keeps OPTIONS inside this router's layers; the CORS layer answers every OPTIONS (preflight
/// or not) before it runs.
async fn plain_options() -> StatusCode {
    StatusCode::NO_CONTENT
}

/// The CORS layer answers a preflight 200 with an empty body; 204 says there is none.
async fn preflight_without_content(req: Request, next: Next) -> Response {
    let is_options = req.method() == Method::OPTIONS;
    let mut response = next.run(req).await;
    if is_options && response.status() == StatusCode::OK {
        *response.status_mut() = StatusCode::NO_CONTENT;
    }
    response
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct EventsRequest {
    /// Up to 1000 events; all or nothing.
    events: Vec<IncomingEvent>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct EventsAccepted {
    ok: bool,
    /// Events received, duplicates included. The batch is durable when this answers; every
    /// report read afterwards counts it (reports fold pending batches before they answer).
    received: usize,
}

/// Server-side ingestion with an account bearer (namespace `api:<slug>`).
#[utoipa::path(post, path = "/products/{slug}/events", tag = tags::TRACKING, security(("bearer" = [])),
    params(("slug" = String, Path, description = "product slug")), request_body = EventsRequest,
    responses((status = 200, body = EventsAccepted), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn server_events(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
    Json(body): Json<EventsRequest>,
) -> ApiResult<Json<EventsAccepted>> {
    let product = products::find(&state, caller.scope()?, &slug).await?;
    let received = ingest::ingest(&state, &product, Source::Server, body.events).await?;
    Ok(Json(EventsAccepted { ok: true, received }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct BrowserEventsRequest {
    /// The product's publishable write key `svc_pub_...`.
    key: Option<String>,
    /// Up to 25 events; all or nothing.
    events: Vec<IncomingEvent>,
}

/// Browser ingestion with the publishable write key in the body (namespace `web:<slug>`).
/// Accepts `application/json` and `text/plain` (what `sendBeacon` sends); any origin. The CORS
/// preflight of a cross-origin `application/json` post (`OPTIONS /t/events`) answers 204 with
/// `Access-Control-Allow-Origin: *`, `Access-Control-Allow-Methods: POST,OPTIONS`,
/// `Access-Control-Allow-Headers: content-type` and `Access-Control-Max-Age: 86400`, and is not
/// rate-limited. A body over 64 KiB answers 413: send such a batch as several. Rate-limited per
/// client address and per write key (429). Every answer, refusals included, carries
/// `Access-Control-Allow-Origin: *`.
#[utoipa::path(post, path = "/t/events", tag = tags::TRACKING, request_body = BrowserEventsRequest,
    responses((status = 200, body = EventsAccepted), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 413, description = "body over 64 KiB: split the batch", body = ErrorBody),
        (status = 429, description = "over the per-address or the per-write-key rate limit", body = ErrorBody)))]
async fn browser_events(
    State(state): State<AppState>,
    BeaconJson(body): BeaconJson<BrowserEventsRequest>,
) -> ApiResult<Json<EventsAccepted>> {
    // A public key on a busy site is sent from many addresses, each under its own limit; this
    // bounds what one key takes in, before the key costs a database lookup. Keyed as the
    // lookup reads it (trimmed), so padding the key does not make a fresh bucket.
    if let Some(key) = body.key.as_deref().map(str::trim).filter(|k| !k.is_empty()) {
        state.limiters.check_write_key(key)?;
    }
    let product = tracking::product_for_write_key(&state, body.key.as_deref()).await?;
    let received = ingest::ingest(&state, &product, Source::Browser, body.events).await?;
    Ok(Json(EventsAccepted { ok: true, received }))
}

/// The tracking setup: write key (minted on first use), snippet, curl example.
#[utoipa::path(get, path = "/products/{slug}/tracking-key", tag = tags::TRACKING, security(("bearer" = [])),
    params(("slug" = String, Path, description = "product slug")),
    responses((status = 200, body = TrackingKeyInfo), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn tracking_key(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
) -> ApiResult<Json<TrackingKeyInfo>> {
    let product = products::find(&state, caller.scope()?, &slug).await?;
    Ok(Json(tracking::info(&state, &caller, &product).await?))
}

/// Mints a new write key; the previous one is revoked at once.
#[utoipa::path(post, path = "/products/{slug}/tracking-key", tag = tags::TRACKING, security(("bearer" = [])),
    params(("slug" = String, Path, description = "product slug")),
    responses((status = 200, body = RotatedKey), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn rotate_tracking_key(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
) -> ApiResult<Json<RotatedKey>> {
    let product = products::find(&state, caller.scope()?, &slug).await?;
    Ok(Json(tracking::rotate(&state, &caller, &product).await?))
}
