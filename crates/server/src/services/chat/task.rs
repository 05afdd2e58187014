//! A conversation on a task of its own, and the line between it and its door: when the door
//! lets go (the client went away), the conversation stops.

use tokio::sync::watch;

use super::rounds::converse;
use super::stream::{ChatEvent, Events};
use super::{Admission, ChatAnswer, Conversation};
use crate::error::{ApiError, ApiResult};
use crate::services::acting::Caller;
use crate::state::AppState;

/// A conversation under way on its own task. Dropping it (the door's future dropped, the
/// stream's receiver gone: the client went away) tells the conversation to stop: no gateway
/// request or tool call starts after that, and a gateway request under way is abandoned. A tool
/// call under way finishes, so a write is told whole to history (it is one transaction anyway).
#[derive(Debug)]
pub struct Running {
    task: tokio::task::JoinHandle<ApiResult<ChatAnswer>>,
    /// Dropped with this handle; the conversation's [`Hangup`] then sees the line closed.
    line: watch::Sender<()>,
}

impl Running {
    /// The conversation's answer, once it has ended.
    pub async fn finish(self) -> ApiResult<ChatAnswer> {
        let Running { task, line } = self;
        let outcome = task.await;
        drop(line);
        outcome
            .map_err(|err| ApiError::internal(format!("the conversation's task failed: {err}")))?
    }
}

/// The conversation's side of [`Running`]: whether the door still holds it.
#[derive(Debug, Clone)]
pub(super) struct Hangup(watch::Receiver<()>);

impl Hangup {
    /// Whether the door let go (nothing is ever sent, so an error means the sender is gone).
    pub(super) fn is_hung_up(&self) -> bool {
        self.0.has_changed().is_err()
    }

    /// Resolves once the door lets go.
    pub(super) async fn hung_up(&self) {
        let mut line = self.0.clone();
        while line.changed().await.is_ok() {}
    }
}

/// Starts the admitted conversation for `caller` on a task of its own, emitting each call and
/// each piece of streamed text to `events` (and, when someone listens, `done` or `error` last).
pub fn start(
    state: AppState,
    caller: Caller,
    conversation: Conversation,
    admission: Admission,
    events: Events,
) -> Running {
    let (line, hangup) = watch::channel(());
    let task = tokio::spawn(async move {
        // The account's place is held until this task ends, however it ends.
        let _admission = admission;
        let outcome = converse(&state, &caller, conversation, &events, &Hangup(hangup)).await;
        if events.streaming() {
            events.emit(match &outcome {
                Ok(answer) => ChatEvent::Done(answer.clone()),
                Err(err) => ChatEvent::failed(err),
            });
        }
        outcome
    });
    Running { task, line }
}
