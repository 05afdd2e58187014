//! POST /team/{id}/disable: sessions revoked at once, other workspaces kept, owners and invitees,
//! errors, disabled invitees.

use super::*;

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
    let reply = accept_reply(
        &app,
        json!({ "token": invite_token(&invitation), "password": TEST_PASSWORD }),
    )
    .await;
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

backend_tests!(
    disable_revokes_sessions_at_once,
    disable_keeps_other_workspaces,
    disable_another_owner_and_an_invitee,
    disable_errors,
    disabled_invitee_cannot_accept,
);
