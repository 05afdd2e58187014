//! The product's tracking setup: the publishable write key, the snippet and how to send events.

use payback_domain::Timestamp;
use payback_store::products::ProductRow;
use payback_store::tracking_keys::{self, TrackingKeyRow};
use serde::Serialize;
use serde_json::json;
use utoipa::ToSchema;

use crate::crypto::{WRITE_KEY_PREFIX, new_token};
use crate::error::{ApiError, ApiResult};
use crate::services::acting::Caller;
use crate::services::audit;
use crate::services::grants::BoxFuture;
use crate::state::AppState;

/// The spec's Tracking key info.
#[derive(Debug, Serialize, ToSchema)]
pub struct TrackingKeyInfo {
    pub key: Option<String>,
    pub created_at: Option<String>,
    /// The script tag to paste before `</head>`.
    pub snippet: Option<String>,
    /// The same tag for a tag manager's custom HTML tag.
    pub gtm_html: Option<String>,
    /// Server-side ingestion with an account API key.
    pub curl_example: String,
    /// Where the snippet sends events.
    pub ingest_url: String,
    pub gtm_connected: bool,
    #[schema(value_type = Option<Object>)]
    pub gtm_deploy: Option<serde_json::Value>,
}

/// The answer to a rotation.
#[derive(Debug, Serialize, ToSchema)]
pub struct RotatedKey {
    pub ok: bool,
    pub key: String,
    pub created_at: String,
    /// True when a previous key was revoked by this call.
    pub rotated: bool,
    pub snippet: String,
}

/// The script tag of write key `key`: pasted before `</head>`, or as a tag manager's Custom
/// HTML tag (`gtm_html`, what a deploy publishes).
pub fn snippet(state: &AppState, key: &str) -> String {
    format!(
        r#"<script src="{}/svc.js" data-key="{key}" async></script>"#,
        state.config.public_url()
    )
}

fn curl_example(state: &AppState, product: &ProductRow) -> String {
    format!(
        "curl -X POST {base}/products/{slug}/events \\\n  -H 'Authorization: Bearer <your svc_live_ API key>' \\\n  \
         -H 'Content-Type: application/json' \\\n  -d '{{\"events\":[{{\"dedupe_id\":\"order-1001\",\"stage\":\"payment\",\
         \"user_id\":\"user-42\",\"value\":4900,\"currency\":\"{currency}\"}}]}}'",
        base = state.config.public_url(),
        slug = product.slug,
        currency = product.currency,
    )
}

/// How a new key relates to the live one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Minting {
    /// The first key: only when there is none (a concurrent first read wins, and this conflicts).
    First,
    /// Rotation: the live key is revoked in the same transaction.
    Rotate,
}

async fn mint(
    state: &AppState,
    caller: &Caller,
    product: &ProductRow,
    minting: Minting,
) -> ApiResult<(TrackingKeyRow, bool)> {
    let now: Timestamp = state.clock.now();
    let key = new_token(WRITE_KEY_PREFIX);
    let mut tx = state.store.begin().await?;
    let (revoked, action) = match minting {
        Minting::First => (0, "tracking_key.create"),
        Minting::Rotate => (
            tracking_keys::revoke_all(&mut tx, &product.id, now).await?,
            "tracking_key.rotate",
        ),
    };
    tracking_keys::insert(&mut tx, &product.id, &key, now).await?;
    audit::record_product(
        &mut tx,
        &caller.actor(),
        product,
        action,
        json!({ "revoked": revoked }),
        now,
    )
    .await?;
    tx.commit().await?;
    Ok((
        TrackingKeyRow {
            key,
            product_id: product.id.clone(),
            created_at: now.millis(),
        },
        revoked > 0,
    ))
}

/// The tracking setup; the write key is minted on first use.
pub async fn info(
    state: &AppState,
    caller: &Caller,
    product: &ProductRow,
) -> ApiResult<TrackingKeyInfo> {
    let live = match tracking_keys::live_for_product(&state.store, &product.id).await? {
        Some(row) => row,
        None => match mint(state, caller, product, Minting::First).await {
            Ok((row, _)) => row,
            // Another first read minted it a moment ago: that key is the one.
            Err(ApiError::Conflict(_)) => {
                tracking_keys::live_for_product(&state.store, &product.id)
                    .await?
                    .ok_or_else(|| {
                        ApiError::internal("the write key minted at the same moment is gone")
                    })?
            }
            Err(err) => return Err(err),
        },
    };
    let tag = snippet(state, &live.key);
    let gtm_deploy = gtm_status(state, product).await?;
    Ok(TrackingKeyInfo {
        created_at: Some(Timestamp::from_millis(live.created_at).to_rfc3339()),
        gtm_html: Some(tag.clone()),
        snippet: Some(tag),
        key: Some(live.key),
        curl_example: curl_example(state, product),
        ingest_url: format!("{}/t/events", state.config.public_url()),
        gtm_connected: gtm_deploy.is_some(),
        gtm_deploy,
    })
}

/// The tag manager's part of the tracking key info (`gtm_deploy`: the container, its audit and
/// Payback's last publish), `None` unless a tag manager is connected and active. The kind's
/// plug-in registers it in the state's plug-ins (`crate::kinds`), so this service names no kind.
pub type GtmStatusFn =
    for<'a> fn(&'a AppState, &'a ProductRow) -> BoxFuture<'a, ApiResult<Option<serde_json::Value>>>;

/// The registration of [`GtmStatusFn`].
#[derive(Clone, Copy)]
pub struct GtmStatus(pub GtmStatusFn);

/// What the registered tag manager says of `product`; nothing when no kind registered.
async fn gtm_status(
    state: &AppState,
    product: &ProductRow,
) -> ApiResult<Option<serde_json::Value>> {
    match state.plugins.get::<GtmStatus>() {
        Some(GtmStatus(read)) => read(state, product).await,
        None => Ok(None),
    }
}

/// Mints a new write key; the previous one stops working at once.
pub async fn rotate(
    state: &AppState,
    caller: &Caller,
    product: &ProductRow,
) -> ApiResult<RotatedKey> {
    let (row, rotated) = mint(state, caller, product, Minting::Rotate).await?;
    Ok(RotatedKey {
        ok: true,
        snippet: snippet(state, &row.key),
        created_at: Timestamp::from_millis(row.created_at).to_rfc3339(),
        key: row.key,
        rotated,
    })
}

/// The product a live write key belongs to; 401 for a missing, unknown or revoked key.
pub async fn product_for_write_key(state: &AppState, key: Option<&str>) -> ApiResult<ProductRow> {
    let key = key
        .map(str::trim)
        .filter(|k| !k.is_empty())
        .ok_or_else(|| {
            ApiError::Unauthorized("key: missing publishable write key (svc_pub_...)".to_owned())
        })?;
    let row = tracking_keys::find_live(&state.store, key)
        .await?
        .ok_or_else(|| ApiError::Unauthorized("key: unknown or revoked write key".to_owned()))?;
    payback_store::products::find_for_write_key(&state.store, &row.product_id)
        .await?
        .ok_or_else(|| ApiError::Unauthorized("key: unknown or revoked write key".to_owned()))
}
