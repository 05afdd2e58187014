//! A loopback fake of a Google-shaped OpenID Connect provider, written from Google's public
//! OpenID Connect documentation (discovery document, authorization endpoint, token endpoint,
//! JWKS), so the sign-in is tested against the documented contract rather than against what
//! Payback sends. `endpoints.rs` says what each endpoint checks and answers; `signing.rs` holds
//! the test-only keys; [`Fault`] lists every ID-token fault a test can inject.
//!
//! ```ignore
//! let provider = FakeOidc::spawn().await;
//! // PAYBACK_SSO_ISSUER = provider.issuer(), PAYBACK_SSO_CLIENT_ID/_SECRET = its client;
//! provider.use_clock(Arc::new(app.clock.clone()));
//! provider.sign_in_as(Human::new("1234", "ann@example.com", Some("Ann")));
//! let back = provider.authorize(&start_location).await; // the app's callback URL
//! ```

mod endpoints;
mod signing;
mod state;

use std::sync::{Arc, Mutex, MutexGuard};

use axum::Router;
use axum::routing::{get, post};
use payback_domain::{Clock, SystemClock};

pub use super::human::ErrorPage as SignInPage;
pub use super::recorder::RecordedRequest;
pub use state::{Fault, Human};

use super::loopback::{Loopback, LoopbackServer};
use super::{human, lock, recorder};

pub(crate) type Shared = Arc<Mutex<state::State>>;

/// The OAuth client the fake knows.
pub const CLIENT_ID: &str = "payback-sso-test.apps.googleusercontent.com";
pub const CLIENT_SECRET: &str = "GOCSPX-payback-sso-test-secret";

const SCREEN: &str = "the provider's sign-in screen";

/// The fake provider; it stops serving when dropped.
pub struct FakeOidc {
    shared: Shared,
    server: LoopbackServer,
}

impl std::fmt::Debug for FakeOidc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.server.describe("FakeOidc", f)
    }
}

impl FakeOidc {
    /// Serves on `127.0.0.1:0`, stamping ID tokens with the wall clock until
    /// [`Self::use_clock`] hands it the app's.
    pub async fn spawn() -> Self {
        let loopback = Loopback::bind("FakeOidc").await;
        let shared: Shared = Arc::new(Mutex::new(state::State::new(
            loopback.origin().to_owned(),
            CLIENT_ID,
            CLIENT_SECRET,
            Arc::new(SystemClock),
        )));
        let routes = Router::new()
            .route(
                "/.well-known/openid-configuration",
                get(endpoints::discovery),
            )
            .route("/o/oauth2/v2/auth", get(endpoints::authorize))
            .route("/token", post(endpoints::token))
            .route("/oauth2/v3/certs", get(endpoints::certs))
            .route("/attacker/certs", get(endpoints::attacker_certs));
        let server = loopback.serve(recorder::recording(routes, Arc::clone(&shared)));
        Self { shared, server }
    }

    fn state(&self) -> MutexGuard<'_, state::State> {
        lock(&self.shared)
    }

    /// The issuer: the fake's origin, `http://127.0.0.1:PORT`.
    pub fn issuer(&self) -> String {
        self.server.origin().to_owned()
    }

    // ---- what a test sets -----------------------------------------------------------------

    /// Stamps ID tokens (`iat`, `exp`) with `clock`'s time: the app's, so `exp` means the same
    /// to both.
    pub fn use_clock(&self, clock: Arc<dyn Clock>) {
        self.state().clock = clock;
    }

    /// Registers the only redirect URI the client may use (as at Google's console).
    pub fn register_redirect_uri(&self, uri: &str) {
        self.state().redirect_uris = vec![uri.to_owned()];
    }

    /// The person signed in on the provider's screen from now on.
    pub fn sign_in_as(&self, human: Human) {
        self.state().human = human;
    }

    /// Injects `fault` into the next sign-ins (`None` ends it).
    pub fn set_fault(&self, fault: Option<Fault>) {
        self.state().fault = fault;
    }

    /// The discovery document names `issuer` instead of the fake's origin.
    pub fn announce_issuer(&self, issuer: &str) {
        self.state().discovery_issuer = Some(issuer.to_owned());
    }

    /// The discovery document lists only `methods` as the token endpoint's client
    /// authentications, and the token endpoint takes only those.
    pub fn offer_auth_methods(&self, methods: &[&'static str]) {
        self.state().auth_methods_supported = methods.to_vec();
    }

    /// Discovery answers 500 while `down`.
    pub fn set_discovery_down(&self, down: bool) {
        self.state().discovery_down = down;
    }

    /// Rotates the signing key: tokens are signed with a new key, and the key set publishes it
    /// alone from now on.
    pub fn rotate_keys(&self) {
        let mut state = self.state();
        state.signing = signing::ROTATED;
        state.published = vec![signing::ROTATED];
    }

    // ---- the person's browser -------------------------------------------------------------

    /// Opens the authorization URL the app redirected to; answers where the provider sends the
    /// person back (the app's callback), failing the test on an error page.
    pub async fn authorize(&self, authorization_url: &str) -> String {
        human::expect_redirect(human::visit(authorization_url, SCREEN).await, SCREEN)
    }

    /// [`Self::authorize`], answering the error page instead of failing.
    pub async fn try_authorize(&self, authorization_url: &str) -> Result<String, SignInPage> {
        human::visit(authorization_url, SCREEN).await
    }

    // ---- what happened --------------------------------------------------------------------

    /// Every request received, in order.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.state().log.all()
    }

    /// The requests whose path contains `path_contains`.
    pub fn requests_to(&self, path_contains: &str) -> Vec<RecordedRequest> {
        self.state().log.to(path_contains)
    }

    /// Every code, access token and ID token the provider issued.
    pub fn issued_secrets(&self) -> Vec<String> {
        self.state().issued.clone()
    }

    /// How the client authenticated at each token request.
    pub fn token_auth_methods(&self) -> Vec<&'static str> {
        self.state().auth_methods.clone()
    }
}
