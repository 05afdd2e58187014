//! Response shapes shared by several endpoints (the spec's Account, Login response and
//! Workspace item).

use payback_domain::{AccountRole, MemberRole, Timestamp};
use payback_store::accounts::AccountRow;
use payback_store::members::WorkspaceRow;
use payback_store::users::UserRow;
use serde::Serialize;
use utoipa::ToSchema;

use crate::config::Config;

/// The spec's Account: the tenant seen by the authenticated person.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct AccountView {
    /// The account (tenant) id.
    pub id: String,
    /// The authenticated person's email.
    pub email: String,
    pub role: AccountRole,
    pub member_role: MemberRole,
    /// The person's name.
    pub name: Option<String>,
    /// Tenant display name.
    pub account_name: String,
    pub verified: bool,
    /// When the account was created.
    pub created_at: String,
    pub platform_admin: bool,
}

impl AccountView {
    pub fn new(
        account: &AccountRow,
        user: &UserRow,
        member_role: MemberRole,
        config: &Config,
    ) -> Self {
        Self {
            id: account.id.clone(),
            email: user.email.clone(),
            role: account.role(),
            member_role,
            name: user.name.clone(),
            account_name: account.name.clone(),
            verified: user.verified,
            created_at: Timestamp::from_millis(account.created_at).to_rfc3339(),
            platform_admin: config.is_staff(&user.email),
        }
    }
}

/// One of the person's workspaces (accepted, not disabled).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct WorkspaceItem {
    pub id: String,
    pub name: String,
    pub role: AccountRole,
    pub member_role: MemberRole,
}

impl From<WorkspaceRow> for WorkspaceItem {
    fn from(row: WorkspaceRow) -> Self {
        Self {
            id: row.account_id,
            name: row.name,
            role: row.role,
            member_role: row.member_role,
        }
    }
}

/// Answer of login, accept-invite, claim (and later sso complete).
/// No `Debug`: it carries the session token.
#[derive(Clone, Serialize, ToSchema)]
pub struct LoginResponse {
    /// Session bearer token `svc_sess_...`; expires after 7 idle days.
    pub token: String,
    pub expires_at: String,
    pub account: AccountView,
    pub accounts: Vec<WorkspaceItem>,
}

/// `{account, accounts}` after creating or switching a workspace.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct WorkspaceSwitch {
    pub account: AccountView,
    pub accounts: Vec<WorkspaceItem>,
}

/// `{ok: true}`
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Ok {
    pub ok: bool,
}

impl Ok {
    pub const YES: Ok = Ok { ok: true };
}

/// A `302 Found` redirect (axum's `Redirect` offers only 303, 307 and 308; the spec says 302).
pub fn found(location: &str) -> axum::response::Response {
    use axum::response::IntoResponse;
    (
        axum::http::StatusCode::FOUND,
        [(axum::http::header::LOCATION, location.to_owned())],
    )
        .into_response()
}
