//! Rate limits (sign-up, login, agent sign-up, lead prompt, claim, accepting an invite; per
//! address, behind trusted proxies, per login email), the public routes' body limits, and the
//! staff domain: tests that configure their own app, one `#[tokio::test]` per backend.

use super::*;

use payback_server::rate_limit::TrustedProxies;
use payback_testkit::Backend;

/// A POST as a client behind `forwarded_for` (the `X-Forwarded-For` header) says it is.
async fn post_via(app: &TestApp, path: &str, forwarded_for: &str, body: Value) -> Reply {
    let response = app
        .client
        .post(app.url(path))
        .header("x-forwarded-for", forwarded_for)
        .json(&body)
        .send()
        .await
        .unwrap();
    Reply::read(response).await
}

/// An app behind a proxy: TestApp's requests come from 127.0.0.1, configured as trusted, so
/// `X-Forwarded-For` names the client.
fn behind_proxy(config: &mut payback_server::Config) {
    config.trusted_proxies = TrustedProxies::parse("127.0.0.1").unwrap();
}

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
    // Three a minute refill one every 20 s: the client is told when to come back.
    limited.expect_retry_after(20);
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

/// Three calls to `path` with a made-up token answer 400; the fourth from the same address
/// answers 429, as does a login then (one budget for every route that hashes a password).
async fn token_call_is_rate_limited(backend: Backend, path: &str) {
    let app = limited_app(backend).await;
    let body = json!({ "token": "nope", "password": TEST_PASSWORD });
    for n in 0..3 {
        let reply = app.post(path, None, body.clone()).await;
        assert_eq!(reply.status, 400, "{path} call {n}: {}", reply.text);
    }
    app.post(path, None, body)
        .await
        .expect_error(429, "too many requests");
    login_with(&app, "nobody@example.com", TEST_PASSWORD)
        .await
        .expect_error(429, "too many requests");
    // Reading a claim or an invite hashes nothing and stays unlimited.
    app.get("/auth/claim?token=nope", None)
        .await
        .expect_error(400, "invalid");
    app.get("/auth/invite?token=nope", None)
        .await
        .expect_error(400, "invalid");
}

/// A client talking to the service directly cannot pick its bucket: `X-Forwarded-For` from a
/// peer that is not a trusted proxy is ignored.
async fn forwarded_for_from_an_untrusted_peer_is_ignored(backend: Backend) {
    let app = limited_app(backend).await;
    for n in 1..=3 {
        let forwarded = format!("203.0.113.{n}");
        post_via(
            &app,
            "/auth/login",
            &forwarded,
            json!({ "email": format!("nobody{n}@example.com"), "password": TEST_PASSWORD }),
        )
        .await
        .expect_error(401, "wrong");
    }
    let limited = post_via(
        &app,
        "/auth/login",
        "203.0.113.4",
        json!({ "email": "nobody4@example.com", "password": TEST_PASSWORD }),
    )
    .await;
    limited.expect_error(429, "too many requests from this address");
}

/// Behind a trusted proxy each client has its own bucket, found from the right-most hop of
/// `X-Forwarded-For` that is not the proxy; what a client writes left of it changes nothing.
async fn a_trusted_proxy_forwards_the_client_address(backend: Backend) {
    let app = TestApp::spawn_with(backend, |config| {
        config.rate_limit_per_minute = 3;
        behind_proxy(config);
    })
    .await;
    let attempt = |forwarded: &'static str, n: u32| {
        let app = &app;
        async move {
            post_via(
                app,
                "/auth/login",
                forwarded,
                json!({ "email": format!("nobody{n}@example.com"), "password": TEST_PASSWORD }),
            )
            .await
        }
    };
    for n in 0..3 {
        attempt("203.0.113.1", n).await.expect_error(401, "wrong");
    }
    attempt("203.0.113.1", 3)
        .await
        .expect_error(429, "too many requests from this address");
    // The client prepends an address of its choosing; the proxy appended the real one.
    attempt("198.51.100.77, 203.0.113.1", 4)
        .await
        .expect_error(429, "too many requests from this address");
    // Another client behind the same proxy has a budget of its own, also through a chain of
    // trusted hops.
    attempt("203.0.113.2", 5).await.expect_error(401, "wrong");
    attempt("203.0.113.2, 127.0.0.1", 6)
        .await
        .expect_error(401, "wrong");
    // Without the header the proxy itself is the client.
    login_with(&app, "nobody7@example.com", TEST_PASSWORD)
        .await
        .expect_error(401, "wrong");
}

/// Guessing one account's password from many addresses, each under its own limit, meets the
/// per-email limit: every attempt counts, failed or not, whatever the spelling of the email.
async fn logins_are_limited_per_email(backend: Backend) {
    let app = TestApp::spawn_with(backend, |config| {
        config.login_attempts_per_email = 3;
        behind_proxy(config);
    })
    .await;
    // Attempt 1: signing up signs in once, honestly.
    app.signup_verified("ann@example.com").await;
    let attempt = |forwarded: &'static str, email: &'static str, password: &'static str| {
        let app = &app;
        async move {
            post_via(
                app,
                "/auth/login",
                forwarded,
                json!({ "email": email, "password": password }),
            )
            .await
        }
    };
    attempt("203.0.113.1", "ann@example.com", "not the password")
        .await
        .expect_error(401, "wrong");
    attempt("203.0.113.2", " ANN@Example.com ", "not the password")
        .await
        .expect_error(401, "wrong");
    // From a fourth address, with the right password: the account's budget is spent.
    let limited = attempt("203.0.113.3", "Ann@example.com", TEST_PASSWORD).await;
    limited.expect_error(429, "per email");
    limited.expect_retry_after(15 * 60);
    assert_eq!(
        limited.body.as_object().unwrap().len(),
        1,
        "{}",
        limited.text
    );
    // Other accounts are not affected.
    attempt("203.0.113.3", "bob@example.com", TEST_PASSWORD)
        .await
        .expect_error(401, "wrong");
}

