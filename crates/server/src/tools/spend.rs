//! Spend: the spend and caps report (`GET /products/{slug}/spend`) and the one spend-changing
//! tool, which only ever raises a proposal (`POST /products/{slug}/proposals`): the policy engine
//! looks first, and what it lets through is a card a human approves or not in Payback's queue.

use garde::Validate;
use payback_domain::card::{self, HEADLINE_MAX};
use payback_domain::policy::{MAX_DAILY_CENTS, Network};
use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::Deserialize;
use serde_json::Value;

use crate::input::Window;
use crate::input::rules::spend::{CAMPAIGN_ID_MAX_CHARS, RATIONALE_MAX_CHARS, RATIONALE_MIN_CHARS};
use crate::input::rules::{not_blank, one_line};
use crate::services::acting::Caller;
use crate::services::proposals::{self, ProposalInput};
use crate::services::spend;
use crate::state::AppState;
use crate::tools::args::{self, DaysArgs};
use crate::tools::{Access, Tool, ToolFuture, json};

pub const SPEND: Tool = Tool {
    name: "get_spend",
    description: "Daily spend by network and campaign over the window, and the product's caps \
        (GET /products/{slug}/spend): per network the policy's daily cap, the approved budget, \
        yesterday's spend and whether a limit binds, and the portfolio ceiling. Read it before \
        proposing a change: a proposal over a cap is refused.",
    access: Access::Read,
    schema: args::schema::<DaysArgs>,
    run: spend_report,
};

pub const PROPOSE: Tool = Tool {
    name: "propose_spend_change",
    description: "Proposes a new daily budget for one ad network (and optionally one campaign) \
        of a product. This changes nothing by itself: it raises a card in Payback's approval \
        queue, and a human must approve it there before any budget changes; no tool can \
        approve, reject or snooze it. The card expires after 72 hours without a decision. The \
        policy engine checks the proposal first: over the product's daily cap, behind a network \
        wall or over the portfolio ceiling, it is refused as an error carrying `policy_code` \
        and no card is raised. Answers {proposal_id, status: \"pending_human\", \
        expires_in_hours}.",
    access: Access::Write,
    schema: args::schema::<ProposalArgs>,
    run: propose,
};

/// `POST /products/{slug}/proposals`: the route's body under the route's rules and constants,
/// plus the product's slug.
#[derive(Debug, Deserialize, JsonSchema, Validate)]
pub struct ProposalArgs {
    /// The product's slug (as listed by `list_products`).
    #[garde(skip)]
    slug: String,
    /// The ad network whose budget changes.
    #[garde(skip)]
    #[schemars(schema_with = "network_schema")]
    network: Network,
    /// The campaign whose budget changes; omitted means the network's account-level budget.
    #[garde(inner(length(chars, min = 1, max = CAMPAIGN_ID_MAX_CHARS), custom(one_line)))]
    #[schemars(length(min = 1, max = CAMPAIGN_ID_MAX_CHARS))]
    campaign_id: Option<String>,
    /// Today's daily budget in cents (>= 0), shown on the card.
    #[garde(inner(range(min = 0, max = MAX_DAILY_CENTS)))]
    #[schemars(range(min = 0, max = MAX_DAILY_CENTS))]
    from_cents: Option<i64>,
    /// The proposed daily budget in cents (> 0).
    #[garde(range(min = 1, max = MAX_DAILY_CENTS))]
    to_cents: i64,
    /// Why, shown to the human on the card; 10-2000 characters.
    #[garde(length(chars, min = RATIONALE_MIN_CHARS, max = RATIONALE_MAX_CHARS), custom(not_blank))]
    rationale: String,
    /// When to propose reverting: an object of at most 4096 bytes serialized. Payback watches
    /// `cac_ceiling_cents` (propose a revert when the network's CAC over `window_days`, default
    /// 7, goes above it); other keys are kept.
    #[garde(custom(valid_rollback_if))]
    #[schemars(schema_with = "args::any_object")]
    #[serde(default)]
    rollback_if: Option<Value>,
    /// The card's headline, at most 90 characters; one is written when omitted.
    #[garde(inner(length(chars, min = 1, max = HEADLINE_MAX), custom(not_blank), custom(one_line)))]
    #[schemars(length(min = 1, max = HEADLINE_MAX))]
    headline: Option<String>,
}

/// The networks a proposal may name, spelt as the API spells them.
fn network_schema(_: &mut SchemaGenerator) -> Schema {
    let words: Vec<&str> = Network::ALL
        .iter()
        .map(|network| network.as_str())
        .collect();
    args::one_of(&words, "The ad network whose budget changes.")
}

