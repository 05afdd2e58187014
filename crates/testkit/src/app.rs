//! [`TestApp`]: the real service on a loopback port, one per test.

use std::sync::Arc;

use payback_domain::{ManualClock, Timestamp};
use payback_server::{AppState, Config};
use serde_json::{Value, json};
use tokio::sync::oneshot;

use crate::mail::{self, ReceivedMail};
use crate::postgres;
use crate::reply::Reply;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// A signed-in person: their session token and account.
#[derive(Debug, Clone)]
pub struct Session {
    pub token: String,
    pub email: String,
    pub account_id: String,
    pub user_id: String,
}

pub struct TestApp {
    pub base_url: String,
    pub client: reqwest::Client,
    pub clock: ManualClock,
    pub state: AppState,
    pub backend: Backend,
    pub operator_token: String,
    mail_dir: tempfile::TempDir,
    _sqlite_dir: Option<tempfile::TempDir>,
    postgres_database: Option<String>,
    shutdown: Option<oneshot::Sender<()>>,
}

/// Tests start at a fixed, ordinary instant: 2026-11-21T12:00:00Z.
pub const TEST_START: Timestamp = Timestamp::from_millis(1_795_262_400_000);

pub const TEST_PASSWORD: &str = "correct horse battery";

impl TestApp {
    pub async fn spawn(backend: Backend) -> Self {
        Self::spawn_with(backend, |_| {}).await
    }

    /// Spawns the service after `configure` has adjusted the test configuration.
    pub async fn spawn_with(backend: Backend, configure: impl FnOnce(&mut Config)) -> Self {
        Self::spawn_custom(backend, configure, |_| {}).await
    }

    /// Spawns the service after `configure` adjusted the configuration and `adjust` the built
    /// state (to register fake spend executors, for example).
    pub async fn spawn_custom(
        backend: Backend,
        configure: impl FnOnce(&mut Config),
        adjust: impl FnOnce(&mut AppState),
    ) -> Self {
        Self::spawn_at(backend, TEST_START, configure, adjust).await
    }

    /// [`TestApp::spawn_custom`] with the app's clock starting at `start` instead of
    /// [`TEST_START`]: the browser tests start it on the wall clock
    /// (`browser::spawn_on_wall_clock`), which the browser stamps times with.
    pub async fn spawn_at(
        backend: Backend,
        start: Timestamp,
        configure: impl FnOnce(&mut Config),
        adjust: impl FnOnce(&mut AppState),
    ) -> Self {
        let _ = rustls::crypto::ring::default_provider().install_default();
        let mail_dir = tempfile::tempdir().expect("mail dir");
        let (database_url, sqlite_dir, postgres_database) = match backend {
            Backend::Sqlite => {
                let dir = tempfile::tempdir().expect("sqlite dir");
                (
                    format!("sqlite://{}/payback.db", dir.path().display()),
                    Some(dir),
                    None,
                )
            }
            Backend::Postgres => {
                let (name, url) = postgres::create_database().await;
                (url, None, Some(name))
            }
        };
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let addr = listener.local_addr().expect("local addr");
        let operator_token = format!("op-{}", uuid::Uuid::new_v4().simple());
        let mut config = Config {
            database_url: database_url.into(),
            listen: addr,
            public_url: Some(format!("http://{addr}")),
            operator_token: Some(operator_token.clone().into()),
            operator_email: Some("ops@payback.test".to_owned()),
            mail: format!("file:{}", mail_dir.path().display()).into(),
            rate_limit_per_minute: 10_000,
            // Tests run jobs by hand, against the manual clock.
            jobs_every_secs: 0,
            // Tests write, then read what they wrote: every read waits for the whole fold (a
            // test's fold takes well under this), so reads are exact. Tests of reads behind a
            // backlog set their own wait.
            read_wait_ms: 600_000,
            // The customer databases of the tests live on this machine.
            allow_private_database_hosts: true,
            ..Config::default()
        };
        configure(&mut config);
        let clock = ManualClock::starting_at(start);
        let mut state = payback_server::build_state(config, Arc::new(clock.clone()))
            .await
            .expect("state");
        adjust(&mut state);
        let (shutdown, on_shutdown) = oneshot::channel::<()>();
        let served = state.clone();
        tokio::spawn(async move {
            let _ = payback_server::serve(served, listener, async move {
                let _ = on_shutdown.await;
            })
            .await;
        });
        Self {
            base_url: format!("http://{addr}"),
            client: reqwest::Client::builder()
                .redirect(reqwest::redirect::Policy::none())
                .build()
                .expect("client"),
            clock,
            state,
            backend,
            operator_token,
            mail_dir,
            _sqlite_dir: sqlite_dir,
            postgres_database,
            shutdown: Some(shutdown),
        }
    }

