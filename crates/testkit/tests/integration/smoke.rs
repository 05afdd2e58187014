//! The harness itself: both backends start, answer, and capture mail; and the state they run
//! with prints no secret.

use payback_server::secret::Secret;
use payback_testkit::{Backend, TestApp, backend_tests, per_backend};

async fn signup_verify_login_round_trip(app: TestApp) {
    let session = app.signup_verified("ann@example.com").await;
    assert!(session.token.starts_with("svc_sess_"));
    let me = app.get("/auth/me", Some(&session.token)).await;
    assert_eq!(me.expect(200)["email"], "ann@example.com");
}

backend_tests!(signup_verify_login_round_trip);

/// Base64 of 32 bytes: a sealing key that opens.
const SEALING_KEY: &str = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";

/// What every handler holds, and what a careless `{:?}` would print, shows none of the
/// configured secrets (issue 19): they are `Secret`s in the configuration.
async fn app_state_debug_shows_no_configured_secret(backend: Backend) {
    let app = TestApp::spawn_with(backend, |config| {
        config.mail = "smtp://mailer:smtp-pass-77de@127.0.0.1:2525".into();
        config.secret_key = Some(Secret::new(SEALING_KEY));
        config.model_gateway_key = Some(Secret::new("gw-key-1e2f"));
    })
    .await;
    let debug = format!("{:?}", app.state);
    let secrets = [
        app.operator_token.as_str(),
        app.state.config.database_url.expose(),
        "smtp-pass-77de",
        SEALING_KEY,
        "gw-key-1e2f",
    ];
    for secret in secrets {
        assert!(!debug.contains(secret), "{secret} is shown in {debug}");
    }
    assert!(debug.contains(Secret::REDACTED), "{debug}");
}

per_backend!(app_state_debug_shows_no_configured_secret);
