//! POST /auth/accept-invite: signing a new person in, errors, expiry after seven days.

use super::*;

use payback_domain::DAY_MS;

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

backend_tests!(
    accept_invite_signs_in_a_new_person,
    accept_invite_errors,
    accept_invite_expires_after_seven_days,
);
