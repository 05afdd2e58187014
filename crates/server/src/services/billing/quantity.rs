//! What a workspace pays for: each product is free for `PAYBACK_PRODUCT_FREE_DAYS` from its
//! creation, then billable; the subscription's quantity is the billable products, at least one.
//! The `billing_quantity` job keeps the Stripe item's quantity equal to it, writing to Stripe
//! only when the two differ.

use payback_domain::{DAY_MS, Timestamp};
use payback_store::billing as store;
use payback_store::products::{self, ProductRow};
use payback_store::{AccountScope, Visibility};
use serde::Serialize;
use utoipa::ToSchema;

use crate::config::Config;
use crate::error::{ApiError, ApiResult};
use crate::services::billing::stripe;
use crate::state::AppState;

/// One product as the bill sees it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ProductLine {
    pub slug: String,
    pub name: String,
    /// Creation plus the free days (RFC 3339): from then on the product is billable.
    pub free_until: String,
    pub billable: bool,
}

/// The workspace's products, oldest first, each with its free period.
pub fn product_lines(config: &Config, products: &[ProductRow], now: Timestamp) -> Vec<ProductLine> {
    let free_ms = config.product_free_days.max(0).saturating_mul(DAY_MS);
    products
        .iter()
        .map(|product| {
            let free_until = Timestamp::from_millis(product.created_at).plus_millis(free_ms);
            ProductLine {
                slug: product.slug.clone(),
                name: product.name.clone(),
                free_until: free_until.to_rfc3339(),
                billable: now >= free_until,
            }
        })
        .collect()
}

/// The subscription's quantity for `billable` products: at least one.
pub fn quantity(billable: usize) -> i64 {
    i64::try_from(billable).unwrap_or(i64::MAX).max(1)
}

/// The workspace's product lines now.
pub async fn lines_of(state: &AppState, account: &AccountScope) -> ApiResult<Vec<ProductLine>> {
    let products = products::list(&state.store, &Visibility::Account(account.clone())).await?;
    Ok(product_lines(&state.config, &products, state.clock.now()))
}

/// The quantity `account` pays for now.
pub async fn quantity_of(state: &AppState, account: &AccountScope) -> ApiResult<i64> {
    let lines = lines_of(state, account).await?;
    Ok(quantity(lines.iter().filter(|line| line.billable).count()))
}

/// The `billing_quantity` job: every subscribed workspace whose billable products differ from
/// the quantity Stripe holds gets its item updated; nothing is written for the others. A
/// failing workspace is logged and tried again at the next pass; the others go on.
pub async fn sync_all(state: &AppState, now: Timestamp) -> ApiResult<String> {
    if !state.config.billing_available() {
        return Ok("billing is not configured".to_owned());
    }
    let rows = store::subscribed(&state.store).await?;
    let (mut updated, mut failed) = (0, 0);
    for row in rows {
        let Some(item_id) = row.item_id.as_deref() else {
            continue;
        };
        let scope = AccountScope::trusted(row.account_id.clone());
        let wanted = quantity_of(state, &scope).await?;
        if row.quantity_pushed == Some(wanted) {
            continue;
        }
        match push(state, &row.account_id, item_id, wanted, now).await {
            Ok(()) => updated += 1,
            Err(error) => {
                failed += 1;
                tracing::warn!(account = %row.account_id, %error, "billing quantity not updated");
            }
        }
    }
    Ok(format!("{updated} quantities updated, {failed} failed"))
}

async fn push(
    state: &AppState,
    account_id: &str,
    item_id: &str,
    quantity: i64,
    now: Timestamp,
) -> ApiResult<()> {
    let config = stripe::config(state)?;
    let client = stripe::client(state, &config)?;
    // A fresh key per change: the retries of this call share it, while a later change back to
    // an earlier quantity is not taken for a replay of it.
    let key = format!("payback-quantity-{}", uuid::Uuid::now_v7());
    let item = client
        .update_item_quantity(item_id, quantity, &key)
        .await
        .map_err(stripe::failed)?;
    if item.id != item_id {
        return Err(ApiError::BadGateway(format!(
            "Stripe updated item {} instead of {item_id}",
            item.id
        )));
    }
    store::set_quantity_pushed(&state.store, account_id, item_id, quantity, now).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn at_least_one_product_is_paid_for() {
        assert_eq!(quantity(0), 1);
        assert_eq!(quantity(1), 1);
        assert_eq!(quantity(4), 4);
    }
}
