//! One tool call the model asked for: its arguments checked (the product's slug filled in), run
//! as the caller within what the conversation may still spend, and told back to the model and
//! to the person.

use serde_json::{Map, Value, json};

use super::gateway::RequestedCall;
use super::limits::Allowance;
use super::{SuggestedAction, ToolCallRecord};
use crate::services::acting::Caller;
use crate::state::AppState;
use crate::tools::{self, ToolError};

/// The arguments echoed in a `tool_calls` entry when the model's text is not JSON.
const MAX_ECHOED_CHARS: usize = 500;

/// Runs one call, the `index`th of its round, within what `allowance` leaves: the record for
/// the answer and the `tool` message's content for the model. Every failure (an unknown tool,
/// arguments that are not a JSON object, another product, the API's refusal, a limit of
/// `limits.rs`) is the model's to read, as `{error, status, policy_code?}`. A call over a limit
/// is not run, and its short refusal is not counted against the results' characters.
pub(super) async fn run_call(
    state: &AppState,
    caller: &Caller,
    product: Option<&str>,
    call: &RequestedCall,
    index: usize,
    allowance: &mut Allowance,
) -> (ToolCallRecord, String) {
    let prepared = prepare(product, call);
    let (arguments, outcome, counted) = match (allowance.refuse_any(index), prepared) {
        (Some(refusal), Ok((_, arguments)) | Err((arguments, _))) => {
            (arguments, Err(refusal), false)
        }
        (None, Err((arguments, err))) => (arguments, Err(err), true),
        (None, Ok((tool, arguments))) => match allowance.take(tool) {
            Some(refusal) => (arguments, Err(refusal), false),
            None => {
                let outcome = tool.call(state, caller, arguments.clone()).await;
                (arguments, outcome, true)
            }
        },
    };
    let (ok, summary, content) = match outcome {
        Ok(value) => (
            true,
            summarize(call.name.as_str(), &value),
            value.to_string(),
        ),
        Err(err) => {
            let content = json!(err).to_string();
            (false, err.error, content)
        }
    };
    let content = if counted {
        allowance.charge(content)
    } else {
        content
    };
    let record = ToolCallRecord {
        name: call.name.clone(),
        arguments,
        ok,
        summary,
    };
    (record, content)
}

/// The tool and its arguments (the product's slug filled in), or the error the model gets.
fn prepare(
    product: Option<&str>,
    call: &RequestedCall,
) -> Result<(&'static tools::Tool, Value), (Value, ToolError)> {
    let parsed: Result<Value, _> = if call.arguments.trim().is_empty() {
        Ok(Value::Object(Map::new()))
    } else {
        serde_json::from_str(&call.arguments)
    };
    let Ok(Value::Object(mut arguments)) = parsed else {
        let echoed: String = call.arguments.chars().take(MAX_ECHOED_CHARS).collect();
        return Err((
            Value::String(echoed),
            refused(400, "invalid arguments: expected a JSON object"),
        ));
    };
    let Some(tool) = tools::find(&call.name) else {
        return Err((
            Value::Object(arguments),
            refused(404, &format!("no tool named `{}`", call.name)),
        ));
    };
    if let Some(slug) = product {
        let schema = tool.input_schema();
        let properties = schema.get("properties").and_then(Value::as_object);
        for name in ["slug", "product"] {
            if !properties.is_some_and(|properties| properties.contains_key(name)) {
                continue;
            }
            match arguments.get(name) {
                None | Some(Value::Null) => {
                    arguments.insert(name.to_owned(), Value::from(slug));
                }
                Some(Value::String(given)) if given == slug => {}
                Some(_) => {
                    let message = format!(
                        "{name}: this conversation is about the product `{slug}`; ask about \
                         other products from the portfolio chat"
                    );
                    return Err((Value::Object(arguments), refused(400, &message)));
                }
            }
        }
    }
    Ok((tool, Value::Object(arguments)))
}

