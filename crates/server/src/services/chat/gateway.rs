//! The chat assistant's side of the model gateway: OpenAI's chat-completions API with function
//! calling, answered whole or streamed as server-sent events (`stream: true`: `data: {chunk}`
//! lines whose `choices[0].delta` carries `content` and `tool_calls[i]` fragments, ended by
//! `data: [DONE]`). The gateway's configuration and its 503 are `model_gateway.rs`'s; this file
//! adds what a conversation needs (messages of every role, tools, streaming).

use serde::Deserialize;
use serde_json::{Value, json};

use crate::error::{ApiError, ApiResult};
use crate::model_gateway::ModelGateway;
use crate::state::AppState;

/// One function call the model asked for, its arguments still the JSON text the model wrote.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RequestedCall {
    pub id: String,
    pub name: String,
    pub arguments: String,
}

/// One assistant turn: the model that answered, its text and the calls it asked for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Completion {
    pub model: String,
    pub content: String,
    pub tool_calls: Vec<RequestedCall>,
}

/// What a request sends besides the messages.
#[derive(Debug, Clone, Copy)]
pub struct Ask<'a> {
    /// Function declarations (`{type: "function", function: {name, description, parameters}}`).
    pub tools: &'a [Value],
    /// `false` on the last round, so the model answers in words (`tool_choice: "none"`).
    pub may_call_tools: bool,
    /// Stream the answer (`stream: true`), passing text to the delta callback as it comes.
    pub stream: bool,
}

/// The configured gateway, borrowed from the state for one conversation.
#[derive(Debug)]
pub struct ChatGateway<'a> {
    http: &'a reqwest::Client,
    url: &'a str,
    key: &'a str,
    model: &'a str,
}

impl<'a> ChatGateway<'a> {
    /// The gateway of this instance; 503 when no key is configured (the same check and message
    /// as every other feature that asks a model).
    pub fn from_state(state: &'a AppState) -> ApiResult<Self> {
        ModelGateway::from_state(state)?;
        let key = state
            .config
            .model_gateway_key
            .as_ref()
            .map(crate::secret::Secret::expose)
            .unwrap_or_default();
        Ok(Self {
            http: &state.http,
            url: state.config.model_gateway_url.trim_end_matches('/'),
            key,
            model: &state.config.model,
        })
    }

    /// The model asked when the gateway names none.
    pub fn model(&self) -> &str {
        self.model
    }

    /// One assistant turn for `messages`. Streamed, each piece of text goes to `on_delta` as it
    /// arrives. 502 when the gateway cannot be reached, answers an error or an unexpected shape.
    pub async fn complete(
        &self,
        messages: &[Value],
        ask: Ask<'_>,
        on_delta: &mut (dyn FnMut(&str) + Send),
    ) -> ApiResult<Completion> {
        let mut body = json!({
            "model": self.model,
            "messages": messages,
            "stream": ask.stream,
        });
        if !ask.tools.is_empty() {
            body["tools"] = Value::from(ask.tools.to_vec());
            body["tool_choice"] = json!(if ask.may_call_tools { "auto" } else { "none" });
        }
        let mut response = self
            .http
            .post(format!("{}/chat/completions", self.url))
            .bearer_auth(self.key)
            .json(&body)
            .send()
            .await
            .map_err(|err| {
                ApiError::BadGateway(format!(
                    "the model gateway could not be reached: {}",
                    err.without_url()
                ))
            })?;
        let status = response.status();
        if !status.is_success() {
            return Err(ApiError::BadGateway(format!(
                "the model gateway answered {status}"
            )));
        }
        if !ask.stream {
            let completion: WholeCompletion = response.json().await.map_err(|_| unexpected())?;
            return completion.into_completion(self.model);
        }
        let mut reader = ChunkReader::new(self.model);
        while let Some(bytes) = response.chunk().await.map_err(|err| {
            ApiError::BadGateway(format!(
                "the model gateway's stream broke off: {}",
                err.without_url()
            ))
        })? {
            if reader.feed(&bytes, on_delta)? {
                return Ok(reader.finish());
            }
        }
        // A stream that ends without `[DONE]` was cut off: what came may be half a call.
        Err(ApiError::BadGateway(
            "the model gateway's stream ended before [DONE]".to_owned(),
        ))
    }
}

fn unexpected() -> ApiError {
    ApiError::BadGateway("the model gateway answered an unexpected shape".to_owned())
}

