//! Daily figures of the page and of its linked Instagram account.
//!
//! Facebook (Page Insights, with the page token): `GET /{page_id}/insights?metric=
//! page_media_view,page_post_engagements&period=day&since&until`. `page_media_view` ("views") is
//! what Meta moved `page_impressions` to when it deprecated the impressions metrics (November
//! 2025); `page_post_engagements` counts reactions, comments, shares and clicks on the page's
//! posts. At most 90 days are asked per call (a documented limit of `since`/`until`), and only the
//! last two years exist. A daily value's `end_time` is the start of the following day in
//! Pacific time (`2026-11-15T08:00:00+0000` is 2026-11-14's value), so a value belongs to the day
//! before its `end_time`'s date. Paging is not followed: with `since`/`until` one answer holds the
//! range, and its `previous`/`next` links walk to other ranges.
//!
//! Instagram (User Insights): `views` (which replaced `impressions` in v22) and
//! `total_interactions` only answer totals (`metric_type=total_value`), so each day is its own
//! call with `since`/`until` at its UTC midnights; a run reads at most the
//! [`INSTAGRAM_DAYS`] most recent days of its window.

use std::collections::BTreeMap;

use payback_domain::{DAY_MS, Timestamp};
use serde::Deserialize;

use crate::ConnectorError;
use crate::batch::DayRange;
use crate::graph::client::GraphClient;

/// The page metrics read, in the order [`DayFigures`] holds them.
pub(crate) const PAGE_VIEWS: &str = "page_media_view";
pub(crate) const PAGE_ENGAGEMENT: &str = "page_post_engagements";

/// The Instagram metrics read.
pub(crate) const INSTAGRAM_VIEWS: &str = "views";
pub(crate) const INSTAGRAM_INTERACTIONS: &str = "total_interactions";

/// Days per Page Insights call (Meta: "Only 90 days of insights can be viewed at one time when
/// using the since and until parameters").
const PAGE_CHUNK_DAYS: i64 = 90;

/// Page Insights keep two years.
pub(crate) const PAGE_HISTORY_DAYS: i64 = 730;

/// The most recent days of a window read from Instagram (one call per day).
pub(crate) const INSTAGRAM_DAYS: i64 = 90;

/// A day's impressions-like and engagement figures from one network.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct DayFigures {
    pub views: Option<f64>,
    pub engagement: Option<f64>,
}

