//! The tool loop: a conversation's rounds with the gateway, each call the model asks for run and
//! its result handed back, within the rounds and the time a conversation has.

use payback_domain::Via;
use serde_json::{Value, json};

use super::calls::{run_call, suggestion};
use super::context::{declarations, opening};
use super::gateway::{Ask, ChatGateway, Completion};
use super::limits::Allowance;
use super::stream::{ChatEvent, Events};
use super::task::Hangup;
use super::{ChatAnswer, Conversation, MAX_ROUNDS, TIME_BUDGET};
use crate::error::{ApiError, ApiResult};
use crate::services::acting::Caller;
use crate::state::AppState;

/// Runs the conversation for `caller` (its calls recorded `via: chat`), emitting each call and
/// each piece of streamed text to `events`, until the model answers in words, the rounds or the
/// time run out (502), or `hangup` says the door let go.
pub(super) async fn converse(
    state: &AppState,
    caller: &Caller,
    conversation: Conversation,
    events: &Events,
    hangup: &Hangup,
) -> ApiResult<ChatAnswer> {
    let gateway = ChatGateway::from_state(state)?;
    let caller = caller.clone().through(Via::Chat);
    let product = conversation.product.as_deref();
    let mut messages = opening(&conversation);
    let declared = declarations();
    let mut answer = ChatAnswer {
        reply: String::new(),
        model: gateway.model().to_owned(),
        tool_calls: Vec::new(),
        suggested_actions: Vec::new(),
    };
    let mut allowance = Allowance::default();
    let deadline = tokio::time::Instant::now() + TIME_BUDGET;
    for round in 0..MAX_ROUNDS {
        if hangup.is_hung_up() {
            return Err(gone());
        }
        let ask = Ask {
            tools: &declared,
            may_call_tools: round + 1 < MAX_ROUNDS,
            stream: events.streaming(),
        };
        // Text of an earlier round stays in the reply; a break keeps the two apart.
        let separate = !answer.reply.is_empty();
        let mut first = true;
        let mut on_delta = |text: &str| {
            if first && separate {
                events.emit(ChatEvent::Delta("\n\n".to_owned()));
            }
            first = false;
            events.emit(ChatEvent::Delta(text.to_owned()));
        };
        let asked =
            tokio::time::timeout_at(deadline, gateway.complete(&messages, ask, &mut on_delta));
        // A request under way is abandoned when the door lets go: its answer has no reader.
        let completion: Completion = tokio::select! {
            biased;
            () = hangup.hung_up() => return Err(gone()),
            completed = asked => completed.map_err(|_| out_of_time())??,
        };
        answer.model.clone_from(&completion.model);
        if !completion.content.is_empty() {
            if separate {
                answer.reply.push_str("\n\n");
            }
            answer.reply.push_str(&completion.content);
        }
        if completion.tool_calls.is_empty() || !ask.may_call_tools {
            return Ok(answer);
        }
        messages.push(assistant_calls(&completion));
        for (index, call) in completion.tool_calls.iter().enumerate() {
            if hangup.is_hung_up() {
                return Err(gone());
            }
            let ran = run_call(state, &caller, product, call, index, &mut allowance);
            let (record, content) = tokio::time::timeout_at(deadline, ran)
                .await
                .map_err(|_| out_of_time())?;
            if let Some(action) = suggestion(&record, product) {
                answer.suggested_actions.push(action);
            }
            events.emit(ChatEvent::Tool(record.clone()));
            answer.tool_calls.push(record);
            messages.push(json!({ "role": "tool", "tool_call_id": call.id, "content": content }));
        }
    }
    // Unreachable in practice (the last round cannot call tools), but a round count is a bound.
    Ok(answer)
}

/// What a conversation whose door let go ends with; nobody reads it.
fn gone() -> ApiError {
    ApiError::bad_request("the client went away; the conversation stopped")
}

fn out_of_time() -> ApiError {
    ApiError::BadGateway(format!(
        "the assistant did not finish within {} seconds",
        TIME_BUDGET.as_secs()
    ))
}

/// The assistant's turn that asked for calls, as the API wants it back before their results.
fn assistant_calls(completion: &Completion) -> Value {
    let calls: Vec<Value> = completion
        .tool_calls
        .iter()
        .map(|call| {
            json!({
                "id": call.id,
                "type": "function",
                "function": { "name": call.name, "arguments": call.arguments },
            })
        })
        .collect();
    let content = if completion.content.is_empty() {
        Value::Null
    } else {
        Value::from(completion.content.clone())
    };
    json!({ "role": "assistant", "content": content, "tool_calls": calls })
}
