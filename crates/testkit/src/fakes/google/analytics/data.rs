//! The Data API's `runReport`: the seeded figures between two days, summed per combination of
//! the dimensions asked, most first, cut by `offset` and `limit`.

use std::collections::BTreeMap;

use axum::http::StatusCode;
use axum::response::Response;
use serde_json::{Value, json};

use super::request::{dimension_filter, int64, names};
use super::state::Analytics;
use super::tables::{facts, table_for};
use crate::fakes::day::Day;
use crate::fakes::google::errors::{bad_request, json_response};

const DEFAULT_LIMIT: u64 = 10_000;
const MAX_LIMIT: u64 = 250_000;

/// A `startDate`/`endDate`: a day, `today`, `yesterday` or `NdaysAgo`.
fn report_day(text: &str, today: Day) -> Option<Day> {
    match text {
        "today" => Some(today),
        "yesterday" => Some(today.plus(-1)),
        _ => match text.strip_suffix("daysAgo") {
            Some(count) => count.parse::<i32>().ok().map(|n| today.plus(-n)),
            None => Day::parse(text),
        },
    }
}

/// `runReport` over the property's seeded figures.
pub(super) fn run_report(
    analytics: &Analytics,
    property: &str,
    today: Day,
    body: &[u8],
) -> Response {
    match report(analytics, property, today, body) {
        Ok(answer) => json_response(StatusCode::OK, &answer),
        Err(message) => bad_request(&message),
    }
}

fn report(analytics: &Analytics, property: &str, today: Day, body: &[u8]) -> Result<Value, String> {
    let request: Value =
        serde_json::from_slice(body).map_err(|_| "Invalid JSON payload received.".to_owned())?;
    let ranges = request
        .get("dateRanges")
        .and_then(Value::as_array)
        .filter(|ranges| !ranges.is_empty())
        .ok_or("dateRanges is required")?;
    let [range] = ranges.as_slice() else {
        return Err("This fake answers one date range".to_owned());
    };
    let bound = |field: &str| -> Result<Day, String> {
        let text = range
            .get(field)
            .and_then(Value::as_str)
            .ok_or_else(|| format!("dateRanges[0].{field} is required"))?;
        report_day(text, today).ok_or_else(|| format!("Invalid {field}: {text}"))
    };
    let (first, last) = (bound("startDate")?, bound("endDate")?);
    if last < first {
        return Err("The dateRange endDate must not be before startDate.".to_owned());
    }
    let dimensions = names(&request, "dimensions")?;
    let metrics = names(&request, "metrics")?;
    if metrics.is_empty() {
        return Err("At least one metric is required.".to_owned());
    }
    let table = table_for(&dimensions, &metrics)?;
    let keep = dimension_filter(&request, &dimensions)?;
    let offset = int64(&request, "offset", 0)?;
    let limit = int64(&request, "limit", DEFAULT_LIMIT)?;
    let limit = if limit == 0 { DEFAULT_LIMIT } else { limit };
    if limit > MAX_LIMIT {
        return Err(format!("limit must not exceed {MAX_LIMIT}, not {limit}."));
    }
    // Sums per combination of the asked dimensions.
    let mut grouped: BTreeMap<Vec<String>, Vec<u64>> = BTreeMap::new();
    for fact in facts(analytics, table, property, first, last) {
        if !keep(&fact.dimensions) {
            continue;
        }
        let key: Vec<String> = dimensions
            .iter()
            .map(|name| {
                fact.dimensions
                    .iter()
                    .find(|(n, _)| n == name)
                    .map(|(_, v)| v.clone())
                    .unwrap_or_default()
            })
            .collect();
        let sums = grouped.entry(key).or_insert_with(|| vec![0; metrics.len()]);
        for (at, metric) in metrics.iter().enumerate() {
            sums[at] += fact
                .metrics
                .iter()
                .find(|(n, _)| n == metric)
                .map_or(0, |(_, v)| *v);
        }
    }
    // Rows of all-zero metrics are left out; the rest by the first metric, most first.
    let mut rows: Vec<(Vec<String>, Vec<u64>)> = grouped
        .into_iter()
        .filter(|(_, sums)| sums.iter().any(|v| *v != 0))
        .collect();
    rows.sort_by(|a, b| b.1[0].cmp(&a.1[0]).then_with(|| a.0.cmp(&b.0)));
    let row_count = rows.len();
    let take = usize::try_from(limit)
        .unwrap_or(usize::MAX)
        .min(analytics.report_page_cap);
    let page: Vec<Value> = rows
        .into_iter()
        .skip(usize::try_from(offset).unwrap_or(usize::MAX))
        .take(take)
        .map(|(keys, sums)| {
            json!({
                "dimensionValues": keys.iter().map(|v| json!({ "value": v })).collect::<Vec<_>>(),
                "metricValues": sums.iter().map(|v| json!({ "value": v.to_string() })).collect::<Vec<_>>(),
            })
        })
        .collect();
    let mut answer = json!({
        "dimensionHeaders": dimensions.iter().map(|n| json!({ "name": n })).collect::<Vec<_>>(),
        "metricHeaders": metrics.iter().map(|n| json!({ "name": n, "type": "TYPE_INTEGER" })).collect::<Vec<_>>(),
        "metadata": { "currencyCode": "USD", "timeZone": "Etc/UTC" },
        "kind": "analyticsData#runReport",
    });
    if row_count > 0 {
        answer["rowCount"] = json!(row_count);
    }
    if !page.is_empty() {
        answer["rows"] = Value::Array(page);
    }
    Ok(answer)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_dates_count_back_from_today() {
        let today = Day::parse("2026-11-21").unwrap();
        assert_eq!(report_day("today", today), Some(today));
        assert_eq!(report_day("yesterday", today), Day::parse("2026-11-20"));
        assert_eq!(report_day("30daysAgo", today), Day::parse("2026-10-22"));
        assert_eq!(report_day("2026-01-02", today), Day::parse("2026-01-02"));
        assert_eq!(report_day("soon", today), None);
    }
}
