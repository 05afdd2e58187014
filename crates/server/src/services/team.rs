//! The team of an account: invitations, guard rails on disabling and demoting owners.

use payback_domain::validation::{
    PERSON_NAME_MAX_CHARS, check_email, check_length, check_one_line_field, check_password,
    normalize_email,
};
use payback_domain::{Actor, MemberRole, MemberStatus, Timestamp, Via};
use payback_store::members::MemberRow;
use payback_store::one_time_tokens::{self, Purpose};
use payback_store::users::NewUser;
use payback_store::{AccountScope, accounts, api_keys, members, sessions, users};
use serde::Serialize;
use serde_json::json;
use utoipa::ToSchema;

use crate::crypto::token_hash;
use crate::error::{ApiError, ApiResult};
use crate::mail::messages;
use crate::services::acting::{Caller, Person};
use crate::services::signup::LINK_VALIDITY_MS;
use crate::services::{audit, sessions as session_service, signup};
use crate::state::AppState;
use crate::views::LoginResponse;

/// The spec's Team member; `id` is the person's id.
#[derive(Debug, Serialize, ToSchema)]
pub struct TeamMember {
    pub id: String,
    pub email: String,
    pub name: Option<String>,
    pub member_role: MemberRole,
    pub status: MemberStatus,
    pub created_at: String,
    pub last_seen_at: Option<String>,
}

impl From<MemberRow> for TeamMember {
    fn from(row: MemberRow) -> Self {
        Self {
            member_role: row.role(),
            status: row.status(),
            id: row.user_id,
            email: row.email,
            name: row.name,
            created_at: Timestamp::from_millis(row.created_at).to_rfc3339(),
            last_seen_at: row
                .last_seen_at
                .map(|at| Timestamp::from_millis(at).to_rfc3339()),
        }
    }
}

/// The account's members, oldest first, at most `limit`.
pub async fn list(state: &AppState, caller: &Caller, limit: i64) -> ApiResult<Vec<TeamMember>> {
    Ok(members::list(&state.store, caller.scope()?, limit)
        .await?
        .into_iter()
        .map(TeamMember::from)
        .collect())
}

/// No `Debug`: the link is a bearer of the invitation.
#[derive(Serialize, ToSchema)]
pub struct Invitation {
    pub ok: bool,
    pub user_id: String,
    pub invite_url: String,
    pub expires_in_hours: i64,
    /// The email already had a login before this invitation.
    pub already_registered: bool,
}

/// Invites an email. A new email becomes a person without a password; an existing login gets a
/// pending membership. Inviting someone already invited issues a fresh link (the old one stops
/// working); an active or disabled member answers 409.
pub async fn invite(
    state: &AppState,
    caller: &Caller,
    owner: &Person,
    email: &str,
    role: MemberRole,
) -> ApiResult<Invitation> {
    let email = normalize_email(email);
    check_email(&email).map_err(|msg| ApiError::bad_request(format!("email: {msg}")))?;
    let scope = caller.scope()?;
    let now = state.clock.now();
    let mut tx = state.store.begin().await?;
    let existing = users::find_by_email_in(&mut tx, &email).await?;
    let already_registered = existing.as_ref().is_some_and(|u| u.password_hash.is_some());
    let user_id = match existing {
        Some(user) => {
            match members::find_in(&mut tx, scope, &user.id).await? {
                Some(member) if member.status() != MemberStatus::Invited => {
                    return Err(ApiError::Conflict(
                        "already a member of this account".to_owned(),
                    ));
                }
                Some(_) => members::set_role(&mut tx, scope, &user.id, role).await?,
                None => {
                    members::insert(&mut tx, scope, &user.id, role, MemberStatus::Invited, now)
                        .await?
                }
            }
            user.id
        }
        None => {
            let new_user = NewUser {
                email: &email,
                password_hash: None,
                name: None,
                verified: false,
                mailbox_proven: false,
                signup_meta: None,
            };
            let user_id = users::insert(&mut tx, new_user, now).await?;
            members::insert(&mut tx, scope, &user_id, role, MemberStatus::Invited, now).await?;
            user_id
        }
    };
    let (token, _) = signup::mint_link_token(
        &mut tx,
        Purpose::Invite,
        &user_id,
        Some(scope.account_id()),
        now,
    )
    .await?;
    let payload = json!({ "email": email, "member_role": role });
    audit::record_account(
        &mut tx,
        &caller.actor(),
        scope.account_id(),
        "team.invite",
        Some(&user_id),
        payload,
        now,
    )
    .await?;
    tx.commit().await?;
    let account = accounts::find(&state.store, scope.account_id())
        .await?
        .ok_or_else(|| ApiError::not_found("account"))?;
    let invite_url = format!("{}/#/invite/{token}", state.config.public_url());
    state
        .mailer
        .send(messages::invite(
            &email,
            &account.name,
            &owner.email,
            &invite_url,
        ))
        .await;
    Ok(Invitation {
        ok: true,
        user_id,
        invite_url,
        expires_in_hours: LINK_VALIDITY_MS / payback_domain::HOUR_MS,
        already_registered,
    })
}

