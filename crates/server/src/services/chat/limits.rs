//! What one account, one credential and one conversation may spend of the assistant (issue 35):
//! every gateway round costs model tokens and every tool call database work, and a model (or a
//! prompt injected into what it reads) decides how many calls it asks for.
//!
//! - Before a conversation starts: the request's characters in all (400 naming `messages`),
//!   the rates per account and per credential (`rate_limit.rs`), and the conversations under
//!   way per account ([`ConversationSlots`](crate::rate_limit::ConversationSlots); 429 with
//!   `Retry-After`).
//! - While it runs ([`Allowance`]): calls per model round, writes per conversation, and the
//!   characters of tool results handed back to the model. A call over a limit is not run; the
//!   model reads why as a tool error, like any refusal, and can answer from what it has.

use serde_json::json;

use crate::error::{ApiError, ApiResult};
use crate::tools::{Access, Tool, ToolError};

/// Tool calls run per model round. A model asks for a few at once when it reads several
/// reports; forty parallel calls is a loop or an injection, and each call is database work.
pub const CHAT_TOOL_CALLS_PER_ROUND: usize = 8;
/// Write-tool calls (`propose_spend_change`, `record_distribution`) run per conversation. Each
/// proposal is a card a human must read: a conversation that raises more than a few is filling
/// the queue, not advising (issue 35 saw 40 cards from one turn).
pub const CHAT_WRITES_PER_CONVERSATION: usize = 3;
/// Characters of tool results handed back to the model per conversation, in all. Every result
/// is sent again with every later round, so this bounds what each gateway request carries.
pub const CHAT_TOOL_RESULTS_CHARS: usize = 48_000;
/// Characters of one tool result (a long report is cut, and says so).
pub const CHAT_TOOL_RESULT_CHARS: usize = 24_000;
/// Below this many characters left, a result could not say anything useful: the call is not
/// run (a write's outcome must reach the model whole).
const MIN_RESULT_CHARS: usize = 1_000;
/// 400 naming `messages` when their contents hold more than `max_chars` characters in all:
/// checked before anything is asked, since the whole conversation goes to the gateway with
/// every round.
pub fn check_size<'a>(contents: impl Iterator<Item = &'a str>, max_chars: usize) -> ApiResult<()> {
    let total: usize = contents.map(|content| content.chars().count()).sum();
    if total > max_chars {
        return Err(ApiError::bad_request(format!(
            "messages: at most {max_chars} characters in all (their contents hold {total}); \
             drop or shorten earlier messages"
        )));
    }
    Ok(())
}

/// What is left of one conversation's tool limits.
#[derive(Debug)]
pub struct Allowance {
    writes: usize,
    result_chars: usize,
}

impl Default for Allowance {
    fn default() -> Self {
        Self {
            writes: CHAT_WRITES_PER_CONVERSATION,
            result_chars: CHAT_TOOL_RESULTS_CHARS,
        }
    }
}

impl Allowance {
    /// Why the `index`th call of a round (from 0) may not run at all, whatever it is.
    pub fn refuse_any(&self, index: usize) -> Option<ToolError> {
        if index >= CHAT_TOOL_CALLS_PER_ROUND {
            return Some(over_limit(format!(
                "not run: at most {CHAT_TOOL_CALLS_PER_ROUND} tool calls run per round; ask \
                 for the others in your next turn if you still need them"
            )));
        }
        if self.result_chars < MIN_RESULT_CHARS {
            return Some(over_limit(format!(
                "not run: this conversation's tool results reached {CHAT_TOOL_RESULTS_CHARS} \
                 characters; answer from what you have"
            )));
        }
        None
    }

    /// Why `tool` may not run now; `None` when it may (a write is then counted).
    pub fn take(&mut self, tool: &Tool) -> Option<ToolError> {
        if tool.access == Access::Write {
            if self.writes == 0 {
                return Some(over_limit(format!(
                    "not run: at most {CHAT_WRITES_PER_CONVERSATION} writes \
                     (propose_spend_change, record_distribution) run per conversation; tell \
                     the person what else you would propose"
                )));
            }
            self.writes -= 1;
        }
        None
    }

