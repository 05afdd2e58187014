//! The events of a streamed conversation (`stream: true`), in the order they happen: `tool` for
//! each call the assistant made and how it came out, `delta` for each piece of reply text as the
//! gateway streams it, then `done` with the whole answer, or `error` (and nothing after it).
//! The HTTP door writes them as server-sent events (`event: <name>`, `data: <json>`); the
//! service only hands them over, so it knows nothing of HTTP.

use serde_json::{Value, json};
use tokio::sync::mpsc::UnboundedSender;

use super::{ChatAnswer, ToolCallRecord};
use crate::error::ApiError;

/// One event of the stream.
#[derive(Debug, Clone)]
pub enum ChatEvent {
    Tool(ToolCallRecord),
    Delta(String),
    Done(ChatAnswer),
    /// `{error, status}`: the status the same failure answers without streaming.
    Error {
        error: String,
        status: u16,
    },
}

impl ChatEvent {
    /// The failure of a conversation, as its last event.
    pub fn failed(err: &ApiError) -> Self {
        ChatEvent::Error {
            error: err.to_string(),
            status: err.status().as_u16(),
        }
    }

    /// The event's name (`event:` line).
    pub fn name(&self) -> &'static str {
        match self {
            ChatEvent::Tool(_) => "tool",
            ChatEvent::Delta(_) => "delta",
            ChatEvent::Done(_) => "done",
            ChatEvent::Error { .. } => "error",
        }
    }

    /// The event's data (`data:` line): a JSON object.
    pub fn data(&self) -> Value {
        match self {
            ChatEvent::Tool(call) => json!(call),
            ChatEvent::Delta(text) => json!({ "text": text }),
            ChatEvent::Done(answer) => json!(answer),
            ChatEvent::Error { error, status } => json!({ "error": error, "status": status }),
        }
    }
}

/// Where a conversation's events go: a streaming door's channel, or nowhere.
#[derive(Debug, Clone, Default)]
pub struct Events(Option<UnboundedSender<ChatEvent>>);

impl Events {
    /// Events sent to `sender`.
    pub fn to(sender: UnboundedSender<ChatEvent>) -> Self {
        Self(Some(sender))
    }

    /// Whether anyone listens (the gateway is then asked to stream).
    pub fn streaming(&self) -> bool {
        self.0.is_some()
    }

    pub fn emit(&self, event: ChatEvent) {
        if let Some(sender) = &self.0 {
            // A client that went away closed the channel; the conversation stops at its next
            // step (`Running` is dropped with the stream), so there is nobody to tell.
            let _ = sender.send(event);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_are_named_and_carry_objects() {
        let delta = ChatEvent::Delta("Hi".to_owned());
        assert_eq!(
            (delta.name(), delta.data()),
            ("delta", json!({"text": "Hi"}))
        );
        let failed =
            ChatEvent::failed(&ApiError::BadGateway("the gateway answered 500".to_owned()));
        assert_eq!(failed.name(), "error");
        assert_eq!(failed.data()["status"], 502);
        assert_eq!(failed.data()["error"], "the gateway answered 500");
    }
}
