//! The rules the server checks of a value, as JSON Schema keywords state them, and where each
//! goes: the vocabulary every rule list (`rules/`, each kind's plug-in) is written in.

use payback_domain::connection::ConnectionKind;
use payback_domain::event_map::FilterOp;
use payback_domain::validation as input;
use payback_domain::{Stage, event_map};
use serde_json::{Value, json};
use utoipa::openapi::schema::SchemaFormat;

use crate::input::{ListLimit, Window};

/// One thing the server checks of a value, as a JSON Schema keyword states it. Each rule in
/// `rules/` is built from the constant or the list the check itself reads, so the document and
/// the check cannot drift apart; `routes/*.rs` and `services/*.rs` name where each check is.
#[derive(Clone)]
pub enum Rule {
    /// `minLength` (when above 0) and `maxLength`, in characters.
    Chars(usize, usize),
    /// `pattern` (ECMA-262, unanchored unless it says `^...$`).
    Pattern(String),
    /// `minimum` and `maximum`.
    Range(i64, i64),
    /// `minimum` only.
    Min(i64),
    /// `default`: what the server takes when the value is left out.
    Default(Value),
    /// `enum`: the closed list of values (plus `null` where the type allows it).
    OneOf(Vec<String>),
    /// `minItems` (when above 0) and `maxItems`.
    Items(usize, usize),
    /// `x-max-bytes`: the value serialized as JSON is at most this many bytes.
    MaxBytes(usize),
    /// `format`.
    Format(SchemaFormat),
    /// `not: {enum}`: values refused although the other rules allow them.
    NoneOf(Vec<String>),
    /// `not: {pattern: "^<prefix>"}`: a prefix refused.
    NotPrefix(String),
    /// `propertyNames: {enum}`: the keys a map may have.
    Keys(Vec<String>),
    /// The rules every value of a map meets (`additionalProperties`).
    Values(Vec<Rule>),
    /// `anyOf: [{required: [a]}, ...]` on an object: at least one of these fields.
    AnyRequired(Vec<&'static str>),
    /// `dependentRequired: {a: [b]}` on an object: `b` whenever `a`.
    Requires(&'static str, &'static str),
    /// Any other JSON Schema keyword of an object (`if`/`then`/`else`).
    Keyword(&'static str, Value),
    /// The value's whole schema, where its Rust type says too little (a `serde_json::Value`
    /// the server reads as one of several types); the field's description stays.
    Replace(Value),
    /// The rules every item of an array meets.
    Each(Vec<Rule>),
}

/// Where a rule goes.
#[derive(Debug, Clone, Copy)]
pub enum At {
    /// A property of a component schema.
    Field(&'static str, &'static str),
    /// A component schema itself.
    Schema(&'static str),
    /// A parameter of every operation on a path.
    Param(&'static str, &'static str),
}

pub fn words<'a>(values: impl IntoIterator<Item = &'a str>) -> Rule {
    Rule::OneOf(values.into_iter().map(str::to_owned).collect())
}

pub fn stages() -> Rule {
    words(Stage::ALL.iter().map(|stage| stage.as_str()))
}

pub fn email() -> Vec<Rule> {
    vec![
        Rule::Chars(0, input::EMAIL_MAX_BYTES),
        Rule::Pattern(input::EMAIL_PATTERN.to_owned()),
    ]
}

pub fn password() -> Vec<Rule> {
    vec![Rule::Chars(
        input::PASSWORD_MIN_CHARS,
        input::PASSWORD_MAX_CHARS,
    )]
}

pub fn currency() -> Vec<Rule> {
    vec![Rule::Pattern(input::CURRENCY_PATTERN.to_owned())]
}

/// A name, label or headline: 1 to `max` characters on one line, not only whitespace
/// (`validation::check_one_line`).
pub fn one_line_name(max: usize) -> Vec<Rule> {
    vec![
        Rule::Chars(1, max),
        Rule::Pattern(input::ONE_LINE_NOT_BLANK_PATTERN.to_owned()),
    ]
}

/// An optional name or a domain: at most `max` characters on one line.
pub fn one_line_at_most(max: usize) -> Vec<Rule> {
    vec![
        Rule::Chars(0, max),
        Rule::Pattern(input::ONE_LINE_PATTERN.to_owned()),
    ]
}

/// Text of 1 to `max` characters that is not only whitespace (checked after trimming).
pub fn not_blank(max: usize) -> Vec<Rule> {
    vec![
        Rule::Chars(1, max),
        Rule::Pattern(input::NOT_BLANK_PATTERN.to_owned()),
    ]
}

pub fn at_most(max: usize) -> Vec<Rule> {
    vec![Rule::Chars(0, max)]
}

pub fn limit(limit: ListLimit) -> Vec<Rule> {
    vec![
        Rule::Range(1, limit.max),
        Rule::Default(json!(limit.default)),
    ]
}

pub fn days() -> Vec<Rule> {
    vec![
        Rule::Range(1, Window::MAX_DAYS),
        Rule::Default(json!(Window::DEFAULT_DAYS)),
    ]
}

pub fn kinds(keep: impl Fn(ConnectionKind) -> bool) -> Vec<Rule> {
    vec![words(
        ConnectionKind::all()
            .filter(|kind| keep(*kind))
            .map(ConnectionKind::path_word),
    )]
}

/// A filter condition's `value`: a scalar, or for `in`/`not_in` a list of 1 to
/// [`event_map::MAX_IN_VALUES`] scalars (`event_map::check_condition`).
pub fn condition_value() -> Value {
    let scalar = json!({"type": ["string", "number", "boolean"]});
    json!({"oneOf": [
        scalar,
        {"type": "array", "items": scalar, "minItems": 1, "maxItems": event_map::MAX_IN_VALUES}
    ]})
}

/// Which `value` each comparison takes: none for the null tests, a list for `in`/`not_in`, a
/// scalar for the others (`event_map::check_condition`).
pub fn condition_ops() -> Value {
    let ops = |ops: &[FilterOp]| -> Vec<&str> { ops.iter().map(|op| op.as_str()).collect() };
    let null_tests = ops(&[FilterOp::IsNull, FilterOp::NotNull]);
    let lists = ops(&[FilterOp::In, FilterOp::NotIn]);
    let scalars: Vec<&str> = FilterOp::ALL
        .iter()
        .map(|op| op.as_str())
        .filter(|op| !null_tests.contains(op) && !lists.contains(op))
        .collect();
    json!([
        {"if": {"properties": {"op": {"enum": null_tests}}},
         "then": {"properties": {"value": {"type": "null"}}}},
        {"if": {"properties": {"op": {"enum": lists}}},
         "then": {"required": ["value"], "properties": {"value": {"type": "array"}}}},
        {"if": {"properties": {"op": {"enum": scalars}}},
         "then": {"required": ["value"], "properties": {"value": {"type": ["string", "number", "boolean"]}}}}
    ])
}

/// A name an event map may quote (a table, schema, column or field).
pub fn plain_name() -> Vec<Rule> {
    vec![Rule::Pattern(event_map::plain_name_pattern())]
}
