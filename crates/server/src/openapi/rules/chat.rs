//! The chat assistant (`routes/chat.rs`, `services/chat/`).

use crate::openapi::rule::*;
use crate::services::chat;

pub fn rules() -> Vec<(At, Vec<Rule>)> {
    use At::Field;
    vec![
        (
            Field("ChatRequest", "messages"),
            vec![Rule::Items(1, chat::MAX_MESSAGES)],
        ),
        (
            Field("ChatRequest", "section"),
            at_most(chat::MAX_SECTION_CHARS),
        ),
        (
            Field("ChatMessage", "content"),
            vec![Rule::Chars(1, chat::MAX_CONTENT_CHARS)],
        ),
    ]
}
