//! Share links: a read-only view of the live matrix at `#/shared/scorecard/<token>`, one live
//! link per product, found by the SHA-256 of its token. Sharing again answers the live link;
//! revoking kills it, and the next share mints a new token. Both are audited.

use payback_store::products::{self, ProductRow};
use payback_store::scorecard::shares;
use serde::Serialize;
use serde_json::json;
use utoipa::ToSchema;

use crate::crypto;
use crate::error::{ApiError, ApiResult};
use crate::services::acting::Caller;
use crate::services::audit;
use crate::state::AppState;

/// `POST /products/{slug}/scorecard/share`.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Shared {
    /// `{PAYBACK_PUBLIC_URL}/#/shared/scorecard/<token>`.
    pub share_url: String,
    /// 43 URL-safe characters (base62).
    pub token: String,
}

/// The dashboard's address of the shared view of `token`.
pub fn url_of(state: &AppState, token: &str) -> String {
    format!("{}/#/shared/scorecard/{token}", state.config.public_url())
}

/// The live link, minted when the product has none.
pub async fn share(state: &AppState, caller: &Caller, product: &ProductRow) -> ApiResult<Shared> {
    let token = crypto::new_token("");
    let now = state.clock.now();
    let actor = caller.actor();
    let mut tx = state.store.begin().await?;
    let (row, minted) = shares::mint(
        &mut tx,
        &product.id,
        &token,
        &crypto::token_hash(&token),
        &actor.who,
        now,
    )
    .await?;
    if minted {
        // The token never enters history: only that a link exists.
        audit::record_product(&mut tx, &actor, product, "scorecard.share", json!({}), now).await?;
    }
    tx.commit().await?;
    Ok(Shared {
        share_url: url_of(state, &row.token),
        token: row.token,
    })
}

/// Kills the live link, if any (`{ok:true}` either way); audited when there was one.
pub async fn revoke(state: &AppState, caller: &Caller, product: &ProductRow) -> ApiResult<()> {
    let now = state.clock.now();
    let mut tx = state.store.begin().await?;
    if shares::revoke(&mut tx, &product.id).await? {
        audit::record_product(
            &mut tx,
            &caller.actor(),
            product,
            "scorecard.share_revoke",
            json!({}),
            now,
        )
        .await?;
    }
    tx.commit().await?;
    Ok(())
}

/// The product a live token shares; 404 for any other token, revoked or never minted.
pub async fn product_of(state: &AppState, token: &str) -> ApiResult<ProductRow> {
    let not_found = || ApiError::not_found("shared scorecard");
    // Tokens are 43 base62 characters; anything else is not one, and is not looked up.
    if token.len() > 64 || !token.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return Err(not_found());
    }
    let (product_id, account_id) = shares::product_of(&state.store, &crypto::token_hash(token))
        .await?
        .ok_or_else(not_found)?;
    let scope = payback_store::AccountScope::trusted(account_id);
    let product = products::find_by_id(&state.store, &scope, &product_id)
        .await?
        .ok_or_else(not_found)?;
    // The shared view counts what is folded, as a report does.
    state
        .ingest
        .settle_within(&product.id, state.config.read_wait())
        .await?;
    Ok(product)
}
