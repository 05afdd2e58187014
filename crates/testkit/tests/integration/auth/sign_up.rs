//! Sign-up and verification: the verification mail, identical answers, validation, bad tokens.

use super::*;

async fn signup_sends_verification_then_verify_enables_login(app: TestApp) {
    let reply = signup(&app, "ann@example.com", TEST_PASSWORD).await;
    assert_eq!(reply.expect(200), &signup_ok());

    let mails = mails_to(&app, "ann@example.com");
    assert_eq!(mails.len(), 1, "one verification mail");
    let links = verify_links(&app, "ann@example.com");
    assert_eq!(links.len(), 1);
    let token = links[0]
        .strip_prefix(&format!("{}/auth/verify?token=", app.base_url))
        .unwrap();
    assert!(token.len() >= 32, "token {token:?} looks too short");

    // Not verified yet: the right password answers 403.
    login_with(&app, "ann@example.com", TEST_PASSWORD)
        .await
        .expect_error(403, "verified");

    let verify = app.get(&path_of(&app, &links[0]), None).await;
    assert_eq!(verify.status, 302, "verify: {}", verify.text);
    assert_eq!(
        verify.header("location"),
        Some(format!("{}/#/login?verified=1", app.base_url).as_str())
    );

    let body = login_with(&app, "ann@example.com", TEST_PASSWORD)
        .await
        .expect(200)
        .clone();
    assert_eq!(body["account"]["email"], "ann@example.com");
    assert_eq!(body["account"]["verified"], true);
}

async fn signup_answers_identically_for_registered_emails(app: TestApp) {
    let first = signup(&app, "ann@example.com", TEST_PASSWORD).await;
    assert_eq!(first.expect(200), &signup_ok());
    let first_link = verify_links(&app, "ann@example.com").pop().unwrap();

    // Unverified and registered: the same body, and a fresh link carrying this sign-up's
    // password. Nobody has proven the mailbox yet, so each link sets the password of the
    // sign-up that asked for it when the mailbox owner opens it (a stranger who signed up with
    // the address first cannot choose the owner's password); opening one voids the others.
    let again = signup(&app, "ann@example.com", "another password entirely").await;
    assert_eq!(again.status, first.status);
    assert_eq!(again.text, first.text);
    let links = verify_links(&app, "ann@example.com");
    assert_eq!(links.len(), 2, "a fresh link is mailed");
    let fresh = links.into_iter().find(|l| *l != first_link).unwrap();
    assert_eq!(app.get(&path_of(&app, &first_link), None).await.status, 302);
    app.get(&path_of(&app, &fresh), None)
        .await
        .expect_error(400, "invalid");

    // The link opened set its sign-up's password.
    login_with(&app, "ann@example.com", "another password entirely")
        .await
        .expect_error(401, "wrong");
    login_with(&app, "ann@example.com", TEST_PASSWORD)
        .await
        .expect(200);

    // Verified and registered: still the same body, no mail, password untouched.
    let mails_before = app.mails().len();
    let verified_again = signup(&app, "ANN@example.com", "yet another password!").await;
    assert_eq!(verified_again.status, first.status);
    assert_eq!(verified_again.text, first.text);
    assert_eq!(
        app.mails().len(),
        mails_before,
        "no mail for a verified login"
    );
    login_with(&app, "ann@example.com", "yet another password!")
        .await
        .expect_error(401, "wrong");
    login_with(&app, "ann@example.com", TEST_PASSWORD)
        .await
        .expect(200);
}

async fn signup_validates_email_and_password_length(app: TestApp) {
    for email in [
        "not-an-email",
        "",
        "ann@localhost",
        "ann @example.com",
        "@example.com",
    ] {
        signup(&app, email, TEST_PASSWORD)
            .await
            .expect_error(400, "email");
    }
    signup(&app, "short@example.com", &"x".repeat(9))
        .await
        .expect_error(400, "password");
    signup(&app, "long@example.com", &"x".repeat(201))
        .await
        .expect_error(400, "password");
    app.post("/auth/signup", None, json!({ "email": "nopw@example.com" }))
        .await
        .expect_error(400, "password");
    app.post("/auth/signup", None, json!({ "password": TEST_PASSWORD }))
        .await
        .expect_error(400, "email");
    assert!(app.mails().is_empty(), "rejected sign-ups send no mail");

    // The boundaries are accepted (lengths count characters, not bytes).
    assert_eq!(
        signup(&app, "ten@example.com", &"é".repeat(10))
            .await
            .expect(200),
        &signup_ok()
    );
    assert_eq!(
        signup(&app, "twohundred@example.com", &"y".repeat(200))
            .await
            .expect(200),
        &signup_ok()
    );
    // Optional anonId and meta are accepted.
    let with_meta = app
        .post(
            "/auth/signup",
            None,
            json!({ "email": "meta@example.com", "password": TEST_PASSWORD,
                    "anonId": "anon-1", "meta": { "utm_source": "newsletter" } }),
        )
        .await;
    assert_eq!(with_meta.expect(200), &signup_ok());
    assert_eq!(app.mails().len(), 3);
}

async fn verify_rejects_invalid_reused_and_expired_tokens(app: TestApp) {
    app.get("/auth/verify?token=not-a-real-token", None)
        .await
        .expect_error(400, "invalid");
    let missing = app.get("/auth/verify", None).await;
    assert_eq!(missing.status, 400, "{}", missing.text);
    assert!(missing.body["error"].is_string(), "{}", missing.text);

    signup(&app, "ann@example.com", TEST_PASSWORD)
        .await
        .expect(200);
    let link = verify_links(&app, "ann@example.com").pop().unwrap();
    assert_eq!(app.get(&path_of(&app, &link), None).await.status, 302);
    app.get(&path_of(&app, &link), None)
        .await
        .expect_error(400, "invalid");

    // A link older than 7 days no longer verifies.
    signup(&app, "bob@example.com", TEST_PASSWORD)
        .await
        .expect(200);
    let link = verify_links(&app, "bob@example.com").pop().unwrap();
    app.clock.advance(7 * DAY_MS);
    app.get(&path_of(&app, &link), None)
        .await
        .expect_error(400, "expired");
    login_with(&app, "bob@example.com", TEST_PASSWORD)
        .await
        .expect_error(403, "verified");
}

backend_tests!(
    signup_sends_verification_then_verify_enables_login,
    signup_answers_identically_for_registered_emails,
    signup_validates_email_and_password_length,
    verify_rejects_invalid_reused_and_expired_tokens,
);
