//! Clarity's friction metrics per URL to snapshots per landing path: `RageClickCount`,
//! `DeadClickCount` and `ScriptErrorCount`'s `subTotal` become `rage_clicks`, `dead_clicks`
//! and `js_errors` at the URL's landing path (`payback_domain::landing_path`), the URLs of one
//! path (its queries, fragments, trailing `/`) added up. Other metrics (Traffic, scroll depth)
//! are not stored: the landing pages count visits from the visit source.
//!
//! Clarity's documentation spells the metrics with spaces in its list of metrics ("Rage Click
//! Count", "Dead Click Count", "Script Error Count", "Popular Pages") while the answers carry
//! them without (`RageClickCount`, as Clarity's own MCP server and every recorded answer read
//! them), so names match with spaces and case ignored.

use std::collections::BTreeMap;

use payback_domain::landing_path::landing_path;
use payback_domain::snapshot_metric::{DEAD_CLICKS, JS_ERRORS, RAGE_CLICKS};

use super::wire::{self, MetricInsight};
use crate::Snapshot;

/// Clarity's metric name and the snapshot word it becomes.
pub(crate) const FRICTION_METRICS: [(&str, &str); 3] = [
    ("RageClickCount", RAGE_CLICKS),
    ("DeadClickCount", DEAD_CLICKS),
    ("ScriptErrorCount", JS_ERRORS),
];

/// The friction snapshots of `day` from one answer, one per (word, path).
pub(crate) fn snapshots(day: &str, insights: &[MetricInsight]) -> Vec<Snapshot> {
    let mut sums: BTreeMap<(&str, String), f64> = BTreeMap::new();
    for insight in insights {
        let Some((_, word)) = FRICTION_METRICS
            .iter()
            .find(|(name, _)| same_metric(&insight.metric_name, name))
        else {
            continue;
        };
        for row in &insight.information {
            let (Some(url), Some(count)) = (wire::url(row), wire::count(row, "subTotal")) else {
                continue;
            };
            *sums.entry((word, landing_path(url))).or_default() += count;
        }
    }
    sums.into_iter()
        .map(|((word, path), value)| Snapshot {
            day: day.to_owned(),
            metric: word.to_owned(),
            dimension: path,
            value,
            detail: None,
        })
        .collect()
}

/// Whether Clarity's `given` metric name is `name`, spaces and case aside.
fn same_metric(given: &str, name: &str) -> bool {
    let squeezed = given.chars().filter(|c| !c.is_whitespace());
    squeezed
        .map(|c| c.to_ascii_lowercase())
        .eq(name.chars().map(|c| c.to_ascii_lowercase()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_of_one_path_add_up_and_other_metrics_are_skipped() {
        let answer: Vec<MetricInsight> = serde_json::from_str(
            r#"[
              {"metricName": "Traffic", "information": [{"totalSessionCount": "90", "URL": "https://s.io/a"}]},
              {"metricName": "RageClickCount", "information": [
                {"sessionsCount": "9", "subTotal": "4", "URL": "https://s.io/pricing?x=1"},
                {"sessionsCount": "2", "subTotal": 3, "URL": "https://s.io/pricing/"},
                {"subTotal": "1", "URL": "https://s.io/"}
              ]},
              {"metricName": "ScriptErrorCount", "information": [{"subTotal": "7", "URL": "https://s.io/pricing#f"}]}
            ]"#,
        )
        .unwrap();
        let rows = snapshots("2026-03-02", &answer);
        let values: Vec<(&str, &str, f64)> = rows
            .iter()
            .map(|row| (row.metric.as_str(), row.dimension.as_str(), row.value))
            .collect();
        assert_eq!(
            values,
            vec![
                ("js_errors", "/pricing", 7.0),
                ("rage_clicks", "/", 1.0),
                ("rage_clicks", "/pricing", 7.0),
            ]
        );
        assert!(rows.iter().all(|row| row.day == "2026-03-02"));
    }

    #[test]
    fn the_documented_spelling_and_the_answered_one_both_match() {
        // The documentation's names (with spaces) and the answers' `Url` key.
        let answer: Vec<MetricInsight> = serde_json::from_str(
            r#"[
              {"metricName": "Dead Click Count", "information": [{"subTotal": "2", "Url": "https://s.io/a?x=1"}]},
              {"metricName": "script error count", "information": [{"subTotal": 1, "url": "https://s.io/a"}]},
              {"metricName": "Rage Clicks", "information": [{"subTotal": "9", "URL": "https://s.io/a"}]},
              {"metricName": "DeadClickCount", "information": [{"subTotal": "5", "Url": null}]}
            ]"#,
        )
        .unwrap();
        let values: Vec<(String, String, f64)> = snapshots("2026-03-02", &answer)
            .into_iter()
            .map(|row| (row.metric, row.dimension, row.value))
            .collect();
        assert_eq!(
            values,
            vec![
                ("dead_clicks".to_owned(), "/a".to_owned(), 2.0),
                ("js_errors".to_owned(), "/a".to_owned(), 1.0),
            ]
        );
        assert!(same_metric("Rage Click Count", "RageClickCount"));
        assert!(!same_metric("Rage Clicks", "RageClickCount"));
    }
}
