//! `product_analytics_a`: PostHog (US or EU cloud, or self-hosted at the tenant's `host`),
//! connected with a personal API key and the project id. Each daily run (sync now allowed)
//! stores sessions per entry path and day (`landing_sessions`), the mapped events' daily
//! counts as stage rows (`event_maps.rs`), rage clicks, dead clicks and exceptions per path
//! (the landing pages' `friction`), and a sample of recordings as playback links
//! (`GET /products/{slug}/recordings`). The tenant's `host` passes the address rule first
//! (`host.rs`).

mod event_maps;
pub mod host;

use axum::extract::{Path, State};
use payback_connectors::product_analytics_a::{
    EventMap, ProductAnalyticsAConfig, ProductAnalyticsASource,
};
use payback_domain::connection::ConnectionKind;
use payback_store::connections::ConnectionRow;
use payback_store::products::ProductRow;
use serde::Deserialize;
use serde_json::json;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{Plugin, boxed};
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{Caller, Json, ValidJson};
use crate::input::rules::secret_within;
use crate::openapi::rule::{At, Rule};
use crate::routes::tags;
use crate::secret::Secret;
use crate::services::key_connect::{self, Connected, Keyed};
use crate::services::source_config;
use crate::state::{AppState, OpenFuture};

pub(crate) const KIND: ConnectionKind = ConnectionKind::ProductAnalyticsA;

/// The personal API key, in characters (PostHog's are `phx_` and about 50 more).
pub const API_KEY_MAX_CHARS: usize = 500;
/// `project_id`, in digits.
pub const PROJECT_ID_MAX_CHARS: usize = 20;

pub fn plugin() -> Plugin {
    Plugin {
        kind: KIND,
        open,
        routes: || {
            OpenApiRouter::new()
                .routes(routes!(connect))
                .routes(routes!(event_maps::replace))
        },
        grant: None,
        rules,
    }
}

fn rules() -> Vec<(At, Vec<Rule>)> {
    let mut rules = vec![
        (
            At::Field("ProductAnalyticsARequest", "api_key"),
            vec![Rule::Chars(1, API_KEY_MAX_CHARS)],
        ),
        (
            At::Field("ProductAnalyticsARequest", "project_id"),
            vec![
                Rule::Chars(1, PROJECT_ID_MAX_CHARS),
                Rule::Pattern("^[0-9]+$".to_owned()),
            ],
        ),
        (
            At::Field("ProductAnalyticsARequest", "host"),
            vec![Rule::Chars(1, host::HOST_MAX_CHARS)],
        ),
    ];
    rules.extend(event_maps::rules());
    rules
}

#[derive(Debug, Deserialize, ToSchema, garde::Validate)]
#[serde(deny_unknown_fields)]
#[schema(examples(json!({ "api_key": "phx_0123456789abcdefghijklmnopqrstuvwxyzABCDEFGH", "project_id": "12345" })))]
pub struct ProductAnalyticsARequest {
    /// A PostHog personal API key (Settings, Personal API keys) with read access to queries,
    /// recordings and the project. Stored encrypted, never returned.
    #[garde(custom(secret_within::<API_KEY_MAX_CHARS>))]
    api_key: Secret,
    /// The PostHog project id, digits.
    #[garde(length(chars, min = 1, max = PROJECT_ID_MAX_CHARS), custom(digits))]
    project_id: String,
    /// The PostHog origin (`https://eu.posthog.com`, or a self-hosted one); default the US
    /// cloud. Must resolve to public addresses.
    #[garde(inner(length(chars, min = 1, max = host::HOST_MAX_CHARS)))]
    host: Option<String>,
}

fn digits(id: &str, _: &()) -> garde::Result {
    if id.chars().all(|c| c.is_ascii_digit()) {
        Ok(())
    } else {
        Err(garde::Error::new("must be digits (PostHog's project id)"))
    }
}

/// Connects a PostHog project with a personal API key, proven by one read of the project. A
/// tenant's `host` on a loopback, private or link-local address is refused (400 naming `host`,
/// nothing sent). A run is due at once, then daily (sync now allowed): sessions by entry path,
/// mapped events, friction events by path, and sampled recordings. Re-connecting replaces the
/// key. Audited as `connection.connect`.
#[utoipa::path(post, path = "/products/{slug}/connections/product-analytics-a", tag = tags::CONNECTIONS,
    security(("bearer" = [])), params(("slug" = String, Path, description = "product slug")),
    request_body = ProductAnalyticsARequest,
    responses((status = 200, body = Connected), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 502, body = ErrorBody, description = "PostHog could not be reached or failed"),
        (status = 503, body = ErrorBody, description = "PAYBACK_SECRET_KEY is not configured")))]
async fn connect(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
    ValidJson(body): ValidJson<ProductAnalyticsARequest>,
) -> ApiResult<Json<Connected>> {
    let key = body.api_key.expose().trim();
    let project_id = body.project_id.trim().to_owned();
    // The host is read (and its addresses checked) once the product is found.
    let proven = async {
        let host = body.host.as_deref().map(host::origin_of).transpose()?;
        let keyed = Keyed {
            kind: KIND,
            secret: json!({ "api_key": key }),
            config: json!({ "project_id": project_id, "host": host }),
            audit: json!({ "project_id": project_id, "host": host }),
        };
        let source = source(&state, key.to_owned(), project_id.clone(), host, Vec::new()).await?;
        let refused = |err| key_connect::key_refused(err, "api_key", "PostHog");
        key_connect::prove(source, refused, keyed).await
    };
    let connected = key_connect::connect(&state, &caller, &slug, proven).await?;
    Ok(Json(connected))
}

/// A source for `host` (the operator's origin when none), its client checked and pinned.
async fn source(
    state: &AppState,
    api_key: String,
    project_id: String,
    host: Option<String>,
    event_maps: Vec<EventMap>,
) -> ApiResult<ProductAnalyticsASource> {
    let operator = host::operator_origin(state);
    let origin = host.unwrap_or_else(|| operator.clone());
    let http = host::client_for(state, &origin, &operator).await?;
    let mut config = ProductAnalyticsAConfig::new(api_key, project_id, origin);
    config.event_maps = event_maps;
    Ok(ProductAnalyticsASource::new(http, config))
}

/// The sealed part of a `product_analytics_a` connection.
#[derive(Deserialize)]
struct ProductAnalyticsASecret {
    api_key: String,
}

/// What a connection reads: the project, and the tenant's host when one was given.
#[derive(Deserialize)]
pub struct Settings {
    pub project_id: String,
    #[serde(default)]
    pub host: Option<String>,
}

impl Settings {
    /// The origin the connection reads and links to.
    pub fn origin(&self, state: &AppState) -> String {
        self.host
            .clone()
            .unwrap_or_else(|| host::operator_origin(state))
    }
}

/// The key, project, host (checked again) and event maps.
fn open<'a>(
    state: &'a AppState,
    _product: &'a ProductRow,
    row: &'a ConnectionRow,
) -> OpenFuture<'a> {
    Box::pin(async move {
        let secret: ProductAnalyticsASecret = source_config::secret_of(state, row).await?;
        let settings: Settings = source_config::settings_of(row)?;
        let maps: Vec<EventMap> = serde_json::from_str(&row.event_maps).map_err(|_| {
            ApiError::internal("a product_analytics_a connection's event maps are malformed")
        })?;
        let source = source(
            state,
            secret.api_key,
            settings.project_id,
            settings.host,
            maps,
        )
        .await?;
        Ok(boxed(source))
    })
}
