//! A person's workspaces: listing, creating and switching between them.

use payback_domain::validation::ACCOUNT_NAME_MAX_CHARS;
use payback_domain::{MemberRole, MemberStatus};
use payback_store::{AccountScope, accounts, members, sessions};
use serde_json::json;

use crate::error::{ApiError, ApiResult};
use crate::services::acting::{Caller, Person, Principal};
use crate::services::{audit, sessions as session_service};
use crate::state::AppState;
use crate::views::{WorkspaceItem, WorkspaceSwitch};

/// People see their accepted, non-disabled memberships; an API key (or a job) sees only its own
/// account; the operator token belongs to no account and sees none.
pub async fn list(state: &AppState, caller: &Caller) -> ApiResult<Vec<WorkspaceItem>> {
    match &caller.principal {
        Principal::Person(person) => session_service::workspaces_of(state, &person.user_id).await,
        Principal::ApiKey { .. } | Principal::System => {
            let scope = caller.scope()?;
            let account = accounts::find(&state.store, scope.account_id())
                .await?
                .ok_or_else(|| ApiError::not_found("account"))?;
            Ok(vec![WorkspaceItem {
                id: account.id.clone(),
                name: account.name.clone(),
                role: account.role,
                member_role: MemberRole::Member,
            }])
        }
        Principal::OperatorToken => Ok(Vec::new()),
    }
}

/// Creates a workspace owned by the person and points their session at it.
pub async fn create(
    state: &AppState,
    caller: &Caller,
    person: &Person,
    name: &str,
) -> ApiResult<WorkspaceSwitch> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > ACCOUNT_NAME_MAX_CHARS {
        return Err(ApiError::bad_request(format!(
            "name: must be 1-{ACCOUNT_NAME_MAX_CHARS} characters"
        )));
    }
    payback_domain::validation::check_one_line_field("name", name)
        .map_err(ApiError::bad_request)?;
    let now = state.clock.now();
    let mut tx = state.store.begin().await?;
    let account_id = accounts::insert(&mut tx, name, now).await?;
    let scope = AccountScope::trusted(account_id.clone());
    members::insert(
        &mut tx,
        &scope,
        &person.user_id,
        MemberRole::Owner,
        MemberStatus::Active,
        now,
    )
    .await?;
    sessions::repoint(&mut tx, &person.session_hash, &account_id).await?;
    audit::record_account(
        &mut tx,
        &caller.actor(),
        &account_id,
        "workspace.create",
        Some(&account_id),
        json!({ "name": name }),
        now,
    )
    .await?;
    tx.commit().await?;
    switched(state, person, &account_id).await
}

/// Points the session at another of the person's workspaces; other tabs sharing the token follow.
pub async fn switch(
    state: &AppState,
    person: &Person,
    account_id: &str,
) -> ApiResult<WorkspaceSwitch> {
    let workspaces = members::workspaces_of(&state.store, &person.user_id).await?;
    if !workspaces.iter().any(|w| w.account_id == account_id) {
        return Err(ApiError::not_found("workspace"));
    }
    let mut tx = state.store.begin().await?;
    sessions::repoint(&mut tx, &person.session_hash, account_id).await?;
    tx.commit().await?;
    switched(state, person, account_id).await
}

async fn switched(
    state: &AppState,
    person: &Person,
    account_id: &str,
) -> ApiResult<WorkspaceSwitch> {
    Ok(WorkspaceSwitch {
        account: session_service::account_view(state, &person.user_id, account_id).await?,
        accounts: session_service::workspaces_of(state, &person.user_id).await?,
    })
}
