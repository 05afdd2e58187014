#![allow(clippy::unwrap_used)]
//! The team: listing members, invitations (GET /auth/invite, POST /auth/accept-invite),
//! disabling, enabling and role changes, their guard rails, history and workspace lists.

use payback_domain::{Clock, DAY_MS, MINUTE_MS};
use payback_testkit::{Reply, Session, TEST_PASSWORD, TestApp, backend_tests};
use serde_json::{Value, json};

const OWNER: &str = "owner@example.com";
const OTHER_PASSWORD: &str = "another fine password";

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

// ---------------------------------------------------------------------------------------------
// GET /team

async fn team_lists_the_owner_for_sessions_and_keys(app: TestApp) {
    let owner = app.signup_verified(OWNER).await;
    let members = team(&app, &owner.token).await;
    assert_eq!(members.len(), 1, "{members:?}");
    let me = &members[0];
    assert_eq!(me["id"], owner.user_id.as_str());
    assert!(is_uuid(me["id"].as_str().unwrap()));
    assert_eq!(me["email"], OWNER);
    assert_eq!(me["name"], Value::Null);
    assert_eq!(me["member_role"], "owner");
    assert_eq!(me["status"], "active");
    assert!(me["created_at"].as_str().is_some_and(|s| !s.is_empty()));
    assert!(
        me.get("last_seen_at").is_some(),
        "last_seen_at is always present"
    );

    // Any bearer may read the team: an API key sees the same list.
    let key = app.api_key(&owner).await;
    assert_eq!(team(&app, &key).await, members);

    app.get("/team", None).await.expect(401);
    app.get("/team", Some("svc_sess_nope")).await.expect(401);
}

