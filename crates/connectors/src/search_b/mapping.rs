//! `GetQueryStats` rows to snapshots: per UTC day and query, `search_clicks`,
//! `search_impressions` and (where it showed) `search_position` with the query as dimension (the queries partition the day, see
//! `payback_domain::snapshot_metric`). Bing answers the site's whole history at once; only the
//! days of the sync window are kept.

use std::collections::{BTreeMap, BTreeSet};

use payback_domain::snapshot_metric::{SEARCH_CLICKS, SEARCH_IMPRESSIONS, SEARCH_POSITION};

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

/// One (day, query)'s rows summed; the position weighted by each row's impressions.
#[derive(Debug, Default)]
struct QueryTotals {
    clicks: i64,
    impressions: i64,
    /// Σ position × impressions over rows with a position.
    weighted_position: f64,
    positioned_impressions: i64,
}

impl QueryTotals {
    fn add(&mut self, row: &QueryStats) {
        self.clicks += row.clicks;
        self.impressions += row.impressions;
        // Bing answers 0 (or less) where the query showed nowhere: no position, not the top.
        if row.avg_impression_position > 0.0 && row.impressions > 0 {
            self.weighted_position += row.avg_impression_position * row.impressions as f64;
            self.positioned_impressions += row.impressions;
        }
    }

    fn position(&self) -> Option<f64> {
        (self.positioned_impressions > 0)
            .then(|| self.weighted_position / self.positioned_impressions as f64)
    }
}

/// The snapshots of the rows on the days of `window` (each (day, query) once: rows repeating
/// one are summed). A row whose date is not a WCF date fails the read: its numbers would be lost
/// silently otherwise.
pub(crate) fn query_days(
    rows: &[QueryStats],
    window: &DayRange,
) -> Result<QueryDays, ConnectorError> {
    let mut totals: BTreeMap<(String, String), QueryTotals> = BTreeMap::new();
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
        totals.entry((day, query)).or_default().add(row);
    }
    let mut read = QueryDays {
        outside,
        ..QueryDays::default()
    };
    let mut queries = BTreeSet::new();
    let mut days = BTreeSet::new();
    for ((day, query), total) in totals {
        read.clicks += total.clicks;
        read.impressions += total.impressions;
        // Counts far below 2^53: exact as f64.
        let mut values = vec![
            (SEARCH_CLICKS, total.clicks as f64),
            (SEARCH_IMPRESSIONS, total.impressions as f64),
        ];
        values.extend(total.position().map(|position| (SEARCH_POSITION, position)));
        for (metric, value) in values {
            read.snapshots.push(Snapshot {
                day: day.clone(),
                metric: metric.to_owned(),
                dimension: query.clone(),
                value,
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
            avg_impression_position: 0.0,
        }
    }

    fn positioned(day: u32, query: &str, impressions: i64, position: f64) -> QueryStats {
        QueryStats {
            avg_impression_position: position,
            ..row(day, query, 0, impressions)
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
    fn a_days_position_is_weighted_by_impressions_and_absent_where_the_query_showed_nowhere() {
        let rows = [
            positioned(20, "payback", 60, 2.0),
            positioned(20, "payback", 10, 5.0),
            positioned(20, "cac tool", 0, 4.0),
            positioned(19, "cac tool", 12, 0.0),
        ];
        let read = query_days(&rows, &window()).unwrap();
        let position = value(&read, "2026-11-20", SEARCH_POSITION, "payback").unwrap();
        assert!((position - (60.0 * 2.0 + 10.0 * 5.0) / 70.0).abs() < 1e-9);
        assert_eq!(
            value(&read, "2026-11-20", SEARCH_POSITION, "cac tool"),
            None
        );
        assert_eq!(
            value(&read, "2026-11-19", SEARCH_POSITION, "cac tool"),
            None
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
