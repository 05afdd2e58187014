//! Account access: sign-up, verification, login, sessions, profile, workspaces, API keys,
//! agent sign-up and claims, lead capture, idle expiry, rate limits and what history shows.

#![allow(clippy::unwrap_used)]

use payback_domain::{Clock, DAY_MS, MINUTE_MS};
use payback_testkit::{Backend, ReceivedMail, Reply, TEST_PASSWORD, TestApp, backend_tests};
use reqwest::Method;
use serde_json::{Value, json};

const NEW_PASSWORD: &str = "a much better passphrase";

/// The exact body every sign-up answers with, registered or not.
fn signup_ok() -> Value {
    json!({ "ok": true, "status": "verification_sent" })
}

async fn signup(app: &TestApp, email: &str, password: &str) -> Reply {
    app.post(
        "/auth/signup",
        None,
        json!({ "email": email, "password": password }),
    )
    .await
}

async fn login_with(app: &TestApp, email: &str, password: &str) -> Reply {
    app.post(
        "/auth/login",
        None,
        json!({ "email": email, "password": password }),
    )
    .await
}

fn mails_to(app: &TestApp, email: &str) -> Vec<ReceivedMail> {
    app.mails().into_iter().filter(|m| m.to == email).collect()
}

/// Every verification link mailed to `email`, in no particular order (file modification times
/// are too coarse to order mails sent within a few milliseconds).
fn verify_links(app: &TestApp, email: &str) -> Vec<String> {
    let prefix = format!("{}/auth/verify?token=", app.base_url);
    mails_to(app, email)
        .iter()
        .filter_map(|m| m.link_starting_with(&prefix))
        .collect()
}

/// The path-and-query of a link to this app, for `app.get`.
fn path_of(app: &TestApp, link: &str) -> String {
    link.strip_prefix(&app.base_url)
        .unwrap_or_else(|| panic!("{link} is not a link to {}", app.base_url))
        .to_owned()
}

/// The raw claim token from a claim URL `{base}/#/claim/<token>`.
fn claim_token(app: &TestApp, url: &str) -> String {
    let prefix = format!("{}/#/claim/", app.base_url);
    url.strip_prefix(&prefix)
        .unwrap_or_else(|| panic!("{url} does not start with {prefix}"))
        .to_owned()
}

/// A GET with an arbitrary Authorization header value.
async fn get_with_authorization(app: &TestApp, path: &str, authorization: &str) -> Reply {
    let response = app
        .client
        .get(app.url(path))
        .header(reqwest::header::AUTHORIZATION, authorization)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let text = response.text().await.unwrap();
    let body = serde_json::from_str(&text).unwrap_or(Value::Null);
    Reply {
        status,
        headers,
        body,
        text,
    }
}

/// Asserts a 401 whose body is exactly one JSON `{error: string}` object.
#[track_caller]
fn assert_unauthorized_json(reply: &Reply) {
    assert_eq!(reply.status, 401, "body: {}", reply.text);
    assert!(
        reply
            .header("content-type")
            .is_some_and(|ct| ct.starts_with("application/json")),
        "401 content type: {:?}",
        reply.header("content-type")
    );
    let object = reply.body.as_object().expect("JSON object body");
    assert!(
        object["error"].as_str().is_some_and(|e| !e.is_empty()),
        "{}",
        reply.text
    );
}

fn actions(events: &[Value]) -> Vec<&str> {
    events
        .iter()
        .map(|e| e["action"].as_str().unwrap())
        .collect()
}

// ---------------------------------------------------------------- sign-up and verification

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

    // Unverified and registered: the same body, and a fresh link replaces the first.
    let again = signup(&app, "ann@example.com", "another password entirely").await;
    assert_eq!(again.status, first.status);
    assert_eq!(again.text, first.text);
    let links = verify_links(&app, "ann@example.com");
    assert_eq!(links.len(), 2, "a fresh link is mailed");
    let fresh = links.into_iter().find(|l| *l != first_link).unwrap();
    app.get(&path_of(&app, &first_link), None)
        .await
        .expect_error(400, "invalid");
    assert_eq!(app.get(&path_of(&app, &fresh), None).await.status, 302);

    // The second sign-up did not replace the password.
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

// ---------------------------------------------------------------- login and logout

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

// ---------------------------------------------------------------- GET /auth/me and bearer rules

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