async fn team_is_oldest_first_and_per_account(app: TestApp) {
    let owner = app.signup_verified(OWNER).await;
    app.clock.advance(MINUTE_MS);
    invite(&app, &owner.token, "zed@example.com", None).await;
    app.clock.advance(MINUTE_MS);
    invite(&app, &owner.token, "amy@example.com", None).await;
    let emails: Vec<_> = team(&app, &owner.token)
        .await
        .iter()
        .map(|m| m["email"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(emails, [OWNER, "zed@example.com", "amy@example.com"]);

    // Another account sees none of them.
    let stranger = app.signup_verified("stranger@example.com").await;
    let theirs = team(&app, &stranger.token).await;
    assert_eq!(theirs.len(), 1);
    assert_eq!(theirs[0]["email"], "stranger@example.com");
}

async fn team_shows_last_seen_after_activity(app: TestApp) {
    let owner = app.signup_verified(OWNER).await;
    let invitation = invite(&app, &owner.token, "seen@example.com", None).await;
    let members = team(&app, &owner.token).await;
    assert_eq!(
        member(&members, "seen@example.com")["last_seen_at"],
        Value::Null
    );

    let reply = accept_reply(
        &app,
        json!({ "token": invite_token(&invitation), "password": TEST_PASSWORD }),
    )
    .await;
    let token = reply.expect(200)["token"].as_str().unwrap().to_owned();
    // Accepting signs the invitee in, which counts as being seen.
    let accepted_at = app.clock.now().to_rfc3339();
    let members = team(&app, &owner.token).await;
    assert_eq!(
        member(&members, "seen@example.com")["last_seen_at"],
        accepted_at.as_str()
    );
    app.clock.advance(2 * MINUTE_MS);
    app.get("/auth/me", Some(&token)).await.expect(200);
    let seen_at = app.clock.now().to_rfc3339();
    let members = team(&app, &owner.token).await;
    assert_eq!(
        member(&members, "seen@example.com")["last_seen_at"],
        seen_at.as_str()
    );
}

// ---------------------------------------------------------------------------------------------
// POST /team/invites, GET /auth/invite

async fn invite_new_email_creates_passwordless_invitee(app: TestApp) {
    let owner = app.signup_verified(OWNER).await;
    // Later than the owner, so the invitee is listed second.
    app.clock.advance(MINUTE_MS);
    let invitation = invite(&app, &owner.token, "  New.Person@Example.COM ", None).await;
    assert_eq!(invitation["ok"], true);
    assert_eq!(invitation["expires_in_hours"], 168);
    assert_eq!(invitation["already_registered"], false);
    let user_id = invitation["user_id"].as_str().unwrap();
    assert!(is_uuid(user_id), "{invitation}");
    let url = invitation["invite_url"].as_str().unwrap();
    assert!(
        url.starts_with(&format!("{}/#/invite/", app.base_url)),
        "{url}"
    );
    let token = token_of(url);

    // The email is normalized; the invitee is listed as an invited member.
    let members = team(&app, &owner.token).await;
    assert_eq!(members.len(), 2);
    let invitee = &members[1];
    assert_eq!(invitee["id"], user_id);
    assert_eq!(invitee["email"], "new.person@example.com");
    assert_eq!(invitee["member_role"], "member");
    assert_eq!(invitee["status"], "invited");
    assert_eq!(invitee["name"], Value::Null);
    assert_eq!(invitee["last_seen_at"], Value::Null);

    // The link is mailed.
    let mail = app.last_mail_to("new.person@example.com");
    assert!(mail.subject.contains("owner"), "{}", mail.subject);
    assert_eq!(
        mail.link_starting_with(&format!("{}/#/invite/", app.base_url))
            .as_deref(),
        Some(url)
    );

    // Peeking describes the invite and does not consume it.
    for _ in 0..2 {
        let info = invite_info(&app, &token).await;
        assert_eq!(
            info.expect(200),
            &json!({
                "email": "new.person@example.com",
                "account_name": "owner",
                "needs_password": true,
            })
        );
    }

    // The invitee has no password: logging in is impossible until they accept.
    app.post(
        "/auth/login",
        None,
        json!({ "email": "new.person@example.com", "password": TEST_PASSWORD }),
    )
    .await
    .expect(401);
}

async fn invite_as_owner_role_then_accepting_grants_ownership(app: TestApp) {
    let owner = app.signup_verified(OWNER).await;
    let invitation = invite(&app, &owner.token, "co@example.com", Some("owner")).await;
    let members = team(&app, &owner.token).await;
    assert_eq!(member(&members, "co@example.com")["member_role"], "owner");
    assert_eq!(member(&members, "co@example.com")["status"], "invited");

    let reply = accept_reply(
        &app,
        json!({ "token": invite_token(&invitation), "password": TEST_PASSWORD }),
    )
    .await;
    let body = reply.expect(200);
    assert_eq!(body["account"]["member_role"], "owner");
    let co_token = body["token"].as_str().unwrap().to_owned();
    // An owner may invite.
    invite(&app, &co_token, "third@example.com", None).await;
}

async fn invite_existing_login_makes_pending_membership(app: TestApp) {
    let owner = app.signup_verified(OWNER).await;
    let existing = app.signup_verified("existing@example.com").await;
    // Workspaces are listed oldest membership first.
    app.clock.advance(MINUTE_MS);
    let invitation = invite(&app, &owner.token, "existing@example.com", None).await;
    assert_eq!(invitation["ok"], true);
    assert_eq!(invitation["already_registered"], true);
    assert_eq!(invitation["user_id"], existing.user_id.as_str());
    assert_eq!(invitation["expires_in_hours"], 168);
    let token = invite_token(&invitation);

    // Pending: listed as invited here, but not yet one of their workspaces.
    assert_eq!(
        status_of(&app, &owner, "existing@example.com").await,
        "invited"
    );
    assert_eq!(
        workspace_ids(&app, &existing.token).await,
        [existing.account_id.as_str()]
    );

    let info = invite_info(&app, &token).await;
    assert_eq!(
        info.expect(200),
        &json!({
            "email": "existing@example.com",
            "account_name": "owner",
            "needs_password": false,
        })
    );

    // No password needed; a password sent along does not replace theirs.
    let reply = accept_reply(&app, json!({ "token": token, "password": OTHER_PASSWORD })).await;
    let body = reply.expect(200).clone();
    assert!(body["token"].as_str().unwrap().starts_with("svc_sess_"));
    assert_eq!(body["account"]["id"], owner.account_id.as_str());
    assert_eq!(body["account"]["email"], "existing@example.com");
    assert_eq!(body["account"]["member_role"], "member");
    assert_eq!(body["account"]["account_name"], "owner");
    let listed: Vec<_> = body["accounts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["id"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(
        listed,
        [existing.account_id.as_str(), owner.account_id.as_str()]
    );

    // Both workspaces, from either session.
    let new_token = body["token"].as_str().unwrap();
    let accounts = app.get("/auth/accounts", Some(new_token)).await;
    assert_eq!(
        accounts.expect(200),
        &json!([
            { "id": existing.account_id, "name": "existing", "role": "customer", "member_role": "owner" },
            { "id": owner.account_id, "name": "owner", "role": "customer", "member_role": "member" },
        ])
    );
    assert_eq!(
        workspace_ids(&app, &existing.token).await,
        [existing.account_id.as_str(), owner.account_id.as_str()]
    );
    assert_eq!(
        status_of(&app, &owner, "existing@example.com").await,
        "active"
    );

    // Their own password still works; the one sent with the invite does not.
    app.login("existing@example.com").await;
    app.post(
        "/auth/login",
        None,
        json!({ "email": "existing@example.com", "password": OTHER_PASSWORD }),
    )
    .await
    .expect(401);
}

async fn invite_unverified_login_and_accepting_verifies_it(app: TestApp) {
    let owner = app.signup_verified(OWNER).await;
    app.post(
        "/auth/signup",
        None,
        json!({ "email": "pending@example.com", "password": TEST_PASSWORD }),
    )
    .await
    .expect(200);
    app.post(
        "/auth/login",
        None,
        json!({ "email": "pending@example.com", "password": TEST_PASSWORD }),
    )
    .await
    .expect(403);
    let invitation = invite(&app, &owner.token, "pending@example.com", None).await;
    assert_eq!(invitation["already_registered"], true);
    let reply = accept_reply(&app, json!({ "token": invite_token(&invitation) })).await;
    assert_eq!(reply.expect(200)["account"]["verified"], true);
    // Accepting proved the email: password login works now.
    app.login("pending@example.com").await;
}

async fn reinviting_an_invitee_issues_a_fresh_link(app: TestApp) {
    let owner = app.signup_verified(OWNER).await;
    let first = invite(&app, &owner.token, "again@example.com", None).await;
    let second = invite(&app, &owner.token, "again@example.com", Some("owner")).await;
    assert_eq!(first["user_id"], second["user_id"]);
    assert_eq!(second["already_registered"], false);
    assert_ne!(first["invite_url"], second["invite_url"]);

    // One membership, with the role of the newest invite.
    let members = team(&app, &owner.token).await;
    assert_eq!(members.len(), 2);
    assert_eq!(
        member(&members, "again@example.com")["member_role"],
        "owner"
    );
    assert_eq!(member(&members, "again@example.com")["status"], "invited");

    // Both links were mailed.
    let mailed: Vec<_> = app
        .mails()
        .into_iter()
        .filter(|m| m.to == "again@example.com")
        .map(|m| m.body)
        .collect();
    assert_eq!(mailed.len(), 2);
    for invitation in [&first, &second] {
        let url = invitation["invite_url"].as_str().unwrap();
        assert!(mailed.iter().any(|body| body.contains(url)), "{url}");
    }

    // The old link stopped working; the new one works.
    let old = invite_token(&first);
    invite_info(&app, &old)
        .await
        .expect_error(400, "invalid or expired");
    accept_reply(&app, json!({ "token": old, "password": TEST_PASSWORD }))
        .await
        .expect_error(400, "invalid or expired");
    let reply = accept_reply(
        &app,
        json!({ "token": invite_token(&second), "password": TEST_PASSWORD }),
    )
    .await;
    assert_eq!(reply.expect(200)["account"]["member_role"], "owner");
}

async fn invites_to_two_accounts_are_independent(app: TestApp) {
    let owner_a = app.signup_verified(OWNER).await;
    let owner_b = app.signup_verified("boss@example.com").await;
    let from_a = invite(&app, &owner_a.token, "both@example.com", None).await;
    app.clock.advance(MINUTE_MS);
    let from_b = invite(&app, &owner_b.token, "both@example.com", None).await;
    assert_eq!(from_a["user_id"], from_b["user_id"]);
    // A person created by an invite has no login yet.
    assert_eq!(from_b["already_registered"], false);
    // Re-inviting in A does not void B's link.
    let from_a = invite(&app, &owner_a.token, "both@example.com", None).await;

    let token_b = invite_token(&from_b);
    assert_eq!(
        invite_info(&app, &token_b).await.expect(200)["account_name"],
        "boss"
    );
    let reply = accept_reply(
        &app,
        json!({ "token": invite_token(&from_a), "password": TEST_PASSWORD }),
    )
    .await;
    assert_eq!(
        reply.expect(200)["account"]["id"],
        owner_a.account_id.as_str()
    );

    // Now they have a password: B's invite no longer needs one.
    assert_eq!(
        invite_info(&app, &token_b).await.expect(200)["needs_password"],
        false
    );
    let reply = accept_reply(&app, json!({ "token": token_b })).await;
    let body = reply.expect(200);
    assert_eq!(body["account"]["id"], owner_b.account_id.as_str());
    let token = body["token"].as_str().unwrap();
    assert_eq!(
        workspace_ids(&app, token).await,
        [owner_a.account_id.as_str(), owner_b.account_id.as_str()]
    );
}

async fn invite_errors(app: TestApp) {
    let owner = app.signup_verified(OWNER).await;
    let member = add_member(&app, &owner, "member@example.com", None).await;

    // Not an owner: a member's session, an API key (even one an owner made), the operator token.
    invite_reply(&app, &member.token, "x@example.com", None)
        .await
        .expect_error(403, "not an owner");
    let key = app.api_key(&owner).await;
    invite_reply(&app, &key, "x@example.com", None)
        .await
        .expect_error(403, "not an owner");
    invite_reply(&app, &app.operator_token, "x@example.com", None)
        .await
        .expect_error(403, "not an owner");
    invite_reply(&app, "svc_sess_unknown", "x@example.com", None)
        .await
        .expect(401);
    app.post("/team/invites", None, json!({ "email": "x@example.com" }))
        .await
        .expect(401);

    // Invalid input.
    for bad in [
        "not-an-email",
        "",
        "a b@example.com",
        "x@nodot",
        "@example.com",
    ] {
        invite_reply(&app, &owner.token, bad, None)
            .await
            .expect_error(400, "email");
    }
    app.post("/team/invites", Some(&owner.token), json!({}))
        .await
        .expect_error(400, "email");
    invite_reply(&app, &owner.token, "x@example.com", Some("admin"))
        .await
        .expect_error(400, "member_role");

    // Already a member: themselves, an accepted member (any spelling), a disabled member.
    invite_reply(&app, &owner.token, OWNER, None)
        .await
        .expect_error(409, "already a member");
    invite_reply(&app, &owner.token, "MEMBER@example.com", None)
        .await
        .expect_error(409, "already a member");
    team_post(&app, &owner.token, &member.user_id, "disable")
        .await
        .expect(200);
    invite_reply(&app, &owner.token, "member@example.com", None)
        .await
        .expect_error(409, "already a member");

    // None of the refusals created anyone or sent anything to x.
    let members = team(&app, &owner.token).await;
    assert_eq!(members.len(), 2, "{members:?}");
    assert!(app.mails().iter().all(|m| m.to != "x@example.com"));
}

// ---------------------------------------------------------------------------------------------
// POST /auth/accept-invite

async fn accept_invite_signs_in_a_new_person(app: TestApp) {
    let owner = app.signup_verified(OWNER).await;
    let invitation = invite(&app, &owner.token, "nina@example.com", None).await;
    let token = invite_token(&invitation);
    let user_id = invitation["user_id"].as_str().unwrap();

    let reply = accept_reply(
        &app,
        json!({ "token": token, "password": TEST_PASSWORD, "name": "  Nina Newcomer " }),
    )
    .await;
    let body = reply.expect(200).clone();
    let session = body["token"].as_str().unwrap();
    assert!(session.starts_with("svc_sess_"), "{body}");
    assert!(body["expires_at"].as_str().is_some(), "{body}");
    let account = &body["account"];
    assert_eq!(account["id"], owner.account_id.as_str());
    assert_eq!(account["email"], "nina@example.com");
    assert_eq!(account["role"], "customer");
    assert_eq!(account["member_role"], "member");
    assert_eq!(account["name"], "Nina Newcomer");
    assert_eq!(account["account_name"], "owner");
    assert_eq!(account["verified"], true);
    assert_eq!(
        body["accounts"],
        json!([{ "id": owner.account_id, "name": "owner", "role": "customer", "member_role": "member" }])
    );

    // The session works in the inviting account.
    let me = app.get("/auth/me", Some(session)).await;
    assert_eq!(me.expect(200)["id"], owner.account_id.as_str());
    assert_eq!(
        workspace_ids(&app, session).await,
        [owner.account_id.as_str()]
    );

    // Active, named, verified: they can log in with the chosen password.
    let members = team(&app, &owner.token).await;
    let nina = member(&members, "nina@example.com");
    assert_eq!(nina["id"], user_id);
    assert_eq!(nina["status"], "active");
    assert_eq!(nina["name"], "Nina Newcomer");
    let login = app.login("nina@example.com").await;
    assert_eq!(login.account_id, owner.account_id);

    // Single use.
    invite_info(&app, &token)
        .await
        .expect_error(400, "invalid or expired");
    accept_reply(&app, json!({ "token": token, "password": TEST_PASSWORD }))
        .await
        .expect_error(400, "invalid or expired");
}

async fn accept_invite_errors(app: TestApp) {
    let owner = app.signup_verified(OWNER).await;
    let invitation = invite(&app, &owner.token, "newbie@example.com", None).await;
    let token = invite_token(&invitation);

    // Password required when the invitee has none, and must be 10-200 characters.
    accept_reply(&app, json!({ "token": token }))
        .await
        .expect_error(400, "password");
    accept_reply(&app, json!({ "token": token, "password": null }))
        .await
        .expect_error(400, "password");
    accept_reply(&app, json!({ "token": token, "password": "123456789" }))
        .await
        .expect_error(400, "password");
    accept_reply(&app, json!({ "token": token, "password": "p".repeat(201) }))
        .await
        .expect_error(400, "password");
    // Name at most 80 characters.
    accept_reply(
        &app,
        json!({ "token": token, "password": TEST_PASSWORD, "name": "n".repeat(81) }),
    )
    .await
    .expect_error(400, "name");
    // Bad or missing tokens.
    accept_reply(&app, json!({ "token": "nope", "password": TEST_PASSWORD }))
        .await
        .expect_error(400, "invalid or expired");
    accept_reply(&app, json!({ "token": "", "password": TEST_PASSWORD }))
        .await
        .expect_error(400, "invalid or expired");
    accept_reply(&app, json!({ "password": TEST_PASSWORD }))
        .await
        .expect_error(400, "token");
    invite_info(&app, "nope")
        .await
        .expect_error(400, "invalid or expired");
    app.get("/auth/invite", None)
        .await
        .expect_error(400, "token");

    // None of the refusals consumed the token or changed the invitee.
    assert_eq!(
        invite_info(&app, &token).await.expect(200)["needs_password"],
        true
    );
    assert_eq!(
        status_of(&app, &owner, "newbie@example.com").await,
        "invited"
    );

    // Boundaries: a 200-character password and an 80-character name are fine.
    let long_password = "p".repeat(200);
    let reply = accept_reply(
        &app,
        json!({ "token": token, "password": long_password, "name": "n".repeat(80) }),
    )
    .await;
    assert_eq!(reply.expect(200)["account"]["name"], "n".repeat(80));
}

async fn accept_invite_expires_after_seven_days(app: TestApp) {
    let owner = app.signup_verified(OWNER).await;
    let invitation = invite(&app, &owner.token, "late@example.com", None).await;
    let token = invite_token(&invitation);

    app.clock.advance(7 * DAY_MS - 1);
    invite_info(&app, &token).await.expect(200);

    app.clock.advance(2);
    invite_info(&app, &token)
        .await
        .expect_error(400, "invalid or expired");
    accept_reply(&app, json!({ "token": token, "password": TEST_PASSWORD }))
        .await
        .expect_error(400, "invalid or expired");
    // The owner's session idled out meanwhile (7 days); sign in again.
    app.get("/team", Some(&owner.token)).await.expect(401);
    let owner = app.login(OWNER).await;
    assert_eq!(status_of(&app, &owner, "late@example.com").await, "invited");

    // A fresh invite works again.
    let invitation = invite(&app, &owner.token, "late@example.com", None).await;
    accept_reply(
        &app,
        json!({ "token": invite_token(&invitation), "password": TEST_PASSWORD }),
    )
    .await
    .expect(200);
    assert_eq!(status_of(&app, &owner, "late@example.com").await, "active");
}

// ---------------------------------------------------------------------------------------------
// POST /team/{id}/disable

async fn disable_revokes_sessions_at_once(app: TestApp) {
    let owner = app.signup_verified(OWNER).await;
    let member = add_member(&app, &owner, "member@example.com", None).await;
    let second = app.login("member@example.com").await;
    app.get("/auth/me", Some(&member.token)).await.expect(200);

    let reply = team_post(&app, &owner.token, &member.user_id, "disable").await;
    assert_eq!(reply.expect(200), &json!({ "ok": true }));

    // Every session of theirs in this account answers 401 immediately.
    app.get("/auth/me", Some(&member.token)).await.expect(401);
    app.get("/team", Some(&second.token)).await.expect(401);
    assert_eq!(
        status_of(&app, &owner, "member@example.com").await,
        "disabled"
    );
    // This was their only workspace: they cannot sign in anywhere.
    app.post(
        "/auth/login",
        None,
        json!({ "email": "member@example.com", "password": TEST_PASSWORD }),
    )
    .await
    .expect(403);
    // The owner is unaffected.
    app.get("/auth/me", Some(&owner.token)).await.expect(200);
}

async fn disable_keeps_other_workspaces(app: TestApp) {
    let owner = app.signup_verified(OWNER).await;
    let person = app.signup_verified("person@example.com").await;
    app.clock.advance(MINUTE_MS);
    let invitation = invite(&app, &owner.token, "person@example.com", None).await;
    let reply = accept_reply(&app, json!({ "token": invite_token(&invitation) })).await;
    let in_owner = reply.expect(200)["token"].as_str().unwrap().to_owned();
    assert_eq!(
        workspace_ids(&app, &person.token).await,
        [person.account_id.as_str(), owner.account_id.as_str()]
    );

    team_post(&app, &owner.token, &person.user_id, "disable")
        .await
        .expect(200);

    // The session in the owner's account is gone; the one in their own account lives on.
    app.get("/auth/me", Some(&in_owner)).await.expect(401);
    let me = app.get("/auth/me", Some(&person.token)).await;
    assert_eq!(me.expect(200)["id"], person.account_id.as_str());
    // The disabled membership disappears from the workspace list and cannot be switched to.
    assert_eq!(
        workspace_ids(&app, &person.token).await,
        [person.account_id.as_str()]
    );
    app.post(
        "/auth/switch-account",
        Some(&person.token),
        json!({ "account_id": owner.account_id }),
    )
    .await
    .expect(404);
    // Logging in lands in the workspace still open to them.
    assert_eq!(
        app.login("person@example.com").await.account_id,
        person.account_id
    );
}

async fn disable_another_owner_and_an_invitee(app: TestApp) {
    let owner = app.signup_verified(OWNER).await;
    let co = add_member(&app, &owner, "co@example.com", Some("owner")).await;
    let invitation = invite(&app, &owner.token, "invitee@example.com", None).await;

    // Two active owners: either may disable the other.
    team_post(&app, &co.token, &owner.user_id, "disable")
        .await
        .expect(200);
    app.get("/auth/me", Some(&owner.token)).await.expect(401);
    assert_eq!(status_of(&app, &co, OWNER).await, "disabled");

    // An invitee can be disabled before accepting.
    let invitee_id = invitation["user_id"].as_str().unwrap();
    team_post(&app, &co.token, invitee_id, "disable")
        .await
        .expect(200);
    assert_eq!(
        status_of(&app, &co, "invitee@example.com").await,
        "disabled"
    );
}

async fn disable_errors(app: TestApp) {
    let owner = app.signup_verified(OWNER).await;
    let member = add_member(&app, &owner, "member@example.com", None).await;
    let stranger = app.signup_verified("stranger@example.com").await;
    let stranger_member = add_member(&app, &stranger, "theirs@example.com", None).await;

    // Yourself (the last active owner, too).
    team_post(&app, &owner.token, &owner.user_id, "disable")
        .await
        .expect_error(400, "yourself");
    // Unknown ids and another account's people.
    team_post(
        &app,
        &owner.token,
        &uuid::Uuid::new_v4().to_string(),
        "disable",
    )
    .await
    .expect_error(404, "not found");
    team_post(&app, &owner.token, "not-a-uuid", "disable")
        .await
        .expect_error(404, "not found");
    team_post(&app, &owner.token, &stranger_member.user_id, "disable")
        .await
        .expect_error(404, "not found");
    team_post(&app, &owner.token, &stranger.user_id, "disable")
        .await
        .expect_error(404, "not found");
    // Not an owner.
    team_post(&app, &member.token, &owner.user_id, "disable")
        .await
        .expect_error(403, "not an owner");
    let key = app.api_key(&owner).await;
    team_post(&app, &key, &member.user_id, "disable")
        .await
        .expect_error(403, "not an owner");
    team_post(&app, &app.operator_token, &member.user_id, "disable")
        .await
        .expect_error(403, "not an owner");
    app.post(
        &format!("/team/{}/disable", member.user_id),
        None,
        json!({}),
    )
    .await
    .expect(401);

    // Nothing changed.
    assert_eq!(status_of(&app, &owner, OWNER).await, "active");
    assert_eq!(
        status_of(&app, &owner, "member@example.com").await,
        "active"
    );
    assert_eq!(
        status_of(&app, &stranger, "theirs@example.com").await,
        "active"
    );
    app.get("/auth/me", Some(&stranger_member.token))
        .await
        .expect(200);

    // Disabling twice.
    team_post(&app, &owner.token, &member.user_id, "disable")
        .await
        .expect(200);
    team_post(&app, &owner.token, &member.user_id, "disable")
        .await
        .expect_error(400, "already disabled");
}

async fn disabled_invitee_cannot_accept(app: TestApp) {
    let owner = app.signup_verified(OWNER).await;
    let invitation = invite(&app, &owner.token, "revoked@example.com", None).await;
    let token = invite_token(&invitation);
    let user_id = invitation["user_id"].as_str().unwrap();
    team_post(&app, &owner.token, user_id, "disable")
        .await
        .expect(200);

    // Disabling the invitee revokes the invitation: the link no longer lets them in.
    invite_info(&app, &token)
        .await
        .expect_error(400, "withdrawn");
    accept_reply(&app, json!({ "token": token, "password": TEST_PASSWORD }))
        .await
        .expect_error(400, "withdrawn");
    assert_eq!(
        status_of(&app, &owner, "revoked@example.com").await,
        "disabled"
    );
    // No session, no password, no verified login came of it.
    app.post(
        "/auth/login",
        None,
        json!({ "email": "revoked@example.com", "password": TEST_PASSWORD }),
    )
    .await
    .expect(401);

    // Enabled again, they are invited once more and a link lets them in.
    team_post(&app, &owner.token, user_id, "enable")
        .await
        .expect(200);
    assert_eq!(
        status_of(&app, &owner, "revoked@example.com").await,
        "invited"
    );
    // The refused attempt did not use the link up: it is live again for the 7 days.
    assert_eq!(
        invite_info(&app, &token).await.expect(200)["email"],
        "revoked@example.com"
    );
    // A fresh invite replaces it.
    let fresh = invite(&app, &owner.token, "revoked@example.com", None).await;
    invite_info(&app, &token)
        .await
        .expect_error(400, "invalid or expired");
    accept_reply(
        &app,
        json!({ "token": invite_token(&fresh), "password": TEST_PASSWORD }),
    )
    .await
    .expect(200);
    assert_eq!(
        status_of(&app, &owner, "revoked@example.com").await,
        "active"
    );
}

// ---------------------------------------------------------------------------------------------
// POST /team/{id}/enable

async fn enable_restores_the_previous_status(app: TestApp) {
    let owner = app.signup_verified(OWNER).await;
    let member = add_member(&app, &owner, "member@example.com", None).await;
    let invitation = invite(&app, &owner.token, "invitee@example.com", None).await;
    let invitee_id = invitation["user_id"].as_str().unwrap();
    for id in [member.user_id.as_str(), invitee_id] {
        team_post(&app, &owner.token, id, "disable")
            .await
            .expect(200);
    }

    // Accepted before: active again.
    let reply = team_post(&app, &owner.token, &member.user_id, "enable").await;
    assert_eq!(reply.expect(200), &json!({ "ok": true }));
    assert_eq!(
        status_of(&app, &owner, "member@example.com").await,
        "active"
    );
    // The revoked session stays revoked; signing in again works.
    app.get("/auth/me", Some(&member.token)).await.expect(401);
    let again = app.login("member@example.com").await;
    assert_eq!(again.account_id, owner.account_id);
    assert_eq!(
        workspace_ids(&app, &again.token).await,
        [owner.account_id.as_str()]
    );

    // Never accepted: back to invited.
    team_post(&app, &owner.token, invitee_id, "enable")
        .await
        .expect(200);
    assert_eq!(
        status_of(&app, &owner, "invitee@example.com").await,
        "invited"
    );
}

async fn enable_errors(app: TestApp) {
    let owner = app.signup_verified(OWNER).await;
    let member = add_member(&app, &owner, "member@example.com", None).await;
    let invitation = invite(&app, &owner.token, "invitee@example.com", None).await;
    let stranger = app.signup_verified("stranger@example.com").await;
    let theirs = add_member(&app, &stranger, "theirs@example.com", None).await;
    team_post(&app, &stranger.token, &theirs.user_id, "disable")
        .await
        .expect(200);

    // Not disabled: active members, invitees, yourself.
    team_post(&app, &owner.token, &member.user_id, "enable")
        .await
        .expect_error(400, "not disabled");
    team_post(
        &app,
        &owner.token,
        invitation["user_id"].as_str().unwrap(),
        "enable",
    )
    .await
    .expect_error(400, "not disabled");
    team_post(&app, &owner.token, &owner.user_id, "enable")
        .await
        .expect_error(400, "not disabled");
    // Unknown, or disabled in another account.
    team_post(
        &app,
        &owner.token,
        &uuid::Uuid::new_v4().to_string(),
        "enable",
    )
    .await
    .expect_error(404, "not found");
    team_post(&app, &owner.token, &theirs.user_id, "enable")
        .await
        .expect_error(404, "not found");
    assert_eq!(
        status_of(&app, &stranger, "theirs@example.com").await,
        "disabled"
    );

    // Not an owner.
    team_post(&app, &owner.token, &member.user_id, "disable")
        .await
        .expect(200);
    let other_member = add_member(&app, &owner, "other@example.com", None).await;
    team_post(&app, &other_member.token, &member.user_id, "enable")
        .await
        .expect_error(403, "not an owner");
    let key = app.api_key(&owner).await;
    team_post(&app, &key, &member.user_id, "enable")
        .await
        .expect_error(403, "not an owner");
    assert_eq!(
        status_of(&app, &owner, "member@example.com").await,
        "disabled"
    );
}

// ---------------------------------------------------------------------------------------------
// POST /team/{id}/role

async fn role_promotion_and_demotion_take_effect_at_once(app: TestApp) {
    let owner = app.signup_verified(OWNER).await;
    let member = add_member(&app, &owner, "member@example.com", None).await;
    invite_reply(&app, &member.token, "x@example.com", None)
        .await
        .expect_error(403, "not an owner");

    let reply = set_role(&app, &owner.token, &member.user_id, "owner").await;
    assert_eq!(reply.expect(200), &json!({ "ok": true }));
    let members = team(&app, &owner.token).await;
    assert_eq!(
        member_of(&members, "member@example.com"),
        ("owner", "active")
    );
    // The same session now acts as an owner.
    invite(&app, &member.token, "x@example.com", None).await;
    let me = app.get("/auth/me", Some(&member.token)).await;
    assert_eq!(me.expect(200)["member_role"], "owner");
    let accounts = app.get("/auth/accounts", Some(&member.token)).await;
    assert_eq!(accounts.expect(200)[0]["member_role"], "owner");

    // Two active owners: the original may step down, and then is no owner.
    set_role(&app, &owner.token, &owner.user_id, "member")
        .await
        .expect(200);
    invite_reply(&app, &owner.token, "y@example.com", None)
        .await
        .expect_error(403, "not an owner");
    let members = team(&app, &member.token).await;
    assert_eq!(member_of(&members, OWNER), ("member", "active"));

    // Setting the role a member already has is fine.
    set_role(&app, &member.token, &owner.user_id, "member")
        .await
        .expect(200);
}

fn member_of<'a>(team: &'a [Value], email: &str) -> (&'a str, &'a str) {
    let m = member(team, email);
    (
        m["member_role"].as_str().unwrap(),
        m["status"].as_str().unwrap(),
    )
}

async fn role_errors(app: TestApp) {
    let owner = app.signup_verified(OWNER).await;
    let member = add_member(&app, &owner, "member@example.com", None).await;
    let stranger = app.signup_verified("stranger@example.com").await;
    let theirs = add_member(&app, &stranger, "theirs@example.com", None).await;

    // The last active owner cannot be demoted, even with an owner merely invited.
    set_role(&app, &owner.token, &owner.user_id, "member")
        .await
        .expect_error(400, "last active owner");
    invite(
        &app,
        &owner.token,
        "pending-owner@example.com",
        Some("owner"),
    )
    .await;
    set_role(&app, &owner.token, &owner.user_id, "member")
        .await
        .expect_error(400, "last active owner");
    // An owner whose membership is disabled does not count either.
    let disabled_owner = add_member(&app, &owner, "former@example.com", Some("owner")).await;
    team_post(&app, &owner.token, &disabled_owner.user_id, "disable")
        .await
        .expect(200);
    set_role(&app, &owner.token, &owner.user_id, "member")
        .await
        .expect_error(400, "last active owner");

    // Invalid role values.
    set_role(&app, &owner.token, &member.user_id, "admin")
        .await
        .expect_error(400, "member_role");
    set_role(&app, &owner.token, &member.user_id, "Owner")
        .await
        .expect_error(400, "member_role");
    app.post(
        &format!("/team/{}/role", member.user_id),
        Some(&owner.token),
        json!({}),
    )
    .await
    .expect_error(400, "member_role");

    // Unknown, or another account's member.
    set_role(
        &app,
        &owner.token,
        &uuid::Uuid::new_v4().to_string(),
        "owner",
    )
    .await
    .expect_error(404, "not found");
    set_role(&app, &owner.token, &theirs.user_id, "owner")
        .await
        .expect_error(404, "not found");
    set_role(&app, &owner.token, &stranger.user_id, "member")
        .await
        .expect_error(404, "not found");

    // Not an owner.
    set_role(&app, &member.token, &member.user_id, "owner")
        .await
        .expect_error(403, "not an owner");
    let key = app.api_key(&owner).await;
    set_role(&app, &key, &member.user_id, "owner")
        .await
        .expect_error(403, "not an owner");
    set_role(&app, &app.operator_token, &member.user_id, "owner")
        .await
        .expect_error(403, "not an owner");

    // Nothing changed.
    let members = team(&app, &owner.token).await;
    assert_eq!(member_of(&members, OWNER), ("owner", "active"));
    assert_eq!(
        member_of(&members, "member@example.com"),
        ("member", "active")
    );
    let theirs_team = team(&app, &stranger.token).await;
    assert_eq!(
        member_of(&theirs_team, "theirs@example.com"),
        ("member", "active")
    );
    assert_eq!(
        member_of(&theirs_team, "stranger@example.com"),
        ("owner", "active")
    );
}

async fn owners_demoting_each_other_at_once_leave_one_owner(app: TestApp) {
    let owner = app.signup_verified(OWNER).await;
    let co = add_member(&app, &owner, "co@example.com", Some("owner")).await;
    let (a, b) = tokio::join!(
        set_role(&app, &owner.token, &co.user_id, "member"),
        set_role(&app, &co.token, &owner.user_id, "member"),
    );
    for reply in [&a, &b] {
        assert!(
            // 403 when the other demotion committed before this request's auth.
            [200, 400, 403].contains(&reply.status),
            "unexpected: {} {}",
            reply.status,
            reply.text
        );
    }
    let members = team(&app, &owner.token).await;
    let active_owners = members
        .iter()
        .filter(|m| m["member_role"] == "owner" && m["status"] == "active")
        .count();
    assert_eq!(active_owners, 1, "{members:?}; replies {a:?} {b:?}");
}

async fn owners_disabling_each_other_at_once_leave_one_owner(app: TestApp) {
    let owner = app.signup_verified(OWNER).await;
    let co = add_member(&app, &owner, "co@example.com", Some("owner")).await;
    let (a, b) = tokio::join!(
        team_post(&app, &owner.token, &co.user_id, "disable"),
        team_post(&app, &co.token, &owner.user_id, "disable"),
    );
    for reply in [&a, &b] {
        assert!(
            // 401 when the other disable revoked this session before its auth; 403 when it
            // committed while this request waited for the lock.
            [200, 400, 401, 403].contains(&reply.status),
            "unexpected: {} {}",
            reply.status,
            reply.text
        );
    }
    // Read the team straight from the store: both sessions may be gone.
    let scope = payback_store::AccountScope::trusted(owner.account_id.clone());
    let rows = payback_store::members::list(&app.state.store, &scope)
        .await
        .unwrap();
    let active_owners = rows
        .iter()
        .filter(|m| m.member_role == "owner" && m.status == "active")
        .count();
    assert_eq!(active_owners, 1, "{rows:?}; replies {a:?} {b:?}");
}

// ---------------------------------------------------------------------------------------------
// History

async fn team_writes_are_recorded_in_history(app: TestApp) {
    let owner = app.signup_verified(OWNER).await;
    let invitation = invite(&app, &owner.token, "hist@example.com", Some("owner")).await;
    let user_id = invitation["user_id"].as_str().unwrap().to_owned();
    accept_reply(
        &app,
        json!({ "token": invite_token(&invitation), "password": TEST_PASSWORD }),
    )
    .await
    .expect(200);
    set_role(&app, &owner.token, &user_id, "member")
        .await
        .expect(200);
    team_post(&app, &owner.token, &user_id, "disable")
        .await
        .expect(200);
    team_post(&app, &owner.token, &user_id, "enable")
        .await
        .expect(200);

    let events: Vec<Value> = app
        .history(&owner.token, "?days=30")
        .await
        .into_iter()
        .filter(|e| e["action"].as_str().unwrap().starts_with("team."))
        .collect();
    let actions: Vec<_> = events.iter().map(|e| e["action"].clone()).collect();
    // Newest first.
    assert_eq!(
        actions,
        [
            "team.enable",
            "team.disable",
            "team.role",
            "team.accept_invite",
            "team.invite"
        ]
    );
    for event in &events {
        assert_eq!(event["via"], "dashboard", "{event}");
        assert_eq!(event["subject_ref"], user_id.as_str(), "{event}");
        assert_eq!(event["product_slug"], Value::Null, "{event}");
        assert!(event["id"].is_i64(), "{event}");
        let expected_actor = if event["action"] == "team.accept_invite" {
            // The invitee accepts for themselves.
            "hist@example.com"
        } else {
            OWNER
        };
        assert_eq!(event["actor"], expected_actor, "{event}");
    }
    let by_action = |action: &str| events.iter().find(|e| e["action"] == action).unwrap();
    assert_eq!(
        by_action("team.invite")["payload"],
        json!({ "email": "hist@example.com", "member_role": "owner" })
    );
    let role = &by_action("team.role")["payload"];
    assert_eq!(role["from"], "owner");
    assert_eq!(role["to"], "member");
    assert_eq!(role["email"], "hist@example.com");
    let disable = &by_action("team.disable")["payload"];
    assert_eq!(disable["email"], "hist@example.com");
    assert_eq!(disable["sessions_revoked"], 1);
    assert_eq!(by_action("team.enable")["payload"]["status"], "active");

    // Another account's history holds none of it.
    let stranger = app.signup_verified("stranger@example.com").await;
    let theirs = app.history(&stranger.token, "?days=30").await;
    assert!(
        theirs
            .iter()
            .all(|e| !e["action"].as_str().unwrap().starts_with("team.")),
        "{theirs:?}"
    );
}

async fn refused_team_writes_record_nothing(app: TestApp) {
    let owner = app.signup_verified(OWNER).await;
    let member = add_member(&app, &owner, "member@example.com", None).await;
    let before = app.history(&owner.token, "?days=30").await.len();
    invite_reply(&app, &member.token, "x@example.com", None)
        .await
        .expect(403);
    invite_reply(&app, &owner.token, "member@example.com", None)
        .await
        .expect(409);
    team_post(&app, &owner.token, &owner.user_id, "disable")
        .await
        .expect(400);
    team_post(&app, &owner.token, &member.user_id, "enable")
        .await
        .expect(400);
    set_role(&app, &owner.token, &owner.user_id, "member")
        .await
        .expect(400);
    assert_eq!(app.history(&owner.token, "?days=30").await.len(), before);
}

// ---------------------------------------------------------------------------------------------

backend_tests!(
    team_lists_the_owner_for_sessions_and_keys,
    team_is_oldest_first_and_per_account,
    team_shows_last_seen_after_activity,
    invite_new_email_creates_passwordless_invitee,
    invite_as_owner_role_then_accepting_grants_ownership,
    invite_existing_login_makes_pending_membership,
    invite_unverified_login_and_accepting_verifies_it,
    reinviting_an_invitee_issues_a_fresh_link,
    invites_to_two_accounts_are_independent,
    invite_errors,
    accept_invite_signs_in_a_new_person,
    accept_invite_errors,
    accept_invite_expires_after_seven_days,
    disable_revokes_sessions_at_once,
    disable_keeps_other_workspaces,
    disable_another_owner_and_an_invitee,
    disable_errors,
    disabled_invitee_cannot_accept,
    enable_restores_the_previous_status,
    enable_errors,
    role_promotion_and_demotion_take_effect_at_once,
    role_errors,
    owners_demoting_each_other_at_once_leave_one_owner,
    owners_disabling_each_other_at_once_leave_one_owner,
    team_writes_are_recorded_in_history,
    refused_team_writes_record_nothing,
);
