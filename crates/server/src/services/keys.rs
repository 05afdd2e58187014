//! Account API keys: the credential agents hold.

use payback_domain::Timestamp;
use payback_domain::validation::{KEY_NAME_MAX_CHARS, check_one_line_field};
use payback_store::api_keys::{self, NewApiKey};
use payback_store::{AccountScope, Tx};
use serde::Serialize;
use serde_json::json;
use utoipa::ToSchema;

use crate::crypto::{API_KEY_PREFIX, new_token, token_hash};
use crate::error::{ApiError, ApiResult};
use crate::services::acting::Caller;
use crate::services::audit;
use crate::state::AppState;

/// Characters of a key kept for display (`svc_live_` plus four).
const SHOWN_PREFIX_LEN: usize = API_KEY_PREFIX.len() + 4;

#[derive(Debug, Serialize, ToSchema)]
pub struct ApiKeyItem {
    pub id: String,
    pub name: String,
    pub prefix: String,
    pub created_at: String,
    pub last_used_at: Option<String>,
    /// The person who created the key, directly through a session or through another key of
    /// theirs; `null` when no person did: a key of an agent's sign-up (made before anyone
    /// claimed the account) or a key minted by one. Disabling the person stops their keys.
    pub created_by: Option<KeyCreator>,
}

/// A key's creator.
#[derive(Debug, Serialize, ToSchema)]
pub struct KeyCreator {
    /// The person's id (as in `GET /team`).
    pub id: String,
    pub email: String,
}

/// No `Debug`: it carries the full key.
#[derive(Serialize, ToSchema)]
pub struct CreatedKey {
    pub id: String,
    pub name: String,
    /// The full key; shown exactly once.
    pub key: String,
}

/// Mints and stores a key no person created (an agent's sign-up, the demo) inside `tx`;
/// returns its id and the full key (shown once, stored only as a hash).
pub async fn mint(
    tx: &mut Tx,
    scope: &AccountScope,
    name: &str,
    now: Timestamp,
) -> ApiResult<(String, String)> {
    mint_by(tx, scope, name, None, now).await
}

/// [`mint`], attributed to `created_by`: the key stops working when that person's membership
/// in the account is disabled.
async fn mint_by(
    tx: &mut Tx,
    scope: &AccountScope,
    name: &str,
    created_by: Option<&str>,
    now: Timestamp,
) -> ApiResult<(String, String)> {
    let key = new_token(API_KEY_PREFIX);
    let new_key = NewApiKey {
        name,
        prefix: &key[..SHOWN_PREFIX_LEN],
        key_hash: &token_hash(&key),
        created_by,
    };
    let id = api_keys::insert(tx, scope, new_key, now).await?;
    Ok((id, key))
}

/// The caller's account's live keys, oldest first, at most `limit`.
pub async fn list(state: &AppState, caller: &Caller, limit: i64) -> ApiResult<Vec<ApiKeyItem>> {
    list_in(state, caller.scope()?, limit).await
}

/// The account's live keys, oldest first, at most `limit` (also shown to a person about to
/// claim the account).
pub async fn list_in(
    state: &AppState,
    scope: &AccountScope,
    limit: i64,
) -> ApiResult<Vec<ApiKeyItem>> {
    let rows = api_keys::list(&state.store, scope, limit).await?;
    Ok(rows
        .into_iter()
        .map(|row| ApiKeyItem {
            id: row.id,
            name: row.name,
            prefix: row.prefix,
            created_at: Timestamp::from_millis(row.created_at).to_rfc3339(),
            last_used_at: row
                .last_used_at
                .map(|at| Timestamp::from_millis(at).to_rfc3339()),
            created_by: row
                .created_by
                .zip(row.created_by_email)
                .map(|(id, email)| KeyCreator { id, email }),
        })
        .collect())
}

pub async fn create(
    state: &AppState,
    caller: &Caller,
    name: Option<&str>,
) -> ApiResult<CreatedKey> {
    let name = name.map(str::trim).unwrap_or("default");
    if name.is_empty() || name.chars().count() > KEY_NAME_MAX_CHARS {
        return Err(ApiError::bad_request(format!(
            "name: must be 1-{KEY_NAME_MAX_CHARS} characters"
        )));
    }
    check_one_line_field("name", name).map_err(ApiError::bad_request)?;
    let scope = caller.scope()?;
    let now = state.clock.now();
    let mut tx = state.store.begin().await?;
    // A key minted through a key inherits that key's creator, so a chain of keys cannot shed
    // the person it answers to.
    let (id, key) = mint_by(&mut tx, scope, name, caller.person_behind(), now).await?;
    audit::record_account(
        &mut tx,
        &caller.actor(),
        scope.account_id(),
        "api_key.create",
        Some(&id),
        json!({ "name": name }),
        now,
    )
    .await?;
    tx.commit().await?;
    Ok(CreatedKey {
        id,
        name: name.to_owned(),
        key,
    })
}

pub async fn revoke(state: &AppState, caller: &Caller, id: &str) -> ApiResult<()> {
    let scope = caller.scope()?;
    let now = state.clock.now();
    let mut tx = state.store.begin().await?;
    let revoked = api_keys::revoke(&mut tx, scope, id, now)
        .await?
        .ok_or_else(|| ApiError::not_found("API key"))?;
    let payload = json!({ "name": revoked.name, "prefix": revoked.prefix });
    audit::record_account(
        &mut tx,
        &caller.actor(),
        scope.account_id(),
        "api_key.revoke",
        Some(id),
        payload,
        now,
    )
    .await?;
    tx.commit().await?;
    Ok(())
}
