//! The team: listing members, invitations (GET /auth/invite, POST /auth/accept-invite),
//! disabling, enabling and role changes, their guard rails, history and workspace lists.
//!
//! Modules:
//! - `listing`: GET /team;
//! - `invites`: POST /team/invites and GET /auth/invite;
//! - `accept_invite`: POST /auth/accept-invite;
//! - `disable`: POST /team/{id}/disable;
//! - `enable`: POST /team/{id}/enable;
//! - `role`: POST /team/{id}/role;
//! - `keys`: a member's API keys name them as creator and stop when they are disabled;
//! - `history`: what team writes leave in history;
//! - `takeover`: what an invite link cannot do (the account-takeover attacks of issue 19).

use payback_domain::MINUTE_MS;
use payback_testkit::{Reply, Session, TEST_PASSWORD, TestApp, backend_tests};
use serde_json::{Value, json};

const OWNER: &str = "owner@example.com";

/// POST /team/invites through `token`, raw.
async fn invite_reply(app: &TestApp, token: &str, email: &str, role: Option<&str>) -> Reply {
    let body = match role {
        Some(role) => json!({ "email": email, "member_role": role }),
        None => json!({ "email": email }),
    };
    app.post("/team/invites", Some(token), body).await
}

/// Invites `email` and returns the successful invitation.
async fn invite(app: &TestApp, token: &str, email: &str, role: Option<&str>) -> Value {
    invite_reply(app, token, email, role)
        .await
        .expect(200)
        .clone()
}

/// The invite token: the last path segment of `{base_url}/#/invite/<token>`.
fn token_of(invite_url: &str) -> String {
    let (_, token) = invite_url
        .rsplit_once("/#/invite/")
        .unwrap_or_else(|| panic!("not an invite url: {invite_url}"));
    assert!(!token.is_empty() && !token.contains('/'), "{invite_url}");
    token.to_owned()
}

fn invite_token(invitation: &Value) -> String {
    token_of(invitation["invite_url"].as_str().unwrap())
}

async fn accept_reply(app: &TestApp, body: Value) -> Reply {
    app.post("/auth/accept-invite", None, body).await
}

async fn invite_info(app: &TestApp, token: &str) -> Reply {
    app.get(&format!("/auth/invite?token={token}"), None).await
}

/// Invites a brand-new email into the owner's account, accepts with [`TEST_PASSWORD`], and
/// returns the new member's session there.
async fn add_member(app: &TestApp, owner: &Session, email: &str, role: Option<&str>) -> Session {
    let invitation = invite(app, &owner.token, email, role).await;
    let reply = accept_reply(
        app,
        json!({ "token": invite_token(&invitation), "password": TEST_PASSWORD }),
    )
    .await;
    let body = reply.expect(200);
    assert_eq!(body["account"]["id"], owner.account_id.as_str());
    Session {
        token: body["token"].as_str().unwrap().to_owned(),
        email: email.to_owned(),
        account_id: owner.account_id.clone(),
        user_id: invitation["user_id"].as_str().unwrap().to_owned(),
    }
}

async fn team(app: &TestApp, token: &str) -> Vec<Value> {
    app.get("/team", Some(token))
        .await
        .expect(200)
        .as_array()
        .unwrap()
        .clone()
}

#[track_caller]
fn member<'a>(team: &'a [Value], email: &str) -> &'a Value {
    team.iter()
        .find(|m| m["email"] == email)
        .unwrap_or_else(|| panic!("{email} not in team {team:?}"))
}

async fn status_of(app: &TestApp, owner: &Session, email: &str) -> String {
    let team = team(app, &owner.token).await;
    member(&team, email)["status"].as_str().unwrap().to_owned()
}

async fn workspace_ids(app: &TestApp, token: &str) -> Vec<String> {
    app.get("/auth/accounts", Some(token))
        .await
        .expect(200)
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["id"].as_str().unwrap().to_owned())
        .collect()
}

async fn team_post(app: &TestApp, token: &str, id: &str, verb: &str) -> Reply {
    app.post(&format!("/team/{id}/{verb}"), Some(token), json!({}))
        .await
}

async fn set_role(app: &TestApp, token: &str, id: &str, role: &str) -> Reply {
    app.post(
        &format!("/team/{id}/role"),
        Some(token),
        json!({ "member_role": role }),
    )
    .await
}

fn is_uuid(text: &str) -> bool {
    uuid::Uuid::parse_str(text).is_ok()
}

mod accept_invite;
mod disable;
mod enable;
mod history;
mod invites;
mod keys;
mod listing;
mod role;
mod takeover;
