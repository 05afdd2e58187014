//! POST /team/{id}/role: promotion and demotion at once, errors, owners racing to leave one owner.

use super::*;

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
    let rows = payback_store::members::list(&app.state.store, &scope, 500)
        .await
        .unwrap();
    let active_owners = rows
        .iter()
        .filter(|m| {
            m.member_role == payback_domain::MemberRole::Owner
                && m.status == payback_domain::MemberStatus::Active
        })
        .count();
    assert_eq!(active_owners, 1, "{rows:?}; replies {a:?} {b:?}");
}

backend_tests!(
    role_promotion_and_demotion_take_effect_at_once,
    role_errors,
    owners_demoting_each_other_at_once_leave_one_owner,
    owners_disabling_each_other_at_once_leave_one_owner,
);