// ---------------------------------------------------------------- POST /auth/me

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

    let history = app.history(&ann.token, "?days=30").await;
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

    let history = app.history(&current.token, "?days=30").await;
    let change = history
        .iter()
        .find(|e| e["action"] == "profile.update")
        .unwrap();
    assert_eq!(change["actor"], "ann@example.com");
    assert_eq!(change["payload"]["password_changed"], true);
    assert_eq!(change["payload"]["sessions_revoked"], 1);
}

// ---------------------------------------------------------------- workspaces

async fn workspaces_list_and_create(app: TestApp) {
    let ann = app.signup_verified("ann@example.com").await;
    let key = app.api_key(&ann).await;
    let first =
        json!({ "id": ann.account_id, "name": "ann", "role": "customer", "member_role": "owner" });
    assert_eq!(
        app.get("/auth/accounts", Some(&ann.token))
            .await
            .expect(200),
        &json!([first.clone()])
    );

    // Creating needs a session.
    app.post("/auth/accounts", Some(&key), json!({ "name": "Side" }))
        .await
        .expect_error(400, "session");
    app.post(
        "/auth/accounts",
        Some(&app.operator_token),
        json!({ "name": "Side" }),
    )
    .await
    .expect_error(400, "session");
    for bad in [
        json!({ "name": "" }),
        json!({ "name": "   " }),
        json!({ "name": "w".repeat(81) }),
    ] {
        app.post("/auth/accounts", Some(&ann.token), bad)
            .await
            .expect_error(400, "name");
    }
    app.post("/auth/accounts", Some(&ann.token), json!({}))
        .await
        .expect_error(400, "name");
    assert_eq!(
        app.get("/auth/accounts", Some(&ann.token))
            .await
            .expect(200)
            .as_array()
            .unwrap()
            .len(),
        1,
        "rejected creations create nothing"
    );

    let created = app
        .post(
            "/auth/accounts",
            Some(&ann.token),
            json!({ "name": "  Side Project  " }),
        )
        .await;
    let body = created.expect(200).clone();
    let new_id = body["account"]["id"].as_str().unwrap().to_owned();
    assert_ne!(new_id, ann.account_id);
    assert_eq!(body["account"]["account_name"], "Side Project");
    assert_eq!(body["account"]["member_role"], "owner");
    assert_eq!(body["account"]["email"], "ann@example.com");
    assert_eq!(body["account"]["role"], "customer");
    let second =
        json!({ "id": new_id, "name": "Side Project", "role": "customer", "member_role": "owner" });
    assert_eq!(body["accounts"], json!([first.clone(), second.clone()]));

    // The session now acts in the new workspace.
    assert_eq!(
        app.get("/auth/me", Some(&ann.token)).await.expect(200)["id"],
        new_id.as_str()
    );
    assert_eq!(
        app.get("/auth/accounts", Some(&ann.token))
            .await
            .expect(200),
        &json!([first.clone(), second])
    );
    // A key created now belongs to the new workspace, not the first.
    let side_key = app
        .post("/auth/keys", Some(&ann.token), json!({ "name": "side" }))
        .await
        .expect(200)["key"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(
        app.get("/auth/me", Some(&side_key)).await.expect(200)["id"],
        new_id.as_str()
    );
    let side_history = app.history(&ann.token, "?days=30").await;
    let create = side_history
        .iter()
        .find(|e| e["action"] == "workspace.create")
        .unwrap();
    assert_eq!(create["actor"], "ann@example.com");
    assert_eq!(create["via"], "dashboard");

    // The first workspace's key still sees only its own account.
    assert_eq!(
        app.get("/auth/accounts", Some(&key)).await.expect(200),
        &json!([{ "id": ann.account_id, "name": "ann", "role": "customer", "member_role": "member" }])
    );
    // A fresh login lands in a workspace the person belongs to and lists both.
    let again = app.login("ann@example.com").await;
    let list = app.get("/auth/accounts", Some(&again.token)).await;
    assert_eq!(list.expect(200).as_array().unwrap().len(), 2);
}

async fn switch_account_repoints_the_session(app: TestApp) {
    let ann = app.signup_verified("ann@example.com").await;
    let bob = app.signup_verified("bob@example.com").await;
    let created = app
        .post(
            "/auth/accounts",
            Some(&ann.token),
            json!({ "name": "Second" }),
        )
        .await;
    let second_id = created.expect(200)["account"]["id"]
        .as_str()
        .unwrap()
        .to_owned();

    let back = app
        .post(
            "/auth/switch-account",
            Some(&ann.token),
            json!({ "account_id": ann.account_id }),
        )
        .await;
    let body = back.expect(200);
    assert_eq!(body["account"]["id"], ann.account_id.as_str());
    assert_eq!(body["account"]["account_name"], "ann");
    assert_eq!(body["account"]["member_role"], "owner");
    let ids: Vec<&str> = body["accounts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, vec![ann.account_id.as_str(), second_id.as_str()]);
    // Every holder of the token (other tabs) follows.
    assert_eq!(
        app.get("/auth/me", Some(&ann.token)).await.expect(200)["id"],
        ann.account_id.as_str()
    );

    let there = app
        .post(
            "/auth/switch-account",
            Some(&ann.token),
            json!({ "account_id": second_id }),
        )
        .await;
    assert_eq!(there.expect(200)["account"]["id"], second_id.as_str());

    // Someone else's account, or none at all: 404, and the session stays where it was.
    app.post(
        "/auth/switch-account",
        Some(&ann.token),
        json!({ "account_id": bob.account_id }),
    )
    .await
    .expect_error(404, "not found");
    app.post(
        "/auth/switch-account",
        Some(&ann.token),
        json!({ "account_id": "0190d6a0-0000-7000-8000-000000000000" }),
    )
    .await
    .expect_error(404, "not found");
    assert_eq!(
        app.get("/auth/me", Some(&ann.token)).await.expect(200)["id"],
        second_id.as_str()
    );
    app.post("/auth/switch-account", Some(&ann.token), json!({}))
        .await
        .expect_error(400, "account_id");

    // Not through an API key.
    let key = app.api_key(&bob).await;
    app.post(
        "/auth/switch-account",
        Some(&key),
        json!({ "account_id": bob.account_id }),
    )
    .await
    .expect_error(400, "session");
    assert_unauthorized_json(
        &app.post(
            "/auth/switch-account",
            None,
            json!({ "account_id": bob.account_id }),
        )
        .await,
    );
}

// ---------------------------------------------------------------- API keys

async fn api_keys_create_list_use_revoke(app: TestApp) {
    let ann = app.signup_verified("ann@example.com").await;
    assert_eq!(
        app.get("/auth/keys", Some(&ann.token)).await.expect(200),
        &json!([])
    );
    let created = app
        .post("/auth/keys", Some(&ann.token), json!({ "name": "ci" }))
        .await;
    let body = created.expect(200).clone();
    let id = body["id"].as_str().unwrap().to_owned();
    let key = body["key"].as_str().unwrap().to_owned();
    assert_eq!(body["name"], "ci");
    assert!(key.starts_with("svc_live_"), "{key}");
    assert_eq!(key.len(), "svc_live_".len() + 43);
    assert_eq!(
        body.as_object().unwrap().len(),
        3,
        "creation result is {{id, name, key}}: {body}"
    );

    let list = app.get("/auth/keys", Some(&ann.token)).await;
    assert!(!list.text.contains(&key), "the full key is never listed");
    let items = list.expect(200).as_array().unwrap().clone();
    assert_eq!(items.len(), 1);
    assert_eq!(
        items[0],
        json!({
            "id": id,
            "name": "ci",
            "prefix": key[.."svc_live_".len() + 4],
            "created_at": app.clock.now().to_rfc3339(),
            "last_used_at": null,
        })
    );

    // The key is a bearer credential for the account.
    app.create_product(&ann.token, "alpha").await;
    let portfolio = app.get("/portfolio", Some(&key)).await;
    let rows = portfolio.expect(200).as_array().unwrap().clone();
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["slug"], "alpha");
    let used = app.get("/auth/keys", Some(&key)).await;
    assert_eq!(
        used.expect(200)[0]["last_used_at"],
        app.clock.now().to_rfc3339()
    );

    let revoked = app
        .post(
            &format!("/auth/keys/{id}/revoke"),
            Some(&ann.token),
            json!({}),
        )
        .await;
    assert_eq!(revoked.expect(200), &json!({ "ok": true }));
    let after = app.get("/portfolio", Some(&key)).await;
    assert_unauthorized_json(&after);
    after.expect_error(401, "revoked");
    assert_eq!(
        app.get("/auth/keys", Some(&ann.token)).await.expect(200),
        &json!([])
    );
    app.request(
        Method::POST,
        &format!("/auth/keys/{id}/revoke"),
        Some(&ann.token),
    )
    .await
    .expect_error(404, "not found");

    // A key can revoke itself; it stops working at once.
    let self_key = app.api_key(&ann).await;
    let self_id = app.get("/auth/keys", Some(&self_key)).await.expect(200)[0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(
        app.request(
            Method::POST,
            &format!("/auth/keys/{self_id}/revoke"),
            Some(&self_key)
        )
        .await
        .expect(200),
        &json!({ "ok": true })
    );
    assert_unauthorized_json(&app.get("/auth/keys", Some(&self_key)).await);
}

async fn api_key_name_defaults_and_limits(app: TestApp) {
    let ann = app.signup_verified("ann@example.com").await;

    // No body at all.
    let bare = app
        .request(Method::POST, "/auth/keys", Some(&ann.token))
        .await;
    assert_eq!(bare.expect(200)["name"], "default");
    // An empty JSON-typed body, `{}` and an explicit null all mean the default.
    let empty = app
        .post_raw("/auth/keys", Some(&ann.token), "application/json", "")
        .await;
    assert_eq!(empty.expect(200)["name"], "default");
    let braces = app.post("/auth/keys", Some(&ann.token), json!({})).await;
    assert_eq!(braces.expect(200)["name"], "default");
    let null = app
        .post("/auth/keys", Some(&ann.token), json!({ "name": null }))
        .await;
    assert_eq!(null.expect(200)["name"], "default");

    let longest = "k".repeat(80);
    let at_limit = app
        .post("/auth/keys", Some(&ann.token), json!({ "name": longest }))
        .await;
    assert_eq!(at_limit.expect(200)["name"], longest.as_str());
    app.post(
        "/auth/keys",
        Some(&ann.token),
        json!({ "name": "k".repeat(81) }),
    )
    .await
    .expect_error(400, "name");
    app.post("/auth/keys", Some(&ann.token), json!({ "name": "" }))
        .await
        .expect_error(400, "name");
    app.post("/auth/keys", Some(&ann.token), json!({ "name": "   " }))
        .await
        .expect_error(400, "name");
    app.post("/auth/keys", Some(&ann.token), json!({ "name": 7 }))
        .await
        .expect_error(400, "name");
    app.post_raw("/auth/keys", Some(&ann.token), "text/plain", "name=x")
        .await
        .expect_error(415, "json");

    let names: Vec<String> = app
        .get("/auth/keys", Some(&ann.token))
        .await
        .expect(200)
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["name"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(
        names,
        vec!["default", "default", "default", "default", longest.as_str()]
    );
}

async fn other_accounts_keys_answer_404(app: TestApp) {
    let ann = app.signup_verified("ann@example.com").await;
    let bob = app.signup_verified("bob@example.com").await;
    let ann_key = app
        .post("/auth/keys", Some(&ann.token), json!({ "name": "ann-key" }))
        .await
        .expect(200)
        .clone();
    let ann_key_id = ann_key["id"].as_str().unwrap();
    let bob_key = app.api_key(&bob).await;

    let path = format!("/auth/keys/{ann_key_id}/revoke");
    app.post(&path, Some(&bob.token), json!({}))
        .await
        .expect_error(404, "not found");
    app.post(&path, Some(&bob_key), json!({}))
        .await
        .expect_error(404, "not found");
    app.post(
        "/auth/keys/0190d6a0-0000-7000-8000-000000000000/revoke",
        Some(&bob.token),
        json!({}),
    )
    .await
    .expect_error(404, "not found");

    // Ann's key is untouched, and neither side sees the other's keys.
    let still = app
        .get("/auth/me", Some(ann_key["key"].as_str().unwrap()))
        .await;
    assert_eq!(still.expect(200)["id"], ann.account_id.as_str());
    let bob_list = app.get("/auth/keys", Some(&bob.token)).await;
    let bob_names: Vec<&str> = bob_list
        .expect(200)
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["name"].as_str().unwrap())
        .collect();
    assert_eq!(bob_names, vec!["test"]);
    let ann_list = app.get("/auth/keys", Some(&ann.token)).await;
    assert_eq!(ann_list.expect(200).as_array().unwrap().len(), 1);
    assert_eq!(ann_list.body[0]["id"], ann_key_id);
}

// ---------------------------------------------------------------- agent sign-up and claims

async fn agent_signup_returns_working_key_and_claim_link(app: TestApp) {
    let now = app.clock.now();
    let reply = app
        .post(
            "/auth/agent-signup",
            None,
            json!({ "email": "Founder@Example.com", "name": "Founder Co" }),
        )
        .await;
    let body = reply.expect(200).clone();
    let mut keys: Vec<&String> = body.as_object().unwrap().keys().collect();
    keys.sort();
    assert_eq!(
        keys,
        vec!["account_id", "api_key", "claim_expires_at", "claim_url"]
    );
    let account_id = body["account_id"].as_str().unwrap();
    let api_key = body["api_key"].as_str().unwrap();
    let claim_url = body["claim_url"].as_str().unwrap();
    assert!(api_key.starts_with("svc_live_"), "{api_key}");
    assert!(
        claim_url.starts_with(&format!("{}/#/claim/", app.base_url)),
        "{claim_url}"
    );
    assert!(claim_token(&app, claim_url).len() >= 32);
    assert_eq!(
        body["claim_expires_at"],
        now.plus_millis(7 * DAY_MS).to_rfc3339()
    );

    // The key works at once, before anyone verifies anything.
    let me = app.get("/auth/me", Some(api_key)).await;
    let account = me.expect(200);
    assert_eq!(account["id"], account_id);
    assert_eq!(account["email"], "founder@example.com");
    assert_eq!(account["account_name"], "Founder Co");
    assert_eq!(account["verified"], false);
    assert_eq!(account["name"], "Founder Co");
    assert_eq!(
        app.get("/portfolio", Some(api_key)).await.expect(200),
        &json!([])
    );
    let product = app.create_product(api_key, "agent-made").await;
    assert_eq!(product["slug"], "agent-made");
    // The agent's key is listed like any other, by prefix only.
    let listed = app.get("/auth/keys", Some(api_key)).await;
    assert!(!listed.text.contains(api_key));
    let items = listed.expect(200).as_array().unwrap().clone();
    assert_eq!(items.len(), 1);
    assert_eq!(items[0]["prefix"], &api_key[.."svc_live_".len() + 4]);
    assert_eq!(items[0]["name"], "agent");

    // The human gets the claim link by mail.
    let mails = mails_to(&app, "founder@example.com");
    assert_eq!(mails.len(), 1);
    assert_eq!(
        mails[0]
            .link_starting_with(&format!("{}/#/claim/", app.base_url))
            .as_deref(),
        Some(claim_url)
    );

    // No password yet: nobody can log in as the owner.
    login_with(&app, "founder@example.com", TEST_PASSWORD)
        .await
        .expect_error(401, "wrong");
    // A plain sign-up for the address cannot take the account over: same body, nothing sent,
    // and its password does not log in.
    let hijack = signup(&app, "founder@example.com", TEST_PASSWORD).await;
    assert_eq!(hijack.expect(200), &signup_ok());
    assert_eq!(mails_to(&app, "founder@example.com").len(), 1);
    login_with(&app, "founder@example.com", TEST_PASSWORD)
        .await
        .expect_error(401, "wrong");

    // History records the agent's writes as keeper via api.
    let history = app.history(api_key, "?days=30").await;
    let signup_event = history
        .iter()
        .find(|e| e["action"] == "account.agent_signup")
        .unwrap();
    assert_eq!(signup_event["actor"], "keeper");
    assert_eq!(signup_event["via"], "api");
}

async fn agent_signup_rejects_taken_and_invalid_emails(app: TestApp) {
    let first = app
        .post(
            "/auth/agent-signup",
            None,
            json!({ "email": "agent@example.com" }),
        )
        .await;
    assert_eq!(first.status, 200, "{}", first.text);
    // Without a name the workspace is named after the address.
    let me = app
        .get("/auth/me", Some(first.body["api_key"].as_str().unwrap()))
        .await;
    assert_eq!(me.expect(200)["account_name"], "agent");
    assert_eq!(me.body["name"], Value::Null);

    let again = app
        .post(
            "/auth/agent-signup",
            None,
            json!({ "email": "AGENT@example.com" }),
        )
        .await;
    again.expect_error(409, "cannot be created");

    app.signup_verified("ann@example.com").await;
    let taken = app
        .post(
            "/auth/agent-signup",
            None,
            json!({ "email": "ann@example.com" }),
        )
        .await;
    taken.expect_error(409, "cannot be created");
    assert_eq!(
        again.body, taken.body,
        "the conflict wording is generic and does not reveal which case applies"
    );

    app.post(
        "/auth/agent-signup",
        None,
        json!({ "email": "not-an-email" }),
    )
    .await
    .expect_error(400, "email");
    app.post("/auth/agent-signup", None, json!({}))
        .await
        .expect_error(400, "email");
    app.post(
        "/auth/agent-signup",
        None,
        json!({ "email": "long@example.com", "name": "n".repeat(81) }),
    )
    .await
    .expect_error(400, "name");
    assert_eq!(
        mails_to(&app, "agent@example.com").len(),
        1,
        "only the first agent sign-up mailed a claim link"
    );
}

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

    // Showing the claim does not consume it.
    for _ in 0..2 {
        let info = app.get(&info_path, None).await;
        assert_eq!(
            info.expect(200),
            &json!({ "email": "founder@example.com", "account_name": "Founder Co" })
        );
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

    let history = app.history(session, "?days=30").await;
    let claim = history
        .iter()
        .find(|e| e["action"] == "account.claim")
        .unwrap();
    assert_eq!(claim["actor"], "founder@example.com");
    assert_eq!(claim["via"], "dashboard");
}

async fn claim_link_rotates_until_claimed(app: TestApp) {
    let created = app
        .post(
            "/auth/agent-signup",
            None,
            json!({ "email": "founder@example.com" }),
        )
        .await
        .expect(200)
        .clone();
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
    let created = app
        .post(
            "/auth/agent-signup",
            None,
            json!({ "email": "founder@example.com" }),
        )
        .await
        .expect(200)
        .clone();
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

// ---------------------------------------------------------------- lead capture

async fn lead_prompt_mails_the_prompt(app: TestApp) {
    let reply = app
        .post(
            "/auth/lead-prompt",
            None,
            json!({ "email": "lead@example.com" }),
        )
        .await;
    let body = reply.expect(200).clone();
    assert_eq!(body["ok"], true);
    let message = body["message"].as_str().unwrap();
    assert!(message.contains("lead@example.com"), "{message}");
    assert!(
        message.contains("payback"),
        "default prompt type: {message}"
    );
    let mail = app.last_mail_to("lead@example.com");
    assert!(mail.subject.contains("payback"), "{}", mail.subject);
    assert!(mail.body.contains("/proposals"), "{}", mail.body);

    for prompt_type in ["growth-engine", "payback", "mcp"] {
        let email = format!("{prompt_type}@example.com");
        let reply = app
            .post(
                "/auth/lead-prompt",
                None,
                json!({ "email": email, "prompt_type": prompt_type, "meta": { "page": "/pricing" } }),
            )
            .await;
        let body = reply.expect(200);
        assert_eq!(body["ok"], true);
        assert!(
            body["message"].as_str().unwrap().contains(prompt_type),
            "{body}"
        );
        let mails = mails_to(&app, &email);
        assert_eq!(mails.len(), 1);
        assert!(
            mails[0].subject.contains(prompt_type),
            "{}",
            mails[0].subject
        );
        assert!(!mails[0].body.trim().is_empty());
    }

    let mails_before = app.mails().len();
    app.post(
        "/auth/lead-prompt",
        None,
        json!({ "email": "lead@example.com", "prompt_type": "poetry" }),
    )
    .await
    .expect_error(400, "prompt_type");
    app.post(
        "/auth/lead-prompt",
        None,
        json!({ "email": "not-an-email", "prompt_type": "mcp" }),
    )
    .await
    .expect_error(400, "email");
    app.post("/auth/lead-prompt", None, json!({}))
        .await
        .expect_error(400, "email");
    assert_eq!(
        app.mails().len(),
        mails_before,
        "rejected leads send nothing"
    );
}

// ---------------------------------------------------------------- session idle expiry

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

// ---------------------------------------------------------------- history

async fn history_hides_logins_and_records_key_writes(app: TestApp) {
    let ann = app.signup_verified("ann@example.com").await;
    app.login("ann@example.com").await;
    login_with(&app, "ann@example.com", "not the password")
        .await
        .expect(401);

    let by_session = app
        .post("/auth/keys", Some(&ann.token), json!({ "name": "laptop" }))
        .await
        .expect(200)
        .clone();
    let key = by_session["key"].as_str().unwrap();
    let by_key = app
        .post("/auth/keys", Some(key), json!({ "name": "agent-made" }))
        .await
        .expect(200)
        .clone();
    app.post(
        &format!("/auth/keys/{}/revoke", by_key["id"].as_str().unwrap()),
        Some(&ann.token),
        json!({}),
    )
    .await
    .expect(200);

    for token in [ann.token.as_str(), key] {
        let history = app.history(token, "?days=30").await;
        let seen = actions(&history);
        assert!(
            !seen.contains(&"auth.login"),
            "tenants never see logins: {seen:?}"
        );
        assert!(
            seen.iter().all(|a| !a.starts_with("auth.")),
            "no sign-in events at all: {seen:?}"
        );

        let creates: Vec<&Value> = history
            .iter()
            .filter(|e| e["action"] == "api_key.create")
            .collect();
        assert_eq!(creates.len(), 2, "{history:?}");
        // Newest first: the key's own write, then the person's.
        assert_eq!(creates[0]["actor"], "keeper");
        assert_eq!(creates[0]["via"], "api");
        assert_eq!(creates[0]["subject_ref"], by_key["id"]);
        assert_eq!(creates[0]["payload"]["name"], "agent-made");
        assert_eq!(creates[1]["actor"], "ann@example.com");
        assert_eq!(creates[1]["via"], "dashboard");
        assert_eq!(creates[1]["subject_ref"], by_session["id"]);
        assert_eq!(creates[1]["payload"]["name"], "laptop");
        assert!(creates[1]["occurred_at"].is_string());

        let revoke = history
            .iter()
            .find(|e| e["action"] == "api_key.revoke")
            .unwrap();
        assert_eq!(revoke["actor"], "ann@example.com");
        assert_eq!(revoke["via"], "dashboard");
        assert_eq!(revoke["subject_ref"], by_key["id"]);
        assert_eq!(history[0]["action"], "api_key.revoke", "newest first");
        assert!(
            !serde_json::to_string(&history).unwrap().contains(key),
            "history never carries a full key"
        );
    }

    // Sign-ins are still audited: the operator, who sees every account, finds them.
    let operator_view = app
        .history(&app.operator_token, "?days=30&limit=1000")
        .await;
    let logins = operator_view
        .iter()
        .filter(|e| e["action"] == "auth.login" && e["actor"] == "ann@example.com")
        .count();
    assert_eq!(
        logins, 2,
        "two successful logins, the failed one is not one"
    );

    // Another tenant sees none of it.
    let bob = app.signup_verified("bob@example.com").await;
    let bob_history = app.history(&bob.token, "?days=30").await;
    assert!(
        bob_history
            .iter()
            .all(|e| e["actor"] != "ann@example.com" && e["action"] != "api_key.create"),
        "{bob_history:?}"
    );
}

// ---------------------------------------------------------------- edges across endpoints

async fn one_time_tokens_work_only_for_their_purpose(app: TestApp) {
    signup(&app, "ann@example.com", TEST_PASSWORD)
        .await
        .expect(200);
    let verify_link = verify_links(&app, "ann@example.com").pop().unwrap();
    let verify_token = verify_link
        .strip_prefix(&format!("{}/auth/verify?token=", app.base_url))
        .unwrap()
        .to_owned();
    let created = app
        .post(
            "/auth/agent-signup",
            None,
            json!({ "email": "founder@example.com" }),
        )
        .await
        .expect(200)
        .clone();
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
    signup_sends_verification_then_verify_enables_login,
    signup_answers_identically_for_registered_emails,
    signup_validates_email_and_password_length,
    verify_rejects_invalid_reused_and_expired_tokens,
    login_returns_token_and_account,
    login_rejects_bad_credentials_and_unverified,
    logout_ends_only_that_session,
    me_with_session_and_api_key,
    me_rejects_missing_and_invalid_bearers,
    update_me_sets_and_clears_name,
    password_change_revokes_other_sessions,
    workspaces_list_and_create,
    switch_account_repoints_the_session,
    api_keys_create_list_use_revoke,
    api_key_name_defaults_and_limits,
    other_accounts_keys_answer_404,
    agent_signup_returns_working_key_and_claim_link,
    agent_signup_rejects_taken_and_invalid_emails,
    claim_sets_password_and_signs_in,
    claim_link_rotates_until_claimed,
    claim_token_expires_after_seven_days,
    lead_prompt_mails_the_prompt,
    session_expires_after_seven_idle_days,
    session_use_slides_the_expiry,
    history_hides_logins_and_records_key_writes,
    one_time_tokens_work_only_for_their_purpose,
    malformed_ids_and_bodies_answer_json_errors,
    blank_name_clears_it,
    invited_but_unaccepted_workspace_is_not_listed_or_switchable,
);

// ---------------------------------------------------------------- rate limits

async fn limited_app(backend: Backend) -> TestApp {
    TestApp::spawn_with(backend, |config| config.rate_limit_per_minute = 3).await
}

async fn signup_is_rate_limited(backend: Backend) {
    let app = limited_app(backend).await;
    for n in 0..3 {
        let reply = signup(&app, &format!("user{n}@example.com"), TEST_PASSWORD).await;
        assert_eq!(reply.expect(200), &signup_ok(), "sign-up {n}");
    }
    let limited = signup(&app, "user3@example.com", TEST_PASSWORD).await;
    limited.expect_error(429, "too many requests");
    assert!(
        limited
            .header("content-type")
            .is_some_and(|ct| ct.starts_with("application/json"))
    );
    assert_eq!(
        mails_to(&app, "user3@example.com").len(),
        0,
        "the limited call did nothing"
    );
    // Unlimited routes keep answering normally.
    app.get("/auth/verify?token=nope", None)
        .await
        .expect_error(400, "invalid");
}

async fn login_is_rate_limited(backend: Backend) {
    let app = limited_app(backend).await;
    for _ in 0..3 {
        login_with(&app, "nobody@example.com", TEST_PASSWORD)
            .await
            .expect_error(401, "wrong");
    }
    let limited = login_with(&app, "nobody@example.com", TEST_PASSWORD).await;
    limited.expect_error(429, "too many requests");
    assert_eq!(
        limited.body.as_object().unwrap().len(),
        1,
        "{}",
        limited.text
    );
}

/// Three calls to `path` pass; the fourth from the same IP answers 429 JSON.
async fn public_call_is_rate_limited(backend: Backend, path: &str) {
    let app = limited_app(backend).await;
    for n in 0..4 {
        let reply = app
            .post(
                path,
                None,
                json!({ "email": format!("caller{n}@example.com") }),
            )
            .await;
        if n < 3 {
            assert_eq!(reply.status, 200, "{path} call {n}: {}", reply.text);
        } else {
            reply.expect_error(429, "too many requests");
            assert!(
                mails_to(&app, "caller3@example.com").is_empty(),
                "the limited call did nothing"
            );
        }
    }
}

async fn staff_domain_marks_platform_admins(backend: Backend) {
    let app = TestApp::spawn_with(backend, |config| {
        config.staff_domain = Some("payback.test".to_owned());
    })
    .await;
    let staff = app.signup_verified("ops@payback.test").await;
    let customer = app.signup_verified("ann@example.com").await;
    let login = login_with(&app, "ops@payback.test", TEST_PASSWORD).await;
    assert_eq!(login.expect(200)["account"]["platform_admin"], true);
    assert_eq!(
        app.get("/auth/me", Some(&staff.token)).await.expect(200)["platform_admin"],
        true
    );
    assert_eq!(
        app.get("/auth/me", Some(&customer.token)).await.expect(200)["platform_admin"],
        false
    );
}

#[tokio::test]
async fn staff_domain_sqlite() {
    staff_domain_marks_platform_admins(Backend::Sqlite).await;
}

#[tokio::test]
async fn staff_domain_postgres() {
    staff_domain_marks_platform_admins(Backend::Postgres).await;
}

#[tokio::test]
async fn signup_rate_limit_sqlite() {
    signup_is_rate_limited(Backend::Sqlite).await;
}

#[tokio::test]
async fn signup_rate_limit_postgres() {
    signup_is_rate_limited(Backend::Postgres).await;
}

#[tokio::test]
async fn login_rate_limit_sqlite() {
    login_is_rate_limited(Backend::Sqlite).await;
}

#[tokio::test]
async fn login_rate_limit_postgres() {
    login_is_rate_limited(Backend::Postgres).await;
}

#[tokio::test]
async fn agent_signup_rate_limit_sqlite() {
    public_call_is_rate_limited(Backend::Sqlite, "/auth/agent-signup").await;
}

#[tokio::test]
async fn agent_signup_rate_limit_postgres() {
    public_call_is_rate_limited(Backend::Postgres, "/auth/agent-signup").await;
}

#[tokio::test]
async fn lead_prompt_rate_limit_sqlite() {
    public_call_is_rate_limited(Backend::Sqlite, "/auth/lead-prompt").await;
}

#[tokio::test]
async fn lead_prompt_rate_limit_postgres() {
    public_call_is_rate_limited(Backend::Postgres, "/auth/lead-prompt").await;
}
