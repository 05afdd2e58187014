//! `GET /connect/{provider}/status`: where a flow stands, for whoever started it.

use payback_domain::connection::GrantFlowStatus;
use payback_store::grant_states::{self as store, GrantState};
use payback_store::products::{self as product_store, ProductRow};
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

use super::Provider;
use crate::error::{ApiError, ApiResult};
use crate::services::acting::Caller;
use crate::state::AppState;

/// `GET /connect/{provider}/status`'s answer.
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
    /// Once complete: what the grant reaches, e.g. `{ads_customers: [...]}` (search) or
    /// `{ad_accounts: [...], pages: [...]}` (social).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub options: Option<Value>,
}

/// `GET /connect/{provider}/status`: 404 for another account's state or an unknown one.
pub async fn status(
    state: &AppState,
    caller: &Caller,
    provider: Provider,
    token: &str,
) -> ApiResult<GrantStatus> {
    let (grant, product) = find_grant(state, caller, provider, token).await?;
    let now = state.clock.now();
    let expired = grant.status == GrantFlowStatus::Pending && now.millis() >= grant.expires_at;
    let parse = |text: &Option<String>| {
        text.as_deref()
            .and_then(|text| serde_json::from_str::<Value>(text).ok())
    };
    Ok(GrantStatus {
        status: if expired {
            GrantFlowStatus::Error
        } else {
            grant.status
        }
        .as_str()
        .to_owned(),
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

pub(super) async fn find_grant(
    state: &AppState,
    caller: &Caller,
    provider: Provider,
    token: &str,
) -> ApiResult<(GrantState, ProductRow)> {
    let scope = caller.scope()?;
    let not_found = || ApiError::not_found("connect state");
    let grant = store::find_in(&state.store, scope, provider.word, token)
        .await?
        .ok_or_else(not_found)?;
    let product = product_store::find_by_id(&state.store, scope, &grant.product_id)
        .await?
        .ok_or_else(not_found)?;
    Ok((grant, product))
}
