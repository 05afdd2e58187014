//! What the tests of the kinds the search-engine grant serves (`search_console`, `analytics_a`,
//! `tagmgr`, and the service-account path) share: the service wired to the Google fake's OAuth
//! endpoints and to the APIs a test names, the grant played through as the person does
//! (start, Payback's confirmation page, Google's consent, the callback), its status and
//! selection, the service account's verify, and the disconnects that keep or revoke the grant.

use std::path::PathBuf;

use base64::Engine as _;
use payback_domain::Clock as _;
use payback_domain::connection::ConnectionKind;
use payback_server::secret::Secret;
use payback_testkit::fakes::google::FakeGoogle;
use payback_testkit::{Backend, Reply, TestApp};
use serde_json::{Value, json};

/// The product every grant here is for (`crate::shop::founder`'s).
const PRODUCT: &str = "shop";

/// The service as a Google grant test wants it: Payback's OAuth client and sealing key always,
/// the rest as named.
pub struct GoogleApp<'a> {
    google: &'a FakeGoogle,
    apis: Vec<(ConnectionKind, String)>,
    search_console: bool,
    developer_token: bool,
    key_file: Option<PathBuf>,
    today: Option<&'static str>,
}

impl<'a> GoogleApp<'a> {
    pub fn new(google: &'a FakeGoogle) -> Self {
        Self {
            google,
            apis: Vec::new(),
            search_console: false,
            developer_token: false,
            key_file: None,
            today: None,
        }
    }

    /// `kind`'s API at `origin` (one of the fake's).
    pub fn api(mut self, kind: ConnectionKind, origin: String) -> Self {
        self.apis.push((kind, origin));
        self
    }

    /// The operator's switch for `search_console` (off unless set).
    pub fn search_console(mut self, switched_on: bool) -> Self {
        self.search_console = switched_on;
        self
    }

    /// The Google Ads developer token the fake expects, for grants that serve `search_ads`.
    pub fn ads_developer_token(mut self) -> Self {
        self.developer_token = true;
        self
    }

    /// The operator's service-account key file, when there is one.
    pub fn service_account_key(mut self, key_file: Option<PathBuf>) -> Self {
        self.key_file = key_file;
        self
    }

    /// The fake's today, for the kinds whose reports end there.
    pub fn today(mut self, day: &'static str) -> Self {
        self.today = Some(day);
        self
    }

    /// Spawns the service on `backend`, its callback registered with the fake.
    pub async fn spawn(self, backend: Backend) -> TestApp {
        let google = self.google;
        let (auth, token, revoke) = (google.auth_url(), google.token_url(), google.revoke_url());
        let (client_id, client_secret) = (
            google.client_id().to_owned(),
            google.client_secret().to_owned(),
        );
        let developer_token = self
            .developer_token
            .then(|| Secret::new(google.developer_token().to_owned()));
        let app = TestApp::spawn_with(backend, move |config| {
            config.secret_key = Some(Secret::new(
                base64::engine::general_purpose::STANDARD.encode([7_u8; 32]),
            ));
            config.searchco_client_id = Some(client_id);
            config.searchco_client_secret = Some(Secret::new(client_secret));
            config.searchco_auth_url = auth;
            config.searchco_token_url = token;
            config.searchco_revoke_url = revoke;
            config.searchco_search_console = self.search_console;
            config.searchco_service_account_key_file = self.key_file;
            config.search_ads_developer_token = developer_token;
            config.api_urls.extend(self.apis);
        })
        .await;
        google.register_redirect_uri(&app.url("/connect/searchco/callback"));
        if let Some(day) = self.today {
            google.set_today(day);
        }
        app
    }
}

/// Writes `key_json` as the operator's service-account key file in `dir`.
pub fn service_account_key_file(dir: &tempfile::TempDir, key_json: &str) -> PathBuf {
    let path = dir.path().join("service-account.json");
    std::fs::write(&path, key_json).expect("the key file is written");
    path
}

/// `POST /connect/searchco/start` for `kinds` of the product.
pub async fn start(app: &TestApp, token: &str, kinds: Value) -> Reply {
    start_with(
        app,
        token,
        json!({ "product_slug": PRODUCT, "kinds": kinds }),
    )
    .await
}

async fn start_with(app: &TestApp, token: &str, body: Value) -> Reply {
    app.post("/connect/searchco/start", Some(token), body).await
}

/// A grant the person consented to: its state, and the scopes Google was asked for, sorted.
pub struct Consented {
    pub state: String,
    pub scopes: Vec<String>,
}

/// Starts the grant for `kinds` as an API client and plays the person through the
/// confirmation page and Google's consent; the callback's page must say it is done (200).
pub async fn consent(app: &TestApp, google: &FakeGoogle, token: &str, kinds: Value) -> Consented {
    let body = json!({ "product_slug": PRODUCT, "kinds": kinds });
    let (consented, callback) = play(app, google, token, body).await;
    assert_eq!(
        callback.status().as_u16(),
        200,
        "{}",
        callback.text().await.unwrap()
    );
    consented
}

