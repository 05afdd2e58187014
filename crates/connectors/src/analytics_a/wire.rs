//! The GA4 Admin and Data APIs' JSON (v1beta), as Google documents it:
//! - `GET /v1beta/accountSummaries?pageSize&pageToken` answers `{"accountSummaries": [{"name",
//!   "account": "accounts/{a}", "displayName", "propertySummaries": [{"property":
//!   "properties/{p}", "displayName", "propertyType", "parent"}]}], "nextPageToken"}`, both lists
//!   absent when empty, `nextPageToken` absent or empty on the last page;
//! - `POST /v1beta/properties/{p}:runReport` takes `{dateRanges: [{startDate, endDate}],
//!   dimensions: [{name}], metrics: [{name}], dimensionFilter?, offset, limit}` and answers
//!   `{"dimensionHeaders": [{name}], "metricHeaders": [{name, type}], "rows":
//!   [{"dimensionValues": [{value}], "metricValues": [{value}]}], "rowCount", "metadata",
//!   "kind"}`, `rows` absent when none; `rowCount` counts every row of the report, whatever
//!   `offset` and `limit` cut; `date` values are `YYYYMMDD`, metric values are text;
//! - an error is `{"error": {"code", "message", "status"}}`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// `accountSummaries.list`'s answer.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct AccountSummaries {
    #[serde(default)]
    pub account_summaries: Vec<AccountSummary>,
    #[serde(default)]
    pub next_page_token: Option<String>,
}

/// One account and the properties the login reaches in it.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct AccountSummary {
    /// `accounts/{a}`.
    #[serde(default)]
    pub account: String,
    #[serde(default)]
    pub display_name: String,
    #[serde(default)]
    pub property_summaries: Vec<PropertySummary>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PropertySummary {
    /// `properties/{p}`.
    pub property: String,
    #[serde(default)]
    pub display_name: String,
}

/// `runReport`'s request.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ReportRequest {
    pub date_ranges: Vec<DateRange>,
    pub dimensions: Vec<Named>,
    pub metrics: Vec<Named>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dimension_filter: Option<Value>,
    /// Sent as strings, as the API's int64 fields are in JSON.
    pub offset: String,
    pub limit: String,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct DateRange {
    pub start_date: String,
    pub end_date: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Named {
    pub name: String,
}

/// `runReport`'s answer.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ReportResponse {
    #[serde(default)]
    pub dimension_headers: Vec<Named>,
    #[serde(default)]
    pub metric_headers: Vec<Named>,
    #[serde(default)]
    pub rows: Vec<ReportRow>,
    /// Absent on a report of no rows.
    #[serde(default)]
    pub row_count: Option<i64>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ReportRow {
    #[serde(default)]
    pub dimension_values: Vec<Cell>,
    #[serde(default)]
    pub metric_values: Vec<Cell>,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct Cell {
    #[serde(default)]
    pub value: String,
}
