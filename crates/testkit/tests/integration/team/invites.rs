//! POST /team/invites and GET /auth/invite: new, existing and unverified invitees, re-invites,
//! independent accounts, errors.

use super::*;

const OTHER_PASSWORD: &str = "another fine password";

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

    // The link alone does not sign anyone in as an existing login (the inviter sees it too):
    // it takes their own password, as a login would, and a wrong one leaves the link usable.
    accept_reply(&app, json!({ "token": token }))
        .await
        .expect_error(400, "enter its password");
    accept_reply(&app, json!({ "token": token, "password": OTHER_PASSWORD }))
        .await
        .expect_error(400, "wrong password");
    let reply = accept_reply(&app, json!({ "token": token, "password": TEST_PASSWORD })).await;
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

    // Their own password still works; the wrong one tried above does not.
    app.login("existing@example.com").await;
    app.post(
        "/auth/login",
        None,
        json!({ "email": "existing@example.com", "password": OTHER_PASSWORD }),
    )
    .await
    .expect(401);
}

async fn invite_of_an_unverified_login_waits_for_verification(app: TestApp) {
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
    let token = invite_token(&invitation);
    // An invite link proves nothing about the mailbox (the inviter sees it): accepting waits,
    // as a login does, until the email is verified.
    accept_reply(&app, json!({ "token": token, "password": TEST_PASSWORD }))
        .await
        .expect_error(403, "not verified");
    let link = app
        .mails()
        .into_iter()
        .filter(|m| m.to == "pending@example.com")
        .find_map(|m| m.link_starting_with(&format!("{}/auth/verify?token=", app.base_url)))
        .unwrap();
    let verify_path = link.strip_prefix(&app.base_url).unwrap().to_owned();
    assert_eq!(app.get(&verify_path, None).await.status, 302);
    let reply = accept_reply(&app, json!({ "token": token, "password": TEST_PASSWORD })).await;
    assert_eq!(reply.expect(200)["account"]["verified"], true);
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

    // Now they have a password: B's invite takes that one rather than a new one.
    assert_eq!(
        invite_info(&app, &token_b).await.expect(200)["needs_password"],
        false
    );
    accept_reply(&app, json!({ "token": token_b }))
        .await
        .expect_error(400, "enter its password");
    let reply = accept_reply(&app, json!({ "token": token_b, "password": TEST_PASSWORD })).await;
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

backend_tests!(
    invite_new_email_creates_passwordless_invitee,
    invite_as_owner_role_then_accepting_grants_ownership,
    invite_existing_login_makes_pending_membership,
    invite_of_an_unverified_login_waits_for_verification,
    reinviting_an_invitee_issues_a_fresh_link,
    invites_to_two_accounts_are_independent,
    invite_errors,
);