/// The same from the dashboard: the callback sends the person back to the product's
/// connections page, the state in its query.
pub async fn consent_from_dashboard(
    app: &TestApp,
    google: &FakeGoogle,
    token: &str,
    kinds: Value,
) -> Consented {
    let body = json!({ "product_slug": PRODUCT, "kinds": kinds, "client": "dashboard" });
    let (consented, callback) = play(app, google, token, body).await;
    assert_eq!(callback.status().as_u16(), 302);
    assert_eq!(
        callback.headers()["location"].to_str().unwrap(),
        format!(
            "{}/#/p/{PRODUCT}/connections?searchco_state={}",
            app.base_url, consented.state
        )
    );
    consented
}

/// Starts with `body`, confirms, consents at the fake and follows Google back to the callback.
async fn play(
    app: &TestApp,
    google: &FakeGoogle,
    token: &str,
    body: Value,
) -> (Consented, reqwest::Response) {
    let started = start_with(app, token, body).await.expect(200).clone();
    let state = started["state"].as_str().unwrap().to_owned();
    let consent_url = app
        .confirm_grant(started["auth_url"].as_str().unwrap())
        .await;
    let mut scopes: Vec<String> = reqwest::Url::parse(&consent_url)
        .unwrap()
        .query_pairs()
        .find(|(key, _)| key == "scope")
        .map(|(_, value)| value.split(' ').map(str::to_owned).collect())
        .unwrap_or_default();
    scopes.sort();
    let back = google.authorize(&consent_url).await;
    let callback = app.follow_callback(&back).await;
    (Consented { state, scopes }, callback)
}

/// `GET /connect/searchco/status` of `state`, which must answer.
pub async fn status(app: &TestApp, token: &str, state: &str) -> Value {
    app.get(
        &format!("/connect/searchco/status?state={state}"),
        Some(token),
    )
    .await
    .expect(200)
    .clone()
}

/// `POST /connect/searchco/select`.
pub async fn select(app: &TestApp, token: &str, body: Value) -> Reply {
    app.post("/connect/searchco/select", Some(token), body)
        .await
}

/// `POST /connect/searchco/service-account/verify`.
pub async fn verify(app: &TestApp, token: &str, body: Value) -> Reply {
    app.post(
        "/connect/searchco/service-account/verify",
        Some(token),
        body,
    )
    .await
}

/// One pass of the sync job (every due connection runs).
pub async fn sync(app: &TestApp) {
    payback_server::services::sync::run_due(&app.state, app.clock.now())
        .await
        .unwrap();
}

/// The refresh tokens the service sent back to Google (never to be shown to anyone).
pub fn refresh_tokens(google: &FakeGoogle) -> Vec<String> {
    google
        .requests_to("/token")
        .into_iter()
        .flat_map(|request| request.form())
        .filter(|(key, _)| key == "refresh_token")
        .map(|(_, value)| value)
        .collect()
}

/// No answer shows a refresh token the service used, or any access token; at least one
/// refresh token was used, so the check looked for something.
pub fn assert_no_token_in(answers: &[String], google: &FakeGoogle) {
    let secrets = refresh_tokens(google);
    assert!(!secrets.is_empty());
    for answer in answers {
        for secret in &secrets {
            assert!(!answer.contains(secret.as_str()), "a token in {answer}");
        }
        assert!(!answer.contains("ya29."), "an access token in {answer}");
    }
}

/// Disconnects the product's connection at `path_word` (`search-console`), which must leave
/// the grant alone: another connection still uses it, or the service account's connection
/// has none. Google is asked to revoke nothing.
pub async fn disconnect_revoking_nothing(
    app: &TestApp,
    google: &FakeGoogle,
    key: &str,
    path_word: &str,
) {
    disconnect(app, google, key, path_word, false).await;
}

/// Disconnects the grant's last connection at `path_word`: its credential is deleted and the
/// grant revoked at Google, once.
pub async fn disconnect_revoking_the_grant(
    app: &TestApp,
    google: &FakeGoogle,
    key: &str,
    path_word: &str,
) {
    disconnect(app, google, key, path_word, true).await;
}

/// The disconnect, its answer, and the revocations Google saw: one when `revoked`, else none.
async fn disconnect(app: &TestApp, google: &FakeGoogle, key: &str, path_word: &str, revoked: bool) {
    let answer = app
        .post(
            &format!("/products/{PRODUCT}/connections/{path_word}/disconnect"),
            Some(key),
            json!({}),
        )
        .await
        .expect(200)
        .clone();
    assert_eq!(
        answer,
        json!({ "ok": true, "credential_deleted": revoked, "revoked_upstream": revoked })
    );
    assert_eq!(google.requests_to("/revoke").len(), usize::from(revoked));
}
