//! What the clock decides about cards: proposals expire, snoozes end.

use payback_domain::{Actor, Timestamp};
use payback_store::cards;
use serde_json::json;

use crate::error::ApiResult;
use crate::services::audit;
use crate::state::AppState;

pub async fn expire(state: &AppState, now: Timestamp) -> ApiResult<String> {
    let mut tx = state.store.begin().await?;
    let expired = cards::expire_due(&mut tx, now).await?;
    for card in &expired {
        let payload = json!({ "expires_at": card.expires_at.map(|at| Timestamp::from_millis(at).to_rfc3339()) });
        audit::record_card(&mut tx, &Actor::system(), card, "card.expire", payload, now).await?;
    }
    tx.commit().await?;
    Ok(format!("{} expired", expired.len()))
}

pub async fn wake(state: &AppState, now: Timestamp) -> ApiResult<String> {
    let mut tx = state.store.begin().await?;
    let woken = cards::wake_due(&mut tx, now).await?;
    for card in &woken {
        audit::record_card(
            &mut tx,
            &Actor::system(),
            card,
            "card.unsnooze",
            json!({}),
            now,
        )
        .await?;
    }
    tx.commit().await?;
    Ok(format!("{} back from snooze", woken.len()))
}
