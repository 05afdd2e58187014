//! The Admin API's `accountSummaries.list`: the user's accounts with their properties, paged
//! behind tokens only the same user may present.

use std::collections::BTreeMap;

use axum::http::StatusCode;
use axum::response::Response;
use serde_json::{Value, json};

use super::state::PropertyAccess;
use crate::fakes::google::errors::{bad_request, json_response};
use crate::fakes::google::state::State as FakeState;

const DEFAULT_SUMMARIES_PAGE_SIZE: usize = 50;
const MAX_SUMMARIES_PAGE_SIZE: usize = 200;

/// One page of the user's account summaries.
pub(super) fn account_summaries(state: &mut FakeState, user: &str, query: &str) -> Response {
    let pairs: Vec<(String, String)> = reqwest::Url::parse(&format!("http://fake/?{query}"))
        .map(|url| url.query_pairs().into_owned().collect())
        .unwrap_or_default();
    let param = |name: &str| {
        pairs
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.clone())
    };
    let page_size = match param("pageSize") {
        None => DEFAULT_SUMMARIES_PAGE_SIZE,
        Some(text) => match text.parse::<i64>() {
            Ok(size) if size < 0 => return bad_request("page_size must be non-negative"),
            Ok(0) => DEFAULT_SUMMARIES_PAGE_SIZE,
            Ok(size) => usize::try_from(size)
                .unwrap_or(MAX_SUMMARIES_PAGE_SIZE)
                .min(MAX_SUMMARIES_PAGE_SIZE),
            Err(_) => {
                return bad_request(&format!(
                    "Invalid value at 'page_size' (TYPE_INT32), \"{text}\""
                ));
            }
        },
    };
    let page_size = page_size.min(state.analytics.summaries_page_cap);
    let start = match param("pageToken").filter(|token| !token.is_empty()) {
        None => 0,
        Some(token) => match state.analytics.page_tokens.get(&token) {
            Some((owner, at)) if owner == user => *at,
            _ => return bad_request("The page token is invalid."),
        },
    };
    // The user's accounts, in account id order, each with its properties.
    let mut accounts: BTreeMap<&str, (&str, Vec<&PropertyAccess>)> = BTreeMap::new();
    for access in state.analytics.access.iter().filter(|a| a.user == user) {
        accounts
            .entry(access.account_id.as_str())
            .or_insert((access.account_name.as_str(), Vec::new()))
            .1
            .push(access);
    }
    let total = accounts.len();
    let summaries: Vec<Value> = accounts
        .iter()
        .skip(start)
        .take(page_size)
        .map(|(id, (name, properties))| {
            let properties: Vec<Value> = properties
                .iter()
                .map(|p| {
                    json!({
                        "property": format!("properties/{}", p.property_id),
                        "displayName": p.display_name,
                        "propertyType": "PROPERTY_TYPE_ORDINARY",
                        "parent": format!("accounts/{id}"),
                    })
                })
                .collect();
            json!({
                "name": format!("accountSummaries/{id}"),
                "account": format!("accounts/{id}"),
                "displayName": name,
                "propertySummaries": properties,
            })
        })
        .collect();
    let mut answer = json!({});
    if !summaries.is_empty() {
        answer["accountSummaries"] = Value::Array(summaries);
    }
    let next = start + page_size;
    if next < total {
        let token = state.mint("ga-page-");
        state
            .analytics
            .page_tokens
            .insert(token.clone(), (user.to_owned(), next));
        answer["nextPageToken"] = json!(token);
    }
    json_response(StatusCode::OK, &answer)
}
