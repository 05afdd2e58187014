//! One `runReport` over a range of days, every page: `offset` moves on by the rows received
//! until it reaches the report's `rowCount` (Google's documented way to page a report; a page
//! may hold fewer rows than `limit`).

use serde_json::Value;

use super::client::DataClient;
use super::wire::{DateRange, Named, ReportRequest, ReportResponse};
use crate::ConnectorError;
use crate::batch::DayRange;

/// What one report asks.
pub(crate) struct Question<'a> {
    pub dimensions: &'a [&'a str],
    pub metrics: &'a [&'a str],
    pub dimension_filter: Option<Value>,
}

/// One row, its dimension values and metric values in the order the question named them.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Row {
    pub dimensions: Vec<String>,
    pub metrics: Vec<f64>,
}

/// Every row of `question` over `days` for `property_id`, `row_limit` rows a request.
pub(crate) async fn read(
    client: &DataClient,
    property_id: &str,
    days: &DayRange,
    question: &Question<'_>,
    row_limit: usize,
) -> Result<Vec<Row>, ConnectorError> {
    let row_limit = row_limit.max(1);
    let names = |list: &[&str]| -> Vec<Named> {
        list.iter()
            .map(|name| Named {
                name: (*name).to_owned(),
            })
            .collect()
    };
    let mut rows = Vec::new();
    let mut offset = 0_usize;
    loop {
        let request = ReportRequest {
            date_ranges: vec![DateRange {
                start_date: days.first.clone(),
                end_date: days.last.clone(),
            }],
            dimensions: names(question.dimensions),
            metrics: names(question.metrics),
            dimension_filter: question.dimension_filter.clone(),
            offset: offset.to_string(),
            limit: row_limit.to_string(),
        };
        let page = client.run_report(property_id, &request).await?;
        let row_count = usize::try_from(page.row_count.unwrap_or(0)).unwrap_or(0);
        let received = page.rows.len();
        rows.extend(read_page(page, question)?);
        offset += received;
        if received == 0 || offset >= row_count {
            break;
        }
    }
    tracing::debug!(rows = rows.len(), "analytics report read");
    Ok(rows)
}

/// A page's rows, each value placed by the headers Google answered (which name the columns),
/// so a report answering its columns in another order still reads right.
fn read_page(page: ReportResponse, question: &Question<'_>) -> Result<Vec<Row>, ConnectorError> {
    let position = |headers: &[Named], name: &str, kind: &str| {
        headers
            .iter()
            .position(|header| header.name == name)
            .ok_or_else(|| {
                ConnectorError::Vendor(format!(
                    "Google Analytics Data API answered runReport without the {kind} {name} it \
                     was asked for"
                ))
            })
    };
    if page.rows.is_empty() {
        return Ok(Vec::new());
    }
    let dimension_at = question
        .dimensions
        .iter()
        .map(|name| position(&page.dimension_headers, name, "dimension"))
        .collect::<Result<Vec<_>, _>>()?;
    let metric_at = question
        .metrics
        .iter()
        .map(|name| position(&page.metric_headers, name, "metric"))
        .collect::<Result<Vec<_>, _>>()?;
    page.rows
        .into_iter()
        .map(|row| {
            let dimensions = dimension_at
                .iter()
                .map(|at| {
                    row.dimension_values
                        .get(*at)
                        .map(|cell| cell.value.clone())
                        .unwrap_or_default()
                })
                .collect();
            let metrics = metric_at
                .iter()
                .map(|at| {
                    let text = row
                        .metric_values
                        .get(*at)
                        .map(|cell| cell.value.as_str())
                        .unwrap_or("0");
                    text.trim().parse::<f64>().map_err(|_| {
                        ConnectorError::Vendor(format!(
                            "Google Analytics Data API answered a metric value {text:?} that is \
                             not a number"
                        ))
                    })
                })
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Row {
                dimensions,
                metrics,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_placed_by_the_answered_headers() {
        let page: ReportResponse = serde_json::from_value(serde_json::json!({
            "dimensionHeaders": [{"name": "sessionSource"}, {"name": "date"}],
            "metricHeaders": [{"name": "engagedSessions", "type": "TYPE_INTEGER"},
                              {"name": "sessions", "type": "TYPE_INTEGER"}],
            "rows": [{"dimensionValues": [{"value": "google"}, {"value": "20261120"}],
                      "metricValues": [{"value": "4"}, {"value": "9"}]}],
            "rowCount": 1
        }))
        .unwrap();
        let question = Question {
            dimensions: &["date", "sessionSource"],
            metrics: &["sessions", "engagedSessions"],
            dimension_filter: None,
        };
        assert_eq!(
            read_page(page, &question).unwrap(),
            vec![Row {
                dimensions: vec!["20261120".into(), "google".into()],
                metrics: vec![9.0, 4.0],
            }]
        );
    }

    #[test]
    fn a_missing_column_or_a_bad_number_is_refused() {
        let question = Question {
            dimensions: &["date"],
            metrics: &["sessions"],
            dimension_filter: None,
        };
        let missing: ReportResponse = serde_json::from_value(serde_json::json!({
            "dimensionHeaders": [{"name": "date"}], "metricHeaders": [],
            "rows": [{"dimensionValues": [{"value": "20261120"}], "metricValues": []}],
        }))
        .unwrap();
        assert!(read_page(missing, &question).is_err());
        let bad: ReportResponse = serde_json::from_value(serde_json::json!({
            "dimensionHeaders": [{"name": "date"}], "metricHeaders": [{"name": "sessions"}],
            "rows": [{"dimensionValues": [{"value": "20261120"}], "metricValues": [{"value": "x"}]}],
        }))
        .unwrap();
        assert!(read_page(bad, &question).is_err());
    }
}
