//! Rate limits (sign-up, login, agent sign-up, lead prompt) and the staff domain: tests that
//! configure their own app, one `#[tokio::test]` per backend.

use super::*;

use payback_testkit::Backend;

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
