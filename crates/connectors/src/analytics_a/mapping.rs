//! Report rows as what Payback stores: sessions per day, source and medium as `visit` and
//! `engaged` volumes per channel; sessions per day and landing page as `landing_sessions`
//! snapshots per path (`payback_domain::landing_path`: no query, no trailing `/`; GA4's
//! `(not set)` page skipped); mapped events' counts per day as the volume of their stage.
//! Rows that land on the same key (two sources of one channel, two pages of one path, two events
//! of one stage) are summed, so each key is written once.

use std::collections::BTreeMap;

use payback_domain::Stage;
use payback_domain::landing_path::landing_path;
use payback_domain::snapshot_metric::LANDING_SESSIONS;

use super::channel;
use super::event_maps::EventNameMap;
use super::report::Row;
use crate::ConnectorError;
use crate::batch::{Snapshot, StageDay};

/// GA4's word for a value it does not know.
const NOT_SET: &str = "(not set)";

/// `YYYYMMDD` (GA4's `date`) as `YYYY-MM-DD`.
pub(crate) fn day(value: &str) -> Result<String, ConnectorError> {
    let ok = value.len() == 8 && value.bytes().all(|b| b.is_ascii_digit());
    if !ok {
        return Err(ConnectorError::Vendor(format!(
            "Google Analytics Data API answered a date {value:?} that is not YYYYMMDD"
        )));
    }
    Ok(format!("{}-{}-{}", &value[..4], &value[4..6], &value[6..]))
}

/// A whole count from a metric value (GA4's counts are integers).
fn count(value: f64) -> i64 {
    value.round() as i64
}

