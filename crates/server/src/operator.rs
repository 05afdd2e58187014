//! Operator administration from the command line.

use payback_domain::validation::normalize_email;
use payback_domain::{AccountRole, Actor};
use payback_store::ingest::failures::{self, RetryOutcome, SetAside};
use payback_store::{accounts, members, users};
use serde_json::json;

use crate::error::{ApiError, ApiResult};
use crate::services::audit;
use crate::state::AppState;

/// `payback operator grant EMAIL`: every account the person actively owns becomes an operator
/// account, so its members see every account in the portfolio. Returns the accounts changed.
pub async fn grant(state: &AppState, email: &str) -> ApiResult<Vec<String>> {
    let email = normalize_email(email);
    let now = state.clock.now();
    let mut tx = state.store.begin().await?;
    let user = users::find_by_email_in(&mut tx, &email)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("no person with the email {email}")))?;
    let owned = members::owned_accounts(&mut tx, &user.id).await?;
    if owned.is_empty() {
        return Err(ApiError::bad_request(format!(
            "{email} owns no active account"
        )));
    }
    let actor = Actor::system();
    for account_id in &owned {
        accounts::set_role(&mut tx, account_id, AccountRole::Operator).await?;
        audit::record_account(
            &mut tx,
            &actor,
            account_id,
            "account.operator_grant",
            Some(&user.id),
            json!({ "email": email }),
            now,
        )
        .await?;
    }
    tx.commit().await?;
    Ok(owned)
}

/// `payback operator ingest-failures list`: the batches the database refused while folding,
/// set aside so the batches behind them were stored (of one product, or of all).
pub async fn ingest_failures(
    state: &AppState,
    product_id: Option<&str>,
) -> ApiResult<Vec<SetAside>> {
    Ok(failures::set_aside_batches(&state.store, product_id).await?)
}

/// `payback operator ingest-failures retry`: folds the set-aside batches again, once what
/// refused them is mended; one refused again stays listed with the new error.
pub async fn retry_ingest_failures(
    state: &AppState,
    product_id: Option<&str>,
) -> ApiResult<RetryOutcome> {
    Ok(failures::retry_set_aside(&state.store, product_id).await?)
}

/// `payback operator ingest-failures discard`: drops the set-aside batches for good.
pub async fn discard_ingest_failures(state: &AppState, product_id: Option<&str>) -> ApiResult<u64> {
    Ok(failures::discard_set_aside(&state.store, product_id).await?)
}
