//! Stored dashboards (`services/dashboards`) and their spec (`domain/src/dashboard_spec.rs`).

use payback_domain::dashboard_spec::{self as spec, WidgetType};
use payback_domain::validation as input;
use serde_json::{Value, json};

use crate::openapi::rule::*;
use crate::services::dashboards::{
    DESCRIPTION_MAX_CHARS, NAME_MAX_CHARS, PROMPT_MAX_CHARS, PROMPT_MIN_CHARS,
};

pub fn rules() -> Vec<(At, Vec<Rule>)> {
    use At::{Field, Schema};

    let prompt = || {
        vec![
            Rule::Chars(PROMPT_MIN_CHARS, PROMPT_MAX_CHARS),
            Rule::Pattern(input::NOT_BLANK_PATTERN.to_owned()),
        ]
    };
    // Each type requires its own extra field and refuses the others' (`check_type_fields`).
    let per_type: Vec<Value> = WidgetType::ALL
        .iter()
        .map(|kind| {
            let foreign: Vec<Value> = spec::EXTRA_FIELDS
                .iter()
                .filter(|field| !kind.fields().contains(field))
                .map(|field| json!({ "required": [field] }))
                .collect();
            let mut then = json!({ "not": { "anyOf": foreign } });
            if let Some(required) = kind.required_field() {
                then["required"] = json!([required]);
            }
            json!({
                "if": {"properties": {"type": {"const": kind.as_str()}}, "required": ["type"]},
                "then": then
            })
        })
        .collect();
    vec![
        (
            Field("CreateDashboardRequest", "name"),
            one_line_name(NAME_MAX_CHARS),
        ),
        (
            Field("CreateDashboardRequest", "description"),
            at_most(DESCRIPTION_MAX_CHARS),
        ),
        (Field("CreateDashboardRequest", "prompt"), prompt()),
        (Field("GenerateDashboardRequest", "prompt"), prompt()),
        (
            Field("UpdateDashboardRequest", "name"),
            one_line_name(NAME_MAX_CHARS),
        ),
        (
            Field("UpdateDashboardRequest", "description"),
            at_most(DESCRIPTION_MAX_CHARS),
        ),
        (
            Schema("UpdateDashboardRequest"),
            vec![Rule::AnyRequired(vec!["name", "description", "spec"])],
        ),
        (
            Field("DashboardSpec", "widgets"),
            vec![Rule::Items(0, spec::MAX_WIDGETS)],
        ),
        (
            Field("Widget", "id"),
            vec![Rule::Chars(1, spec::ID_MAX_CHARS)],
        ),
        (Field("Widget", "title"), at_most(spec::TITLE_MAX_CHARS)),
        (Field("Widget", "text"), at_most(spec::NOTE_MAX_CHARS)),
        (
            Field("Widget", "days"),
            vec![
                Rule::Range(1, spec::MAX_DAYS),
                Rule::Default(json!(spec::DEFAULT_DAYS)),
            ],
        ),
        (
            Schema("Widget"),
            vec![Rule::Keyword("allOf", Value::Array(per_type))],
        ),
        (
            Field("WidgetLayout", "x"),
            vec![Rule::Range(0, spec::MAX_X)],
        ),
        (
            Field("WidgetLayout", "y"),
            vec![Rule::Range(0, spec::MAX_Y)],
        ),
        (
            Field("WidgetLayout", "w"),
            vec![Rule::Range(1, spec::GRID_COLUMNS)],
        ),
        (
            Field("WidgetLayout", "h"),
            vec![Rule::Range(1, spec::MAX_H)],
        ),
    ]
}