#[derive(Debug, Serialize, ToSchema)]
pub struct InviteInfo {
    pub email: String,
    pub account_name: String,
    /// True when the invitee has no password yet and must choose one to accept.
    pub needs_password: bool,
}

/// What an invite is for; the token is not consumed.
pub async fn invite_info(state: &AppState, token: &str) -> ApiResult<InviteInfo> {
    let (user, account) =
        signup::peek_link(state, token, Purpose::Invite, "invalid or expired invite").await?;
    let account_id = account.id.clone();
    let member = members::find(&state.store, &AccountScope::trusted(account_id), &user.id).await?;
    ensure_still_invited(member.as_ref())?;
    Ok(InviteInfo {
        email: user.email,
        account_name: account.name,
        needs_password: user.password_hash.is_none(),
    })
}

/// An invite link only admits someone whose membership is still `invited`: disabling an invitee
/// withdraws the invitation even though their link has not expired.
fn ensure_still_invited(member: Option<&MemberRow>) -> ApiResult<()> {
    match member {
        Some(member) if member.status() == MemberStatus::Invited => Ok(()),
        _ => Err(ApiError::bad_request(
            "token: this invitation was withdrawn by the workspace owner",
        )),
    }
}

/// How an invitee proves who they are when accepting.
enum Admission {
    /// A person this invite created, who belongs nowhere else, chooses their first password.
    NewPassword(String),
    /// Someone who already has a password typed it: as good as a login.
    KnownPassword,
}