    /// Stops this instance as a crash would (requests in flight are abandoned, nothing is
    /// closed cleanly) and starts a new one on the same database and clock; `adjust` registers
    /// the new instance's fakes. What the first instance committed is all the second one sees.
    pub async fn restart_with(mut self, adjust: impl FnOnce(&mut AppState)) -> Self {
        if let Some(shutdown) = self.shutdown.take() {
            let _ = shutdown.send(());
        }
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let addr = listener.local_addr().expect("local addr");
        let mut config = (*self.state.config).clone();
        config.listen = addr;
        config.public_url = Some(format!("http://{addr}"));
        let mut state = payback_server::build_state(config, Arc::new(self.clock.clone()))
            .await
            .expect("state");
        adjust(&mut state);
        let (shutdown, on_shutdown) = oneshot::channel::<()>();
        let served = state.clone();
        tokio::spawn(async move {
            let _ = payback_server::serve(served, listener, async move {
                let _ = on_shutdown.await;
            })
            .await;
        });
        self.state = state;
        self.base_url = format!("http://{addr}");
        self.shutdown = Some(shutdown);
        self
    }

    /// The directory the `file:` mail transport writes to.
    pub fn mail_dir(&self) -> &std::path::Path {
        self.mail_dir.path()
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base_url)
    }

    fn with_auth(builder: reqwest::RequestBuilder, token: Option<&str>) -> reqwest::RequestBuilder {
        match token {
            Some(token) => builder.bearer_auth(token),
            None => builder,
        }
    }

    pub async fn get(&self, path: &str, token: Option<&str>) -> Reply {
        let request = Self::with_auth(self.client.get(self.url(path)), token);
        Reply::read(request.send().await.expect("GET")).await
    }

    pub async fn post(&self, path: &str, token: Option<&str>, body: Value) -> Reply {
        let request = Self::with_auth(self.client.post(self.url(path)), token).json(&body);
        Reply::read(request.send().await.expect("POST")).await
    }

    /// A POST with a raw body and content type, for malformed-input tests.
    pub async fn post_raw(
        &self,
        path: &str,
        token: Option<&str>,
        content_type: &str,
        body: impl Into<reqwest::Body>,
    ) -> Reply {
        let request = Self::with_auth(self.client.post(self.url(path)), token)
            .header(reqwest::header::CONTENT_TYPE, content_type)
            .body(body);
        Reply::read(request.send().await.expect("POST")).await
    }

    pub async fn request(&self, method: reqwest::Method, path: &str, token: Option<&str>) -> Reply {
        let request = Self::with_auth(self.client.request(method, self.url(path)), token);
        Reply::read(request.send().await.expect("request")).await
    }

    /// Every mail sent so far, oldest first.
    pub fn mails(&self) -> Vec<ReceivedMail> {
        mail::read_all(self.mail_dir.path())
    }

    /// The newest mail to `email`.
    #[track_caller]
    pub fn last_mail_to(&self, email: &str) -> ReceivedMail {
        self.mails()
            .into_iter()
            .rev()
            .find(|m| m.to == email)
            .unwrap_or_else(|| panic!("no mail to {email}"))
    }

    /// Signs up, follows the verification link from the mail, and logs in.
    pub async fn signup_verified(&self, email: &str) -> Session {
        self.post(
            "/auth/signup",
            None,
            json!({ "email": email, "password": TEST_PASSWORD }),
        )
        .await
        .expect(200);
        let link = self
            .last_mail_to(email)
            .link_starting_with(&format!("{}/auth/verify?token=", self.base_url))
            .expect("verification link");
        let reply = Reply::read(self.client.get(&link).send().await.expect("verify")).await;
        assert_eq!(reply.status, 302, "verify: {}", reply.text);
        self.login(email).await
    }

    /// `GET /health` as the person `email` (signed in afresh), answered 200.
    pub async fn health_seen_by(&self, email: &str) -> serde_json::Value {
        let session = self.login(email).await;
        self.get("/health", Some(&session.token))
            .await
            .expect(200)
            .clone()
    }

    pub async fn login(&self, email: &str) -> Session {
        let reply = self
            .post(
                "/auth/login",
                None,
                json!({ "email": email, "password": TEST_PASSWORD }),
            )
            .await;
        let body = reply.expect(200);
        let token = body["token"].as_str().expect("token").to_owned();
        Session {
            token,
            email: email.to_owned(),
            account_id: body["account"]["id"]
                .as_str()
                .expect("account id")
                .to_owned(),
            user_id: self.user_id_of(email).await,
        }
    }

    /// The person's id, read straight from the store.
    async fn user_id_of(&self, email: &str) -> String {
        let user = payback_store::users::find_by_email(&self.state.store, email)
            .await
            .expect("user")
            .expect("user exists");
        user.id
    }

    /// Creates an API key through the session and returns the full key.
    pub async fn api_key(&self, session: &Session) -> String {
        let reply = self
            .post(
                "/auth/keys",
                Some(&session.token),
                json!({ "name": "test" }),
            )
            .await;
        reply.expect(200)["key"].as_str().expect("key").to_owned()
    }

    /// `GET /auth/keys` through `token`: each live key's name and `created_by`, oldest first.
    pub async fn key_creators(&self, token: &str) -> Vec<(String, Value)> {
        self.get("/auth/keys", Some(token))
            .await
            .expect(200)
            .as_array()
            .expect("a list of keys")
            .iter()
            .map(|key| {
                let name = key["name"].as_str().expect("key name").to_owned();
                (name, key["created_by"].clone())
            })
            .collect()
    }

    /// Invites `email` into `owner`'s account as `role` (`owner`/`member`), accepts the invite
    /// with [`TEST_PASSWORD`], and returns the new member's session there.
    pub async fn add_member(&self, owner: &Session, email: &str, role: &str) -> Session {
        let invitation = self
            .post(
                "/team/invites",
                Some(&owner.token),
                json!({ "email": email, "member_role": role }),
            )
            .await;
        let invite_url = invitation.expect(200)["invite_url"]
            .as_str()
            .expect("invite_url")
            .to_owned();
        let (_, token) = invite_url.rsplit_once("/#/invite/").expect("invite link");
        let accepted = self
            .post(
                "/auth/accept-invite",
                None,
                json!({ "token": token, "password": TEST_PASSWORD }),
            )
            .await;
        let body = accepted.expect(200);
        Session {
            token: body["token"].as_str().expect("token").to_owned(),
            email: email.to_owned(),
            account_id: body["account"]["id"].as_str().expect("account").to_owned(),
            user_id: self.user_id_of(email).await,
        }
    }

    /// Posts `events` (a JSON array) to the product's ingestion route and expects them
    /// accepted (200).
    pub async fn send_events(&self, token: &str, slug: &str, events: Value) {
        self.post(
            &format!("/products/{slug}/events"),
            Some(token),
            json!({ "events": events }),
        )
        .await
        .expect(200);
    }

    /// Creates a product (USD) and returns the creation result.
    pub async fn create_product(&self, token: &str, slug: &str) -> Value {
        let reply = self
            .post(
                "/products",
                Some(token),
                json!({ "name": format!("Product {slug}"), "slug": slug }),
            )
            .await;
        reply.expect(200).clone()
    }

    /// `GET /queue` as `token` sees it.
    pub async fn queue(&self, token: &str) -> Vec<Value> {
        let reply = self.get("/queue", Some(token)).await;
        reply.expect(200).as_array().expect("queue array").clone()
    }

    /// History as `token` sees it.
    pub async fn history(&self, token: &str, query: &str) -> Vec<Value> {
        let reply = self.get(&format!("/history{query}"), Some(token)).await;
        reply.expect(200).as_array().expect("history array").clone()
    }

    /// Every history event `token` (an owner or an operator) can see that `keep` selects,
    /// oldest first: the account's own events (`include=account`) with the products'.
    pub async fn history_where(&self, token: &str, keep: impl Fn(&Value) -> bool) -> Vec<Value> {
        let mut events: Vec<Value> = self
            .history(token, "?limit=1000&include=account")
            .await
            .into_iter()
            .filter(|event| keep(event))
            .collect();
        events.reverse();
        events
    }

    /// Proposes `body` on `slug` with `proposer` (an API key) and has `owner` approve it;
    /// answers the card's id.
    pub async fn propose_and_approve(
        &self,
        proposer: &str,
        owner: &Session,
        slug: &str,
        body: Value,
    ) -> String {
        let id = self.raise_proposal(proposer, slug, body).await;
        self.approve_card(&owner.token, &id).await;
        id
    }

    /// Raises the proposal `body` on `slug` through `proposer` (an agent's key or a person's
    /// session); it must be accepted to wait for a human (202). Answers the card's id.
    pub async fn raise_proposal(&self, proposer: &str, slug: &str, body: Value) -> String {
        let reply = self
            .post(&format!("/products/{slug}/proposals"), Some(proposer), body)
            .await;
        reply.expect(202)["proposal_id"]
            .as_str()
            .expect("proposal_id")
            .to_owned()
    }

    /// `token` approves the card `id`; the approval must be accepted (200).
    pub async fn approve_card(&self, token: &str, id: &str) {
        self.post(&format!("/queue/{id}/approve"), Some(token), json!({}))
            .await
            .expect(200);
    }

    /// Sends `token`'s approval of the card `id` on a task of its own and answers the task, so
    /// the test can cut the request while the network is being asked (a crash: `abort`) or
    /// await its reply later.
    pub fn approve_in_background(
        &self,
        token: &str,
        id: &str,
    ) -> tokio::task::JoinHandle<reqwest::Result<reqwest::Response>> {
        let approving = self
            .client
            .post(self.url(&format!("/queue/{id}/approve")))
            .bearer_auth(token)
            .json(&json!({}))
            .send();
        tokio::spawn(approving)
    }

    /// The card `id` as `GET /queue?status=<status>` lists it to `token`; panics when it is not
    /// listed there.
    pub async fn queue_card(&self, token: &str, status: &str, id: &str) -> Value {
        let reply = self
            .get(&format!("/queue?status={status}"), Some(token))
            .await;
        reply
            .expect(200)
            .as_array()
            .expect("queue array")
            .iter()
            .find(|card| card["id"] == id)
            .cloned()
            .unwrap_or_else(|| panic!("card {id} is not {status}"))
    }

    /// The `execution` of the approved card `id` as `token` sees it: the state of its budget
    /// change (applying, applied, refused) with the amounts and the reason.
    pub async fn approved_execution(&self, token: &str, id: &str) -> Value {
        self.queue_card(token, "approved", id).await["execution"].clone()
    }
}

impl Drop for TestApp {
    fn drop(&mut self) {
        if let Some(shutdown) = self.shutdown.take() {
            let _ = shutdown.send(());
        }
        if let Some(name) = self.postgres_database.take() {
            postgres::drop_database(name);
        }
    }
}
