//! `GetQueryStats` rows to snapshots: per UTC day and query, `search_clicks` and
//! `search_impressions` with the query as dimension (the queries partition the day, see
//! `payback_domain::snapshot_metric`). Bing answers the site's whole history at once; only the
//! days of the sync window are kept.

use std::collections::{BTreeMap, BTreeSet};

use payback_domain::snapshot_metric::{SEARCH_CLICKS, SEARCH_IMPRESSIONS};

use super::wire::{QueryStats, wcf_date};
use crate::ConnectorError;
use crate::batch::{DayRange, Snapshot};

/// The dimension of clicks Bing gives no query text for: a dimension of its own, never `''`,
/// which would read as the whole day beside the queries and count twice.
pub(crate) const NO_QUERY: &str = "(other)";

/// What the rows of one read came to.
#[derive(Debug, Default)]
pub(crate) struct QueryDays {
    pub snapshots: Vec<Snapshot>,
    /// Distinct queries and days kept.
    pub queries: usize,
    pub days: usize,
    pub clicks: i64,
    pub impressions: i64,
    /// Rows of days outside the window, left out.
    pub outside: usize,
}

/// The snapshots of the rows on the days of `window` (each (day, query) once: rows repeating
/// one are summed). A row whose date is not a WCF date fails the read: its numbers would be lost
/// silently otherwise.
pub(crate) fn query_days(
    rows: &[QueryStats],
    window: &DayRange,
) -> Result<QueryDays, ConnectorError> {
    let mut totals: BTreeMap<(String, String), (i64, i64)> = BTreeMap::new();
    let mut outside = 0;
    for row in rows {
        let day = wcf_date(&row.date).ok_or_else(|| {
            ConnectorError::Vendor(format!(
                "Bing GetQueryStats answered a date Payback does not read: {:?}",
                row.date
            ))
        })?;
        if !window.contains(&day) {
            outside += 1;
            continue;
        }
        let query = if row.query.trim().is_empty() {
            NO_QUERY.to_owned()
        } else {
            row.query.clone()
        };
        let total = totals.entry((day, query)).or_default();
        total.0 += row.clicks;
        total.1 += row.impressions;
    }
    let mut read = QueryDays {
        outside,
        ..QueryDays::default()
    };
    let mut queries = BTreeSet::new();
    let mut days = BTreeSet::new();
    for ((day, query), (clicks, impressions)) in totals {
        read.clicks += clicks;
        read.impressions += impressions;
        for (metric, value) in [(SEARCH_CLICKS, clicks), (SEARCH_IMPRESSIONS, impressions)] {
            read.snapshots.push(Snapshot {
                day: day.clone(),
                metric: metric.to_owned(),
                dimension: query.clone(),
                // Counts far below 2^53: exact as f64.
                value: value as f64,
                detail: None,
            });
        }
        queries.insert(query);
        days.insert(day);
    }
    read.queries = queries.len();
    read.days = days.len();
    Ok(read)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Midnight Pacific (PST, -0800) of 2026-11-{day} as Bing writes it.
    fn row(day: u32, query: &str, clicks: i64, impressions: i64) -> QueryStats {
        let millis = 1_795_161_600_000_i64 + (i64::from(day) - 20) * 86_400_000;
        QueryStats {
            date: format!("/Date({millis}-0800)/"),
            query: query.to_owned(),
            clicks,
            impressions,
        }
    }

    fn window() -> DayRange {
        DayRange {
            first: "2026-11-19".to_owned(),
            last: "2026-11-20".to_owned(),
        }
    }

    fn value(read: &QueryDays, day: &str, metric: &str, query: &str) -> Option<f64> {
        read.snapshots
            .iter()
            .find(|s| s.day == day && s.metric == metric && s.dimension == query)
            .map(|s| s.value)
    }

    #[test]
    fn each_day_and_query_is_a_pair_of_snapshots_inside_the_window() {
        let rows = [
            row(18, "payback", 100, 1_000),
            row(19, "payback", 3, 40),
            row(19, "cac tool", 1, 12),
            row(20, "payback", 5, 60),
            row(20, "payback", 2, 10),
            row(20, "", 4, 9),
            row(21, "payback", 7, 70),
        ];
        let read = query_days(&rows, &window()).unwrap();
        assert_eq!(read.outside, 2);
        assert_eq!((read.days, read.queries), (2, 3));
        assert_eq!((read.clicks, read.impressions), (15, 131));
        assert_eq!(read.snapshots.len(), 8);
        assert_eq!(
            value(&read, "2026-11-20", SEARCH_CLICKS, "payback"),
            Some(7.0)
        );
        assert_eq!(
            value(&read, "2026-11-20", SEARCH_IMPRESSIONS, "payback"),
            Some(70.0)
        );
        assert_eq!(
            value(&read, "2026-11-20", SEARCH_CLICKS, NO_QUERY),
            Some(4.0)
        );
        assert_eq!(
            value(&read, "2026-11-19", SEARCH_CLICKS, "cac tool"),
            Some(1.0)
        );
        assert!(read.snapshots.iter().all(|s| !s.dimension.is_empty()));
        assert!(
            read.snapshots
                .iter()
                .all(|s| s.day.as_str() >= "2026-11-19" && s.day.as_str() <= "2026-11-20")
        );
    }

    #[test]
    fn a_row_without_a_readable_date_fails_the_read() {
        let mut bad = row(19, "payback", 1, 1);
        bad.date = "2026-11-19".to_owned();
        assert!(matches!(
            query_days(&[bad], &window()),
            Err(ConnectorError::Vendor(_))
        ));
        let read = query_days(&[], &window()).unwrap();
        assert!(read.snapshots.is_empty());
    }
}
