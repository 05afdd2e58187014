//! `seo_a`: Semrush, connected with the customer's API key, a domain and a regional database.
//! Its weekly run lands the domain's rank, organic keywords and traffic, and its top organic
//! keywords' positions and volumes, as snapshots of the run day; read only.
//!
//! Semrush is never called at connect or test: every request spends the customer's API units,
//! so the key is proven by the first run (due at once), whose error is the connection's
//! `last_error` when Semrush refuses it.

use axum::extract::{Path, State};
use payback_connectors::seo_a::{DEFAULT_API_BASE_URL, DEFAULT_DATABASE, SeoAConfig, SeoASource};
use payback_domain::connection::ConnectionKind;
use payback_store::connections::ConnectionRow;
use payback_store::products::ProductRow;
use serde::Deserialize;
use serde_json::json;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{Plugin, boxed};
use crate::error::{ApiResult, ErrorBody};
use crate::extract::{Caller, Json, ValidJson};
use crate::input::rules::secret_within;
use crate::openapi::rule::{At, Rule};
use crate::routes::tags;
use crate::secret::Secret;
use crate::services::key_connect::{self, Connected, Keyed};
use crate::services::source_config;
use crate::state::{AppState, OpenFuture};

const KIND: ConnectionKind = ConnectionKind::SeoA;

/// The Semrush API key, in characters (Semrush's are 32 hex digits; room to spare).
pub const API_KEY_MAX_CHARS: usize = 500;
/// `domain`, in characters (a DNS name's limit).
pub const DOMAIN_MAX_CHARS: usize = 253;
/// What [`domain_shape`] takes: dot-separated DNS labels, no scheme, path or port.
const DOMAIN_PATTERN: &str =
    "^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)+$";
/// What [`database_shape`] takes: Semrush's regional databases, a two-letter code, `mobile-`
/// before it for a mobile one, `-ext` after it for an extended one.
const DATABASE_PATTERN: &str = "^(mobile-)?[a-z]{2}(-ext)?$";

pub fn plugin() -> Plugin {
    Plugin {
        kind: KIND,
        open,
        routes: || OpenApiRouter::new().routes(routes!(connect)),
        grant: None,
        rules,
    }
}

/// The key's length, the domain's length and shape, the database's shape and default.
fn rules() -> Vec<(At, Vec<Rule>)> {
    vec![
        (
            At::Field("SeoARequest", "api_key"),
            vec![Rule::Chars(1, API_KEY_MAX_CHARS)],
        ),
        (
            At::Field("SeoARequest", "domain"),
            vec![
                Rule::Chars(1, DOMAIN_MAX_CHARS),
                Rule::Pattern(DOMAIN_PATTERN.to_owned()),
            ],
        ),
        (
            At::Field("SeoARequest", "database"),
            vec![
                Rule::Pattern(DATABASE_PATTERN.to_owned()),
                Rule::Default(json!(DEFAULT_DATABASE)),
            ],
        ),
    ]
}

/// Where Semrush's API answers.
fn origin(state: &AppState) -> String {
    source_config::vendor_origin(state, KIND, DEFAULT_API_BASE_URL)
}

#[derive(Debug, Deserialize, ToSchema, garde::Validate)]
#[serde(deny_unknown_fields)]
#[schema(examples(json!({ "api_key": "0123456789abcdef0123456789abcdef", "domain": "shop.example", "database": "us" })))]
pub struct SeoARequest {
    /// The Semrush API key (Subscription info, API units). Stored encrypted, never returned.
    #[garde(custom(secret_within::<API_KEY_MAX_CHARS>))]
    api_key: Secret,
    /// The domain to read, as Semrush takes it: `shop.example`, without `https://` or a path.
    #[garde(length(chars, min = 1, max = DOMAIN_MAX_CHARS), custom(domain_shape))]
    domain: String,
    /// The regional database (`us`, `uk`, `de`, `mobile-us`, ...); `us` when left out.
    #[garde(inner(custom(database_shape)))]
    database: Option<String>,
}

