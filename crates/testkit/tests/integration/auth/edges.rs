//! Edges across endpoints: one-time token purposes, malformed ids and bodies, blank names,
//! unaccepted workspaces.

use super::*;

async fn one_time_tokens_work_only_for_their_purpose(app: TestApp) {
    signup(&app, "ann@example.com", TEST_PASSWORD)
        .await
        .expect(200);
    let verify_link = verify_links(&app, "ann@example.com").pop().unwrap();
    let verify_token = verify_link
        .strip_prefix(&format!("{}/auth/verify?token=", app.base_url))
        .unwrap()
        .to_owned();
    let created = agent_signup(&app, "founder@example.com").await;
    let claim = claim_token(&app, created["claim_url"].as_str().unwrap());

    // A claim token does not verify an email, and a verification token claims nothing.
    app.get(&format!("/auth/verify?token={claim}"), None)
        .await
        .expect_error(400, "invalid");
    app.get(&format!("/auth/claim?token={verify_token}"), None)
        .await
        .expect_error(400, "invalid");
    app.post(
        "/auth/claim",
        None,
        json!({ "token": verify_token, "password": NEW_PASSWORD }),
    )
    .await
    .expect_error(400, "invalid");
    // Nor is a session or API key a claim token.
    let key = created["api_key"].as_str().unwrap();
    app.post(
        "/auth/claim",
        None,
        json!({ "token": key, "password": NEW_PASSWORD }),
    )
    .await
    .expect_error(400, "invalid");

    // Both still work for what they are.
    assert_eq!(
        app.get(&path_of(&app, &verify_link), None).await.status,
        302
    );
    login_with(&app, "ann@example.com", NEW_PASSWORD)
        .await
        .expect_error(401, "wrong");
    let claimed = app
        .post(
            "/auth/claim",
            None,
            json!({ "token": claim, "password": TEST_PASSWORD }),
        )
        .await;
    assert_eq!(
        claimed.expect(200)["account"]["email"],
        "founder@example.com"
    );
}

async fn malformed_ids_and_bodies_answer_json_errors(app: TestApp) {
    let ann = app.signup_verified("ann@example.com").await;
    app.post("/auth/keys/not-a-uuid/revoke", Some(&ann.token), json!({}))
        .await
        .expect_error(404, "not found");
    app.post(
        "/auth/switch-account",
        Some(&ann.token),
        json!({ "account_id": "not-a-uuid" }),
    )
    .await
    .expect_error(404, "not found");
    app.post(
        "/auth/switch-account",
        Some(&ann.token),
        json!({ "account_id": 42 }),
    )
    .await
    .expect_error(400, "account_id");
    app.post_raw("/auth/login", None, "application/json", "{\"email\": ")
        .await
        .expect_error(400, "json");
    app.post_raw("/auth/signup", None, "application/json", "[1, 2]")
        .await
        .expect_error(400, "invalid type");
    app.post(
        "/auth/login",
        None,
        json!({ "email": 5, "password": TEST_PASSWORD }),
    )
    .await
    .expect_error(400, "email");
    // The session still works after all that.
    assert_eq!(
        app.get("/auth/me", Some(&ann.token)).await.expect(200)["id"],
        ann.account_id.as_str()
    );
}

async fn blank_name_clears_it(app: TestApp) {
    let ann = app.signup_verified("ann@example.com").await;
    let set = app
        .post("/auth/me", Some(&ann.token), json!({ "name": "  Ann  " }))
        .await;
    assert_eq!(set.expect(200)["name"], "Ann", "names are trimmed");
    let longest = "n".repeat(80);
    let at_limit = app
        .post("/auth/me", Some(&ann.token), json!({ "name": longest }))
        .await;
    assert_eq!(at_limit.expect(200)["name"], longest.as_str());
    // A blank name is no name: null, never an empty string.
    let blank = app
        .post("/auth/me", Some(&ann.token), json!({ "name": "   " }))
        .await;
    assert_eq!(blank.expect(200)["name"], Value::Null);
    assert_eq!(
        app.get("/auth/me", Some(&ann.token)).await.expect(200)["name"],
        Value::Null
    );
}

async fn invited_but_unaccepted_workspace_is_not_listed_or_switchable(app: TestApp) {
    let ann = app.signup_verified("ann@example.com").await;
    let bob = app.signup_verified("bob@example.com").await;
    let invite = app
        .post(
            "/team/invites",
            Some(&bob.token),
            json!({ "email": "ann@example.com" }),
        )
        .await;
    assert_eq!(invite.status, 200, "{}", invite.text);

    let listed = app.get("/auth/accounts", Some(&ann.token)).await;
    let ids: Vec<&str> = listed
        .expect(200)
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        vec![ann.account_id.as_str()],
        "invites are not memberships yet"
    );
    app.post(
        "/auth/switch-account",
        Some(&ann.token),
        json!({ "account_id": bob.account_id }),
    )
    .await
    .expect_error(404, "not found");
    let login = login_with(&app, "ann@example.com", TEST_PASSWORD).await;
    assert_eq!(
        login.expect(200)["accounts"].as_array().unwrap().len(),
        1,
        "the login response lists accepted memberships only"
    );
}

backend_tests!(
    one_time_tokens_work_only_for_their_purpose,
    malformed_ids_and_bodies_answer_json_errors,
    blank_name_clears_it,
    invited_but_unaccepted_workspace_is_not_listed_or_switchable,
);
