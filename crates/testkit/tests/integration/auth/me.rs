//! GET /auth/me with sessions and API keys, the bearer rules, and POST /auth/me (name, password).

use super::*;

/// A GET with an arbitrary Authorization header value.
async fn get_with_authorization(app: &TestApp, path: &str, authorization: &str) -> Reply {
    let response = app
        .client
        .get(app.url(path))
        .header(reqwest::header::AUTHORIZATION, authorization)
        .send()
        .await
        .unwrap();
    Reply::read(response).await
}

async fn me_with_session_and_api_key(app: TestApp) {
    let ann = app.signup_verified("ann@example.com").await;
    let by_session = app.get("/auth/me", Some(&ann.token)).await;
    let account = by_session.expect(200).clone();
    assert_eq!(account["id"], ann.account_id.as_str());
    assert_eq!(account["email"], "ann@example.com");
    assert_eq!(account["member_role"], "owner");
    assert_eq!(account["role"], "customer");
    assert_eq!(account["verified"], true);

    let key = app.api_key(&ann).await;
    let by_key = app.get("/auth/me", Some(&key)).await;
    let key_account = by_key.expect(200);
    assert_eq!(key_account["id"], ann.account_id.as_str());
    assert_eq!(key_account["email"], "ann@example.com");
    assert_eq!(key_account["account_name"], account["account_name"]);
    assert_eq!(key_account["role"], "customer");
    // A key has a member's powers, never an owner's.
    assert_eq!(key_account["member_role"], "member");
}

async fn me_rejects_missing_and_invalid_bearers(app: TestApp) {
    app.signup_verified("ann@example.com").await;
    let missing = app.get("/auth/me", None).await;
    assert_unauthorized_json(&missing);
    missing.expect_error(401, "bearer");

    for header in [
        "Bearer garbage",
        "Bearer svc_sess_0000000000000000000000000000000000000000000",
        "Bearer svc_live_0000000000000000000000000000000000000000000",
        "Bearer svc_pub_0000000000000000000000000000000000000000000",
        "Bearer ",
        "Bearer",
        "Basic YW5uQGV4YW1wbGUuY29tOnBhc3N3b3Jk",
        "Token svc_sess_0000000000000000000000000000000000000000000",
    ] {
        let reply = get_with_authorization(&app, "/auth/me", header).await;
        assert_unauthorized_json(&reply);
    }
    // A real session token under a non-Bearer scheme is still refused.
    let session = app.login("ann@example.com").await;
    let reply = get_with_authorization(&app, "/auth/me", &format!("Basic {}", session.token)).await;
    assert_unauthorized_json(&reply);
    // The scheme is case-insensitive.
    let reply =
        get_with_authorization(&app, "/auth/me", &format!("bearer {}", session.token)).await;
    assert_eq!(reply.expect(200)["email"], "ann@example.com");
    // Other bearer endpoints answer the same way.
    assert_unauthorized_json(&app.get("/auth/keys", None).await);
    assert_unauthorized_json(&app.get("/auth/accounts", Some("garbage")).await);
    assert_unauthorized_json(&app.get("/portfolio", Some("svc_live_nope")).await);
}

