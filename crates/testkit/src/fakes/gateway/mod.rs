//! A loopback fake of an OpenAI-compatible chat-completions gateway (`POST /v1/chat/completions`),
//! written from OpenAI's documented request, response and streaming formats (`wire.rs`), so the
//! chat assistant is tested against the contract rather than against its own habits.
//!
//! A test scripts the replies, one per request in order: text, tool calls (several in one turn
//! are parallel calls; arguments are the model's raw text, so they may be malformed; the name
//! may be a tool that does not exist), or an HTTP error in the documented error shape. A request
//! with `stream: true` gets the same reply as `text/event-stream` chunks. Every request is
//! recorded (its bearer and body) before it is answered; a wrong bearer answers 401, and a
//! request past the script 500, both as OpenAI's error body.
//!
//! A test can hold the fake ([`FakeGateway::hold`]): requests are recorded, then wait unanswered
//! until [`FakeGateway::release`], so conversations stay open (limits on conversations under
//! way) or a client can leave mid-conversation. A held request whose client hangs up before it
//! is answered is counted as abandoned ([`FakeGateway::abandoned`]): the other side stopped
//! waiting.
//!
//! ```ignore
//! let gateway = FakeGateway::spawn().await;
//! gateway.script_calls(vec![ScriptedCall::new("call_1", "get_spend", r#"{"slug":"shop"}"#)]);
//! gateway.script_text("Google's CAC rose 20%.");
//! // PAYBACK_MODEL_GATEWAY_URL = gateway.base_url(), PAYBACK_MODEL_GATEWAY_KEY = FakeGateway::KEY
//! ```

mod wire;

use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use serde_json::Value;

pub use wire::MODEL;

use super::loopback::LoopbackServer;

/// One function call of a scripted turn.
#[derive(Debug, Clone)]
pub struct ScriptedCall {
    pub id: String,
    pub name: String,
    /// The arguments' JSON text as the model writes it (not checked: it may be malformed).
    pub arguments: String,
}

impl ScriptedCall {
    pub fn new(id: &str, name: &str, arguments: &str) -> Self {
        Self {
            id: id.to_owned(),
            name: name.to_owned(),
            arguments: arguments.to_owned(),
        }
    }
}

/// One scripted assistant turn.
#[derive(Debug, Clone, Default)]
pub struct ScriptedReply {
    pub content: Option<String>,
    pub calls: Vec<ScriptedCall>,
}

#[derive(Debug, Clone)]
enum Scripted {
    Reply(ScriptedReply),
    Fail(StatusCode),
}

/// One request as the fake received it.
#[derive(Debug, Clone)]
pub struct RecordedRequest {
    /// The `Authorization` header.
    pub authorization: Option<String>,
    /// The JSON body (`Null` when it was not JSON).
    pub body: Value,
}

impl RecordedRequest {
    /// The `messages` sent.
    pub fn messages(&self) -> Vec<Value> {
        self.body["messages"]
            .as_array()
            .cloned()
            .unwrap_or_default()
    }

    /// The `tool` messages sent, as (`tool_call_id`, content parsed as JSON).
    pub fn tool_results(&self) -> Vec<(String, Value)> {
        self.messages()
            .into_iter()
            .filter(|message| message["role"] == "tool")
            .map(|message| {
                let id = message["tool_call_id"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned();
                let content = message["content"].as_str().unwrap_or_default();
                (id, serde_json::from_str(content).unwrap_or(Value::Null))
            })
            .collect()
    }

    /// The names of the declared tools.
    pub fn tool_names(&self) -> Vec<String> {
        self.body["tools"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|tool| tool["function"]["name"].as_str().map(str::to_owned))
            .collect()
    }
}

#[derive(Default)]
struct FakeState {
    script: VecDeque<Scripted>,
    requests: Vec<RecordedRequest>,
    served: usize,
}

struct SharedState {
    state: Mutex<FakeState>,
    /// `true` while requests wait unanswered.
    held: tokio::sync::watch::Sender<bool>,
    /// Requests whose client hung up before they were answered.
    abandoned: AtomicUsize,
}

impl Default for SharedState {
    fn default() -> Self {
        Self {
            state: Mutex::default(),
            held: tokio::sync::watch::Sender::new(false),
            abandoned: AtomicUsize::new(0),
        }
    }
}

type Shared = Arc<SharedState>;

fn lock(shared: &Shared) -> MutexGuard<'_, FakeState> {
    super::lock(&shared.state)
}

/// Counts a request as abandoned when its handler is dropped before it answers (the client
/// closed the connection).
struct Waiting<'a> {
    shared: &'a SharedState,
    answered: bool,
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        if !self.answered {
            self.shared.abandoned.fetch_add(1, Ordering::SeqCst);
        }
    }
}

/// How long the `wait_for_*` helpers wait before failing the test.
const WAIT: Duration = Duration::from_secs(10);

/// The running fake; the server stops when this is dropped.
pub struct FakeGateway {
    server: LoopbackServer,
    shared: Shared,
}

impl std::fmt::Debug for FakeGateway {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.server.describe("FakeGateway", f)
    }
}