/// The route's own check of `rollback_if`.
fn valid_rollback_if(value: &Option<Value>, _: &()) -> garde::Result {
    match value {
        Some(value) => card::check_rollback_if(value).map_err(garde::Error::new),
        None => Ok(()),
    }
}

fn spend_report<'a>(state: &'a AppState, caller: &'a Caller, arguments: Value) -> ToolFuture<'a> {
    Box::pin(async move {
        let args: DaysArgs = args::parse(arguments)?;
        let window = Window::new(args.days, None)?;
        json(spend::report(state, caller, &args.slug, window).await?)
    })
}

fn propose<'a>(state: &'a AppState, caller: &'a Caller, arguments: Value) -> ToolFuture<'a> {
    Box::pin(async move {
        let args: ProposalArgs = args::parse_valid(arguments)?;
        let input = ProposalInput {
            network: args.network,
            campaign_id: args.campaign_id,
            from_cents: args.from_cents,
            to_cents: args.to_cents,
            rationale: args.rationale,
            rollback_if: args.rollback_if,
            headline: args.headline,
        };
        json(proposals::propose(state, caller, &args.slug, input).await?)
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // a failing unwrap is the test's failure message
mod tests {
    use serde_json::json;

    use super::*;
    use crate::extract::json::{describe_report, parse_json};
    use crate::routes::spend::ProposalRequest;

    /// What the route answers for `body`: `None` when it takes it.
    fn route_refusal(body: &Value) -> Option<String> {
        let bytes = serde_json::to_vec(body).unwrap();
        match parse_json::<ProposalRequest>(&bytes) {
            Err(err) => Some(err.to_string()),
            Ok(request) => request.validate().err().map(|r| describe_report(&r)),
        }
    }

    fn tool_refusal(body: &Value) -> Option<String> {
        let mut arguments = body.clone();
        arguments["slug"] = json!("shop");
        args::parse_valid::<ProposalArgs>(arguments)
            .err()
            .map(|err| err.error)
    }

    #[test]
    fn refuses_what_the_route_refuses_in_the_same_words() {
        let good = json!({
            "network": "google", "campaign_id": "cmp-1", "from_cents": 2000, "to_cents": 5000,
            "rationale": "CAC on search is well under target.",
            "rollback_if": {"cac_ceiling_cents": 4000}, "headline": "Raise search",
        });
        assert_eq!(route_refusal(&good), None);
        assert_eq!(tool_refusal(&good), None);
        let patches = [
            json!({"network": "tiktok"}),
            json!({"to_cents": 0}),
            json!({"to_cents": MAX_DAILY_CENTS + 1}),
            json!({"from_cents": -1}),
            json!({"to_cents": "5000"}),
            json!({"rationale": "too short"}),
            json!({"rationale": "          \n   "}),
            json!({"rationale": "x".repeat(RATIONALE_MAX_CHARS + 1)}),
            json!({"campaign_id": ""}),
            json!({"campaign_id": "c".repeat(CAMPAIGN_ID_MAX_CHARS + 1)}),
            json!({"rollback_if": [1, 2]}),
            json!({"rollback_if": {"note": "n".repeat(5000)}}),
            json!({"headline": "   "}),
            json!({"headline": "h".repeat(HEADLINE_MAX + 1)}),
        ];
        for patch in patches {
            let mut body = good.clone();
            for (field, value) in patch.as_object().unwrap() {
                body[field] = value.clone();
            }
            let route = route_refusal(&body);
            assert!(route.is_some(), "the route takes {patch}");
            assert_eq!(tool_refusal(&body), route, "{patch}");
        }
        // A missing required field reads as the tool's arguments, not a body.
        let mut body = good.clone();
        body.as_object_mut().unwrap().remove("to_cents");
        assert_eq!(
            tool_refusal(&body).unwrap(),
            "invalid arguments: missing field `to_cents`"
        );
    }

    #[test]
    fn the_schema_states_the_route_rules() {
        let schema = args::schema::<ProposalArgs>();
        let properties = &schema["properties"];
        assert_eq!(properties["network"]["enum"], json!(["meta", "google"]));
        assert_eq!(properties["to_cents"]["minimum"], 1);
        assert_eq!(properties["to_cents"]["maximum"], MAX_DAILY_CENTS);
        assert_eq!(properties["rationale"]["minLength"], RATIONALE_MIN_CHARS);
        assert_eq!(properties["rationale"]["maxLength"], RATIONALE_MAX_CHARS);
        assert_eq!(properties["rollback_if"]["type"], "object");
        assert_eq!(properties["from_cents"]["minimum"], 0);
        assert_eq!(properties["headline"]["maxLength"], HEADLINE_MAX);
        let mut required: Vec<&str> = schema["required"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .collect();
        required.sort_unstable();
        assert_eq!(required, ["network", "rationale", "slug", "to_cents"]);
    }
}
