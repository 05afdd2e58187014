//! The Search Console API's JSON, as Google documents it (webmasters v3):
//! - `GET /webmasters/v3/sites` answers `{"siteEntry": [{"siteUrl", "permissionLevel"}]}`, the
//!   whole list at once (the method takes no page token), `siteEntry` absent when empty;
//! - `GET /webmasters/v3/sites/{siteUrl}` answers one `{"siteUrl", "permissionLevel"}`;
//! - `POST /webmasters/v3/sites/{siteUrl}/searchAnalytics/query` takes `{startDate, endDate,
//!   dimensions, rowLimit (1..=25000), startRow}` and answers `{"rows": [{"keys", "clicks",
//!   "impressions", "ctr", "position"}], "responseAggregationType"}`, `rows` absent when no row;
//! - an error is `{"error": {"code", "message", "status"}}`.

use serde::{Deserialize, Serialize};

/// `sites.list`'s answer.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct SitesList {
    #[serde(default)]
    pub site_entry: Vec<Site>,
}

/// One `WmxSite`.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Site {
    pub site_url: String,
    #[serde(default)]
    pub permission_level: String,
}

/// `searchAnalytics.query`'s request.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct QueryRequest<'a> {
    pub start_date: &'a str,
    pub end_date: &'a str,
    pub dimensions: &'a [&'a str],
    pub row_limit: usize,
    pub start_row: usize,
}

/// `searchAnalytics.query`'s answer.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct QueryResponse {
    #[serde(default)]
    pub rows: Vec<QueryRow>,
}

/// One row: `keys` in the order the request named its dimensions.
#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct QueryRow {
    #[serde(default)]
    pub keys: Vec<String>,
    #[serde(default)]
    pub clicks: f64,
    #[serde(default)]
    pub impressions: f64,
    /// The average position of the site in the results that showed it (1 is the top).
    #[serde(default)]
    pub position: f64,
}
