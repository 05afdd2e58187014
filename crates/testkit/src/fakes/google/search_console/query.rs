//! `searchAnalytics.query`: the site's rows between two days, grouped by the dimensions asked,
//! most clicks first, paged by `startRow` and `rowLimit`.

use std::collections::BTreeMap;

use axum::http::StatusCode;
use axum::response::Response;
use serde_json::{Map, Value, json};

use super::state::Console;
use crate::fakes::day::Day;
use crate::fakes::google::errors::{bad_request, json_response};

/// Google's largest `rowLimit`.
const MAX_ROW_LIMIT: u64 = 25_000;
/// `rowLimit` when the request names none.
const DEFAULT_ROW_LIMIT: u64 = 1_000;

/// `searchAnalytics.query` over the site's rows.
pub(super) fn query(console: &Console, site: &str, body: &[u8]) -> Response {
    let Ok(Value::Object(request)) = serde_json::from_slice::<Value>(body) else {
        return bad_request("Invalid JSON payload received.");
    };
    let day = |name: &str| -> Result<Day, Response> {
        let text = request
            .get(name)
            .and_then(Value::as_str)
            .ok_or_else(|| bad_request(&format!("Missing required field: {name}")))?;
        Day::parse(text).ok_or_else(|| bad_request(&format!("Invalid {name}: {text}")))
    };
    let (first, last) = match (day("startDate"), day("endDate")) {
        (Ok(first), Ok(last)) => (first, last),
        (Err(response), _) | (_, Err(response)) => return response,
    };
    if last < first {
        return bad_request("endDate must not be before startDate.");
    }
    let dimensions: Vec<&str> = match request.get("dimensions") {
        None => Vec::new(),
        Some(Value::Array(names)) => {
            let mut out = Vec::new();
            for name in names {
                match name.as_str() {
                    Some(name @ ("date" | "query")) if !out.contains(&name) => out.push(name),
                    _ => {
                        return bad_request(&format!(
                            "Invalid dimension {name} (this fake answers date and query)"
                        ));
                    }
                }
            }
            out
        }
        Some(_) => return bad_request("dimensions must be a list."),
    };
    let number = |name: &str, default: u64| -> Result<u64, Response> {
        match request.get(name) {
            None => Ok(default),
            Some(value) => value
                .as_u64()
                .ok_or_else(|| bad_request(&format!("Invalid {name}: {value}"))),
        }
    };
    let (row_limit, start_row) =
        match (number("rowLimit", DEFAULT_ROW_LIMIT), number("startRow", 0)) {
            (Ok(limit), Ok(start)) => (limit, start),
            (Err(response), _) | (_, Err(response)) => return response,
        };
    if !(1..=MAX_ROW_LIMIT).contains(&row_limit) {
        return bad_request(&format!(
            "rowLimit must be between 1 and {MAX_ROW_LIMIT}, not {row_limit}."
        ));
    }
    // Rows grouped by the keys asked, each with its sums and an impression-weighted position.
    let mut grouped: BTreeMap<Vec<String>, (f64, f64, f64)> = BTreeMap::new();
    for ((row_site, day, query), figures) in &console.rows {
        if row_site != site || *day < first || *day > last {
            continue;
        }
        let keys: Vec<String> = dimensions
            .iter()
            .map(|name| match *name {
                "date" => day.to_string(),
                _ => query.clone(),
            })
            .collect();
        let sums = grouped.entry(keys).or_default();
        sums.0 += figures.clicks;
        sums.1 += figures.impressions;
        sums.2 += figures.position * figures.impressions;
    }
    let mut rows: Vec<(Vec<String>, (f64, f64, f64))> = grouped.into_iter().collect();
    rows.sort_by(|a, b| b.1.0.total_cmp(&a.1.0).then_with(|| a.0.cmp(&b.0)));
    let page: Vec<Value> = rows
        .into_iter()
        .skip(usize::try_from(start_row).unwrap_or(usize::MAX))
        .take(usize::try_from(row_limit).unwrap_or(usize::MAX))
        .map(|(keys, (clicks, impressions, weighted))| {
            let mut row = Map::new();
            if !keys.is_empty() {
                row.insert("keys".into(), json!(keys));
            }
            row.insert("clicks".into(), json!(clicks));
            row.insert("impressions".into(), json!(impressions));
            let ctr = if impressions > 0.0 {
                clicks / impressions
            } else {
                0.0
            };
            let position = if impressions > 0.0 {
                weighted / impressions
            } else {
                0.0
            };
            row.insert("ctr".into(), json!(ctr));
            row.insert("position".into(), json!(position));
            Value::Object(row)
        })
        .collect();
    let mut answer = json!({ "responseAggregationType": "byProperty" });
    if !page.is_empty() {
        answer["rows"] = Value::Array(page);
    }
    json_response(StatusCode::OK, &answer)
}
