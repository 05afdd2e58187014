//! The three Site Explorer endpoints, read as their reference pages document them: `GET`
//! only, `Authorization: Bearer KEY`, parameters in the query string (`target` and `date`
//! required everywhere, `select` required for the keyword list), each answer one object named
//! after its resource.

use std::cmp::Ordering;

use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::Response;
use serde_json::{Map, Value, json};

use super::errors::{
    bad_request, json_response, missing_key, no_api_access, not_found, unauthorized,
};
use super::state::{Access, Domain, OrganicKeyword};
use super::{Shared, lock};
use crate::fakes::day::Day;
use crate::fakes::form::form_pairs;

const SITE_EXPLORER: &str = "/v3/site-explorer/";

/// The keyword list's columns the fake knows (a part of the reference's list), for `select`
/// and `order_by`.
const KEYWORD_COLUMNS: [&str; 7] = [
    "keyword",
    "keyword_country",
    "best_position",
    "best_position_url",
    "volume",
    "sum_traffic",
    "keyword_difficulty",
];

/// The documented default of `limit`.
const DEFAULT_LIMIT: usize = 1000;

pub(crate) async fn dispatch(
    State(shared): State<Shared>,
    method: Method,
    headers: HeaderMap,
    uri: Uri,
) -> Response {
    let Some(endpoint) = uri.path().strip_prefix(SITE_EXPLORER) else {
        return not_found();
    };
    if method != Method::GET {
        return json_response(
            StatusCode::METHOD_NOT_ALLOWED,
            &json!({ "error": "Method not allowed" }),
        );
    }
    let Some(key) = headers
        .get("authorization")
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.strip_prefix("Bearer "))
        .map(str::trim)
        .filter(|key| !key.is_empty())
    else {
        return missing_key();
    };
    let state = lock(&shared);
    match state.keys.get(key) {
        Some(Access::Granted) => {}
        Some(Access::PlanWithoutApi) => return no_api_access(),
        Some(Access::Revoked) | None => return unauthorized(),
    }
    let params = Params(form_pairs(uri.query().unwrap_or("")));
    let target = match params.target() {
        Ok(target) => target,
        Err(text) => return bad_request(&text),
    };
    if let Err(text) = params.date() {
        return bad_request(&text);
    }
    let domain = state.domain(&target);
    match endpoint {
        "domain-rating" => json_response(
            StatusCode::OK,
            &json!({ "domain_rating": {
                "domain_rating": domain.domain_rating,
                "ahrefs_rank": domain.ahrefs_rank,
            }}),
        ),
        "backlinks-stats" => {
            if let Err(text) = params.mode() {
                return bad_request(&text);
            }
            let links = domain.backlinks;
            json_response(
                StatusCode::OK,
                &json!({ "metrics": {
                    "live": links.live,
                    "all_time": links.all_time,
                    "live_refdomains": links.live_refdomains,
                    "all_time_refdomains": links.all_time_refdomains,
                }}),
            )
        }
        "organic-keywords" => match organic_keywords(&params, &domain) {
            Ok(rows) => json_response(StatusCode::OK, &json!({ "keywords": rows })),
            Err(text) => bad_request(&text),
        },
        _ => not_found(),
    }
}

