//! Conversions (`services/conversions.rs`) and the funnel (`services/funnel.rs`).

use serde_json::json;

use crate::openapi::rule::*;
use crate::services::{conversions, funnel};

pub fn rules() -> Vec<(At, Vec<Rule>)> {
    use At::{Field, Schema};
    vec![
        (
            Field("ConversionInput", "key"),
            vec![
                Rule::Chars(1, conversions::KEY_MAX_CHARS),
                Rule::Pattern(conversions::KEY_PATTERN.to_owned()),
            ],
        ),
        (
            Field("ConversionInput", "label"),
            one_line_name(conversions::LABEL_MAX_CHARS),
        ),
        (
            Field("ConversionInput", "tier"),
            vec![words(conversions::TIERS.iter().copied())],
        ),
        (Field("ConversionInput", "stage"), vec![stages()]),
        (
            Field("ConversionInput", "source"),
            vec![words(conversions::SOURCES.iter().copied())],
        ),
        (
            Field("ConversionInput", "event_name"),
            not_blank(conversions::EVENT_NAME_MAX_CHARS),
        ),
        (
            Field("ConversionInput", "value_mode"),
            vec![words(conversions::VALUE_MODES.iter().copied())],
        ),
        (
            Field("ConversionInput", "fixed_value_cents"),
            vec![Rule::Min(0)],
        ),
        (Field("ConversionInput", "currency"), currency()),
        (
            Field("ConversionInput", "score_mode"),
            vec![words(conversions::SCORE_MODES.iter().copied())],
        ),
        (
            Field("ConversionInput", "target_cpa_cents"),
            vec![Rule::Min(0)],
        ),
        (
            Field("ConversionInput", "grade_weights"),
            vec![Rule::MaxBytes(conversions::MAX_GRADE_WEIGHTS_BYTES)],
        ),
        (
            Schema("ConversionInput"),
            vec![
                // `fixed_value_cents` is required with the fixed value mode, and refused without it.
                Rule::Keyword(
                    "if",
                    json!({
                        "properties": {"value_mode": {"const": conversions::VALUE_MODE_FIXED}},
                        "required": ["value_mode"]
                    }),
                ),
                Rule::Keyword(
                    "then",
                    json!({
                        "properties": {"fixed_value_cents": {"type": "integer"}},
                        "required": ["fixed_value_cents"]
                    }),
                ),
                Rule::Keyword(
                    "else",
                    json!({"properties": {"fixed_value_cents": {"type": "null"}}}),
                ),
            ],
        ),
        (
            Field("SaveDefinitionRequest", "steps"),
            vec![Rule::Items(funnel::MIN_STEPS, funnel::MAX_STEPS)],
        ),
        (Field("StepInput", "stage"), vec![stages()]),
        (
            Field("StepInput", "label"),
            one_line_name(funnel::MAX_LABEL_CHARS),
        ),
    ]
}
