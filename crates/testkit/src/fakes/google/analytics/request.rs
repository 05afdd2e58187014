//! Reading a `runReport` request: its `[{name}]` lists, its int64 fields and its
//! `dimensionFilter`.

use serde_json::Value;

/// The names of a `[{name}]` list.
pub(super) fn names(request: &Value, field: &str) -> Result<Vec<String>, String> {
    match request.get(field) {
        None => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .map(|item| {
                item.get("name")
                    .and_then(Value::as_str)
                    .map(str::to_owned)
                    .ok_or_else(|| format!("{field} must be a list of {{name}}"))
            })
            .collect(),
        Some(_) => Err(format!("{field} must be a list")),
    }
}

/// An int64 field, as JSON carries it (a number or a string).
pub(super) fn int64(request: &Value, field: &str, default: u64) -> Result<u64, String> {
    match request.get(field) {
        None | Some(Value::Null) => Ok(default),
        Some(Value::Number(number)) => number
            .as_u64()
            .ok_or_else(|| format!("{field} must be non-negative")),
        Some(Value::String(text)) => text
            .parse::<i64>()
            .ok()
            .and_then(|n| u64::try_from(n).ok())
            .ok_or_else(|| format!("Invalid value at '{field}' (TYPE_INT64), \"{text}\"")),
        Some(other) => Err(format!("Invalid value at '{field}': {other}")),
    }
}

/// A `dimensionFilter` as a test on one row's dimension values.
pub(super) type RowFilter = Box<dyn Fn(&[(&'static str, String)]) -> bool>;

pub(super) fn dimension_filter(
    request: &Value,
    dimensions: &[String],
) -> Result<RowFilter, String> {
    let Some(expression) = request.get("dimensionFilter") else {
        return Ok(Box::new(|_| true));
    };
    let filter = expression
        .get("filter")
        .ok_or("This fake answers a dimensionFilter of one filter")?;
    let field = filter
        .get("fieldName")
        .and_then(Value::as_str)
        .ok_or("filter.fieldName is required")?
        .to_owned();
    if !dimensions.contains(&field) {
        return Err(format!(
            "Field {field} in the dimension filter is not a dimension of this request"
        ));
    }
    if let Some(list) = filter.get("inListFilter") {
        let values: Vec<String> = list
            .get("values")
            .and_then(Value::as_array)
            .ok_or("inListFilter.values is required")?
            .iter()
            .map(|v| {
                v.as_str()
                    .map(str::to_owned)
                    .ok_or("inListFilter.values are strings")
            })
            .collect::<Result<_, _>>()?;
        if values.is_empty() {
            return Err("inListFilter.values must not be empty".to_owned());
        }
        let case_sensitive = list
            .get("caseSensitive")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        return Ok(Box::new(move |row| {
            row.iter().any(|(name, value)| {
                *name == field
                    && values.iter().any(|v| {
                        if case_sensitive {
                            v == value
                        } else {
                            v.eq_ignore_ascii_case(value)
                        }
                    })
            })
        }));
    }
    if let Some(string) = filter.get("stringFilter") {
        let wanted = string
            .get("value")
            .and_then(Value::as_str)
            .ok_or("stringFilter.value is required")?
            .to_owned();
        let match_type = string
            .get("matchType")
            .and_then(Value::as_str)
            .unwrap_or("EXACT");
        if match_type != "EXACT" {
            return Err("This fake answers stringFilter matchType EXACT only".to_owned());
        }
        return Ok(Box::new(move |row| {
            row.iter()
                .any(|(name, value)| *name == field && *value == wanted)
        }));
    }
    Err("This fake answers inListFilter and stringFilter".to_owned())
}