/// Every public auth route reads at most 16 KiB; a larger body answers 413 naming the limit
/// before anything is parsed, stored or mailed. A multi-megabyte body is refused just the same.
async fn public_auth_bodies_are_limited(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let padding = "x".repeat(17 * 1024);
    for path in [
        "/auth/signup",
        "/auth/lead-prompt",
        "/auth/agent-signup",
        "/auth/login",
        "/auth/claim",
        "/auth/accept-invite",
    ] {
        let body = json!({ "email": "big@example.com", "password": TEST_PASSWORD, "token": "t", "meta": { "pad": padding } });
        let reply = app.post(path, None, body).await;
        reply.expect_error(413, "at most 16384 bytes");
        reply.expect_error(413, path);
    }
    let huge = json!({ "email": "huge@example.com", "password": TEST_PASSWORD, "meta": "x".repeat(4 << 20) });
    app.post("/auth/signup", None, huge)
        .await
        .expect_error(413, "at most 16384 bytes");
    // The token-reading GETs read no more either.
    let reply = Reply::read(
        app.client
            .get(app.url("/auth/verify?token=nope"))
            .body(padding.clone())
            .send()
            .await
            .unwrap(),
    )
    .await;
    reply.expect_error(413, "at most 16384 bytes");
    assert!(app.mails().is_empty(), "nothing was mailed");
    // An honest sign-up fits.
    signup(&app, "ann@example.com", TEST_PASSWORD)
        .await
        .expect(200);
    assert_eq!(mails_to(&app, "ann@example.com").len(), 1);
}

/// `meta` (2 KiB serialized) and `anonId` (200 characters) are bounded on sign-up and lead
/// capture: 400 naming the field, nothing stored or mailed.
async fn signup_and_lead_fields_are_bounded(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let big_meta = json!({ "note": "x".repeat(2048) });
    let reply = app
        .post(
            "/auth/signup",
            None,
            json!({ "email": "ann@example.com", "password": TEST_PASSWORD, "meta": big_meta }),
        )
        .await;
    reply.expect_error(400, "meta: at most 2048 bytes");
    let reply = app
        .post(
            "/auth/signup",
            None,
            json!({ "email": "ann@example.com", "password": TEST_PASSWORD, "anonId": "a".repeat(201) }),
        )
        .await;
    reply.expect_error(400, "anonId: at most 200 characters");
    let reply = app
        .post(
            "/auth/lead-prompt",
            None,
            json!({ "email": "lead@example.com", "meta": big_meta }),
        )
        .await;
    reply.expect_error(400, "meta: at most 2048 bytes");
    assert!(app.mails().is_empty(), "refused calls mail nothing");
    let users: i64 = app.sql_value("SELECT COUNT(*) FROM users", &[]).await;
    assert_eq!(users, 0, "refused sign-ups store nothing");

    // At the bounds: 200 characters (counted as characters, not bytes), 2048 bytes.
    let meta_at_bound = json!({ "note": "x".repeat(2048 - r#"{"note":""}"#.len()) });
    assert_eq!(meta_at_bound.to_string().len(), 2048);
    app.post(
        "/auth/signup",
        None,
        json!({ "email": "ann@example.com", "password": TEST_PASSWORD, "anonId": "é".repeat(200), "meta": meta_at_bound }),
    )
    .await
    .expect(200);
    assert_eq!(mails_to(&app, "ann@example.com").len(), 1);
    app.post(
        "/auth/lead-prompt",
        None,
        json!({ "email": "lead@example.com", "meta": meta_at_bound }),
    )
    .await
    .expect(200);
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

async fn agent_signup_rate_limit(backend: Backend) {
    public_call_is_rate_limited(backend, "/auth/agent-signup").await;
}

async fn lead_prompt_rate_limit(backend: Backend) {
    public_call_is_rate_limited(backend, "/auth/lead-prompt").await;
}

async fn claim_rate_limit(backend: Backend) {
    token_call_is_rate_limited(backend, "/auth/claim").await;
}

async fn accept_invite_rate_limit(backend: Backend) {
    token_call_is_rate_limited(backend, "/auth/accept-invite").await;
}

per_backend!(
    staff_domain_marks_platform_admins,
    signup_is_rate_limited,
    login_is_rate_limited,
    agent_signup_rate_limit,
    lead_prompt_rate_limit,
    claim_rate_limit,
    accept_invite_rate_limit,
    forwarded_for_from_an_untrusted_peer_is_ignored,
    a_trusted_proxy_forwards_the_client_address,
    logins_are_limited_per_email,
    public_auth_bodies_are_limited,
    signup_and_lead_fields_are_bounded,
);