/// The list as asked: the country's rows (every country's without one), ordered, cut at
/// `limit`, each row holding the selected columns only.
/// A refusal is the `error` text of a 400.
fn organic_keywords(params: &Params, domain: &Domain) -> Result<Vec<Value>, String> {
    params.mode()?;
    let select = params
        .get("select")
        .filter(|select| !select.is_empty())
        .ok_or_else(|| "Missing required parameter: select".to_owned())?;
    let columns: Vec<&str> = select.split(',').map(str::trim).collect();
    if let Some(unknown) = columns
        .iter()
        .find(|column| !KEYWORD_COLUMNS.contains(column))
    {
        return Err(format!("Unknown column in select: {unknown}"));
    }
    let country = match params.get("country") {
        None => None,
        Some(code) if code.len() == 2 && code.bytes().all(|b| b.is_ascii_lowercase()) => Some(code),
        Some(code) => return Err(format!("Invalid country: {code}")),
    };
    let limit = match params.get("limit") {
        None => DEFAULT_LIMIT,
        Some(limit) => limit
            .parse::<usize>()
            .ok()
            .filter(|limit| *limit > 0)
            .ok_or_else(|| format!("Invalid limit: {limit}"))?,
    };
    let order = params.order_by()?;
    let mut rows: Vec<&OrganicKeyword> = domain
        .keywords
        .iter()
        .filter(|row| country.is_none_or(|code| row.country == code))
        .collect();
    rows.sort_by(|a, b| {
        order
            .iter()
            .map(|(column, descending)| {
                let ordering = compare(&value(a, column), &value(b, column));
                if *descending {
                    ordering.reverse()
                } else {
                    ordering
                }
            })
            .find(|ordering| ordering.is_ne())
            .unwrap_or(Ordering::Equal)
    });
    Ok(rows
        .into_iter()
        .take(limit)
        .map(|row| {
            let picked: Map<String, Value> = columns
                .iter()
                .map(|column| ((*column).to_owned(), value(row, column)))
                .collect();
            Value::Object(picked)
        })
        .collect())
}

fn value(row: &OrganicKeyword, column: &str) -> Value {
    match column {
        "keyword" => json!(row.keyword),
        "keyword_country" => json!(row.country),
        "best_position" => json!(row.best_position),
        "best_position_url" => json!(row.best_position_url),
        "volume" => json!(row.volume),
        "sum_traffic" => json!(row.sum_traffic),
        "keyword_difficulty" => json!(row.keyword_difficulty),
        _ => Value::Null,
    }
}

/// Numbers by value, text by text; null first.
fn compare(a: &Value, b: &Value) -> Ordering {
    match (a, b) {
        (Value::Null, Value::Null) => Ordering::Equal,
        (Value::Null, _) => Ordering::Less,
        (_, Value::Null) => Ordering::Greater,
        (Value::Number(a), Value::Number(b)) => a
            .as_f64()
            .partial_cmp(&b.as_f64())
            .unwrap_or(Ordering::Equal),
        _ => a.to_string().cmp(&b.to_string()),
    }
}

/// The query string's parameters, decoded; a refusal is the `error` text of a 400.
struct Params(Vec<(String, String)>);

impl Params {
    fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    }

    fn target(&self) -> Result<String, String> {
        self.get("target")
            .map(str::trim)
            .filter(|target| !target.is_empty())
            .map(str::to_owned)
            .ok_or_else(|| "Missing required parameter: target".to_owned())
    }

    /// `date`, required, `YYYY-MM-DD`.
    fn date(&self) -> Result<Day, String> {
        let date = self
            .get("date")
            .ok_or_else(|| "Missing required parameter: date".to_owned())?;
        Day::parse(date).ok_or_else(|| format!("Invalid date: {date}"))
    }

    /// `mode`, one of the documented scopes when given.
    fn mode(&self) -> Result<(), String> {
        match self.get("mode") {
            None | Some("exact" | "prefix" | "domain" | "subdomains") => Ok(()),
            Some(mode) => Err(format!("Invalid mode: {mode}")),
        }
    }

    /// `order_by`: `column:asc|desc`, comma-separated; by traffic when absent.
    fn order_by(&self) -> Result<Vec<(String, bool)>, String> {
        let Some(order) = self.get("order_by") else {
            return Ok(vec![("sum_traffic".to_owned(), true)]);
        };
        order
            .split(',')
            .map(|part| {
                let (column, direction) = part.split_once(':').unwrap_or((part, "asc"));
                let descending = match direction {
                    "asc" => false,
                    "desc" => true,
                    _ => return Err(format!("Invalid order_by: {order}")),
                };
                if !KEYWORD_COLUMNS.contains(&column) {
                    return Err(format!("Unknown column in order_by: {column}"));
                }
                Ok((column.to_owned(), descending))
            })
            .collect()
    }
}