/// Accepts an invite: the membership becomes active and a session in the inviting account is
/// returned.
///
/// The invite link is seen by the inviter as well as the invitee, so it grants membership in the
/// inviting account and nothing else. It sets a password only for a person with none who
/// belongs to no other account (someone this invitation brought in); anyone who already has a
/// password must type it, as at login; and someone with another account but no password (an
/// agent-created account not claimed yet) must claim it or sign up first. It never proves the
/// email: the owner of the mailbox can still sign up and set their own password.
pub async fn accept_invite(
    state: &AppState,
    token: &str,
    password: Option<String>,
    name: Option<String>,
) -> ApiResult<LoginResponse> {
    if let Some(name) = &name {
        check_length(name, 0, PERSON_NAME_MAX_CHARS)
            .map_err(|msg| ApiError::bad_request(format!("name: {msg}")))?;
        check_one_line_field("name", name).map_err(ApiError::bad_request)?;
    }
    if let Some(password) = &password {
        check_password(password)
            .map_err(|msg| ApiError::bad_request(format!("password: {msg}")))?;
    }
    let now = state.clock.now();
    let hash = token_hash(token);
    let peeked = one_time_tokens::peek(&state.store, &hash, Purpose::Invite, now)
        .await?
        .ok_or_else(|| ApiError::bad_request("token: invalid or expired invite"))?;
    let account_id = peeked
        .account_id
        .ok_or_else(|| ApiError::internal("invite token without account"))?;
    let invitee = users::find(&state.store, &peeked.user_id)
        .await?
        .ok_or_else(|| ApiError::not_found("person"))?;
    let admission = admit(state, &invitee, &account_id, password).await?;
    let mut tx = state.store.begin().await?;
    let row = one_time_tokens::consume(&mut tx, &hash, Purpose::Invite, now)
        .await?
        .ok_or_else(|| ApiError::bad_request("token: invalid or expired invite"))?;
    let scope = AccountScope::trusted(account_id.clone());
    // Dropping `tx` on any error below rolls the consumption back: the link works again.
    ensure_still_invited(
        members::find_in(&mut tx, &scope, &row.user_id)
            .await?
            .as_ref(),
    )?;
    // Read again under the transaction: a verification link or a claim may have set a
    // password, or another membership may have been accepted, since the checks above.
    let current = users::find_in(&mut tx, &row.user_id)
        .await?
        .ok_or_else(|| ApiError::not_found("person"))?;
    if current.password_hash != invitee.password_hash
        || (matches!(admission, Admission::NewPassword(_))
            && members::belongs_elsewhere((&mut tx).into(), &row.user_id, &account_id).await?)
    {
        return Err(ApiError::Conflict(
            "this login changed while accepting; open the invite again".to_owned(),
        ));
    }
    if let Admission::NewPassword(new_hash) = &admission {
        users::set_password_hash(&mut tx, &row.user_id, new_hash).await?;
        // They may sign in with it from now on; their mailbox is still not proven.
        users::set_verified(&mut tx, &row.user_id).await?;
    }
    if let Some(name) = name.as_deref().map(str::trim).filter(|n| !n.is_empty()) {
        users::set_name(&mut tx, &row.user_id, Some(name)).await?;
    }
    members::accept(&mut tx, &scope, &row.user_id, now).await?;
    let session = session_service::open_session(&mut tx, &row.user_id, &account_id, now).await?;
    let actor = Actor::human(invitee.email.clone(), Via::Dashboard);
    audit::record_account(
        &mut tx,
        &actor,
        &account_id,
        "team.accept_invite",
        Some(&row.user_id),
        json!({}),
        now,
    )
    .await?;
    tx.commit().await?;
    session_service::login_response(state, session, &row.user_id, &account_id).await
}

/// Decides how the invitee proves who they are; see [`accept_invite`] for the rule.
async fn admit(
    state: &AppState,
    invitee: &users::UserRow,
    account_id: &str,
    password: Option<String>,
) -> ApiResult<Admission> {
    match &invitee.password_hash {
        None => {
            if members::belongs_elsewhere((&state.store).into(), &invitee.id, account_id).await? {
                return Err(ApiError::bad_request(
                    "token: this email already has a Payback account that is not claimed yet; \
                     claim it from the link mailed to you, or sign up with this email to set a \
                     password, then open this invite again",
                ));
            }
            let password = password.ok_or_else(|| {
                ApiError::bad_request(
                    "password: required to accept this invite (10-200 characters)",
                )
            })?;
            Ok(Admission::NewPassword(
                state.passwords.hash(password).await?,
            ))
        }
        Some(stored) => {
            let password = password.ok_or_else(|| {
                ApiError::bad_request(
                    "password: this email already has a Payback login; enter its password to \
                     accept (no password yet? sign up with this email to set one)",
                )
            })?;
            if !state.passwords.verify(password, stored.clone()).await? {
                return Err(ApiError::bad_request(
                    "password: wrong password for this email",
                ));
            }
            if !invitee.verified {
                return Err(ApiError::Forbidden(
                    "email not verified: open the confirmation link we sent you".to_owned(),
                ));
            }
            Ok(Admission::KnownPassword)
        }
    }
}

/// Locks the account's memberships for an owner-removing change and checks, under the lock,
/// that the caller is still an active owner (a concurrent request may have just demoted or
/// disabled them).
async fn lock_as_owner(
    tx: &mut payback_store::Tx,
    scope: &AccountScope,
    owner: &Person,
) -> ApiResult<()> {
    members::lock_account(tx, scope).await?;
    match members::find_in(tx, scope, &owner.user_id).await? {
        Some(me) if me.role() == MemberRole::Owner && me.status() == MemberStatus::Active => Ok(()),
        _ => Err(ApiError::Forbidden("Not an owner".to_owned())),
    }
}

