//! The harness itself: both backends start, answer, and capture mail.

use payback_testkit::{TestApp, backend_tests};

async fn signup_verify_login_round_trip(app: TestApp) {
    let session = app.signup_verified("ann@example.com").await;
    assert!(session.token.starts_with("svc_sess_"));
    let me = app.get("/auth/me", Some(&session.token)).await;
    assert_eq!(me.expect(200)["email"], "ann@example.com");
}

backend_tests!(signup_verify_login_round_trip);