/// A bare domain: labels of letters, digits and inner hyphens, at least two, nothing else.
fn domain_shape(domain: &str, _: &()) -> garde::Result {
    let label = |label: &str| {
        !label.is_empty()
            && label.len() <= 63
            && label
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-')
            && !label.starts_with('-')
            && !label.ends_with('-')
    };
    let domain = domain.trim();
    if domain.contains('.') && domain.split('.').all(label) {
        Ok(())
    } else {
        Err(garde::Error::new(
            "must be a bare domain such as shop.example, without http:// or a path",
        ))
    }
}

/// A Semrush database code.
fn database_shape(database: &str, _: &()) -> garde::Result {
    let code = database.trim();
    let code = code.strip_prefix("mobile-").unwrap_or(code);
    let code = code.strip_suffix("-ext").unwrap_or(code);
    if code.len() == 2 && code.bytes().all(|b| b.is_ascii_lowercase()) {
        Ok(())
    } else {
        Err(garde::Error::new(
            "must be a Semrush database code such as us, uk or mobile-us",
        ))
    }
}

/// Connects a domain in Semrush with the customer's API key. Semrush is not called: every request
/// spends the customer's API units, so the key is proven by the first weekly run (due at once),
/// whose error shows as the connection's `last_error`. The run reads the domain's overview and
/// its top 100 organic keywords by traffic. Re-connecting replaces the key. Audited as
/// `connection.connect`.
#[utoipa::path(post, path = "/products/{slug}/connections/seo-a", tag = tags::CONNECTIONS,
    security(("bearer" = [])), params(("slug" = String, Path, description = "product slug")),
    request_body = SeoARequest,
    responses((status = 200, body = Connected), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody),
        (status = 503, body = ErrorBody, description = "PAYBACK_SECRET_KEY is not configured")))]
async fn connect(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
    ValidJson(body): ValidJson<SeoARequest>,
) -> ApiResult<Json<Connected>> {
    let key = body.api_key.expose().trim();
    let domain = body.domain.trim().to_ascii_lowercase();
    let database = body
        .database
        .as_deref()
        .map_or(DEFAULT_DATABASE, str::trim)
        .to_owned();
    let keyed = Keyed {
        kind: KIND,
        secret: json!({ "api_key": key }),
        config: json!({ "domain": domain, "database": database }),
        audit: json!({ "domain": domain, "database": database }),
    };
    // Nothing is sent to Semrush (every request spends API units): the first run proves the key.
    let connected = key_connect::connect(&state, &caller, &slug, async { Ok(keyed) }).await?;
    Ok(Json(connected))
}

/// The sealed part of a `seo_a` connection.
#[derive(Deserialize)]
struct SeoASecret {
    api_key: String,
}

/// The domain and database a connection reads.
#[derive(Deserialize)]
struct Settings {
    domain: String,
    database: Option<String>,
}

/// The Semrush key, the domain and the database.
fn open<'a>(
    state: &'a AppState,
    _product: &'a ProductRow,
    row: &'a ConnectionRow,
) -> OpenFuture<'a> {
    Box::pin(async move {
        let secret: SeoASecret = source_config::secret_of(state, row).await?;
        let settings: Settings = source_config::settings_of(row)?;
        let mut config = SeoAConfig::new(secret.api_key, settings.domain, settings.database);
        config.api_base_url = origin(state);
        Ok(boxed(SeoASource::new(state.http.clone(), config)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_domain_is_bare_and_a_database_is_semrushs_code() {
        for good in [
            "shop.example",
            "Shop-1.Example.co.uk",
            "xn--bcher-kva.example",
        ] {
            assert!(domain_shape(good, &()).is_ok(), "{good}");
        }
        for bad in [
            "https://shop.example",
            "shop.example/",
            "shop.example:8080",
            "localhost",
            "-shop.example",
            "shop..example",
            "shop example.com",
        ] {
            assert!(domain_shape(bad, &()).is_err(), "{bad}");
        }
        for good in ["us", "uk", "mobile-us", "us-ext"] {
            assert!(database_shape(good, &()).is_ok(), "{good}");
        }
        for bad in ["", "US", "usa", "mobile-", "google.com"] {
            assert!(database_shape(bad, &()).is_err(), "{bad}");
        }
    }
}
