//! Search analytics rows (dimensions `date`, `query`) as snapshots in
//! `payback_domain::snapshot_metric`'s words: each row's clicks, impressions and (where it
//! showed) position on its day, the query as dimension. The queries partition the day (`SEARCH_CLICKS`' rule); a row without a
//! query text goes under [`NO_QUERY`], never under `''`, which would read as the site's total.

use std::collections::BTreeMap;

use payback_domain::snapshot_metric::{SEARCH_CLICKS, SEARCH_IMPRESSIONS, SEARCH_POSITION};

use super::wire::QueryRow;
use crate::batch::Snapshot;

/// The dimension of a row whose query text is empty.
pub(crate) const NO_QUERY: &str = "(other)";

/// The snapshots of `rows`, each (day, metric, query) once: a (day, query) Google answered
/// twice (it never should) is summed rather than written twice, which the batch refuses.
pub(crate) fn snapshots(rows: &[QueryRow]) -> Result<Vec<Snapshot>, String> {
    // (clicks, impressions, Σ position × impressions) per (day, query).
    let mut days: BTreeMap<(String, String), (f64, f64, f64)> = BTreeMap::new();
    for row in rows {
        let [day, query] = row.keys.as_slice() else {
            return Err(format!(
                "searchAnalytics.query answered a row with {} keys where date and query were asked",
                row.keys.len()
            ));
        };
        let query = if query.is_empty() { NO_QUERY } else { query };
        let figures = days.entry((day.clone(), query.to_owned())).or_default();
        figures.0 += row.clicks;
        figures.1 += row.impressions;
        figures.2 += row.position * row.impressions;
    }
    let mut out = Vec::with_capacity(days.len() * 3);
    for ((day, query), (clicks, impressions, weighted_position)) in days {
        out.push(snapshot(&day, SEARCH_CLICKS, &query, clicks));
        out.push(snapshot(&day, SEARCH_IMPRESSIONS, &query, impressions));
        // A position is only where the site showed.
        if impressions > 0.0 && weighted_position > 0.0 {
            let position = weighted_position / impressions;
            out.push(snapshot(&day, SEARCH_POSITION, &query, position));
        }
    }
    Ok(out)
}

fn snapshot(day: &str, metric: &str, query: &str, value: f64) -> Snapshot {
    Snapshot {
        day: day.to_owned(),
        metric: metric.to_owned(),
        dimension: query.to_owned(),
        value,
        detail: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(day: &str, query: &str, clicks: f64, impressions: f64) -> QueryRow {
        QueryRow {
            keys: vec![day.into(), query.into()],
            clicks,
            impressions,
            position: 0.0,
        }
    }

    #[test]
    fn each_row_is_clicks_and_impressions_of_its_day_and_query() {
        let rows = [
            row("2026-11-20", "buy shoes", 3.0, 40.0),
            row("2026-11-20", "", 1.0, 9.0),
            row("2026-11-21", "buy shoes", 0.0, 12.0),
            row("2026-11-21", "buy shoes", 2.0, 3.0),
        ];
        let read: Vec<(String, String, String, f64)> = snapshots(&rows)
            .unwrap()
            .into_iter()
            .map(|s| (s.day, s.metric, s.dimension, s.value))
            .collect();
        let expect = |day: &str, metric: &str, query: &str, value: f64| {
            (day.to_owned(), metric.to_owned(), query.to_owned(), value)
        };
        assert_eq!(
            read,
            vec![
                expect("2026-11-20", SEARCH_CLICKS, "(other)", 1.0),
                expect("2026-11-20", SEARCH_IMPRESSIONS, "(other)", 9.0),
                expect("2026-11-20", SEARCH_CLICKS, "buy shoes", 3.0),
                expect("2026-11-20", SEARCH_IMPRESSIONS, "buy shoes", 40.0),
                expect("2026-11-21", SEARCH_CLICKS, "buy shoes", 2.0),
                expect("2026-11-21", SEARCH_IMPRESSIONS, "buy shoes", 15.0),
            ]
        );
    }

    #[test]
    fn a_position_is_weighted_by_impressions_where_the_site_showed() {
        let at = |query: &str, impressions: f64, position: f64| QueryRow {
            position,
            ..row("2026-11-20", query, 0.0, impressions)
        };
        let read = snapshots(&[
            at("shoes", 30.0, 2.0),
            at("shoes", 10.0, 6.0),
            at("socks", 0.0, 0.0),
        ])
        .unwrap();
        let positions: Vec<(String, f64)> = read
            .into_iter()
            .filter(|s| s.metric == SEARCH_POSITION)
            .map(|s| (s.dimension, s.value))
            .collect();
        assert_eq!(positions, vec![("shoes".to_owned(), 3.0)]);
    }

    #[test]
    fn a_row_without_both_keys_is_refused() {
        let bad = QueryRow {
            keys: vec!["2026-11-20".into()],
            ..QueryRow::default()
        };
        assert!(snapshots(&[bad]).unwrap_err().contains("1 keys"));
    }
}
