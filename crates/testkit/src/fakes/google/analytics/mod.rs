//! Google Analytics 4's Admin and Data APIs (v1beta), as Google documents them:
//! - `GET /v1beta/accountSummaries?pageSize&pageToken` (Admin): the token's user's accounts, each
//!   with the properties the user reaches (`{"accountSummaries": [{"name":
//!   "accountSummaries/{a}", "account": "accounts/{a}", "displayName", "propertySummaries":
//!   [{"property": "properties/{p}", "displayName", "propertyType", "parent"}]}],
//!   "nextPageToken"}`), `pageSize` accounts a page (default 50, at most 200), the next page
//!   behind an opaque `nextPageToken` that only the same user may present;
//! - `POST /v1beta/properties/{p}:runReport` (Data): `{dateRanges: [{startDate, endDate}]
//!   (YYYY-MM-DD, `today`, `yesterday` or `NdaysAgo`), dimensions: [{name}], metrics: [{name}],
//!   dimensionFilter: {filter: {fieldName, inListFilter: {values, caseSensitive} | stringFilter:
//!   {value, matchType}}}, offset, limit (default 10,000, at most 250,000)}` answering
//!   `{"dimensionHeaders", "metricHeaders": [{name, "type": "TYPE_INTEGER"}], "rows":
//!   [{"dimensionValues": [{value}], "metricValues": [{value}]}], "rowCount", "metadata",
//!   "kind": "analyticsData#runReport"}`: `date` as `YYYYMMDD`, metric values as text, rows whose
//!   metrics are all zero left out, `rows` and `rowCount` absent when there is no row;
//!   `rowCount` counts the whole report whatever `offset` and `limit` cut.
//!
//! This fake answers the dimensions `date`, `sessionSource`, `sessionMedium`, `landingPage`
//! and `eventName`, and the metrics `sessions`, `engagedSessions` and `eventCount`, from the
//! figures a test seeds (sessions by day, source and medium; sessions by day and landing page;
//! event counts by day and name); the three tables are apart, so a report mixing them is
//! refused. Every call needs `Authorization: Bearer` with an access token the fake issued whose
//! grant has `analytics.readonly` (or `analytics`); a property belongs to the users given access
//! to it. Errors are `{"error": {"code", "message", "status"}}`.

// A refusal here is the whole HTTP answer, carried up as the `Err` of the helpers that build it.
#![allow(clippy::result_large_err)]

mod admin;
mod controls;
mod data;
mod request;
mod state;
mod tables;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::Response;
use serde_json::json;

use super::bearer::user_access;
use super::errors::{bad_request, error, insufficient_scope, invalid_credentials, not_found};
use super::fail::Fail;
use super::state::State as FakeState;
use super::{Shared, errors, lock};
use admin::account_summaries;
use data::run_report;
pub(crate) use state::Analytics;

/// The read-only scope, and the full one (which reads too).
pub const ANALYTICS_READONLY_SCOPE: &str = "https://www.googleapis.com/auth/analytics.readonly";
pub const ANALYTICS_SCOPE: &str = "https://www.googleapis.com/auth/analytics";

/// Every `/v1beta/...` path lands here.
pub(crate) async fn dispatch(
    State(shared): State<Shared>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let path = uri.path();
    let mut state = lock(&shared);
    let user = match authenticate(&state, &headers, path) {
        Ok(user) => user,
        Err(response) => return response,
    };
    if path == "/v1beta/accountSummaries" && method == Method::GET {
        return account_summaries(&mut state, &user, uri.query().unwrap_or(""));
    }
    if let Some(property) = path
        .strip_prefix("/v1beta/properties/")
        .and_then(|rest| rest.strip_suffix(":runReport"))
        && method == Method::POST
    {
        if property.is_empty() || !property.bytes().all(|b| b.is_ascii_digit()) {
            return bad_request(&format!(
                "Invalid property ID: {property}. A numeric Property ID is required."
            ));
        }
        let reaches = state
            .analytics
            .access
            .iter()
            .any(|a| a.user == user && a.property_id == property);
        if !reaches {
            return error(
                StatusCode::FORBIDDEN,
                "User does not have sufficient permissions for this property. To learn more about Property ID, see https://developers.google.com/analytics/devguides/reporting/data/v1/property-id.",
            );
        }
        let today = state.today();
        return run_report(&state.analytics, property, today, &body);
    }
    not_found(path)
}

/// The token's user; 401 without a live token, 403 without an analytics scope.
fn authenticate(state: &FakeState, headers: &HeaderMap, path: &str) -> Result<String, Response> {
    let (user, scopes) = user_access(state, headers, invalid_credentials)?;
    if !scopes
        .iter()
        .any(|scope| scope == ANALYTICS_READONLY_SCOPE || scope == ANALYTICS_SCOPE)
    {
        let service = if path.contains(":runReport") {
            "analyticsdata.googleapis.com"
        } else {
            "analyticsadmin.googleapis.com"
        };
        return Err(insufficient_scope(json!({ "service": service })));
    }
    Ok(user)
}

/// A scheduled failure on a GA4 path, in the APIs' error shape.
pub(crate) fn scheduled(fail: Fail) -> Response {
    errors::scheduled(
        fail,
        "Exhausted property tokens for a project per hour. These quota tokens will return in under an hour.",
        invalid_credentials,
    )
}