async fn update_me_sets_and_clears_name(app: TestApp) {
    let ann = app.signup_verified("ann@example.com").await;
    let reply = app
        .post(
            "/auth/me",
            Some(&ann.token),
            json!({ "name": "Ann Example" }),
        )
        .await;
    let account = reply.expect(200);
    assert_eq!(account["name"], "Ann Example");
    assert_eq!(account["id"], ann.account_id.as_str());
    assert_eq!(account["email"], "ann@example.com");
    assert_eq!(
        app.get("/auth/me", Some(&ann.token)).await.expect(200)["name"],
        "Ann Example"
    );

    // Absent leaves the name alone: a password-only edit keeps it.
    let reply = app
        .post(
            "/auth/me",
            Some(&ann.token),
            json!({ "current_password": TEST_PASSWORD, "new_password": NEW_PASSWORD }),
        )
        .await;
    assert_eq!(reply.expect(200)["name"], "Ann Example");

    let cleared = app
        .post("/auth/me", Some(&ann.token), json!({ "name": null }))
        .await;
    assert_eq!(cleared.expect(200)["name"], Value::Null);
    assert_eq!(
        app.get("/auth/me", Some(&ann.token)).await.expect(200)["name"],
        Value::Null
    );

    app.post("/auth/me", Some(&ann.token), json!({}))
        .await
        .expect_error(400, "nothing to update");
    app.request(Method::POST, "/auth/me", Some(&ann.token))
        .await
        .expect_error(400, "nothing to update");
    app.post(
        "/auth/me",
        Some(&ann.token),
        json!({ "current_password": NEW_PASSWORD }),
    )
    .await
    .expect_error(400, "nothing to update");
    app.post(
        "/auth/me",
        Some(&ann.token),
        json!({ "name": "n".repeat(81) }),
    )
    .await
    .expect_error(400, "name");
    app.post("/auth/me", Some(&ann.token), json!({ "name": 5 }))
        .await
        .expect_error(400, "name");

    // An API key is no person: no profile to edit.
    let key = app.api_key(&ann).await;
    app.post("/auth/me", Some(&key), json!({ "name": "Keeper" }))
        .await
        .expect_error(400, "no person");
    app.post(
        "/auth/me",
        Some(&app.operator_token),
        json!({ "name": "Op" }),
    )
    .await
    .expect_error(400, "no person");
    assert_unauthorized_json(&app.post("/auth/me", None, json!({ "name": "x" })).await);

    let history = app.history(&ann.token, "?days=30&include=account").await;
    let edits: Vec<&Value> = history
        .iter()
        .filter(|e| e["action"] == "profile.update")
        .collect();
    assert_eq!(edits.len(), 3, "{history:?}");
    assert!(
        edits
            .iter()
            .all(|e| e["actor"] == "ann@example.com" && e["via"] == "dashboard")
    );
}

async fn password_change_revokes_other_sessions(app: TestApp) {
    let current = app.signup_verified("ann@example.com").await;
    let other = app.login("ann@example.com").await;
    let key = app.api_key(&current).await;

    app.post(
        "/auth/me",
        Some(&current.token),
        json!({ "new_password": NEW_PASSWORD }),
    )
    .await
    .expect_error(400, "current_password");
    app.post(
        "/auth/me",
        Some(&current.token),
        json!({ "current_password": "not the password", "new_password": NEW_PASSWORD }),
    )
    .await
    .expect_error(401, "current password");
    app.post(
        "/auth/me",
        Some(&current.token),
        json!({ "current_password": TEST_PASSWORD, "new_password": "short" }),
    )
    .await
    .expect_error(400, "new_password");
    app.post(
        "/auth/me",
        Some(&current.token),
        json!({ "current_password": TEST_PASSWORD, "new_password": "z".repeat(201) }),
    )
    .await
    .expect_error(400, "new_password");
    // Failed attempts changed nothing.
    assert_eq!(app.get("/auth/me", Some(&other.token)).await.status, 200);
    login_with(&app, "ann@example.com", NEW_PASSWORD)
        .await
        .expect_error(401, "wrong");

    let reply = app
        .post(
            "/auth/me",
            Some(&current.token),
            json!({ "current_password": TEST_PASSWORD, "new_password": NEW_PASSWORD }),
        )
        .await;
    let account = reply.expect(200);
    assert_eq!(account["email"], "ann@example.com");
    assert_eq!(account["id"], current.account_id.as_str());

    // The current session stays; the other one is revoked at once.
    assert_eq!(
        app.get("/auth/me", Some(&current.token)).await.expect(200)["email"],
        "ann@example.com"
    );
    assert_unauthorized_json(&app.get("/auth/me", Some(&other.token)).await);
    // API keys are account credentials, not the person's sessions: they keep working.
    assert_eq!(app.get("/auth/me", Some(&key)).await.status, 200);

    login_with(&app, "ann@example.com", TEST_PASSWORD)
        .await
        .expect_error(401, "wrong");
    let fresh = login_with(&app, "ann@example.com", NEW_PASSWORD).await;
    assert!(
        fresh.expect(200)["token"]
            .as_str()
            .unwrap()
            .starts_with("svc_sess_")
    );

    let history = app
        .history(&current.token, "?days=30&include=account")
        .await;
    let change = history
        .iter()
        .find(|e| e["action"] == "profile.update")
        .unwrap();
    assert_eq!(change["actor"], "ann@example.com");
    assert_eq!(change["payload"]["password_changed"], true);
    assert_eq!(change["payload"]["sessions_revoked"], 1);
}

backend_tests!(
    me_with_session_and_api_key,
    me_rejects_missing_and_invalid_bearers,
    update_me_sets_and_clears_name,
    password_change_revokes_other_sessions,
);
