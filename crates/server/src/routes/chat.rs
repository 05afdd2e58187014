//! The chat assistant: `POST /chat` (the account's portfolio) and `POST /products/{slug}/chat`
//! (one product, whose slug the tools take by default). The conversation runs in
//! `services/chat/`; this door reads the request, and answers the final object as JSON or, with
//! `stream: true`, the conversation's events as `text/event-stream`.

use std::convert::Infallible;

use axum::extract::{Path, State};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::stream;
use serde::Deserialize;
use tokio::sync::mpsc;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiResult, ErrorBody};
use crate::extract::{Caller, Json, ValidJson};
use crate::routes::tags;
use crate::services::chat::stream::Events;
use crate::services::chat::{
    self, ChatAnswer, ChatRole, Conversation, MAX_CONTENT_CHARS, MAX_MESSAGES, MAX_SECTION_CHARS,
    Turn,
};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(portfolio_chat))
        .routes(routes!(product_chat))
}

#[derive(Debug, Deserialize, ToSchema, garde::Validate)]
pub struct ChatRequest {
    /// The conversation so far, oldest first, ending with the person's question: 1-40
    /// messages, 32,000 characters in all (`PAYBACK_CHAT_MAX_CHARS`).
    #[garde(length(min = 1, max = MAX_MESSAGES), dive)]
    messages: Vec<ChatMessage>,
    /// Answer as `text/event-stream` (events `tool`, `delta`, `done`, `error`); default false.
    #[garde(skip)]
    stream: Option<bool>,
    /// The dashboard section the person is looking at (e.g. `spend`), told to the model; at
    /// most 200 characters.
    #[garde(inner(length(chars, max = MAX_SECTION_CHARS)))]
    section: Option<String>,
}

#[derive(Debug, Deserialize, ToSchema, garde::Validate)]
pub struct ChatMessage {
    /// `user` or `assistant` (the system instruction is the server's).
    #[garde(skip)]
    role: ChatRole,
    /// 1-8000 characters.
    #[garde(length(chars, min = 1, max = MAX_CONTENT_CHARS))]
    content: String,
}

/// Chat with the assistant about the whole account: it reads every report through the agent
/// tools and may raise spend proposals, which only queue a card for a human; history records
/// its writes `via: chat`. With `stream: true` the answer is `text/event-stream`: `tool` (each
/// call and its outcome), `delta` (`{text}`, the reply as it is written), then `done` (the
/// final object) or `error` (`{error, status}`, then the stream ends). 502 when the model
/// gateway fails (an `error` event once streaming); 503 without a gateway key. Limits (issue
/// 35): 400 `messages` over 32,000 characters in all; 429 over 20 requests a minute per
/// account, 10 per key or session, or 3 conversations under way per account (the defaults).
/// A client that hangs up stops the conversation. In a conversation at most 8 tool calls run
/// per model round, 3 writes in all, and tool results fed back hold 48,000 characters in all;
/// the rest are tool errors the model reads.
#[utoipa::path(post, path = "/chat", tag = tags::CHAT, security(("bearer" = [])),
    request_body = ChatRequest,
    responses((status = 200, content((ChatAnswer = "application/json"), (String = "text/event-stream"))),
        (status = 400, body = ErrorBody, description = "a field out of bounds, named; `messages` over PAYBACK_CHAT_MAX_CHARS characters in all (32,000), checked before the gateway is asked"),
        (status = 401, body = ErrorBody),
        (status = 429, body = ErrorBody, description = "over PAYBACK_CHAT_PER_MINUTE chat requests a minute for the account or PAYBACK_CHAT_KEY_PER_MINUTE for the key or session, or PAYBACK_CHAT_CONCURRENT conversations under way for the account; `Retry-After` says when to try again"),
        (status = 502, body = ErrorBody, description = "the model gateway failed"),
        (status = 503, body = ErrorBody, description = "no model gateway key configured")))]
async fn portfolio_chat(
    State(state): State<AppState>,
    caller: Caller,
    ValidJson(body): ValidJson<ChatRequest>,
) -> ApiResult<Response> {
    answer(state, caller, None, body).await
}

/// Chat about one product: the tools take its slug by default and refuse another product's.
/// Otherwise as `POST /chat`; 404 for a product the caller cannot see.
#[utoipa::path(post, path = "/products/{slug}/chat", tag = tags::CHAT, security(("bearer" = [])),
    params(("slug" = String, Path, description = "product slug")), request_body = ChatRequest,
    responses((status = 200, content((ChatAnswer = "application/json"), (String = "text/event-stream"))),
        (status = 400, body = ErrorBody, description = "a field out of bounds, named; `messages` over PAYBACK_CHAT_MAX_CHARS characters in all (32,000), checked before the gateway is asked"),
        (status = 401, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 429, body = ErrorBody, description = "over the chat rates per account or per key or session, or too many conversations under way for the account (as `POST /chat`)"),
        (status = 502, body = ErrorBody, description = "the model gateway failed"),
        (status = 503, body = ErrorBody, description = "no model gateway key configured")))]
async fn product_chat(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
    ValidJson(body): ValidJson<ChatRequest>,
) -> ApiResult<Response> {
    answer(state, caller, Some(slug), body).await
}

async fn answer(
    state: AppState,
    caller: Caller,
    product: Option<String>,
    body: ChatRequest,
) -> ApiResult<Response> {
    let streaming = body.stream.unwrap_or(false);
    let conversation = Conversation {
        turns: body
            .messages
            .into_iter()
            .map(|message| Turn {
                role: message.role,
                content: message.content,
            })
            .collect(),
        section: body.section,
        product,
    };
    // What answers a status (400, 429, 503, 404) does so before anything is asked, and before
    // a stream starts.
    let admission = chat::admit(&state, &caller, &conversation).await?;
    if !streaming {
        // This future holds the conversation: a client that goes away drops it, and the
        // conversation stops (`Running`).
        let running = chat::start(state, caller, conversation, admission, Events::default());
        let answer = running.finish().await?;
        return Ok(Json(answer).into_response());
    }
    let (sender, receiver) = mpsc::unbounded_channel();
    let running = chat::start(state, caller, conversation, admission, Events::to(sender));
    // The stream holds the conversation: once the client is gone the body is dropped, and the
    // conversation with it stops.
    let events = stream::unfold((receiver, running), |(mut receiver, running)| async move {
        let event = receiver.recv().await?;
        let sse = Event::default()
            .event(event.name())
            .data(event.data().to_string());
        Some((Ok::<_, Infallible>(sse), (receiver, running)))
    });
    Ok(Sse::new(events)
        .keep_alive(KeepAlive::default())
        .into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_role_is_spelt_as_the_wire_spells_it() {
        for role in ChatRole::ALL {
            let spelt = serde_json::to_value(role).ok();
            assert_eq!(spelt.as_ref().and_then(|v| v.as_str()), Some(role.as_str()));
        }
    }
}
