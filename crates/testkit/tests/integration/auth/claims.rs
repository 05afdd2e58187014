//! Claiming an agent-created account: the password and sign-in, link rotation, seven-day expiry.

use super::*;

use std::time::Duration;

use payback_server::crypto::Passwords;
use payback_testkit::Backend;

async fn claim_sets_password_and_signs_in(app: TestApp) {
    let created = app
        .post(
            "/auth/agent-signup",
            None,
            json!({ "email": "founder@example.com", "name": "Founder Co" }),
        )
        .await
        .expect(200)
        .clone();
    let account_id = created["account_id"].as_str().unwrap();
    let token = claim_token(&app, created["claim_url"].as_str().unwrap());
    let info_path = format!("/auth/claim?token={token}");

    // Showing the claim does not consume it. It lists the keys that can act for the account
    // now (the agent's, created by no person), so the human sees what to revoke.
    for _ in 0..2 {
        let info = app.get(&info_path, None).await;
        let body = info.expect(200);
        assert_eq!(body["email"], "founder@example.com");
        assert_eq!(body["account_name"], "Founder Co");
        let keys = body["api_keys"].as_array().unwrap();
        assert_eq!(keys.len(), 1, "{body}");
        assert_eq!(keys[0]["name"], "agent");
        assert_eq!(keys[0]["created_by"], Value::Null);
        let api_key = created["api_key"].as_str().unwrap();
        assert!(api_key.starts_with(keys[0]["prefix"].as_str().unwrap()));
    }
    app.get("/auth/claim?token=nope", None)
        .await
        .expect_error(400, "invalid");
    let missing = app.get("/auth/claim", None).await;
    assert_eq!(missing.status, 400, "{}", missing.text);
    assert!(missing.body["error"].is_string(), "{}", missing.text);

    // A short password is refused and leaves the token usable.
    app.post(
        "/auth/claim",
        None,
        json!({ "token": token, "password": "short" }),
    )
    .await
    .expect_error(400, "password");
    app.post(
        "/auth/claim",
        None,
        json!({ "token": token, "password": "p".repeat(201) }),
    )
    .await
    .expect_error(400, "password");
    app.post(
        "/auth/claim",
        None,
        json!({ "token": "nope", "password": TEST_PASSWORD }),
    )
    .await
    .expect_error(400, "invalid");
    assert_eq!(app.get(&info_path, None).await.status, 200);

    let claimed = app
        .post(
            "/auth/claim",
            None,
            json!({ "token": token, "password": TEST_PASSWORD }),
        )
        .await;
    let body = claimed.expect(200).clone();
    let session = body["token"].as_str().unwrap();
    assert!(session.starts_with("svc_sess_"), "{session}");
    assert!(body["expires_at"].is_string());
    assert_eq!(body["account"]["id"], account_id);
    assert_eq!(body["account"]["email"], "founder@example.com");
    assert_eq!(body["account"]["member_role"], "owner");
    assert_eq!(
        body["account"]["verified"], true,
        "a claim proves the email"
    );
    assert_eq!(
        body["accounts"],
        json!([{ "id": account_id, "name": "Founder Co", "role": "customer", "member_role": "owner" }])
    );
    assert_eq!(
        app.get("/auth/me", Some(session)).await.expect(200)["id"],
        account_id
    );

    // Used once only.
    app.post(
        "/auth/claim",
        None,
        json!({ "token": token, "password": NEW_PASSWORD }),
    )
    .await
    .expect_error(400, "invalid");
    app.get(&info_path, None).await.expect_error(400, "invalid");

    // The human now logs in with email and password; the reuse attempt changed nothing.
    let login = login_with(&app, "founder@example.com", TEST_PASSWORD).await;
    assert_eq!(login.expect(200)["account"]["id"], account_id);
    login_with(&app, "founder@example.com", NEW_PASSWORD)
        .await
        .expect_error(401, "wrong");
    // The agent's key keeps working after the human claims the account.
    let by_key = app
        .get("/auth/me", Some(created["api_key"].as_str().unwrap()))
        .await;
    assert_eq!(by_key.expect(200)["id"], account_id);
    assert_eq!(by_key.body["verified"], true);

    let history = app.history(session, "?days=30&include=account").await;
    let claim = history
        .iter()
        .find(|e| e["action"] == "account.claim")
        .unwrap();
    assert_eq!(claim["actor"], "founder@example.com");
    assert_eq!(claim["via"], "dashboard");
}

