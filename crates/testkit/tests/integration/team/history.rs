//! Team writes are recorded in history; refused ones record nothing.

use super::*;

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
        .history(&owner.token, "?days=30&include=account")
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
    let theirs = app
        .history(&stranger.token, "?days=30&include=account")
        .await;
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
    let before = app
        .history(&owner.token, "?days=30&include=account")
        .await
        .len();
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
    assert_eq!(
        app.history(&owner.token, "?days=30&include=account")
            .await
            .len(),
        before
    );
}

backend_tests!(
    team_writes_are_recorded_in_history,
    refused_team_writes_record_nothing,
);
