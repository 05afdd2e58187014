//! Growth actions (`services/growth`): the window and the coding-agent word, in the query of
//! the list and the body of the prompt.

use serde_json::json;

use crate::openapi::rule::*;
use crate::services::growth::{AGENT_TOOLS, DEFAULT_DAYS, MAX_DAYS};

pub fn rules() -> Vec<(At, Vec<Rule>)> {
    use At::{Field, Param};
    const LIST: &str = "/products/{slug}/growth-actions";
    let days = || vec![Rule::Range(1, MAX_DAYS), Rule::Default(json!(DEFAULT_DAYS))];
    let tool = || vec![words(AGENT_TOOLS)];
    vec![
        (Param(LIST, "days"), days()),
        (Param(LIST, "tool"), tool()),
        (Field("GrowthPromptRequest", "days"), days()),
        (Field("GrowthPromptRequest", "tool"), tool()),
    ]
}
