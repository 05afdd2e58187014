//! Sign in with SSO (issue 42), tried from outside against an independent fake of a
//! Google-shaped OpenID provider (`payback_testkit::fake_oidc`), on both backends.
//!
//! Modules:
//! - `flow`: the start's parameters, a new identity becoming a tenant, linking a password user
//!   and an unconfirmed sign-up, a linked `sub` whatever its email, key rotation, history;
//! - `refusals`: every ID-token fault and provider failure answered 400 with nothing created,
//!   a second `sub` for a linked person, the 503s of a missing configuration or discovery;
//! - `single_use`: states and tickets used once and expiring, `complete`'s 400s and rate limit;
//! - `secrets`: no provider code or token, client secret or session token in any answer or log
//!   line.

mod flow;
mod refusals;
mod secrets;
mod single_use;

use std::sync::Arc;

use payback_server::Config;
use payback_testkit::fake_oidc::{self, FakeOidc};
use payback_testkit::{Backend, Reply, TestApp};
use serde_json::{Value, json};

/// An app whose SSO provider is a fresh fake, its redirect URI registered there.
struct Sso {
    app: TestApp,
    provider: FakeOidc,
}

async fn sso_app(backend: Backend) -> Sso {
    sso_app_with(backend, |_| {}).await
}

async fn sso_app_with(backend: Backend, adjust: impl FnOnce(&mut Config)) -> Sso {
    let provider = FakeOidc::spawn().await;
    let issuer = provider.issuer();
    let app = TestApp::spawn_with(backend, |config| {
        config.sso_issuer = issuer;
        config.sso_client_id = Some(fake_oidc::CLIENT_ID.to_owned());
        config.sso_client_secret = Some(fake_oidc::CLIENT_SECRET.into());
        adjust(config);
    })
    .await;
    provider.use_clock(Arc::new(app.clock.clone()));
    provider.register_redirect_uri(&format!("{}/auth/sso/callback", app.base_url));
    Sso { app, provider }
}

/// A GET of an absolute URL (a redirect's `Location`), not following redirects.
async fn get_absolute(app: &TestApp, url: &str) -> Reply {
    Reply::read(app.client.get(url).send().await.unwrap()).await
}

/// `GET /auth/sso/start`, answered 302: the provider's authorization URL.
async fn start(app: &TestApp) -> String {
    let reply = app.get("/auth/sso/start", None).await;
    assert_eq!(reply.status, 302, "start: {}", reply.text);
    reply.header("location").unwrap().to_owned()
}

/// Start, the person on the provider's screen, and the callback: the callback's answer.
async fn through_callback(sso: &Sso) -> Reply {
    let authorization_url = start(&sso.app).await;
    let back = sso.provider.authorize(&authorization_url).await;
    assert!(
        back.starts_with(&format!("{}/auth/sso/callback?", sso.app.base_url)),
        "{back}"
    );
    get_absolute(&sso.app, &back).await
}

/// The ticket of a successful callback's redirect to `#/auth/sso/<ticket>`.
fn ticket_of(app: &TestApp, callback: &Reply) -> String {
    assert_eq!(callback.status, 302, "callback: {}", callback.text);
    let location = callback.header("location").unwrap();
    let prefix = format!("{}/#/auth/sso/", app.base_url);
    let ticket = location
        .strip_prefix(&prefix)
        .unwrap_or_else(|| panic!("{location} is not the dashboard's SSO route"));
    assert!(
        !ticket.is_empty()
            && ticket
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "._~-".contains(c)),
        "{ticket}"
    );
    ticket.to_owned()
}

async fn complete(app: &TestApp, ticket: &str) -> Reply {
    app.post("/auth/sso/complete", None, json!({ "token": ticket }))
        .await
}

/// The whole flow for the provider's current person: the login response.
async fn sign_in(sso: &Sso) -> Value {
    let callback = through_callback(sso).await;
    let ticket = ticket_of(&sso.app, &callback);
    complete(&sso.app, &ticket).await.expect(200).clone()
}

/// Rows of `table`.
async fn count(app: &TestApp, table: &str) -> i64 {
    app.sql_value(&format!("SELECT COUNT(*) FROM {table}"), &[])
        .await
}

/// The query parameters of `url`, decoded.
fn query_of(url: &str) -> Vec<(String, String)> {
    reqwest::Url::parse(url)
        .unwrap()
        .query_pairs()
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect()
}

fn param<'a>(pairs: &'a [(String, String)], name: &str) -> Option<&'a str> {
    pairs
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}
