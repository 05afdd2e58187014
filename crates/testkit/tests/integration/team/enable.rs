//! POST /team/{id}/enable: the previous status restored, and errors.

use super::*;

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

backend_tests!(enable_restores_the_previous_status, enable_errors,);
