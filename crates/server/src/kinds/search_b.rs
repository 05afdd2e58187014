//! `search_b`: Bing Webmaster Tools, connected with the customer's API key and a site of the
//! key's user. Its query stats land as `search_clicks` and `search_impressions` snapshots per
//! query; read only.

use axum::extract::{Path, State};
use payback_connectors::ConnectorError;
use payback_connectors::search_b::{self, DEFAULT_API_BASE_URL, SearchBConfig, SearchBSource};
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

const KIND: ConnectionKind = ConnectionKind::SearchB;

/// The Bing Webmaster API key, in characters (Bing's are 32 hex digits; room to spare).
pub const API_KEY_MAX_CHARS: usize = 500;
/// `site_url`, in characters (a URL's practical limit).
pub const SITE_URL_MAX_CHARS: usize = 2048;
/// What [`site_url_shape`] takes, as a regular expression: an http(s) URL ending in `/`.
const SITE_URL_PATTERN: &str = "^[Hh][Tt][Tt][Pp][Ss]?://[^/]+(/.*)?/$";

pub fn plugin() -> Plugin {
    Plugin {
        kind: KIND,
        open,
        routes: || OpenApiRouter::new().routes(routes!(connect)),
        grant: None,
        rules,
    }
}

/// The key's length, and the site's length and shape.
fn rules() -> Vec<(At, Vec<Rule>)> {
    vec![
        (
            At::Field("SearchBRequest", "api_key"),
            vec![Rule::Chars(1, API_KEY_MAX_CHARS)],
        ),
        (
            At::Field("SearchBRequest", "site_url"),
            vec![
                Rule::Chars(1, SITE_URL_MAX_CHARS),
                Rule::Pattern(SITE_URL_PATTERN.to_owned()),
            ],
        ),
    ]
}

/// Where Bing's API answers.
fn origin(state: &AppState) -> String {
    source_config::vendor_origin(state, KIND, DEFAULT_API_BASE_URL)
}

#[derive(Debug, Deserialize, ToSchema, garde::Validate)]
#[serde(deny_unknown_fields)]
#[schema(examples(json!({ "api_key": "0123456789abcdef0123456789abcdef", "site_url": "https://shop.example/" })))]
pub struct SearchBRequest {
    /// The Bing Webmaster API key (Bing Webmaster Tools, Settings, API access). Stored
    /// encrypted, never returned.
    #[garde(custom(secret_within::<API_KEY_MAX_CHARS>))]
    api_key: Secret,
    /// The site exactly as verified in Bing Webmaster Tools, in its trailing-slash form
    /// (`https://shop.example/`).
    #[garde(length(chars, min = 1, max = SITE_URL_MAX_CHARS), custom(site_url_shape))]
    site_url: String,
}

/// An absolute `http` or `https` URL with a host, ending in `/`: how Bing writes a site.
fn site_url_shape(url: &str, _: &()) -> garde::Result {
    let parsed = reqwest::Url::parse(url).ok();
    let web = parsed
        .as_ref()
        .is_some_and(|url| matches!(url.scheme(), "http" | "https") && url.host().is_some());
    if web && url.ends_with('/') {
        Ok(())
    } else {
        Err(garde::Error::new(
            "must be an absolute http or https URL ending in / (the site as verified in Bing \
             Webmaster Tools)",
        ))
    }
}

/// Connects a site of Bing Webmaster Tools with the customer's API key: the key is proven by
/// listing its user's sites, which must include `site_url`. Query stats are then read daily
/// (and on sync now) as search clicks and impressions per query; page stats are never read.
/// Re-connecting replaces the key. Audited as `connection.connect`.
#[utoipa::path(post, path = "/products/{slug}/connections/search-b", tag = tags::CONNECTIONS,
    security(("bearer" = [])), params(("slug" = String, Path, description = "product slug")),
    request_body = SearchBRequest,
    responses((status = 200, body = Connected), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 502, body = ErrorBody, description = "Bing could not be reached"),
        (status = 503, body = ErrorBody, description = "PAYBACK_SECRET_KEY is not configured")))]
async fn connect(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
    ValidJson(body): ValidJson<SearchBRequest>,
) -> ApiResult<Json<Connected>> {
    let key = body.api_key.expose().trim();
    let site_url = body.site_url.trim();
    let proven = async {
        let sites = search_b::list_sites(&state.http, &origin(&state), key)
            .await
            .map_err(refused)?;
        search_b::find_site(&sites, site_url).map_err(refused)?;
        Ok(Keyed {
            kind: KIND,
            secret: json!({ "api_key": key }),
            config: json!({ "site_url": site_url }),
            audit: json!({ "site_url": site_url }),
        })
    };
    let connected = key_connect::connect(&state, &caller, &slug, proven).await?;
    Ok(Json(connected))
}

/// The vendor's refusal of the key as a 400 quoting its reason; 502 when it could not answer.
fn refused(err: ConnectorError) -> ApiError {
    key_connect::key_refused(err, "api_key", "Bing")
}

/// The sealed part of a `search_b` connection.
#[derive(Deserialize)]
struct SearchBSecret {
    api_key: String,
}

/// The site a connection reads.
#[derive(Deserialize)]
struct Settings {
    site_url: String,
}

/// The Bing key and the site.
fn open<'a>(
    state: &'a AppState,
    _product: &'a ProductRow,
    row: &'a ConnectionRow,
) -> OpenFuture<'a> {
    Box::pin(async move {
        let secret: SearchBSecret = source_config::secret_of(state, row).await?;
        let settings: Settings = source_config::settings_of(row)?;
        let mut config = SearchBConfig::new(secret.api_key, settings.site_url);
        config.api_base_url = origin(state);
        Ok(boxed(SearchBSource::new(state.http.clone(), config)))
    })
}
