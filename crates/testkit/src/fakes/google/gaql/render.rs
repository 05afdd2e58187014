//! A row as JSON: the selected fields nested by their camelCase path, int64s as strings, plus the
//! resource names Google adds.

use serde_json::{Map, Value};

use super::catalog::Family;
use super::syntax::Query;
use super::values::{Row, Val, value};
use crate::fakes::google::state::State;

/// `snake_case.path` to the JSON member path `camelCase.path`.
pub(crate) fn camel_path(field: &str) -> String {
    field.split('.').map(camel).collect::<Vec<_>>().join(".")
}

pub(crate) fn camel(segment: &str) -> String {
    let mut out = String::with_capacity(segment.len());
    let mut upper = false;
    for c in segment.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.push(c.to_ascii_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

pub(super) fn render(state: &State, query: &Query, main: Family, row: &Row<'_>) -> Value {
    let mut root = Map::new();
    for field in &query.select {
        let Some(val) = value(state, field, row) else {
            continue;
        };
        if state.omit_zero_metrics && field.starts_with("metrics.") && val == Val::Int(0) {
            continue;
        }
        insert(&mut root, field, val.to_json());
    }
    // The resource name of the FROM resource, and of each attributed resource selected from.
    let mut named = vec![main];
    if !query.omit_unselected_resource_names {
        for field in &query.select {
            if let Some(family) = Family::of(field)
                && !matches!(family, Family::Metrics | Family::Segments)
                && !named.contains(&family)
            {
                named.push(family);
            }
        }
    }
    for family in named {
        let field = format!("{}.resource_name", family.prefix());
        if query.omit_unselected_resource_names && !query.select.contains(&field) {
            continue;
        }
        if let Some(val) = value(state, &field, row) {
            insert(&mut root, &field, val.to_json());
        }
    }
    Value::Object(root)
}

fn insert(root: &mut Map<String, Value>, field: &str, value: Value) {
    let parts: Vec<String> = field.split('.').map(camel).collect();
    let mut at = root;
    for part in &parts[..parts.len() - 1] {
        let entry = at
            .entry(part.clone())
            .or_insert_with(|| Value::Object(Map::new()));
        if !entry.is_object() {
            *entry = Value::Object(Map::new());
        }
        let Value::Object(next) = entry else {
            return;
        };
        at = next;
    }
    if let Some(last) = parts.last() {
        at.insert(last.clone(), value);
    }
}