/// `{"data": [{"name", "period", "values": [{"value", "end_time"}], "total_value": {"value"}}]}`.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct InsightsAnswer {
    pub data: Vec<MetricNode>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct MetricNode {
    pub name: Option<String>,
    pub period: Option<String>,
    pub values: Vec<ValueNode>,
    pub total_value: Option<TotalValue>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct ValueNode {
    /// A number for plain metrics; an object for breakdowns (not asked for, and skipped).
    pub value: Option<serde_json::Value>,
    pub end_time: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct TotalValue {
    pub value: Option<serde_json::Value>,
}

/// The page's figures per day of `days` (days without data are absent, never 0).
pub(crate) async fn page_days(
    client: &GraphClient,
    page_id: &str,
    days: &DayRange,
) -> Result<BTreeMap<String, DayFigures>, ConnectorError> {
    let mut figures = BTreeMap::new();
    for chunk in chunks(days, PAGE_CHUNK_DAYS) {
        let answer: InsightsAnswer = client
            .get(
                &format!("{page_id}/insights"),
                &[
                    ("metric", format!("{PAGE_VIEWS},{PAGE_ENGAGEMENT}")),
                    ("period", "day".to_owned()),
                    ("since", chunk.first.clone()),
                    (
                        "until",
                        next_day(&chunk.last).unwrap_or_else(|| chunk.last.clone()),
                    ),
                ],
            )
            .await?;
        for (day, figure) in page_figures(&answer, &chunk) {
            figures.insert(day, figure);
        }
    }
    Ok(figures)
}

/// The daily values of a Page Insights answer, by the day each covers, within `days`.
pub(crate) fn page_figures(
    answer: &InsightsAnswer,
    days: &DayRange,
) -> BTreeMap<String, DayFigures> {
    let mut figures: BTreeMap<String, DayFigures> = BTreeMap::new();
    for metric in &answer.data {
        if metric
            .period
            .as_deref()
            .is_some_and(|period| period != "day")
        {
            continue;
        }
        let name = metric.name.as_deref().unwrap_or_default();
        for value in &metric.values {
            let (Some(number), Some(day)) = (
                value.value.as_ref().and_then(count),
                value.end_time.as_deref().and_then(day_before_end),
            ) else {
                continue;
            };
            if !days.contains(&day) {
                continue;
            }
            let entry = figures.entry(day).or_default();
            match name {
                PAGE_VIEWS => entry.views = Some(number),
                PAGE_ENGAGEMENT => entry.engagement = Some(number),
                _ => {}
            }
        }
    }
    figures
}

/// The Instagram account's figures for each of the most recent [`INSTAGRAM_DAYS`] days of
/// `days`, one call a day.
pub(crate) async fn instagram_days(
    client: &GraphClient,
    instagram_id: &str,
    days: &DayRange,
) -> Result<BTreeMap<String, DayFigures>, ConnectorError> {
    let mut figures = BTreeMap::new();
    let Some(last) = Timestamp::parse_day(&days.last) else {
        return Ok(figures);
    };
    let Some(first) = Timestamp::parse_day(&days.first) else {
        return Ok(figures);
    };
    let earliest = last.minus_millis((INSTAGRAM_DAYS - 1) * DAY_MS).max(first);
    let mut day = earliest;
    while day <= last {
        let answer: InsightsAnswer = client
            .get(
                &format!("{instagram_id}/insights"),
                &[
                    (
                        "metric",
                        format!("{INSTAGRAM_VIEWS},{INSTAGRAM_INTERACTIONS}"),
                    ),
                    ("metric_type", "total_value".to_owned()),
                    ("period", "day".to_owned()),
                    ("since", (day.millis() / 1000).to_string()),
                    ("until", ((day.millis() + DAY_MS) / 1000).to_string()),
                ],
            )
            .await?;
        let figure = instagram_figure(&answer);
        if figure != DayFigures::default() {
            figures.insert(day.day(), figure);
        }
        day = day.plus_millis(DAY_MS);
    }
    Ok(figures)
}

/// The totals of one day's Instagram answer.
pub(crate) fn instagram_figure(answer: &InsightsAnswer) -> DayFigures {
    let mut figure = DayFigures::default();
    for metric in &answer.data {
        let total = metric
            .total_value
            .as_ref()
            .and_then(|total| total.value.as_ref())
            .and_then(count);
        match metric.name.as_deref() {
            Some(INSTAGRAM_VIEWS) => figure.views = total,
            Some(INSTAGRAM_INTERACTIONS) => figure.engagement = total,
            _ => {}
        }
    }
    figure
}

/// A non-negative count written as a number or a numeric string.
fn count(value: &serde_json::Value) -> Option<f64> {
    let n = match value {
        serde_json::Value::Number(n) => n.as_f64()?,
        serde_json::Value::String(text) => text.trim().parse().ok()?,
        _ => return None,
    };
    (n.is_finite() && n >= 0.0).then_some(n)
}

/// The day a daily value covers: the date of its `end_time` (`2026-11-15T08:00:00+0000`), less
/// one day.
pub(crate) fn day_before_end(end_time: &str) -> Option<String> {
    let date = Timestamp::parse_day(end_time.get(..10)?)?;
    Some(date.minus_millis(DAY_MS).day())
}

/// The day after `day`.
pub(crate) fn next_day(day: &str) -> Option<String> {
    Some(Timestamp::parse_day(day)?.plus_millis(DAY_MS).day())
}

/// `days` cut into consecutive ranges of at most `size` days.
pub(crate) fn chunks(days: &DayRange, size: i64) -> Vec<DayRange> {
    let (Some(first), Some(last)) = (
        Timestamp::parse_day(&days.first),
        Timestamp::parse_day(&days.last),
    ) else {
        return Vec::new();
    };
    let mut ranges = Vec::new();
    let mut start = first;
    while start <= last {
        let end = start.plus_millis((size - 1) * DAY_MS).min(last);
        ranges.push(DayRange {
            first: start.day(),
            last: end.day(),
        });
        start = end.plus_millis(DAY_MS);
    }
    ranges
}

#[cfg(test)]
mod tests {
    use super::*;

    fn days(first: &str, last: &str) -> DayRange {
        DayRange {
            first: first.into(),
            last: last.into(),
        }
    }

    #[test]
    fn a_page_value_belongs_to_the_day_before_its_end_time() {
        assert_eq!(
            day_before_end("2026-11-15T08:00:00+0000").as_deref(),
            Some("2026-11-14")
        );
        assert_eq!(
            day_before_end("2026-07-01T07:00:00+0000").as_deref(),
            Some("2026-06-30")
        );
        assert_eq!(day_before_end("garbage"), None);
        let answer: InsightsAnswer = serde_json::from_str(
            r#"{"data": [
                {"name": "page_media_view", "period": "day", "title": "Views",
                 "values": [{"value": 120, "end_time": "2026-11-14T08:00:00+0000"},
                            {"value": 130, "end_time": "2026-11-15T08:00:00+0000"},
                            {"value": 999, "end_time": "2026-11-23T08:00:00+0000"}],
                 "id": "101/insights/page_media_view/day"},
                {"name": "page_post_engagements", "period": "day",
                 "values": [{"value": "7", "end_time": "2026-11-15T08:00:00+0000"},
                            {"value": {"like": 3}, "end_time": "2026-11-16T08:00:00+0000"}]},
                {"name": "page_media_view", "period": "week",
                 "values": [{"value": 5000, "end_time": "2026-11-15T08:00:00+0000"}]}
              ],
              "paging": {"previous": "https://graph.facebook.com/...", "next": "https://graph.facebook.com/..."}}"#,
        )
        .unwrap();
        let figures = page_figures(&answer, &days("2026-11-14", "2026-11-21"));
        assert_eq!(
            figures.into_iter().collect::<Vec<_>>(),
            [(
                "2026-11-14".to_owned(),
                DayFigures {
                    views: Some(130.0),
                    engagement: Some(7.0)
                }
            )]
        );
    }

    #[test]
    fn an_instagram_day_is_its_totals() {
        let answer: InsightsAnswer = serde_json::from_str(
            r#"{"data": [
                {"name": "views", "period": "day", "title": "Views", "total_value": {"value": 4321},
                 "id": "17841400000000001/insights/views/day"},
                {"name": "total_interactions", "period": "day", "total_value": {"value": 87}}
            ]}"#,
        )
        .unwrap();
        assert_eq!(
            instagram_figure(&answer),
            DayFigures {
                views: Some(4_321.0),
                engagement: Some(87.0)
            }
        );
        let empty: InsightsAnswer = serde_json::from_str(r#"{"data": []}"#).unwrap();
        assert_eq!(instagram_figure(&empty), DayFigures::default());
    }

    #[test]
    fn long_ranges_are_cut_into_chunks() {
        let cut = chunks(&days("2026-01-01", "2026-07-01"), 90);
        assert_eq!(
            cut,
            [
                days("2026-01-01", "2026-03-31"),
                days("2026-04-01", "2026-06-29"),
                days("2026-06-30", "2026-07-01"),
            ]
        );
        assert_eq!(
            chunks(&days("2026-11-21", "2026-11-21"), 90),
            [days("2026-11-21", "2026-11-21")]
        );
        assert!(chunks(&days("2026-11-22", "2026-11-21"), 90).is_empty());
        assert_eq!(next_day("2026-12-31").as_deref(), Some("2027-01-01"));
    }
}