async fn claim_link_rotates_until_claimed(app: TestApp) {
    let created = agent_signup(&app, "founder@example.com").await;
    let key = created["api_key"].as_str().unwrap();
    let old_token = claim_token(&app, created["claim_url"].as_str().unwrap());

    app.clock.advance(DAY_MS);
    let now = app.clock.now();
    let fresh = app.post("/auth/claim-link", Some(key), json!({})).await;
    let body = fresh.expect(200).clone();
    let mut fields: Vec<&String> = body.as_object().unwrap().keys().collect();
    fields.sort();
    assert_eq!(fields, vec!["claim_url", "expires_at"]);
    let fresh_url = body["claim_url"].as_str().unwrap();
    let fresh_token = claim_token(&app, fresh_url);
    assert_ne!(fresh_token, old_token);
    assert_eq!(body["expires_at"], now.plus_millis(7 * DAY_MS).to_rfc3339());
    let prefix = format!("{}/#/claim/", app.base_url);
    assert!(
        mails_to(&app, "founder@example.com")
            .iter()
            .any(|m| m.link_starting_with(&prefix).as_deref() == Some(fresh_url)),
        "the fresh link is mailed to the owner"
    );

    // The older link stops working.
    app.get(&format!("/auth/claim?token={old_token}"), None)
        .await
        .expect_error(400, "invalid");
    app.post(
        "/auth/claim",
        None,
        json!({ "token": old_token, "password": TEST_PASSWORD }),
    )
    .await
    .expect_error(400, "invalid");

    // Without a body at all it works too, and rotates again.
    let third = app
        .request(Method::POST, "/auth/claim-link", Some(key))
        .await;
    let third_token = claim_token(&app, third.expect(200)["claim_url"].as_str().unwrap());
    app.get(&format!("/auth/claim?token={fresh_token}"), None)
        .await
        .expect_error(400, "invalid");

    let claimed = app
        .post(
            "/auth/claim",
            None,
            json!({ "token": third_token, "password": TEST_PASSWORD }),
        )
        .await;
    let session = claimed.expect(200)["token"].as_str().unwrap().to_owned();

    // Claimed: no more links, whoever asks.
    app.post("/auth/claim-link", Some(key), json!({}))
        .await
        .expect_error(409, "already claimed");
    app.post("/auth/claim-link", Some(&session), json!({}))
        .await
        .expect_error(409, "already claimed");
    assert_unauthorized_json(&app.post("/auth/claim-link", None, json!({})).await);

    // An ordinary sign-up account has a password from the start.
    let ann = app.signup_verified("ann@example.com").await;
    app.post("/auth/claim-link", Some(&ann.token), json!({}))
        .await
        .expect_error(409, "already claimed");
}

async fn claim_token_expires_after_seven_days(app: TestApp) {
    let created = agent_signup(&app, "founder@example.com").await;
    let token = claim_token(&app, created["claim_url"].as_str().unwrap());
    app.clock.advance(7 * DAY_MS - MINUTE_MS);
    assert_eq!(
        app.get(&format!("/auth/claim?token={token}"), None)
            .await
            .expect(200)["email"],
        "founder@example.com"
    );
    app.clock.advance(MINUTE_MS);
    app.get(&format!("/auth/claim?token={token}"), None)
        .await
        .expect_error(400, "expired");
    app.post(
        "/auth/claim",
        None,
        json!({ "token": token, "password": TEST_PASSWORD }),
    )
    .await
    .expect_error(400, "expired");
    // The key still works, and a fresh link can be had.
    let key = created["api_key"].as_str().unwrap();
    let fresh = app.post("/auth/claim-link", Some(key), json!({})).await;
    let fresh_token = claim_token(&app, fresh.expect(200)["claim_url"].as_str().unwrap());
    let claimed = app
        .post(
            "/auth/claim",
            None,
            json!({ "token": fresh_token, "password": TEST_PASSWORD }),
        )
        .await;
    assert_eq!(claimed.expect(200)["account"]["id"], created["account_id"]);
}

/// Tokens are checked before any password is hashed, and hashing has a bound. With the only
/// hashing slot held, made-up claim and invite tokens are refused at once (400: had they been
/// hashed for, they would have waited for the slot and answered 503), while calls that must hash
/// wait their turn and then answer 503.
async fn tokens_are_checked_before_any_hashing(backend: Backend) {
    let app = TestApp::spawn_custom(
        backend,
        |_| {},
        |state| state.passwords = Passwords::new(1, Duration::from_millis(300)),
    )
    .await;
    let created = agent_signup(&app, "founder@example.com").await;
    let token = claim_token(&app, created["claim_url"].as_str().unwrap());

    let held = app.state.passwords.slot().await.unwrap();
    for path in ["/auth/claim", "/auth/accept-invite"] {
        app.post(
            path,
            None,
            json!({ "token": "made-up", "password": TEST_PASSWORD }),
        )
        .await
        .expect_error(400, "invalid or expired");
    }
    app.post(
        "/auth/claim",
        None,
        json!({ "token": token, "password": TEST_PASSWORD }),
    )
    .await
    .expect_error(503, "try again");
    signup(&app, "someone@example.com", TEST_PASSWORD)
        .await
        .expect_error(503, "try again");

    drop(held);
    let claimed = app
        .post(
            "/auth/claim",
            None,
            json!({ "token": token, "password": TEST_PASSWORD }),
        )
        .await;
    assert_eq!(claimed.expect(200)["account"]["id"], created["account_id"]);
}

per_backend!(tokens_are_checked_before_any_hashing);

backend_tests!(
    claim_sets_password_and_signs_in,
    claim_link_rotates_until_claimed,
    claim_token_expires_after_seven_days,
);