impl FakeGateway {
    /// The only key the fake accepts.
    pub const KEY: &'static str = "sk-fake-gateway-key";

    pub async fn spawn() -> Self {
        let shared: Shared = Arc::default();
        let app = Router::new()
            .route("/v1/chat/completions", post(complete))
            .with_state(shared.clone());
        Self {
            server: LoopbackServer::spawn("gateway", app).await,
            shared,
        }
    }

    /// `PAYBACK_MODEL_GATEWAY_URL` (`/chat/completions` is appended).
    pub fn base_url(&self) -> String {
        format!("{}/v1", self.server.origin())
    }

    /// The next turn answers `text`.
    pub fn script_text(&self, text: &str) {
        self.script(ScriptedReply {
            content: Some(text.to_owned()),
            calls: Vec::new(),
        });
    }

    /// The next turn asks for `calls` (several: parallel calls).
    pub fn script_calls(&self, calls: Vec<ScriptedCall>) {
        self.script(ScriptedReply {
            content: None,
            calls,
        });
    }

    /// The next turn answers `reply`.
    pub fn script(&self, reply: ScriptedReply) {
        lock(&self.shared).script.push_back(Scripted::Reply(reply));
    }

    /// The next request fails with `status` and the documented error body.
    pub fn script_failure(&self, status: StatusCode) {
        lock(&self.shared).script.push_back(Scripted::Fail(status));
    }

    /// Every request so far, in order.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        lock(&self.shared).requests.clone()
    }

    /// Scripted turns not asked for yet.
    pub fn unused(&self) -> usize {
        lock(&self.shared).script.len()
    }

    /// From now on, requests are recorded and then wait unanswered until [`Self::release`].
    pub fn hold(&self) {
        self.shared.held.send_replace(true);
    }

    /// Answers the held requests (each takes the next scripted turn as it wakes, so held
    /// requests should expect alike turns) and answers the next ones at once.
    pub fn release(&self) {
        self.shared.held.send_replace(false);
    }

    /// Held requests whose client closed the connection before they were answered.
    pub fn abandoned(&self) -> usize {
        self.shared.abandoned.load(Ordering::SeqCst)
    }

    /// Waits until at least `count` requests have been recorded; fails the test after 10 s.
    pub async fn wait_for_requests(&self, count: usize) {
        let shared = Arc::clone(&self.shared);
        wait_until(&format!("{count} requests"), || {
            lock(&shared).requests.len() >= count
        })
        .await;
    }

    /// Waits until at least `count` held requests were abandoned by their client; fails the
    /// test after 10 s.
    pub async fn wait_for_abandoned(&self, count: usize) {
        wait_until(&format!("{count} abandoned requests"), || {
            self.abandoned() >= count
        })
        .await;
    }
}

async fn wait_until(what: &str, done: impl Fn() -> bool) {
    let deadline = tokio::time::Instant::now() + WAIT;
    while !done() {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the fake gateway did not see {what} within {WAIT:?}"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

async fn complete(State(shared): State<Shared>, headers: HeaderMap, body: String) -> Response {
    let authorization = headers
        .get(header::AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .map(str::to_owned);
    let body: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
    let id = {
        let mut state = lock(&shared);
        state.requests.push(RecordedRequest {
            authorization: authorization.clone(),
            body: body.clone(),
        });
        state.served += 1;
        if authorization.as_deref() != Some(&format!("Bearer {}", FakeGateway::KEY)) {
            let error = wire::error_body(
                "Incorrect API key provided.",
                "invalid_request_error",
                Some("invalid_api_key"),
            );
            return (StatusCode::UNAUTHORIZED, axum::Json(error)).into_response();
        }
        format!("chatcmpl-fake{}", state.served)
    };
    // Held: wait for the release. A client that hangs up meanwhile drops this future, and the
    // guard counts the request as abandoned.
    let mut waiting = Waiting {
        shared: &shared,
        answered: false,
    };
    let mut held = shared.held.subscribe();
    while *held.borrow_and_update() {
        if held.changed().await.is_err() {
            break;
        }
    }
    waiting.answered = true;
    drop(waiting);
    // The script is read once released, so a request abandoned while held takes no turn.
    let next = lock(&shared).script.pop_front();
    let reply = match next {
        Some(Scripted::Reply(reply)) => reply,
        Some(Scripted::Fail(status)) => {
            let error = wire::error_body("The server had an error.", "server_error", None);
            return (status, axum::Json(error)).into_response();
        }
        None => {
            let error =
                wire::error_body("The fake has no scripted reply left.", "server_error", None);
            return (StatusCode::INTERNAL_SERVER_ERROR, axum::Json(error)).into_response();
        }
    };
    if body["stream"] == Value::Bool(true) {
        let text: String = wire::stream_events(&id, &reply)
            .iter()
            .map(|data| format!("data: {data}\n\n"))
            .collect();
        return ([(header::CONTENT_TYPE, "text/event-stream")], text).into_response();
    }
    axum::Json(wire::completion(&id, &reply)).into_response()
}
