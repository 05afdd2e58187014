//! Login and logout, and session idle expiry: seven idle days end a session, use slides it.

use super::*;

async fn login_returns_token_and_account(app: TestApp) {
    let created = app.clock.now();
    let session = app.signup_verified("ann@example.com").await;
    app.clock.advance(MINUTE_MS);
    let now = app.clock.now();
    let reply = login_with(&app, " Ann@Example.COM ", TEST_PASSWORD).await;
    let body = reply.expect(200);

    let token = body["token"].as_str().unwrap();
    assert!(token.starts_with("svc_sess_"), "{token}");
    assert_eq!(token.len(), "svc_sess_".len() + 43);
    assert_ne!(token, session.token, "each login is a new session");
    assert_eq!(
        body["expires_at"],
        now.plus_millis(7 * DAY_MS).to_rfc3339(),
        "expires after 7 idle days"
    );
    assert_eq!(
        body["account"],
        json!({
            "id": session.account_id,
            "email": "ann@example.com",
            "role": "customer",
            "member_role": "owner",
            "name": null,
            "account_name": "ann",
            "verified": true,
            "created_at": created.to_rfc3339(),
            "platform_admin": false,
        })
    );
    assert_eq!(
        body["accounts"],
        json!([{ "id": session.account_id, "name": "ann", "role": "customer", "member_role": "owner" }])
    );
    assert!(
        body.get("is_new").is_none(),
        "is_new is omitted for email login"
    );

    let me = app.get("/auth/me", Some(token)).await;
    assert_eq!(me.expect(200), &body["account"]);
}

async fn login_rejects_bad_credentials_and_unverified(app: TestApp) {
    app.signup_verified("ann@example.com").await;
    let wrong = login_with(&app, "ann@example.com", "not the password").await;
    wrong.expect_error(401, "wrong");
    let unknown = login_with(&app, "nobody@example.com", TEST_PASSWORD).await;
    unknown.expect_error(401, "wrong");
    assert_eq!(
        wrong.body, unknown.body,
        "unknown email and wrong password answer alike"
    );
    let no_password = app
        .post("/auth/login", None, json!({ "email": "ann@example.com" }))
        .await;
    no_password.expect_error(401, "wrong");
    app.post("/auth/login", None, json!({ "password": TEST_PASSWORD }))
        .await
        .expect_error(400, "email");

    signup(&app, "una@example.com", TEST_PASSWORD)
        .await
        .expect(200);
    login_with(&app, "una@example.com", TEST_PASSWORD)
        .await
        .expect_error(403, "not verified");
    // The wrong password does not reveal that the address is unverified.
    login_with(&app, "una@example.com", "not the password")
        .await
        .expect_error(401, "wrong");
}

async fn logout_ends_only_that_session(app: TestApp) {
    let first = app.signup_verified("ann@example.com").await;
    let second = app.login("ann@example.com").await;

    let out = app
        .post("/auth/logout", Some(&first.token), json!({}))
        .await;
    assert_eq!(out.expect(200), &json!({ "ok": true }));
    assert_unauthorized_json(&app.get("/auth/me", Some(&first.token)).await);
    assert_unauthorized_json(
        &app.post("/auth/logout", Some(&first.token), json!({}))
            .await,
    );

    let me = app.get("/auth/me", Some(&second.token)).await;
    assert_eq!(me.expect(200)["email"], "ann@example.com");

    // Logout with no body at all works too.
    let out = app
        .request(Method::POST, "/auth/logout", Some(&second.token))
        .await;
    assert_eq!(out.expect(200), &json!({ "ok": true }));
    assert_unauthorized_json(&app.get("/auth/me", Some(&second.token)).await);
    assert_unauthorized_json(&app.request(Method::POST, "/auth/logout", None).await);
}

async fn session_expires_after_seven_idle_days(app: TestApp) {
    let ann = app.signup_verified("ann@example.com").await;
    app.clock.advance(7 * DAY_MS - MINUTE_MS);
    let fresh = app.login("ann@example.com").await;
    assert_eq!(
        app.get("/auth/me", Some(&ann.token)).await.status,
        200,
        "one minute short of 7 idle days still works"
    );
    // The use above slid the expiry; 7 idle days after it, the session is gone.
    app.clock.advance(7 * DAY_MS);
    let expired = app.get("/auth/me", Some(&ann.token)).await;
    assert_unauthorized_json(&expired);
    expired.expect_error(401, "expired");
    // And stays gone.
    app.get("/auth/me", Some(&ann.token))
        .await
        .expect_error(401, "session");
    // The other session was idle the same 7 days.
    assert_unauthorized_json(&app.get("/auth/me", Some(&fresh.token)).await);
    // Logging in again gives a working session.
    let again = app.login("ann@example.com").await;
    assert_eq!(app.get("/auth/me", Some(&again.token)).await.status, 200);
}

async fn session_use_slides_the_expiry(app: TestApp) {
    let ann = app.signup_verified("ann@example.com").await;
    app.clock.advance(6 * DAY_MS);
    assert_eq!(
        app.get("/auth/me", Some(&ann.token)).await.expect(200)["email"],
        "ann@example.com"
    );
    app.clock.advance(6 * DAY_MS);
    assert_eq!(
        app.get("/auth/keys", Some(&ann.token)).await.expect(200),
        &json!([]),
        "day 12, 6 days after the last use"
    );
    app.clock.advance(6 * DAY_MS);
    assert_eq!(
        app.get("/auth/me", Some(&ann.token)).await.expect(200)["email"],
        "ann@example.com"
    );
    app.clock.advance(7 * DAY_MS);
    assert_unauthorized_json(&app.get("/auth/me", Some(&ann.token)).await);
}

backend_tests!(
    login_returns_token_and_account,
    login_rejects_bad_credentials_and_unverified,
    logout_ends_only_that_session,
    session_expires_after_seven_idle_days,
    session_use_slides_the_expiry,
);
