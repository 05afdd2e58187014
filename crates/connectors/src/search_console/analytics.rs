//! `searchAnalytics.query` by `date` and `query` over a range of days, every page: `startRow`
//! moves on by `rowLimit` until a page comes back shorter than `rowLimit` (Google's documented
//! way to page; the method has no page token).

use super::client::ConsoleClient;
use super::wire::{QueryRequest, QueryRow};
use crate::ConnectorError;
use crate::batch::DayRange;

/// The dimensions asked: a row per day and query.
const DIMENSIONS: [&str; 2] = ["date", "query"];

/// Every row of `days` for `site_url`, `row_limit` rows a request.
pub(crate) async fn read(
    client: &ConsoleClient,
    site_url: &str,
    days: &DayRange,
    row_limit: usize,
) -> Result<Vec<QueryRow>, ConnectorError> {
    let row_limit = row_limit.max(1);
    let mut rows = Vec::new();
    let mut start_row = 0;
    loop {
        let request = QueryRequest {
            start_date: &days.first,
            end_date: &days.last,
            dimensions: &DIMENSIONS,
            row_limit,
            start_row,
        };
        let page = client.search_analytics(site_url, &request).await?;
        let received = page.rows.len();
        rows.extend(page.rows);
        if received < row_limit {
            break;
        }
        start_row += row_limit;
    }
    tracing::debug!(rows = rows.len(), "search console query read");
    Ok(rows)
}