fn refused(status: u16, error: &str) -> ToolError {
    ToolError {
        error: error.to_owned(),
        status,
        policy_code: None,
    }
}

/// A short account of a result for the person: what was raised, or how much came back.
fn summarize(name: &str, value: &Value) -> String {
    if let Some(id) = value.get("proposal_id").and_then(Value::as_str) {
        return format!("proposal {id} is waiting for a human in the queue");
    }
    match value {
        Value::Array(rows) => format!("{name}: {} rows", rows.len()),
        Value::Object(fields) => {
            let keys: Vec<&str> = fields.keys().take(6).map(String::as_str).collect();
            format!("{name}: {}", keys.join(", "))
        }
        _ => format!("{name}: done"),
    }
}

/// The dashboard link for a call a human must follow up: a raised proposal's card.
pub(super) fn suggestion(
    record: &ToolCallRecord,
    product: Option<&str>,
) -> Option<SuggestedAction> {
    if !(record.ok && record.name == "propose_spend_change") {
        return None;
    }
    let slug = record
        .arguments
        .get("slug")
        .and_then(Value::as_str)
        .or(product)?;
    Some(SuggestedAction {
        label: "Review the proposal in the queue".to_owned(),
        href: format!("/#/queue?product={slug}"),
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // a failing unwrap is the test's failure message
mod tests {
    use super::*;

    fn call(name: &str, arguments: &str) -> RequestedCall {
        RequestedCall {
            id: "call_1".to_owned(),
            name: name.to_owned(),
            arguments: arguments.to_owned(),
        }
    }

    #[test]
    fn a_products_chat_fills_in_its_slug_and_refuses_another() {
        let (tool, arguments) = prepare(Some("shop"), &call("get_spend", "{\"days\":7}")).unwrap();
        assert_eq!(tool.name, "get_spend");
        assert_eq!(arguments, json!({"days": 7, "slug": "shop"}));
        let (_, arguments) = prepare(Some("shop"), &call("list_history", "")).unwrap();
        assert_eq!(arguments, json!({"product": "shop"}));
        let (_, err) =
            prepare(Some("shop"), &call("get_spend", "{\"slug\":\"other\"}")).unwrap_err();
        assert_eq!(err.status, 400);
        assert!(
            err.error
                .starts_with("slug: this conversation is about the product `shop`")
        );
        // The portfolio chat leaves arguments as the model wrote them.
        let (_, arguments) = prepare(None, &call("get_spend", "{\"days\":7}")).unwrap();
        assert_eq!(arguments, json!({"days": 7}));
    }

    #[test]
    fn malformed_arguments_and_unknown_tools_are_the_models_errors() {
        let (echoed, err) = prepare(None, &call("get_spend", "{\"slug\": ")).unwrap_err();
        assert_eq!(echoed, json!("{\"slug\": "));
        assert_eq!(
            (err.status, err.error.as_str()),
            (400, "invalid arguments: expected a JSON object")
        );
        let (_, err) = prepare(None, &call("get_spend", "[1]")).unwrap_err();
        assert_eq!(err.status, 400);
        let (_, err) = prepare(None, &call("approve_card", "{}")).unwrap_err();
        assert_eq!(
            (err.status, err.error.as_str()),
            (404, "no tool named `approve_card`")
        );
    }

    #[test]
    fn a_raised_proposal_links_to_the_queue() {
        let record = ToolCallRecord {
            name: "propose_spend_change".to_owned(),
            arguments: json!({"slug": "shop"}),
            ok: true,
            summary: summarize("propose_spend_change", &json!({"proposal_id": "c1"})),
        };
        assert_eq!(
            record.summary,
            "proposal c1 is waiting for a human in the queue"
        );
        assert_eq!(
            suggestion(&record, None).unwrap().href,
            "/#/queue?product=shop"
        );
        let refused = ToolCallRecord {
            ok: false,
            ..record
        };
        assert!(suggestion(&refused, None).is_none());
    }
}