/// Rows of dimensions `date, sessionSource, sessionMedium` and metrics `sessions,
/// engagedSessions`.
pub(crate) fn sessions(rows: &[Row]) -> Result<Vec<StageDay>, ConnectorError> {
    let mut volumes: BTreeMap<(String, &'static str, String), i64> = BTreeMap::new();
    for row in rows {
        let [date, source, medium] = row.dimensions.as_slice() else {
            return Err(shape("date, sessionSource and sessionMedium"));
        };
        let [sessions, engaged] = row.metrics.as_slice() else {
            return Err(shape("sessions and engagedSessions"));
        };
        let day = day(date)?;
        let channel = channel::classify(source, medium);
        for (stage, value) in [(Stage::Visit, sessions), (Stage::Engaged, engaged)] {
            *volumes
                .entry((day.clone(), stage.as_str(), channel.clone()))
                .or_default() += count(*value);
        }
    }
    Ok(stage_days(volumes))
}

/// Rows of dimensions `date, landingPage` and metric `sessions`.
pub(crate) fn landing_sessions(rows: &[Row]) -> Result<Vec<Snapshot>, ConnectorError> {
    let mut sessions: BTreeMap<(String, String), f64> = BTreeMap::new();
    for row in rows {
        let [date, page] = row.dimensions.as_slice() else {
            return Err(shape("date and landingPage"));
        };
        let [value] = row.metrics.as_slice() else {
            return Err(shape("sessions"));
        };
        let page = page.trim();
        if page.is_empty() || page == NOT_SET {
            continue;
        }
        *sessions
            .entry((day(date)?, landing_path(page)))
            .or_default() += value.round();
    }
    Ok(sessions
        .into_iter()
        .filter(|(_, value)| *value > 0.0)
        .map(|((day, path), value)| Snapshot {
            day,
            metric: LANDING_SESSIONS.to_owned(),
            dimension: path,
            value,
            detail: None,
        })
        .collect())
}

/// Rows of dimensions `date, eventName` and metric `eventCount`, each event counted under its
/// map's stage (an event no map names is skipped: the report filters on the mapped names).
pub(crate) fn mapped_events(
    rows: &[Row],
    maps: &[EventNameMap],
) -> Result<Vec<StageDay>, ConnectorError> {
    let mut volumes: BTreeMap<(String, &'static str, String), i64> = BTreeMap::new();
    for row in rows {
        let [date, name] = row.dimensions.as_slice() else {
            return Err(shape("date and eventName"));
        };
        let [value] = row.metrics.as_slice() else {
            return Err(shape("eventCount"));
        };
        let Some(stage) = maps
            .iter()
            .find(|map| map.event_name == *name)
            .and_then(EventNameMap::stage)
        else {
            continue;
        };
        *volumes
            .entry((day(date)?, stage.as_str(), String::new()))
            .or_default() += count(*value);
    }
    Ok(stage_days(volumes))
}

/// The summed volumes (keyed by the stage's word, which orders) as stage days, zeros left out.
fn stage_days(volumes: BTreeMap<(String, &'static str, String), i64>) -> Vec<StageDay> {
    volumes
        .into_iter()
        .filter(|(_, volume)| *volume > 0)
        .filter_map(|((day, stage, channel), volume)| {
            Some(StageDay {
                day,
                stage: Stage::parse(stage)?,
                channel,
                volume,
            })
        })
        .collect()
}

fn shape(what: &str) -> ConnectorError {
    ConnectorError::Vendor(format!(
        "Google Analytics Data API answered a row without the {what} it was asked for"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(dimensions: &[&str], metrics: &[f64]) -> Row {
        Row {
            dimensions: dimensions.iter().map(|d| (*d).to_owned()).collect(),
            metrics: metrics.to_vec(),
        }
    }

    fn volume(day: &str, stage: Stage, channel: &str, volume: i64) -> StageDay {
        StageDay {
            day: day.into(),
            stage,
            channel: channel.into(),
            volume,
        }
    }

    #[test]
    fn sessions_sum_per_day_stage_and_channel() {
        let rows = [
            row(&["20261120", "google", "organic"], &[10.0, 6.0]),
            row(&["20261120", "bing", "organic"], &[2.0, 1.0]),
            row(&["20261120", "(direct)", "(none)"], &[5.0, 0.0]),
            row(&["20261121", "google", "cpc"], &[3.0, 3.0]),
        ];
        assert_eq!(
            sessions(&rows).unwrap(),
            vec![
                volume("2026-11-20", Stage::Engaged, "organic_search", 7),
                volume("2026-11-20", Stage::Visit, "direct", 5),
                volume("2026-11-20", Stage::Visit, "organic_search", 12),
                volume("2026-11-21", Stage::Engaged, "paid_google", 3),
                volume("2026-11-21", Stage::Visit, "paid_google", 3),
            ]
        );
        assert!(sessions(&[row(&["2026-11-20", "a", "b"], &[1.0, 1.0])]).is_err());
    }

    #[test]
    fn landing_pages_are_paths_and_not_set_is_skipped() {
        let rows = [
            row(&["20261120", "/pricing/"], &[4.0]),
            row(&["20261120", "/pricing?ref=x"], &[2.0]),
            row(&["20261120", "(not set)"], &[9.0]),
            row(&["20261120", ""], &[9.0]),
            row(&["20261121", "/"], &[1.0]),
        ];
        let read: Vec<(String, String, f64)> = landing_sessions(&rows)
            .unwrap()
            .into_iter()
            .map(|s| {
                assert_eq!(s.metric, LANDING_SESSIONS);
                (s.day, s.dimension, s.value)
            })
            .collect();
        assert_eq!(
            read,
            vec![
                ("2026-11-20".into(), "/pricing".into(), 6.0),
                ("2026-11-21".into(), "/".into(), 1.0),
            ]
        );
    }

    #[test]
    fn mapped_events_count_under_their_stage() {
        let maps = [
            EventNameMap {
                event_name: "sign_up".into(),
                stage: "signup".into(),
            },
            EventNameMap {
                event_name: "trial_start".into(),
                stage: "signup".into(),
            },
        ];
        let rows = [
            row(&["20261120", "sign_up"], &[3.0]),
            row(&["20261120", "trial_start"], &[2.0]),
            row(&["20261120", "page_view"], &[99.0]),
        ];
        assert_eq!(
            mapped_events(&rows, &maps).unwrap(),
            vec![volume("2026-11-20", Stage::Signup, "", 5)]
        );
    }
}
