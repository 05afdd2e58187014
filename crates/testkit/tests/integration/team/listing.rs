//! GET /team: members for sessions and keys, oldest first and per account, last seen.

use super::*;

use payback_domain::Clock;

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

backend_tests!(
    team_lists_the_owner_for_sessions_and_keys,
    team_is_oldest_first_and_per_account,
    team_shows_last_seen_after_activity,
);
