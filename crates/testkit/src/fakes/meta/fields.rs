//! The `fields` parameter (Graph API "Using the Graph API": field selection with nested
//! expansion, `fields=id,name,instagram_business_account{id,username}`), applied to the full
//! JSON of a node: Graph returns the fields asked for (always with `id`), leaves out fields
//! without a value, returns a node's default fields when none are asked for, and refuses a
//! field the node type does not have.

use serde_json::{Map, Value};

use super::errors::{GraphError, invalid_param, nonexisting_field};

/// One requested field, with its nested selection if it was expanded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Field {
    pub name: String,
    pub nested: Option<Vec<Field>>,
}

/// Parses `a,b{c,d},e`; `None` on unbalanced braces or empty names.
pub(crate) fn parse(text: &str) -> Option<Vec<Field>> {
    parse_list(&mut text.chars().peekable(), false)
}

type Chars<'a> = std::iter::Peekable<std::str::Chars<'a>>;

/// `list := item (',' item)*`, `item := name ('{' list '}')?`; a nested list ends at its `}`.
fn parse_list(chars: &mut Chars<'_>, nested: bool) -> Option<Vec<Field>> {
    let mut fields = Vec::new();
    loop {
        let name = read_name(chars);
        if name.is_empty() {
            return None;
        }
        let inner = if chars.peek() == Some(&'{') {
            chars.next();
            Some(parse_list(chars, true)?)
        } else {
            None
        };
        fields.push(Field {
            name,
            nested: inner,
        });
        skip_whitespace(chars);
        match chars.next() {
            Some(',') => {}
            Some('}') if nested => return Some(fields),
            None if !nested => return Some(fields),
            _ => return None,
        }
    }
}

/// A field's name without its modifiers: Graph's field expansion lets an edge asked as a field
/// carry `.summary(total_count)`, `.limit(0)` and the like (`reactions.summary(total_count)`),
/// which shape the edge's answer, not which field it is.
fn read_name(chars: &mut Chars<'_>) -> String {
    let mut name = String::new();
    let mut depth = 0_u32;
    while let Some(&c) = chars.peek() {
        if depth == 0 && matches!(c, ',' | '{' | '}') {
            break;
        }
        chars.next();
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            _ => {}
        }
        if !c.is_whitespace() {
            name.push(c);
        }
    }
    match name.split_once('.') {
        Some((base, _)) => base.to_owned(),
        None => name,
    }
}

fn skip_whitespace(chars: &mut Chars<'_>) {
    while chars.peek().is_some_and(|c| c.is_whitespace()) {
        chars.next();
    }
}

/// The `fields` parameter of a request, parsed (`None` when absent).
pub(crate) fn requested(text: Option<&str>) -> Result<Option<Vec<Field>>, GraphError> {
    match text.map(str::trim).filter(|t| !t.is_empty()) {
        None => Ok(None),
        Some(text) => parse(text)
            .map(Some)
            .ok_or_else(|| invalid_param(format!("Syntax error in fields: {text}"))),
    }
}

/// What a node type offers: its name in error messages, the fields it has, and the ones Graph
/// returns when none are asked for.
#[derive(Debug, Clone, Copy)]
pub(crate) struct NodeType {
    pub name: &'static str,
    pub fields: &'static [&'static str],
    pub defaults: &'static [&'static str],
}

/// Selects `requested` (or the defaults) from `full`. Nested selections apply to object values
/// and are checked against the nested object's own members.
pub(crate) fn select(
    node: NodeType,
    full: &Map<String, Value>,
    requested: Option<&[Field]>,
) -> Result<Value, GraphError> {
    let mut out = Map::new();
    match requested {
        None => {
            for name in node.defaults {
                if let Some(value) = full.get(*name).filter(|v| !v.is_null()) {
                    out.insert((*name).to_owned(), value.clone());
                }
            }
        }
        Some(fields) => {
            for field in fields {
                if !node.fields.contains(&field.name.as_str()) {
                    return Err(nonexisting_field(&field.name, node.name));
                }
                let Some(value) = full.get(&field.name).filter(|v| !v.is_null()) else {
                    continue;
                };
                let value = match (&field.nested, value) {
                    (Some(nested), Value::Object(inner)) => {
                        select_nested(&field.name, inner, nested)?
                    }
                    // An object field without a nested selection is its id, as Graph answers.
                    (None, Value::Object(inner)) if inner.contains_key("id") => {
                        serde_json::json!({ "id": inner["id"] })
                    }
                    _ => value.clone(),
                };
                out.insert(field.name.clone(), value);
            }
        }
    }
    if let Some(id) = full.get("id") {
        out.insert("id".to_owned(), id.clone());
    }
    Ok(Value::Object(out))
}

fn select_nested(
    parent: &str,
    inner: &Map<String, Value>,
    fields: &[Field],
) -> Result<Value, GraphError> {
    let mut out = Map::new();
    for field in fields {
        match (inner.get(&field.name), &field.nested) {
            (Some(Value::Null), _) => {}
            (Some(Value::Object(object)), Some(nested)) => {
                out.insert(
                    field.name.clone(),
                    select_nested(&field.name, object, nested)?,
                );
            }
            (Some(value), _) => {
                out.insert(field.name.clone(), value.clone());
            }
            (None, _) => return Err(nonexisting_field(&field.name, parent)),
        }
    }
    if let Some(id) = inner.get("id") {
        out.insert("id".to_owned(), id.clone());
    }
    Ok(Value::Object(out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn names(fields: &[Field]) -> Vec<String> {
        fields.iter().map(|f| f.name.clone()).collect()
    }

    #[test]
    fn parses_flat_and_nested_lists() {
        let fields = parse("id,name,instagram_business_account{id,username},fan_count").unwrap();
        assert_eq!(
            names(&fields),
            ["id", "name", "instagram_business_account", "fan_count"]
        );
        assert_eq!(
            names(fields[2].nested.as_deref().unwrap()),
            ["id", "username"]
        );
        let fields = parse("a{b{c}}").unwrap();
        let b = &fields[0].nested.as_deref().unwrap()[0];
        assert_eq!(names(b.nested.as_deref().unwrap()), ["c"]);
        assert_eq!(names(&parse(" id , name ").unwrap()), ["id", "name"]);
        assert!(parse("a{b").is_none());
        assert!(parse("a,,b").is_none());
        assert!(parse("a}b").is_none());
    }

    #[test]
    fn selects_asked_fields_with_id_and_refuses_unknown_ones() {
        const NODE: NodeType = NodeType {
            name: "Page",
            fields: &["id", "name", "fan_count", "instagram_business_account"],
            defaults: &["name"],
        };
        let full = json!({
            "id": "1", "name": "Shop", "fan_count": 5,
            "instagram_business_account": {"id": "9", "username": "shop"},
        });
        let full = full.as_object().unwrap();
        assert_eq!(
            select(NODE, full, None).unwrap(),
            json!({"id": "1", "name": "Shop"})
        );
        let asked = parse("fan_count,instagram_business_account{username}").unwrap();
        assert_eq!(
            select(NODE, full, Some(&asked)).unwrap(),
            json!({"id": "1", "fan_count": 5, "instagram_business_account": {"id": "9", "username": "shop"}})
        );
        let error = select(NODE, full, Some(&parse("bogus").unwrap())).unwrap_err();
        assert_eq!(error.code, 100);
        assert!(
            error.message.contains("(bogus) on node type (Page)"),
            "{}",
            error.message
        );
    }
}
