//! The OpenAPI document's frame (title, version, security scheme). Paths and schemas are
//! collected from the handlers by `utoipa-axum` as routes are registered; then
//! [`document_constraints`] writes into them the rules the server checks (lengths, patterns,
//! ranges, closed vocabularies), each from the constant or list its check reads. utoipa's own
//! attributes (`max_length = ..`, `pattern = ..`) take only literals, which would state every
//! number a second time.
pub mod rule;
mod rules;

use std::collections::BTreeMap;

use serde_json::{Value, json};
use utoipa::Modify;
use utoipa::Number;
use utoipa::openapi::path::{Operation, PathItem};
use utoipa::openapi::schema::{
    AdditionalProperties, ArrayItems, KnownFormat, Object, ObjectBuilder, Schema, SchemaFormat,
    SchemaType, Type,
};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::openapi::{ContentBuilder, Header, OpenApi, Ref, RefOr, ResponseBuilder};

use rule::{At, Rule};
use rules::rules;

#[derive(utoipa::OpenApi)]
#[openapi(
    info(
        title = "Payback",
        version = "0.2.0",
        description = "Did this spend pay back? Per product: ad spend, funnel events and revenue joined, \
                       with CAC, LTV, attribution and an approval queue in which only humans decide. \
                       Every error answers `{\"error\": \"...\"}`; on any route, a path or query holding `%00` \
                       (and any JSON string holding U+0000) answers 400 naming where. Request schemas state \
                       the rules the server checks (lengths, patterns, ranges, closed vocabularies); \
                       `x-max-bytes` bounds a JSON value's size once serialized."
    ),
    modifiers(&BearerAuth),
    components(schemas(crate::error::ErrorBody))
)]
pub struct ApiDoc;

struct BearerAuth;

impl Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some("An account API key `svc_live_...`, a session token `svc_sess_...` or the operator token"))
                    .build(),
            ),
        );
    }
}

/// Adds the 400 every route can answer (a path or query holding `%00`, refused before any
/// handler runs) to the operations whose own annotations list no 400. Runs on the finished
/// document, once every route has registered its operations.
pub fn document_refused_nul(openapi: &mut OpenApi) {
    let refused = ResponseBuilder::new()
        .description("The path or query holds `%00` (a NUL character)")
        .content(
            "application/json",
            ContentBuilder::new()
                .schema(Some(Ref::from_schema_name("ErrorBody")))
                .build(),
        )
        .build();
    for operation in openapi.paths.paths.values_mut().flat_map(operations_of) {
        operation
            .responses
            .responses
            .entry("400".to_owned())
            .or_insert_with(|| refused.clone().into());
    }
}

/// States on every documented 429 the `Retry-After` header
/// [`ApiError::TooManyRequests`](crate::error::ApiError::TooManyRequests) sends with it, so no
/// route has to repeat it.
pub fn document_retry_after(openapi: &mut OpenApi) {
    let schema = ObjectBuilder::new()
        .schema_type(Type::Integer)
        .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int64)))
        .minimum(Some(1))
        .build();
    let mut header = Header::new(schema);
    header.description = Some(
        "Whole seconds until a request passes again; the same N as the message's \
         \"try again in N s\"."
            .to_owned(),
    );
    let operations = openapi.paths.paths.values_mut().flat_map(operations_of);
    for operation in operations {
        if let Some(RefOr::T(limited)) = operation.responses.responses.get_mut("429") {
            limited
                .headers
                .insert("Retry-After".to_owned(), RefOr::T(header.clone()));
        }
    }
}

/// The operations of one path the API serves (it has no HEAD, OPTIONS or TRACE of its own).
pub(crate) fn operations_of(item: &mut PathItem) -> impl Iterator<Item = &mut Operation> {
    [
        &mut item.get,
        &mut item.put,
        &mut item.post,
        &mut item.delete,
        &mut item.patch,
    ]
    .into_iter()
    .flatten()
}

/// Writes every rule of [`rules`] into the finished document (once every route has registered
/// its operations and schemas). A rule whose place is missing (a renamed type or field) is a
/// bug: debug builds, and so every test that starts the service, stop on it.
pub fn document_constraints(openapi: &mut OpenApi) {
    let missing = apply_rules(openapi, rules());
    debug_assert!(
        missing.is_empty(),
        "constraints without a place: {missing:?}"
    );
    if !missing.is_empty() {
        tracing::error!(
            ?missing,
            "constraints without a place in the OpenAPI document"
        );
    }
}

fn apply_rules(openapi: &mut OpenApi, rules: Vec<(At, Vec<Rule>)>) -> Vec<String> {
    let components = openapi.components.get_or_insert_with(Default::default);
    // Referenced schemas (a `Secret`) are copied in where a field gets rules of its own.
    let referenced = components.schemas.clone();
    let mut missing = Vec::new();
    for (at, rules) in rules {
        let placed = match at {
            At::Field(schema, field) => match components.schemas.get_mut(schema) {
                Some(RefOr::T(Schema::Object(object))) => object
                    .properties
                    .get_mut(field)
                    .is_some_and(|property| constrain(property, &rules, &referenced)),
                _ => false,
            },
            At::Schema(schema) => match components.schemas.get_mut(schema) {
                Some(RefOr::T(Schema::Object(object))) => {
                    rules.iter().all(|rule| apply_to_object(object, rule))
                }
                _ => false,
            },
            At::Param(path, name) => {
                let mut found = false;
                if let Some(item) = openapi.paths.paths.get_mut(path) {
                    for operation in operations_of(item) {
                        for parameter in operation.parameters.iter_mut().flatten() {
                            let RefOr::T(parameter) = parameter else {
                                continue;
                            };
                            if parameter.name == name {
                                found = match &mut parameter.schema {
                                    Some(schema) => constrain(schema, &rules, &referenced),
                                    None => false,
                                };
                            }
                        }
                    }
                }
                found
            }
        };
        if !placed {
            missing.push(format!("{at:?}"));
        }
    }
    missing
}

