//! Admission: what must hold before a conversation asks anything, and the account's place among
//! its conversations under way, held for as long as the conversation runs.

use super::Conversation;
use super::gateway::ChatGateway;
use super::limits;
use crate::error::ApiResult;
use crate::rate_limit::ConversationSlot;
use crate::services::acting::{Caller, Principal};
use crate::services::products;
use crate::state::AppState;

/// A conversation admitted by [`admit`]: the account's place among its conversations under way,
/// given back when the conversation ends, however it ends.
#[derive(Debug)]
pub struct Admission {
    _slot: ConversationSlot,
}

/// Checks what must hold before anything is asked, in this order: the messages' characters in
/// all (400 naming `messages`), the gateway is configured (503: without one nothing costs, so
/// nothing is counted), the chat rates per credential and per account (429), the product is
/// the caller's (404), and a place among the account's conversations under way (429). A
/// streaming door can still answer with a status.
pub async fn admit(
    state: &AppState,
    caller: &Caller,
    conversation: &Conversation,
) -> ApiResult<Admission> {
    limits::check_size(
        conversation.turns.iter().map(|turn| turn.content.as_str()),
        state.config.chat_max_chars,
    )?;
    ChatGateway::from_state(state)?;
    let account = account_key(caller);
    state
        .limiters
        .check_chat(&account, &credential_key(caller))?;
    if let Some(slug) = &conversation.product {
        products::find(state, caller.scope()?, slug).await?;
    }
    let slot = state.limiters.chat_conversations.take(&account)?;
    Ok(Admission { _slot: slot })
}

/// The account a caller's chat requests count against; the operator token acts for none and
/// counts on its own.
fn account_key(caller: &Caller) -> String {
    match caller.scope() {
        Ok(scope) => format!("account:{}", scope.account_id()),
        Err(_) => "operator-token".to_owned(),
    }
}

/// The credential a caller's chat requests count against: one API key, one session.
fn credential_key(caller: &Caller) -> String {
    match &caller.principal {
        Principal::Person(person) => format!("session:{}", person.session_hash),
        Principal::ApiKey { key_id, .. } => format!("key:{key_id}"),
        Principal::OperatorToken => "operator-token".to_owned(),
        Principal::System => "system".to_owned(),
    }
}
