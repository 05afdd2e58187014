//! `customers:listAccessibleCustomers`, `googleAds:search` (pages behind `nextPageToken`) and
//! `googleAds:searchStream` (a JSON array of batches), answering GAQL from the seeded accounts.

use axum::http::StatusCode;
use axum::response::Response;
use serde_json::{Map, Value, json};

use super::accounts::Cursor;
use super::body::{bool_member, check_names, int64_member, member, message, string_member};
use super::dispatch::Call;
use super::errors::{AdsError, bad_payload};
use crate::fakes::google::gaql;
use crate::fakes::google::state::State as FakeState;

pub(super) fn list_accessible(state: &FakeState, call: &Call) -> Response {
    let names: Vec<Value> = state
        .customers
        .iter()
        .filter(|c| c.manager.is_none())
        .map(|c| json!(format!("customers/{}", c.id)))
        .collect();
    // proto3 JSON leaves an empty repeated field out.
    let body = if names.is_empty() {
        json!({})
    } else {
        json!({ "resourceNames": names })
    };
    call.ok(&body)
}

fn query_failure(call: &Call, error: gaql::QueryError) -> Response {
    call.fail(
        StatusCode::BAD_REQUEST,
        &[AdsError::new("queryError", error.code, error.message)],
    )
}

pub(super) fn search(state: &mut FakeState, call: &Call, customer: i64, body: &[u8]) -> Response {
    let names = [
        "customer_id",
        "query",
        "page_token",
        "page_size",
        "validate_only",
        "search_settings",
    ];
    let map = match message(body, &names, "") {
        Ok(map) => map,
        Err(response) => return response,
    };
    let fields = (|| -> Result<_, Response> {
        let query = string_member(&map, "query", "")?.unwrap_or_default();
        let page_token = string_member(&map, "page_token", "")?.filter(|t| !t.is_empty());
        let page_size = int64_member(&map, "page_size", "")?.unwrap_or(0);
        let validate_only = bool_member(&map, "validate_only", "")?.unwrap_or(false);
        let total_count = match member(&map, "search_settings") {
            None | Some(Value::Null) => false,
            Some(Value::Object(settings)) => {
                check_names(
                    settings,
                    &[
                        "omit_results",
                        "return_summary_row",
                        "return_total_results_count",
                    ],
                    "search_settings",
                )?;
                bool_member(settings, "return_total_results_count", "search_settings.")?
                    .unwrap_or(false)
            }
            Some(other) => {
                return Err(bad_payload(&format!(
                    "Invalid value at 'search_settings', {other}"
                )));
            }
        };
        Ok((query, page_token, page_size, validate_only, total_count))
    })();
    let (query, page_token, page_size, validate_only, total_count) = match fields {
        Ok(fields) => fields,
        Err(response) => return response,
    };
    if page_size != 0 {
        return call.fail(
            StatusCode::BAD_REQUEST,
            &[AdsError::new("requestError", "PAGE_SIZE_NOT_SUPPORTED", "Setting the page size is not supported, and will be unavailable in a future version.")],
        );
    }
    let offset = match page_token {
        None => 0,
        Some(token) => match state.cursors.get(&token) {
            Some(cursor) if cursor.customer == customer && cursor.query == query => cursor.offset,
            _ => {
                return call.fail(
                    StatusCode::BAD_REQUEST,
                    &[AdsError::new(
                        "requestError",
                        "INVALID_PAGE_TOKEN",
                        "Next page token specified in user request is invalid.",
                    )],
                );
            }
        },
    };
    let answer = match gaql::run(state, customer, &query) {
        Ok(answer) => answer,
        Err(error) => return query_failure(call, error),
    };
    let mut body = Map::new();
    if !validate_only {
        let page: Vec<Value> = answer
            .rows
            .iter()
            .skip(offset)
            .take(state.page_size)
            .cloned()
            .collect();
        let next = offset + page.len();
        if !page.is_empty() {
            body.insert("results".into(), Value::Array(page));
        }
        if next < answer.rows.len() {
            let token = state.mint("fakePage");
            state.cursors.insert(
                token.clone(),
                Cursor {
                    customer,
                    query,
                    offset: next,
                },
            );
            body.insert("nextPageToken".into(), json!(token));
        }
        if total_count {
            body.insert("totalResultsCount".into(), json!(answer.total.to_string()));
        }
        body.insert(
            "queryResourceConsumption".into(),
            json!(answer.rows.len().max(1).to_string()),
        );
    }
    body.insert("fieldMask".into(), json!(answer.field_mask));
    call.ok(&Value::Object(body))
}

pub(super) fn search_stream(
    state: &FakeState,
    call: &Call,
    customer: i64,
    body: &[u8],
) -> Response {
    let map = match message(body, &["customer_id", "query", "summary_row_setting"], "") {
        Ok(map) => map,
        Err(response) => return response,
    };
    let query = match string_member(&map, "query", "") {
        Ok(query) => query.unwrap_or_default(),
        Err(response) => return response,
    };
    let answer = match gaql::run(state, customer, &query) {
        Ok(answer) => answer,
        Err(error) => return query_failure(call, error),
    };
    let mut batches: Vec<Value> = answer
        .rows
        .chunks(state.page_size.max(1))
        .map(|chunk| json!({ "results": chunk, "fieldMask": answer.field_mask, "requestId": call.request_id }))
        .collect();
    if batches.is_empty() {
        batches.push(json!({ "fieldMask": answer.field_mask, "requestId": call.request_id }));
    }
    if let Some(Value::Object(last)) = batches.last_mut() {
        last.insert(
            "queryResourceConsumption".into(),
            json!(answer.rows.len().max(1).to_string()),
        );
    }
    call.ok(&Value::Array(batches))
}
