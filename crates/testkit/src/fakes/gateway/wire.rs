//! The chat-completions API's documented shapes, as the fake writes them: a whole
//! `chat.completion` (`choices[0].message` with `content` and `tool_calls`), the same reply as
//! a stream of `chat.completion.chunk`s (`choices[0].delta`: the role first, then content in
//! pieces, each tool call's id, type and name in its first fragment and its `arguments` text
//! spread over later ones, `finish_reason` on the last chunk, then `data: [DONE]`), and the
//! error body (`{"error": {message, type, param, code}}`).

use serde_json::{Value, json};

use super::{ScriptedCall, ScriptedReply};

/// The model the fake says answered.
pub const MODEL: &str = "gpt-4o-mini-2024-07-18";
/// `created` of every completion (a fixed Unix time in seconds).
const CREATED: i64 = 1_795_262_400;
/// Characters per streamed content piece, small so a reply comes in several deltas.
const PIECE_CHARS: usize = 6;

fn finish_reason(reply: &ScriptedReply) -> &'static str {
    if reply.calls.is_empty() {
        "stop"
    } else {
        "tool_calls"
    }
}

/// The reply as one `chat.completion`.
pub fn completion(id: &str, reply: &ScriptedReply) -> Value {
    let mut message = json!({
        "role": "assistant",
        "content": reply.content.as_deref(),
        "refusal": null,
    });
    if !reply.calls.is_empty() {
        let calls: Vec<Value> = reply
            .calls
            .iter()
            .map(|call| {
                json!({
                    "id": call.id,
                    "type": "function",
                    "function": { "name": call.name, "arguments": call.arguments },
                })
            })
            .collect();
        message["tool_calls"] = Value::from(calls);
    }
    json!({
        "id": id,
        "object": "chat.completion",
        "created": CREATED,
        "model": MODEL,
        "choices": [{ "index": 0, "message": message, "logprobs": null,
                      "finish_reason": finish_reason(reply) }],
        "usage": { "prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120 },
    })
}

fn chunk(id: &str, delta: Value, finish: Option<&str>) -> Value {
    json!({
        "id": id,
        "object": "chat.completion.chunk",
        "created": CREATED,
        "model": MODEL,
        "choices": [{ "index": 0, "delta": delta, "logprobs": null, "finish_reason": finish }],
    })
}

/// Splits `text` into pieces of at most `size` characters.
fn pieces(text: &str, size: usize) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    chars
        .chunks(size.max(1))
        .map(|piece| piece.iter().collect())
        .collect()
}

/// A call's first fragment (id, type, name, empty arguments) and its arguments in two halves.
fn call_fragments(index: usize, call: &ScriptedCall) -> Vec<Value> {
    let mut fragments = vec![json!({
        "index": index, "id": call.id, "type": "function",
        "function": { "name": call.name, "arguments": "" },
    })];
    let half = call.arguments.chars().count().div_ceil(2);
    for piece in pieces(&call.arguments, half) {
        fragments.push(json!({ "index": index, "function": { "arguments": piece } }));
    }
    fragments
}

/// The reply as the stream's `data:` payloads, `[DONE]` last.
pub fn stream_events(id: &str, reply: &ScriptedReply) -> Vec<String> {
    let mut events = vec![chunk(
        id,
        json!({ "role": "assistant", "content": "", "refusal": null }),
        None,
    )];
    if let Some(content) = &reply.content {
        for piece in pieces(content, PIECE_CHARS) {
            events.push(chunk(id, json!({ "content": piece }), None));
        }
    }
    // Parallel calls come one after the other, each whole before the next starts, as the
    // documentation's examples show; the reader must still key fragments by `index`.
    for (index, call) in reply.calls.iter().enumerate() {
        for fragment in call_fragments(index, call) {
            events.push(chunk(id, json!({ "tool_calls": [fragment] }), None));
        }
    }
    events.push(chunk(id, json!({}), Some(finish_reason(reply))));
    let mut lines: Vec<String> = events.iter().map(Value::to_string).collect();
    lines.push("[DONE]".to_owned());
    lines
}

/// The documented error body.
pub fn error_body(message: &str, kind: &str, code: Option<&str>) -> Value {
    json!({ "error": { "message": message, "type": kind, "param": null, "code": code } })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // a failing unwrap is the test's failure message
mod tests {
    use super::*;

    fn reply() -> ScriptedReply {
        ScriptedReply {
            content: Some("Checking spend now.".to_owned()),
            calls: vec![
                ScriptedCall::new("call_1", "get_spend", "{\"slug\":\"shop\"}"),
                ScriptedCall::new("call_2", "list_queue", "{}"),
            ],
        }
    }

    #[test]
    fn a_whole_completion_carries_content_and_calls() {
        let whole = completion("chatcmpl-1", &reply());
        assert_eq!(whole["object"], "chat.completion");
        assert_eq!(whole["choices"][0]["finish_reason"], "tool_calls");
        let message = &whole["choices"][0]["message"];
        assert_eq!(message["content"], "Checking spend now.");
        assert_eq!(message["tool_calls"][1]["function"]["name"], "list_queue");
        assert_eq!(message["tool_calls"][0]["type"], "function");
    }

    #[test]
    fn a_stream_reassembles_into_the_same_reply() {
        let events = stream_events("chatcmpl-2", &reply());
        assert_eq!(events.last().map(String::as_str), Some("[DONE]"));
        let chunks: Vec<Value> = events[..events.len() - 1]
            .iter()
            .map(|event| serde_json::from_str(event).unwrap())
            .collect();
        assert!(
            chunks
                .iter()
                .all(|c| c["object"] == "chat.completion.chunk")
        );
        let content: String = chunks
            .iter()
            .filter_map(|c| c["choices"][0]["delta"]["content"].as_str())
            .collect();
        assert_eq!(content, "Checking spend now.");
        let mut arguments = [String::new(), String::new()];
        for c in &chunks {
            for fragment in c["choices"][0]["delta"]["tool_calls"]
                .as_array()
                .into_iter()
                .flatten()
            {
                let index = fragment["index"].as_u64().unwrap() as usize;
                arguments[index].push_str(fragment["function"]["arguments"].as_str().unwrap());
            }
        }
        assert_eq!(arguments, ["{\"slug\":\"shop\"}", "{}"]);
        assert_eq!(
            chunks.last().unwrap()["choices"][0]["finish_reason"],
            "tool_calls"
        );
    }
}
