//! Request bodies: the request messages in proto3 JSON, each member name in its proto snake_case
//! or its JSON camelCase, unknown names refused as Google's front end refuses them.

use axum::response::Response;
use serde_json::{Map, Value, json};

use super::errors::{AdsError, bad_payload};
use crate::fakes::google::gaql::camel;

/// A request message's JSON object, refusing member names the message does not have (each name
/// is accepted in its proto snake_case and its JSON camelCase).
pub(super) fn message(
    body: &[u8],
    names: &[&str],
    at: &str,
) -> Result<Map<String, Value>, Response> {
    let value: Value = if body.iter().all(u8::is_ascii_whitespace) {
        json!({})
    } else {
        serde_json::from_slice(body).map_err(|err| bad_payload(&format!("Syntax error: {err}")))?
    };
    let Value::Object(map) = value else {
        return Err(bad_payload(&format!(
            "Invalid value at '{at}': expected an object."
        )));
    };
    check_names(&map, names, at)?;
    Ok(map)
}

pub(super) fn check_names(
    map: &Map<String, Value>,
    names: &[&str],
    at: &str,
) -> Result<(), Response> {
    for key in map.keys() {
        if !names.iter().any(|name| key == name || *key == camel(name)) {
            let place = if at.is_empty() {
                String::new()
            } else {
                format!(" at '{at}'")
            };
            return Err(bad_payload(&format!(
                "Unknown name \"{key}\"{place}: Cannot find field."
            )));
        }
    }
    Ok(())
}

pub(super) fn member<'a>(map: &'a Map<String, Value>, name: &str) -> Option<&'a Value> {
    map.get(name).or_else(|| map.get(&camel(name)))
}

pub(super) fn string_member(
    map: &Map<String, Value>,
    name: &str,
    at: &str,
) -> Result<Option<String>, Response> {
    match member(map, name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) => Ok(Some(text.clone())),
        Some(other) => Err(bad_payload(&format!(
            "Invalid value at '{at}{name}' (TYPE_STRING), {other}"
        ))),
    }
}

pub(super) fn bool_member(
    map: &Map<String, Value>,
    name: &str,
    at: &str,
) -> Result<Option<bool>, Response> {
    match member(map, name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(other) => Err(bad_payload(&format!(
            "Invalid value at '{at}{name}' (TYPE_BOOL), {other}"
        ))),
    }
}

/// An int64: a JSON string of digits or a JSON number, as proto3 JSON reads it.
pub(super) fn int64_member(
    map: &Map<String, Value>,
    name: &str,
    at: &str,
) -> Result<Option<i64>, Response> {
    let bad = |value: &Value| {
        bad_payload(&format!(
            "Invalid value at '{at}{name}' (TYPE_INT64), {value}"
        ))
    };
    match member(map, name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) => text
            .trim()
            .parse()
            .map(Some)
            .map_err(|_| bad(&Value::String(text.clone()))),
        Some(Value::Number(number)) => number
            .as_i64()
            .map(Some)
            .ok_or_else(|| bad(&Value::Number(number.clone()))),
        Some(other) => Err(bad(other)),
    }
}

pub(super) fn response_content_type(map: &Map<String, Value>) -> Result<bool, Response> {
    match string_member(map, "response_content_type", "")?.as_deref() {
        None | Some("UNSPECIFIED" | "RESOURCE_NAME_ONLY") => Ok(false),
        Some("MUTABLE_RESOURCE") => Ok(true),
        Some(other) => Err(bad_payload(&format!(
            "Invalid value at 'response_content_type' (type.googleapis.com/google.ads.googleads.v.enums.ResponseContentTypeEnum.ResponseContentType), \"{other}\""
        ))),
    }
}

/// A FieldMask in its JSON form (comma-separated paths), each path in snake_case.
pub(super) fn field_mask(map: &Map<String, Value>, at: &str) -> Result<Vec<String>, Response> {
    match member(map, "update_mask") {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::String(text)) => Ok(text
            .split(',')
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .map(snake)
            .collect()),
        Some(other) => Err(bad_payload(&format!(
            "Invalid value at '{at}update_mask' (type.googleapis.com/google.protobuf.FieldMask), {other}"
        ))),
    }
}

/// Why a mutate operation is refused: an error Google reports for it, or a field the fake does
/// not model (answered 501 rather than pretended).
pub(super) enum Refusal {
    Refused(AdsError),
    Unmodelled(String),
}

/// An update's field mask checked as Google checks it: given, each path a field of the resource
/// (`fields`) other than `resource_name`, and each one the fake models; `operation` locates the
/// operation in the request (`operations[i]` or `operation`).
pub(super) fn check_mask(
    mask: &[String],
    fields: &[&str],
    modelled: &[&str],
    operation: (&str, Option<usize>),
) -> Result<(), Refusal> {
    let location = [operation, ("update_mask", None)];
    if mask.is_empty() {
        return Err(Refusal::Refused(
            AdsError::new(
                "fieldMaskError",
                "FIELD_MASK_MISSING",
                "The field mask must be provided for update operations.",
            )
            .at(&location),
        ));
    }
    for path in mask {
        if !fields.contains(&path.as_str()) || path == "resource_name" {
            return Err(Refusal::Refused(
                AdsError::new(
                    "fieldMaskError",
                    "FIELD_NOT_FOUND",
                    format!("The field mask contained an invalid field: '{path}'."),
                )
                .at(&location),
            ));
        }
        if !modelled.contains(&path.as_str()) {
            return Err(Refusal::Unmodelled(path.clone()));
        }
    }
    Ok(())
}

fn snake(path: &str) -> String {
    let mut out = String::with_capacity(path.len() + 4);
    for c in path.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// A customer id as the API writes it: digits only, without hyphens.
pub(super) fn digits(text: &str) -> Option<i64> {
    if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
        text.parse().ok()
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_masks_read_either_spelling() {
        assert_eq!(snake("finalUrlSuffix"), "final_url_suffix");
        assert_eq!(snake("final_url_suffix"), "final_url_suffix");
        assert_eq!(snake("amountMicros"), "amount_micros");
    }
}
