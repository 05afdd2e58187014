//! The distribution log: outreach an agent records (`POST /distribution`) and reads back joined
//! to the traffic and revenue its campaign brought (`GET /products/{slug}/distribution`).

use garde::Validate;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::input::Window;
use crate::input::rules::distribution::{
    CAMPAIGN_MAX_CHARS, LABEL_MAX_CHARS, PRODUCT_SLUG_MAX_CHARS, TEXT_MAX_CHARS,
};
use crate::input::rules::{not_blank, one_line, web_url};
use crate::services::acting::Caller;
use crate::services::distribution::{self, EntryInput};
use crate::state::AppState;
use crate::tools::args::{self, DaysLimitArgs};
use crate::tools::{Access, Tool, ToolFuture};

pub const LIST_DISTRIBUTION: Tool = Tool {
    name: "list_distribution",
    description: "Outreach recorded for a product in the window, newest first (GET \
        /products/{slug}/distribution), each joined to the visits, leads, customers and revenue \
        of the people its `utm_campaign` reached.",
    access: Access::Read,
    schema: args::schema::<DaysLimitArgs>,
    run: list_distribution,
};

pub const RECORD_DISTRIBUTION: Tool = Tool {
    name: "record_distribution",
    description: "Records outreach done for a product (POST /distribution): where it went out \
        (`channel`), what it was (`kind`), its link and the `utmCampaign` its links carry, so \
        the traffic it brings is joined back to it. Audited in history. Answers {ok, id}.",
    access: Access::Write,
    schema: args::schema::<DistributionArgs>,
    run: record_distribution,
};

/// `POST /distribution`'s body, under the route's camelCase names, rules and constants.
#[derive(Debug, Deserialize, JsonSchema, Validate)]
#[allow(non_snake_case)]
pub struct DistributionArgs {
    /// The product's slug (as listed by `list_products`).
    #[garde(length(chars, min = 1, max = PRODUCT_SLUG_MAX_CHARS))]
    productSlug: String,
    /// Where it went out, e.g. `reddit`, `newsletter`, `hacker_news` (1-80 characters).
    #[garde(length(chars, min = 1, max = LABEL_MAX_CHARS), custom(not_blank), custom(one_line))]
    channel: String,
    /// What it was, e.g. `post`, `comment`, `email` (1-80 characters).
    #[garde(length(chars, min = 1, max = LABEL_MAX_CHARS), custom(not_blank), custom(one_line))]
    kind: String,
    /// Link to the outreach itself: an absolute http(s) URL, at most 2000 characters.
    #[garde(inner(length(chars, max = TEXT_MAX_CHARS), url, custom(web_url)))]
    #[schemars(length(max = TEXT_MAX_CHARS), url)]
    url: Option<String>,
    /// The `utm_campaign` its links carry; traffic is joined back through it (at most 200).
    #[garde(inner(length(chars, min = 1, max = CAMPAIGN_MAX_CHARS), custom(not_blank), custom(one_line)))]
    #[schemars(length(min = 1, max = CAMPAIGN_MAX_CHARS))]
    utmCampaign: Option<String>,
    /// Free text, at most 2000 characters.
    #[garde(inner(length(chars, max = TEXT_MAX_CHARS)))]
    #[schemars(length(max = TEXT_MAX_CHARS))]
    note: Option<String>,
}

fn list_distribution<'a>(
    state: &'a AppState,
    caller: &'a Caller,
    arguments: Value,
) -> ToolFuture<'a> {
    Box::pin(async move {
        let args: DaysLimitArgs = args::parse(arguments)?;
        let window = Window::new(args.days, args.limit)?;
        super::json(distribution::list(state, caller, &args.slug, window).await?)
    })
}

fn record_distribution<'a>(
    state: &'a AppState,
    caller: &'a Caller,
    arguments: Value,
) -> ToolFuture<'a> {
    Box::pin(async move {
        let args: DistributionArgs = args::parse_valid(arguments)?;
        let input = EntryInput {
            product_slug: args.productSlug,
            channel: args.channel,
            kind: args.kind,
            url: args.url,
            utm_campaign: args.utmCampaign,
            note: args.note,
        };
        let id = distribution::record(state, caller, input).await?;
        // The route's `Recorded` answer.
        Ok(json!({ "ok": true, "id": id }))
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // a failing unwrap is the test's failure message
mod tests {
    use super::*;
    use crate::extract::json::{describe_report, parse_json};
    use crate::routes::distribution::DistributionRequest;

    fn route_refusal(body: &Value) -> Option<String> {
        let bytes = serde_json::to_vec(body).unwrap();
        match parse_json::<DistributionRequest>(&bytes) {
            Err(err) => Some(err.to_string()),
            Ok(request) => request.validate().err().map(|r| describe_report(&r)),
        }
    }

    fn tool_refusal(body: &Value) -> Option<String> {
        args::parse_valid::<DistributionArgs>(body.clone())
            .err()
            .map(|err| err.error)
    }

    #[test]
    fn refuses_what_the_route_refuses_in_the_same_words() {
        let good = json!({
            "productSlug": "shop", "channel": "reddit", "kind": "post",
            "url": "https://reddit.com/r/x/1", "utmCampaign": "launch", "note": "first post",
        });
        assert_eq!(route_refusal(&good), None);
        assert_eq!(tool_refusal(&good), None);
        let patches = [
            json!({"productSlug": ""}),
            json!({"channel": "  "}),
            json!({"kind": "k".repeat(LABEL_MAX_CHARS + 1)}),
            json!({"url": "javascript:alert(1)"}),
            json!({"url": "not a url"}),
            json!({"utmCampaign": ""}),
            json!({"note": "n".repeat(TEXT_MAX_CHARS + 1)}),
            json!({"channel": 7}),
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
        let schema = args::schema::<DistributionArgs>();
        assert_eq!(
            schema["properties"]["channel"]["maxLength"],
            LABEL_MAX_CHARS
        );
        assert_eq!(schema["properties"]["url"]["format"], "uri");
        assert_eq!(schema["properties"]["note"]["maxLength"], TEXT_MAX_CHARS);
    }
}