    /// `content` as the model gets it: cut to what is left of the conversation's characters
    /// (and of one result's), saying so, and counted.
    pub fn charge(&mut self, content: String) -> String {
        let fitted = fit(content, self.result_chars.min(CHAT_TOOL_RESULT_CHARS));
        self.result_chars = self.result_chars.saturating_sub(fitted.chars().count());
        fitted
    }
}

fn over_limit(error: String) -> ToolError {
    ToolError {
        error,
        status: 429,
        policy_code: None,
    }
}

/// `text` when it holds at most `allowance` characters; otherwise a JSON object of at most
/// `allowance` characters (for any allowance of a few hundred) saying it was cut, with as much
/// of the beginning as fits once escaped.
pub fn fit(text: String, allowance: usize) -> String {
    if text.chars().count() <= allowance {
        return text;
    }
    let note = "the result was too long for this conversation and was cut: ask for less (a \
                shorter window, one product, a filter) to see the rest";
    let cut = |head: &str| {
        json!({ "truncated": true, "note": note, "first_characters": head }).to_string()
    };
    let mut room = allowance.saturating_sub(cut("").chars().count());
    let mut end = 0;
    for (at, character) in text.char_indices() {
        let escaped = escaped_len(character);
        if escaped > room {
            break;
        }
        room -= escaped;
        end = at + character.len_utf8();
    }
    cut(&text[..end])
}

/// Characters `character` takes inside a JSON string as `serde_json` writes it.
fn escaped_len(character: char) -> usize {
    match character {
        '"' | '\\' | '\n' | '\r' | '\t' | '\u{08}' | '\u{0c}' => 2,
        control if u32::from(control) < 0x20 => 6,
        _ => 1,
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // a failing unwrap is the test's failure message
mod tests {
    use serde_json::Value;

    use super::*;
    use crate::tools;

    #[test]
    fn a_cut_result_fits_its_allowance_and_says_so() {
        let short = "[1,2]".to_owned();
        assert_eq!(fit(short.clone(), 5), short);
        // Quotes double when escaped; the cut still fits.
        let quoted = json!(vec!["\"quoted\"\n\u{1}é"; 4_000]).to_string();
        let cut = fit(quoted.clone(), 2_000);
        // Exactly the allowance, give or take the last character's escape.
        assert!((1_995..=2_000).contains(&cut.chars().count()), "{cut}");
        let cut: Value = serde_json::from_str(&cut).unwrap();
        assert_eq!(cut["truncated"], true);
        assert!(quoted.starts_with(cut["first_characters"].as_str().unwrap()));
    }

    #[test]
    fn results_share_one_budget_and_writes_are_counted() {
        let mut allowance = Allowance::default();
        let long = "x".repeat(30_000);
        assert_eq!(
            allowance.charge(long.clone()).chars().count(),
            CHAT_TOOL_RESULT_CHARS
        );
        let second = allowance.charge(long.clone()).chars().count();
        assert_eq!(second, CHAT_TOOL_RESULTS_CHARS - CHAT_TOOL_RESULT_CHARS);
        assert_eq!(allowance.result_chars, 0);
        assert_eq!(allowance.refuse_any(0).unwrap().status, 429);

        let mut allowance = Allowance::default();
        assert!(
            allowance
                .refuse_any(CHAT_TOOL_CALLS_PER_ROUND - 1)
                .is_none()
        );
        assert!(allowance.refuse_any(CHAT_TOOL_CALLS_PER_ROUND).is_some());
        let propose = tools::find("propose_spend_change").unwrap();
        let read = tools::find("list_products").unwrap();
        for _ in 0..CHAT_WRITES_PER_CONVERSATION {
            assert!(allowance.take(propose).is_none());
        }
        assert!(allowance.take(propose).unwrap().error.contains("writes"));
        assert!(allowance.take(read).is_none());
    }

    #[test]
    fn the_size_counts_characters_in_all() {
        assert!(check_size(["é".repeat(10).as_str(), "ab"].into_iter(), 12).is_ok());
        let err = check_size(["x".repeat(10).as_str(), "abc"].into_iter(), 12).unwrap_err();
        assert!(err.to_string().starts_with("messages: at most 12"), "{err}");
    }
}
