//! `geo_a`: an SE Ranking project (AI-search visibility, site-audit health, keyword ranks),
//! connected with the customer's Project API key; the company is the project. Its figures land
//! as `ai_visibility`, `site_health`, `keyword_position` and `keyword_volume` snapshots; read
//! only.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use payback_connectors::ConnectorError;
use payback_connectors::geo_a::{
    self, Company, CompanyChoice, DEFAULT_API_BASE_URL, GeoAConfig, GeoASource,
};
use payback_domain::connection::ConnectionKind;
use payback_store::connections::ConnectionRow;
use payback_store::products::ProductRow;
use serde::{Deserialize, Serialize};
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
use crate::services::{products, source_config};
use crate::state::{AppState, OpenFuture};

const KIND: ConnectionKind = ConnectionKind::GeoA;

/// The SE Ranking API key, in characters (Project API keys are 40 hex digits; room to spare).
pub const API_KEY_MAX_CHARS: usize = 500;
/// `company_id`, in characters (SE Ranking's project ids are numbers of a few digits).
pub const COMPANY_ID_MAX_CHARS: usize = 64;

pub fn plugin() -> Plugin {
    Plugin {
        kind: KIND,
        open,
        routes: || OpenApiRouter::new().routes(routes!(connect)),
        grant: None,
        rules,
    }
}

/// The key's length and the company id's.
fn rules() -> Vec<(At, Vec<Rule>)> {
    vec![
        (
            At::Field("GeoARequest", "api_key"),
            vec![Rule::Chars(1, API_KEY_MAX_CHARS)],
        ),
        (
            At::Field("GeoARequest", "company_id"),
            vec![Rule::Chars(1, COMPANY_ID_MAX_CHARS)],
        ),
    ]
}

/// Where SE Ranking's Project API answers.
fn origin(state: &AppState) -> String {
    source_config::vendor_origin(state, KIND, DEFAULT_API_BASE_URL)
}

#[derive(Debug, Deserialize, ToSchema, garde::Validate)]
#[serde(deny_unknown_fields)]
#[schema(examples(json!({ "api_key": "253a73ad0123456789abcdef340aa0a939012345", "company_id": "147696" })))]
pub struct GeoARequest {
    /// The SE Ranking Project API key (SE Ranking, Settings, API). Stored encrypted, never
    /// returned.
    #[garde(custom(secret_within::<API_KEY_MAX_CHARS>))]
    api_key: Secret,
    /// The SE Ranking project (its id in `GET /sites`) to read; required when the key sees
    /// several projects, whose list the 400 then carries.
    #[garde(length(chars, min = 1, max = COMPANY_ID_MAX_CHARS))]
    company_id: Option<String>,
}

/// One project the key sees, as a 400 lists them.
#[derive(Debug, Serialize)]
pub struct GeoACompany {
    pub id: String,
    /// The project's name in SE Ranking.
    pub name: String,
    /// The project's site.
    pub domain: String,
}

/// The 400 when the key sees several projects and no `company_id` chose one: the error body
/// with the projects beside it.
#[derive(Debug, Serialize)]
pub struct GeoACompanyChoice {
    pub error: String,
    pub companies: Vec<GeoACompany>,
}

/// Connects an SE Ranking project with the customer's Project API key: the key is proven by
/// listing its projects (`GET /sites`). One project is used as it is; with several,
/// `company_id` chooses (without it the 400 lists them as `companies`). Its AI-search
/// visibility, site-audit health and keyword ranks are then read daily (and on sync now).
/// Re-connecting replaces the key. Audited as `connection.connect`.
#[utoipa::path(post, path = "/products/{slug}/connections/geo-a", tag = tags::CONNECTIONS,
    security(("bearer" = [])), params(("slug" = String, Path, description = "product slug")),
    request_body = GeoARequest,
    responses((status = 200, body = Connected),
        (status = 400, body = ErrorBody, description = "a field is missing or refused (`error` names it); when the key sees several projects and no `company_id` chose one, the body also carries `companies: [{id, name, domain}]`"),
        (status = 401, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 502, body = ErrorBody, description = "SE Ranking could not be reached"),
        (status = 503, body = ErrorBody, description = "PAYBACK_SECRET_KEY is not configured")))]
async fn connect(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
    ValidJson(body): ValidJson<GeoARequest>,
) -> ApiResult<Response> {
    source_config::vault(&state)?;
    let product = products::find(&state, caller.scope()?, &slug).await?;
    let key = body.api_key.expose().trim();
    let companies = geo_a::list_companies(&state.http, &origin(&state), key)
        .await
        .map_err(refused)?;
    let company = match geo_a::choose_company(companies, body.company_id.as_deref()) {
        Ok(company) => company,
        Err(choice) => return Ok(not_chosen(choice)),
    };
    let keyed = Keyed {
        kind: KIND,
        secret: json!({ "api_key": key }),
        config: json!({ "company_id": company.id }),
        audit: json!({ "company_id": company.id }),
    };
    let connection_id = key_connect::store_keyed(&state, &caller, &product, keyed).await?;
    Ok(Json(Connected::new(connection_id)).into_response())
}

/// The 400 of a connect that could not settle on a project.
fn not_chosen(choice: CompanyChoice) -> Response {
    match choice {
        CompanyChoice::Several(companies) => {
            // The choices in words too, for a client that shows only `error`.
            let named: Vec<String> = companies
                .iter()
                .map(|company| format!("{} ({})", company.id, company.name))
                .collect();
            let body = GeoACompanyChoice {
                error: format!(
                    "company_id: this key sees several SE Ranking projects; choose one of {}",
                    named.join(", ")
                ),
                companies: companies.into_iter().map(listed).collect(),
            };
            (StatusCode::BAD_REQUEST, Json(body)).into_response()
        }
        CompanyChoice::Unknown(id) => ApiError::bad_request(format!(
            "company_id: {id} is not a project of this key's SE Ranking account"
        ))
        .into_response(),
        CompanyChoice::NoProjects => ApiError::bad_request(
            "company_id: this key's SE Ranking account has no project to read",
        )
        .into_response(),
    }
}

fn listed(company: Company) -> GeoACompany {
    GeoACompany {
        id: company.id,
        name: company.name,
        domain: company.domain,
    }
}

/// The vendor's refusal of the key as a 400 quoting its reason; 502 when it could not answer.
fn refused(err: ConnectorError) -> ApiError {
    key_connect::key_refused(err, "api_key", "SE Ranking")
}

/// The sealed part of a `geo_a` connection.
#[derive(Deserialize)]
struct GeoASecret {
    api_key: String,
}

/// The project a connection reads.
#[derive(Deserialize)]
struct Settings {
    company_id: String,
}

/// The SE Ranking key and the project.
fn open<'a>(
    state: &'a AppState,
    _product: &'a ProductRow,
    row: &'a ConnectionRow,
) -> OpenFuture<'a> {
    Box::pin(async move {
        let secret: GeoASecret = source_config::secret_of(state, row).await?;
        let settings: Settings = source_config::settings_of(row)?;
        let mut config = GeoAConfig::new(secret.api_key, settings.company_id);
        config.api_base_url = origin(state);
        Ok(boxed(GeoASource::new(state.http.clone(), config)))
    })
}
