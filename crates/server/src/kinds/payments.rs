//! `payments`: the payment processor (Stripe), connected with a key. Successful charges land
//! as revenue at the stage the connection names.

use axum::extract::{Path, State};
use payback_connectors::payments::{self, PaymentStage, PaymentsConfig, PaymentsSource};
use payback_domain::Stage;
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
use crate::services::{products, source_config};
use crate::state::{AppState, OpenFuture};

const KIND: ConnectionKind = ConnectionKind::Payments;

pub fn plugin() -> Plugin {
    Plugin {
        kind: KIND,
        open,
        routes: || OpenApiRouter::new().routes(routes!(connect)),
        grant: None,
        rules,
    }
}

/// The key's length and shape, and the stages charges may land at.
fn rules() -> Vec<(At, Vec<Rule>)> {
    let stages = Stage::ALL
        .iter()
        .filter(|stage| PaymentStage::parse(stage.as_str()).is_some())
        .map(|stage| stage.as_str().to_owned())
        .collect();
    vec![
        (
            At::Field("PaymentsRequest", "api_key"),
            vec![
                Rule::Chars(1, API_KEY_MAX_CHARS),
                Rule::Pattern(payments::key_pattern()),
            ],
        ),
        (
            At::Field("PaymentsRequest", "default_stage"),
            vec![Rule::OneOf(stages)],
        ),
    ]
}

/// The payments key, in characters.
pub const API_KEY_MAX_CHARS: usize = 500;
/// `default_stage`, in characters (the stages it names are shorter).
pub const DEFAULT_STAGE_MAX_CHARS: usize = 20;

#[derive(Debug, Deserialize, ToSchema, garde::Validate)]
#[serde(deny_unknown_fields)]
pub struct PaymentsRequest {
    /// A restricted (`rk_live_`, `rk_test_`) or secret (`sk_live_`, `sk_test_`) key. Stored
    /// encrypted, never returned.
    #[garde(custom(secret_within::<API_KEY_MAX_CHARS>))]
    api_key: Secret,
    /// `converted` or `payment` (default): the stage successful charges are recorded as.
    #[garde(inner(length(chars, max = DEFAULT_STAGE_MAX_CHARS)))]
    default_stage: Option<String>,
}

/// Connects the payment processor (Stripe) with a key; re-connecting replaces the key. The first
/// sync (30 days) is due at once. Audited as `connection.connect`.
#[utoipa::path(post, path = "/products/{slug}/connections/payments", tag = tags::CONNECTIONS,
    security(("bearer" = [])), params(("slug" = String, Path, description = "product slug")),
    request_body = PaymentsRequest,
    responses((status = 200, body = Connected), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 503, body = ErrorBody, description = "PAYBACK_SECRET_KEY is not configured")))]
async fn connect(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
    ValidJson(body): ValidJson<PaymentsRequest>,
) -> ApiResult<Json<Connected>> {
    source_config::vault(&state)?;
    let product = products::find(&state, caller.scope()?, &slug).await?;
    let stage = match body.default_stage.as_deref() {
        None => PaymentStage::default(),
        Some(text) => PaymentStage::parse(text).ok_or_else(|| {
            ApiError::bad_request("default_stage: must be `converted` or `payment`")
        })?,
    };
    let key = body.api_key.expose().trim();
    let described = payments::describe_key(key)
        .map_err(|err| ApiError::bad_request(format!("api_key: {err}")))?;
    let keyed = Keyed {
        kind: KIND,
        secret: json!({ "secret_key": key }),
        config: json!({ "default_stage": stage.as_str(), "key": described }),
        audit: json!({ "key": described, "default_stage": stage.as_str() }),
    };
    let connection_id = key_connect::store_keyed(&state, &caller, &product, keyed).await?;
    Ok(Json(Connected::new(connection_id)))
}

/// The sealed part of a payments connection.
#[derive(Deserialize)]
struct PaymentsSecret {
    secret_key: String,
}

/// The stage its charges land at, as connected.
#[derive(Deserialize)]
struct PaymentsSettings {
    default_stage: Option<String>,
}

/// The Stripe key and the charges' stage.
async fn config(state: &AppState, row: &ConnectionRow) -> ApiResult<PaymentsConfig> {
    let secret: PaymentsSecret = source_config::secret_of(state, row).await?;
    let settings: PaymentsSettings = source_config::settings_of(row)?;
    let stage = settings
        .default_stage
        .as_deref()
        .and_then(PaymentStage::parse)
        .unwrap_or_default();
    let mut config = PaymentsConfig::new(secret.secret_key, stage);
    if let Some(url) = state.config.api_url(KIND) {
        url.clone_into(&mut config.base_url);
    }
    Ok(config)
}

fn open<'a>(
    state: &'a AppState,
    product: &'a ProductRow,
    row: &'a ConnectionRow,
) -> OpenFuture<'a> {
    Box::pin(async move {
        let config = config(state, row).await?;
        Ok(boxed(PaymentsSource::new(
            state.http.clone(),
            config,
            &product.currency,
        )))
    })
}
