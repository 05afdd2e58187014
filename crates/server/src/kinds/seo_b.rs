//! `seo_b`: Ahrefs, connected with the customer's API v3 key and the domain to follow. Each
//! weekly run stores the domain's rating, live backlinks and referring domains, and its top
//! organic keywords' positions and volumes as snapshots dated the run day; read only, and never
//! on demand (every request costs the customer API units).

use axum::extract::{Path, State};
use payback_connectors::ConnectorError;
use payback_connectors::seo_b::{DEFAULT_API_BASE_URL, SeoBConfig, SeoBSource};
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

const KIND: ConnectionKind = ConnectionKind::SeoB;

/// The Ahrefs API key, in characters (Ahrefs' are a few dozen; room to spare).
pub const API_KEY_MAX_CHARS: usize = 500;
/// `domain`, in characters (a DNS name's limit).
pub const DOMAIN_MAX_CHARS: usize = 253;
/// What [`domain_shape`] takes, as a regular expression: dot-separated labels of letters,
/// digits and inner hyphens, at least two of them.
const DOMAIN_PATTERN: &str = "^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$";

pub fn plugin() -> Plugin {
    Plugin {
        kind: KIND,
        open,
        routes: || OpenApiRouter::new().routes(routes!(connect)),
        grant: None,
        rules,
    }
}

/// The key's length, and the domain's length and shape.
fn rules() -> Vec<(At, Vec<Rule>)> {
    vec![
        (
            At::Field("SeoBRequest", "api_key"),
            vec![Rule::Chars(1, API_KEY_MAX_CHARS)],
        ),
        (
            At::Field("SeoBRequest", "domain"),
            vec![
                Rule::Chars(1, DOMAIN_MAX_CHARS),
                Rule::Pattern(DOMAIN_PATTERN.to_owned()),
            ],
        ),
    ]
}

/// Where Ahrefs' API answers.
fn origin(state: &AppState) -> String {
    source_config::vendor_origin(state, KIND, DEFAULT_API_BASE_URL)
}

#[derive(Debug, Deserialize, ToSchema, garde::Validate)]
#[serde(deny_unknown_fields)]
#[schema(examples(json!({ "api_key": "0123456789abcdefghijklmnopqrstuvwxyzABCD", "domain": "shop.example" })))]
pub struct SeoBRequest {
    /// An Ahrefs API v3 key (Ahrefs, Account settings, API keys). Stored encrypted, never
    /// returned.
    #[garde(custom(secret_within::<API_KEY_MAX_CHARS>))]
    api_key: Secret,
    /// The domain to follow, without a scheme (`shop.example`); its subdomains count with it.
    #[garde(length(chars, min = 1, max = DOMAIN_MAX_CHARS), custom(domain_shape))]
    domain: String,
}

/// A domain name, as Ahrefs takes a target: labels of letters, digits and inner hyphens (at
/// most 63 characters each), at least two; no scheme, path, port or spaces.
fn domain_shape(domain: &str, _: &()) -> garde::Result {
    if domain.contains("://") {
        return Err(garde::Error::new(
            "must be a domain without a scheme (shop.example, not https://shop.example)",
        ));
    }
    let label = |label: &str| {
        (1..=63).contains(&label.len())
            && label
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-')
            && !label.starts_with('-')
            && !label.ends_with('-')
    };
    let labels: Vec<&str> = domain.split('.').collect();
    if labels.len() >= 2 && labels.iter().all(|part| label(part)) {
        Ok(())
    } else {
        Err(garde::Error::new(
            "must be a domain name such as shop.example (no scheme, path, port or spaces)",
        ))
    }
}

/// Connects a domain in Ahrefs with the customer's API key: the key is proven with one read of
/// the domain's Domain Rating (a request of the base cost). A run is due at once, then weekly:
/// Domain Rating, live backlinks and referring domains, and the top organic keywords (US) with
/// their best positions, ranking URLs and volumes, as snapshots dated the run day. Not
/// available as sync now (every request costs API units). Re-connecting replaces the key.
/// Audited as `connection.connect`.
#[utoipa::path(post, path = "/products/{slug}/connections/seo-b", tag = tags::CONNECTIONS,
    security(("bearer" = [])), params(("slug" = String, Path, description = "product slug")),
    request_body = SeoBRequest,
    responses((status = 200, body = Connected), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 502, body = ErrorBody, description = "Ahrefs could not be reached or failed"),
        (status = 503, body = ErrorBody, description = "PAYBACK_SECRET_KEY is not configured")))]
async fn connect(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
    ValidJson(body): ValidJson<SeoBRequest>,
) -> ApiResult<Json<Connected>> {
    let key = body.api_key.expose().trim();
    // DNS names are case-insensitive; one spelling keeps the config and the reads alike.
    let domain = body.domain.to_ascii_lowercase();
    let mut config = SeoBConfig::new(key.to_owned(), domain.clone());
    config.api_base_url = origin(&state);
    let keyed = Keyed {
        kind: KIND,
        secret: json!({ "api_key": key }),
        config: json!({ "domain": domain }),
        audit: json!({ "domain": domain }),
    };
    let proven = key_connect::prove(SeoBSource::new(state.http.clone(), config), refused, keyed);
    let connected = key_connect::connect(&state, &caller, &slug, proven).await?;
    Ok(Json(connected))
}

/// The vendor's refusal of the key as a 400 quoting its reason; 502 when it could not answer.
fn refused(err: ConnectorError) -> ApiError {
    key_connect::key_refused(err, "api_key", "Ahrefs")
}

/// The sealed part of a `seo_b` connection.
#[derive(Deserialize)]
struct SeoBSecret {
    api_key: String,
}

/// The domain a connection reads.
#[derive(Deserialize)]
struct Settings {
    domain: String,
}

/// The Ahrefs key and the domain.
fn open<'a>(
    state: &'a AppState,
    _product: &'a ProductRow,
    row: &'a ConnectionRow,
) -> OpenFuture<'a> {
    Box::pin(async move {
        let secret: SeoBSecret = source_config::secret_of(state, row).await?;
        let settings: Settings = source_config::settings_of(row)?;
        let mut config = SeoBConfig::new(secret.api_key, settings.domain);
        config.api_base_url = origin(state);
        Ok(boxed(SeoBSource::new(state.http.clone(), config)))
    })
}

#[cfg(test)]
mod tests {
    use super::domain_shape;

    #[test]
    fn a_domain_is_a_dns_name_without_scheme_path_or_port() {
        for good in [
            "shop.example",
            "www.shop-1.example.co.uk",
            "XN--BCHER-KVA.example",
        ] {
            assert!(domain_shape(good, &()).is_ok(), "{good}");
        }
        let scheme = domain_shape("https://shop.example", &()).unwrap_err();
        assert!(scheme.to_string().contains("without a scheme"), "{scheme}");
        for bad in [
            "shop",
            "shop.example/",
            "shop.example:8080",
            " shop.example",
            "-shop.example",
            "shop..example",
            "shop_1.example",
        ] {
            assert!(domain_shape(bad, &()).is_err(), "{bad}");
        }
    }
}