/// Loads the member or answers 404; the guard rails read it inside the same transaction.
async fn member_or_404(
    tx: &mut payback_store::Tx,
    scope: &AccountScope,
    user_id: &str,
) -> ApiResult<MemberRow> {
    members::find_in(tx, scope, user_id)
        .await?
        .ok_or_else(|| ApiError::not_found("member"))
}

/// Disables a member and revokes their sessions in this account and the API keys they created
/// there, at once. You cannot disable yourself, nor the last active owner.
pub async fn disable(
    state: &AppState,
    caller: &Caller,
    owner: &Person,
    user_id: &str,
) -> ApiResult<()> {
    let scope = caller.scope()?;
    let now = state.clock.now();
    let mut tx = state.store.begin().await?;
    lock_as_owner(&mut tx, scope, owner).await?;
    let member = member_or_404(&mut tx, scope, user_id).await?;
    if user_id == owner.user_id {
        return Err(ApiError::bad_request("you cannot disable yourself"));
    }
    if member.status() == MemberStatus::Disabled {
        return Err(ApiError::bad_request("member is already disabled"));
    }
    if member.role() == MemberRole::Owner
        && member.status() == MemberStatus::Active
        && members::count_active_owners(&mut tx, scope).await? <= 1
    {
        return Err(ApiError::bad_request(
            "the last active owner cannot be disabled",
        ));
    }
    members::set_status(&mut tx, scope, user_id, MemberStatus::Disabled).await?;
    let revoked = sessions::delete_for_member(&mut tx, user_id, scope.account_id()).await?;
    // Keys they created (or their keys minted) go too, for good: enabling them again does not
    // bring a key back.
    let keys_revoked = api_keys::revoke_created_by(&mut tx, scope, user_id, now).await?;
    let payload = json!({
        "email": member.email,
        "sessions_revoked": revoked,
        "keys_revoked": keys_revoked,
    });
    audit::record_account(
        &mut tx,
        &caller.actor(),
        scope.account_id(),
        "team.disable",
        Some(user_id),
        payload,
        now,
    )
    .await?;
    tx.commit().await?;
    Ok(())
}

/// Enables a disabled member: `active` again if they had accepted, otherwise back to `invited`.
pub async fn enable(state: &AppState, caller: &Caller, user_id: &str) -> ApiResult<MemberStatus> {
    let scope = caller.scope()?;
    let now = state.clock.now();
    let mut tx = state.store.begin().await?;
    let member = member_or_404(&mut tx, scope, user_id).await?;
    if member.status() != MemberStatus::Disabled {
        return Err(ApiError::bad_request("member is not disabled"));
    }
    let status = if member.accepted_at.is_some() {
        MemberStatus::Active
    } else {
        MemberStatus::Invited
    };
    members::set_status(&mut tx, scope, user_id, status).await?;
    let payload = json!({ "email": member.email, "status": status });
    audit::record_account(
        &mut tx,
        &caller.actor(),
        scope.account_id(),
        "team.enable",
        Some(user_id),
        payload,
        now,
    )
    .await?;
    tx.commit().await?;
    Ok(status)
}

/// Changes a member's role; the last active owner cannot be demoted.
pub async fn set_role(
    state: &AppState,
    caller: &Caller,
    owner: &Person,
    user_id: &str,
    role: MemberRole,
) -> ApiResult<()> {
    let scope = caller.scope()?;
    let now = state.clock.now();
    let mut tx = state.store.begin().await?;
    lock_as_owner(&mut tx, scope, owner).await?;
    let member = member_or_404(&mut tx, scope, user_id).await?;
    let demoting_active_owner = member.role() == MemberRole::Owner
        && role != MemberRole::Owner
        && member.status() == MemberStatus::Active;
    if demoting_active_owner && members::count_active_owners(&mut tx, scope).await? <= 1 {
        return Err(ApiError::bad_request(
            "the last active owner cannot be demoted",
        ));
    }
    members::set_role(&mut tx, scope, user_id, role).await?;
    let payload = json!({ "email": member.email, "from": member.role(), "to": role });
    audit::record_account(
        &mut tx,
        &caller.actor(),
        scope.account_id(),
        "team.role",
        Some(user_id),
        payload,
        now,
    )
    .await?;
    tx.commit().await?;
    Ok(())
}
