//! The chat assistant (`POST /chat`, `POST /products/{slug}/chat`): a conversation handed to
//! the model gateway with the agent tool set (`tools::all()`) declared as functions. The model
//! asks for calls; each runs as the person or key behind the request, marked `via: chat`, so it
//! is tenant-scoped, validated and audited exactly like the API and the MCP door, and its result
//! (or its error) goes back to the model as a `tool` message. A bounded number of rounds and a
//! time budget keep a model that keeps calling from running forever; `limits.rs` bounds what an
//! account, a credential and a conversation may spend (requests, conversations at once,
//! characters sent, calls per round, writes, tool results). A conversation runs on a task of
//! its own ([`start`]) that stops when its door lets go of it ([`Running`] dropped: the client
//! went away), so nobody pays for an answer nobody reads.
//!
//! The assistant can do no more than its tools: the only writes raise a spend proposal (a card a
//! human approves in the queue) or record distribution. Tool results are data the system
//! instruction tells the model not to obey, but the guarantee is the tool set, not the prompt: a
//! campaign name asking to approve a card meets no tool that approves.

pub mod gateway;
pub mod limits;
pub mod stream;

mod admission;
mod calls;
mod context;
mod rounds;
mod task;

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

pub use self::admission::{Admission, admit};
pub use self::task::{Running, start};

/// Messages a request may carry (the conversation so far, the person's last turn included).
pub const MAX_MESSAGES: usize = 40;
/// A message's `content`, in characters.
pub const MAX_CONTENT_CHARS: usize = 8_000;
/// `section`, in characters.
pub const MAX_SECTION_CHARS: usize = 200;
/// Gateway round trips per request; the last one may not call tools, so it answers in words.
pub const MAX_ROUNDS: usize = 6;
/// The whole conversation's time, gateway and tools together.
pub const TIME_BUDGET: Duration = Duration::from_secs(60);

/// Who wrote a message. The system instruction is the server's alone: a request cannot send one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ChatRole {
    User,
    Assistant,
}

impl ChatRole {
    /// Every role, in its wire spelling.
    pub const ALL: &[ChatRole] = &[ChatRole::User, ChatRole::Assistant];

    pub fn as_str(self) -> &'static str {
        match self {
            ChatRole::User => "user",
            ChatRole::Assistant => "assistant",
        }
    }
}

/// One message of the conversation so far.
#[derive(Debug, Clone)]
pub struct Turn {
    pub role: ChatRole,
    pub content: String,
}

/// What the door hands over: the conversation, what the person is looking at, and the product
/// the conversation is about (the product route's slug).
#[derive(Debug, Clone)]
pub struct Conversation {
    pub turns: Vec<Turn>,
    pub section: Option<String>,
    pub product: Option<String>,
}

/// One call the assistant made and how it came out.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ToolCallRecord {
    /// The tool the model named (which may not exist: then `ok` is false).
    pub name: String,
    /// The arguments as run (the product's slug filled in on a product's chat); the model's
    /// text when it was not JSON.
    #[schema(value_type = Object)]
    pub arguments: Value,
    pub ok: bool,
    /// A short account of the result, or the error.
    pub summary: String,
}

/// A link into the dashboard for what the conversation left to a human.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct SuggestedAction {
    pub label: String,
    /// A dashboard hash route, e.g. `/#/queue?product=shop`.
    pub href: String,
}

/// The answer: the assistant's reply, the model that wrote it, the calls it made and the links
/// it suggests.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ChatAnswer {
    pub reply: String,
    pub model: String,
    pub tool_calls: Vec<ToolCallRecord>,
    pub suggested_actions: Vec<SuggestedAction>,
}