/// Applies `rules` to one value's schema: a plain schema, the non-null side of an optional
/// one, or a referenced one copied in (keeping the field's description).
fn constrain(
    schema: &mut RefOr<Schema>,
    rules: &[Rule],
    referenced: &BTreeMap<String, RefOr<Schema>>,
) -> bool {
    if let Some((Rule::Replace(replacement), rest)) = rules.split_first() {
        let description = match schema {
            RefOr::T(Schema::Object(object)) => object.description.clone(),
            _ => None,
        };
        let Ok(RefOr::T(mut replaced)) =
            serde_json::from_value::<RefOr<Schema>>(replacement.clone())
        else {
            return false;
        };
        match &mut replaced {
            Schema::Object(object) => object.description = description,
            Schema::OneOf(one_of) => one_of.description = description,
            _ => return false,
        }
        *schema = RefOr::T(replaced);
        return rest.is_empty() || constrain(schema, rest, referenced);
    }
    match schema {
        RefOr::Ref(reference) => {
            let name = reference
                .ref_location
                .trim_start_matches("#/components/schemas/");
            let Some(RefOr::T(Schema::Object(target))) = referenced.get(name) else {
                return false;
            };
            let mut copy = target.clone();
            if !reference.description.is_empty() {
                copy.description = Some(reference.description.clone());
            }
            *schema = RefOr::T(Schema::Object(copy));
            constrain(schema, rules, referenced)
        }
        RefOr::T(Schema::Object(object)) => rules.iter().all(|rule| apply_to_object(object, rule)),
        RefOr::T(Schema::Array(array)) => rules.iter().all(|rule| match rule {
            Rule::Items(min, max) => {
                array.min_items = (*min > 0).then_some(*min);
                array.max_items = Some(*max);
                true
            }
            Rule::Each(rules) => match &mut array.items {
                ArrayItems::RefOrSchema(items) => constrain(items, rules, referenced),
                ArrayItems::False => false,
            },
            _ => false,
        }),
        RefOr::T(Schema::OneOf(one_of)) => {
            let mut values = one_of.items.iter_mut().filter(|item| !is_null(item));
            match (values.next(), values.next()) {
                (Some(value), None) => constrain(value, rules, referenced),
                _ => false,
            }
        }
        _ => false,
    }
}

fn is_null(schema: &RefOr<Schema>) -> bool {
    matches!(schema, RefOr::T(Schema::Object(object))
        if object.schema_type == SchemaType::Type(Type::Null))
}

fn allows_null(object: &Object) -> bool {
    match &object.schema_type {
        SchemaType::Type(kind) => *kind == Type::Null,
        SchemaType::Array(kinds) => kinds.contains(&Type::Null),
        SchemaType::AnyValue => true,
    }
}

fn keyword(object: &mut Object, name: &str, value: Value) {
    object
        .extensions
        .get_or_insert_with(Default::default)
        .insert(name.to_owned(), value);
}

fn apply_to_object(object: &mut Object, rule: &Rule) -> bool {
    match rule {
        Rule::Chars(min, max) => {
            object.min_length = (*min > 0).then_some(*min);
            object.max_length = Some(*max);
        }
        Rule::Pattern(pattern) => object.pattern = Some(pattern.clone()),
        Rule::Range(min, max) => {
            object.minimum = Some(Number::from(*min));
            object.maximum = Some(Number::from(*max));
        }
        Rule::Min(min) => object.minimum = Some(Number::from(*min)),
        Rule::Default(value) => object.default = Some(value.clone()),
        Rule::OneOf(values) => {
            let mut values: Vec<Value> = values.iter().map(|v| json!(v)).collect();
            if allows_null(object) {
                values.push(Value::Null);
            }
            object.enum_values = Some(values);
        }
        Rule::MaxBytes(max) => keyword(object, "x-max-bytes", json!(max)),
        Rule::Format(format) => object.format = Some(format.clone()),
        Rule::NoneOf(values) => keyword(object, "not", json!({ "enum": values })),
        Rule::NotPrefix(prefix) => {
            keyword(object, "not", json!({ "pattern": format!("^{prefix}") }));
        }
        Rule::Keys(keys) => {
            let names = ObjectBuilder::new()
                .schema_type(Type::String)
                .enum_values(Some(keys.clone()))
                .build();
            object.property_names = Some(Box::new(Schema::Object(names)));
        }
        Rule::Values(rules) => {
            let Some(values) = object.additional_properties.as_deref_mut() else {
                return false;
            };
            let AdditionalProperties::RefOr(values) = values else {
                return false;
            };
            return constrain(values, rules, &BTreeMap::new());
        }
        Rule::AnyRequired(fields) => {
            let each: Vec<Value> = fields.iter().map(|f| json!({ "required": [f] })).collect();
            keyword(object, "anyOf", Value::Array(each));
        }
        Rule::Requires(field, needs) => {
            keyword(object, "dependentRequired", json!({ *field: [needs] }));
        }
        Rule::Keyword(name, value) => keyword(object, name, value.clone()),
        Rule::Items(..) | Rule::Replace(_) | Rule::Each(_) => return false,
    }
    true
}