/// A non-streamed completion (`choices[0].message`).
#[derive(Deserialize)]
struct WholeCompletion {
    model: Option<String>,
    choices: Vec<WholeChoice>,
}

#[derive(Deserialize)]
struct WholeChoice {
    message: WholeMessage,
}

#[derive(Deserialize)]
struct WholeMessage {
    content: Option<String>,
    #[serde(default)]
    tool_calls: Vec<WholeCall>,
}

#[derive(Deserialize)]
struct WholeCall {
    id: String,
    function: WholeFunction,
}

#[derive(Deserialize)]
struct WholeFunction {
    name: String,
    #[serde(default)]
    arguments: String,
}

impl WholeCompletion {
    fn into_completion(self, asked: &str) -> ApiResult<Completion> {
        let message = self
            .choices
            .into_iter()
            .next()
            .ok_or_else(|| ApiError::BadGateway("the model answered nothing".to_owned()))?
            .message;
        Ok(Completion {
            model: self.model.unwrap_or_else(|| asked.to_owned()),
            content: message.content.unwrap_or_default(),
            tool_calls: message
                .tool_calls
                .into_iter()
                .map(|call| RequestedCall {
                    id: call.id,
                    name: call.function.name,
                    arguments: call.function.arguments,
                })
                .collect(),
        })
    }
}

/// One streamed chunk (`chat.completion.chunk`). Only the first choice is read: Payback asks
/// for one (`n` is left at 1).
#[derive(Deserialize)]
struct Chunk {
    model: Option<String>,
    #[serde(default)]
    choices: Vec<ChunkChoice>,
}

#[derive(Deserialize)]
struct ChunkChoice {
    #[serde(default)]
    delta: Delta,
}

#[derive(Deserialize, Default)]
struct Delta {
    content: Option<String>,
    #[serde(default)]
    tool_calls: Vec<CallFragment>,
}

/// A piece of a call: the first of an `index` carries its id and name, the following ones
/// more of its arguments' text.
#[derive(Deserialize)]
struct CallFragment {
    index: usize,
    id: Option<String>,
    function: Option<FunctionFragment>,
}

#[derive(Deserialize)]
struct FunctionFragment {
    name: Option<String>,
    arguments: Option<String>,
}

/// Reassembles a streamed completion from the bytes of its event stream, which may split lines
/// and even UTF-8 characters anywhere.
struct ChunkReader {
    pending: Vec<u8>,
    completion: Completion,
}

impl ChunkReader {
    fn new(asked: &str) -> Self {
        Self {
            pending: Vec::new(),
            completion: Completion {
                model: asked.to_owned(),
                ..Completion::default()
            },
        }
    }

    /// Takes the next bytes; `true` once `data: [DONE]` has come.
    fn feed(&mut self, bytes: &[u8], on_delta: &mut (dyn FnMut(&str) + Send)) -> ApiResult<bool> {
        self.pending.extend_from_slice(bytes);
        while let Some(end) = self.pending.iter().position(|&byte| byte == b'\n') {
            let line: Vec<u8> = self.pending.drain(..=end).collect();
            let line = std::str::from_utf8(&line).map_err(|_| unexpected())?;
            let line = line.trim_end_matches(['\r', '\n']);
            // Blank lines end events, `:` lines are comments, `event:`/`id:` are not used.
            let Some(data) = line.strip_prefix("data:") else {
                continue;
            };
            let data = data.trim_start();
            if data == "[DONE]" {
                return Ok(true);
            }
            self.chunk(data, on_delta)?;
        }
        Ok(false)
    }

