//! Sign in with Google in headless Chromium (`e2e/dashboard-sso.mjs`) against the fake OpenID
//! provider on loopback: the button on the signup and login pages, the whole redirect flow, the
//! `#/auth/sso/<ticket>` route signing in, and a used ticket refused.

use payback_testkit::browser::{run_browser_script_with_env, spawn_on_wall_clock};
use payback_testkit::fake_oidc::{self, Human};
use payback_testkit::{Backend, FakeOidc, per_backend};

const EMAIL: &str = "sso-browser@example.com";
const NAME: &str = "Browser Founder";

async fn sso_sign_in(backend: Backend) {
    let provider = FakeOidc::spawn().await;
    let issuer = provider.issuer();
    let app = spawn_on_wall_clock(
        backend,
        move |config| {
            config.sso_issuer = issuer;
            config.sso_client_id = Some(fake_oidc::CLIENT_ID.to_owned());
            config.sso_client_secret = Some(fake_oidc::CLIENT_SECRET.into());
        },
        |_| {},
    )
    .await;
    provider.register_redirect_uri(&app.url("/auth/sso/callback"));
    provider.sign_in_as(Human::new("118000000000000000042", EMAIL, Some(NAME)));

    let env = [
        ("PAYBACK_E2E_EMAIL", EMAIL.to_owned()),
        ("PAYBACK_E2E_NAME", NAME.to_owned()),
    ];
    run_browser_script_with_env(&app, "dashboard-sso", &env).await;

    // One sign-in went through the provider: one screen, one code exchanged.
    assert_eq!(provider.requests_to("/o/oauth2/v2/auth").len(), 1);
    assert_eq!(provider.requests_to("/token").len(), 1);
    let user = payback_store::users::find_by_email(&app.state.store, EMAIL)
        .await
        .expect("read the person")
        .expect("the person exists");
    assert!(user.verified && user.password_hash.is_none());
    assert_eq!(user.name.as_deref(), Some(NAME));
}

per_backend!(sso_sign_in);