    fn chunk(&mut self, data: &str, on_delta: &mut (dyn FnMut(&str) + Send)) -> ApiResult<()> {
        let value: Value = serde_json::from_str(data).map_err(|_| unexpected())?;
        // Gateways report a failure met mid-stream as an `error` object in a data line.
        if let Some(error) = value.get("error") {
            let message = error
                .get("message")
                .and_then(Value::as_str)
                .unwrap_or("no message");
            return Err(ApiError::BadGateway(format!(
                "the model gateway failed mid-stream: {message}"
            )));
        }
        let chunk: Chunk = serde_json::from_value(value).map_err(|_| unexpected())?;
        if let Some(model) = chunk.model {
            self.completion.model = model;
        }
        let Some(choice) = chunk.choices.into_iter().next() else {
            return Ok(());
        };
        if let Some(text) = choice.delta.content.filter(|text| !text.is_empty()) {
            on_delta(&text);
            self.completion.content.push_str(&text);
        }
        for fragment in choice.delta.tool_calls {
            let calls = &mut self.completion.tool_calls;
            if calls.len() <= fragment.index {
                calls.resize(fragment.index + 1, RequestedCall::default());
            }
            let call = &mut calls[fragment.index];
            if let Some(id) = fragment.id {
                call.id = id;
            }
            if let Some(function) = fragment.function {
                if let Some(name) = function.name {
                    call.name.push_str(&name);
                }
                if let Some(arguments) = function.arguments {
                    call.arguments.push_str(&arguments);
                }
            }
        }
        Ok(())
    }

    fn finish(self) -> Completion {
        self.completion
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // a failing unwrap is the test's failure message
mod tests {
    use super::*;

    fn read_all(pieces: &[&[u8]]) -> (Completion, Vec<String>) {
        let mut reader = ChunkReader::new("asked-model");
        let mut deltas = Vec::new();
        let mut done = false;
        for piece in pieces {
            done = reader
                .feed(piece, &mut |text: &str| deltas.push(text.to_owned()))
                .unwrap();
        }
        assert!(done, "the stream ended with [DONE]");
        (reader.finish(), deltas)
    }

    #[test]
    fn text_and_parallel_calls_are_reassembled_across_split_chunks() {
        let stream = concat!(
            ": keep-alive\n\n",
            "data: {\"model\":\"gpt-x\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"Let me \"}}]}\n\n",
            "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"look.\"}}]}\r\n\r\n",
            "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_a\",\"type\":\"function\",\"function\":{\"name\":\"get_spend\",\"arguments\":\"\"}}]}}]}\n\n",
            "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":1,\"id\":\"call_b\",\"type\":\"function\",\"function\":{\"name\":\"list_queue\",\"arguments\":\"{}\"}}]}}]}\n\n",
            "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{\\\"slug\\\":\"}}]}}]}\n\n",
            "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"\\\"shop\\\"}\"}}]}}]}\n\n",
            "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n",
            "data: [DONE]\n\n",
        )
        .as_bytes();
        // Split at awkward places: inside a line, inside `data:`.
        let (completion, deltas) = read_all(&[&stream[..7], &stream[7..100], &stream[100..]]);
        assert_eq!(deltas, ["Let me ", "look."]);
        assert_eq!(completion.model, "gpt-x");
        assert_eq!(completion.content, "Let me look.");
        assert_eq!(
            completion.tool_calls,
            [
                RequestedCall {
                    id: "call_a".to_owned(),
                    name: "get_spend".to_owned(),
                    arguments: "{\"slug\":\"shop\"}".to_owned(),
                },
                RequestedCall {
                    id: "call_b".to_owned(),
                    name: "list_queue".to_owned(),
                    arguments: "{}".to_owned(),
                },
            ]
        );
    }

    #[test]
    fn an_error_in_the_stream_is_a_bad_gateway() {
        let mut reader = ChunkReader::new("m");
        let err = reader
            .feed(
                b"data: {\"error\":{\"message\":\"overloaded\",\"type\":\"server_error\"}}\n\n",
                &mut |_: &str| {},
            )
            .unwrap_err();
        assert!(matches!(err, ApiError::BadGateway(ref message) if message.contains("overloaded")));
    }

    #[test]
    fn a_whole_completion_reads_content_and_calls() {
        let whole: WholeCompletion = serde_json::from_value(json!({
            "id": "chatcmpl-1", "object": "chat.completion", "model": "gpt-y",
            "choices": [{ "index": 0, "finish_reason": "tool_calls", "message": {
                "role": "assistant", "content": null,
                "tool_calls": [{ "id": "call_1", "type": "function",
                    "function": { "name": "get_attribution", "arguments": "{\"slug\":\"shop\"}" } }]
            } }]
        }))
        .unwrap();
        let completion = whole.into_completion("asked").unwrap();
        assert_eq!(completion.model, "gpt-y");
        assert_eq!(completion.content, "");
        assert_eq!(completion.tool_calls[0].name, "get_attribution");
        assert_eq!(completion.tool_calls[0].arguments, "{\"slug\":\"shop\"}");
    }
}
