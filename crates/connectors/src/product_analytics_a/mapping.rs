//! PostHog's answers to the batch: sessions per entry path to `landing_sessions`, mapped
//! events to daily stage rows (channel `''`: PostHog's events carry none Payback reads),
//! friction events per `$pathname` to `rage_clicks`, `dead_clicks` and `js_errors`, and each
//! sampled recording to one `recording` snapshot holding its playback pointer. Paths are
//! spelled by `payback_domain::landing_path`, so one page's rows share one key.

use std::collections::{BTreeMap, BTreeSet};

use payback_domain::Timestamp;
use payback_domain::landing_path::landing_path;
use payback_domain::snapshot_metric::{
    DEAD_CLICKS, JS_ERRORS, LANDING_SESSIONS, RAGE_CLICKS, RECORDING,
};
use serde_json::json;

use super::event_maps::EventMap;
use super::hogql::{DEAD_CLICK, EXCEPTION, RAGE_CLICK};
use super::playback_url;
use super::wire::{self, QueryAnswer, Recording};
use crate::{Snapshot, StageDay};

/// The signal words a recording carries.
pub(crate) const SIGNAL_JS_ERROR: &str = "js_error";
pub(crate) const SIGNAL_RAGE_CLICK: &str = "rage_click";
pub(crate) const SIGNAL_DEAD_CLICK: &str = "dead_click";

/// The rows of `answer` as (column values...) by name; rows missing a column are skipped.
fn rows<'a>(
    answer: &'a QueryAnswer,
    columns: &[&str],
) -> impl Iterator<Item = Vec<&'a serde_json::Value>> + 'a {
    let at: Option<Vec<usize>> = columns.iter().map(|name| answer.column(name)).collect();
    answer.results.iter().filter_map(move |row| {
        let at = at.as_ref()?;
        at.iter().map(|index| row.get(*index)).collect()
    })
}

fn snapshot(day: String, metric: &str, dimension: String, value: f64) -> Snapshot {
    Snapshot {
        day,
        metric: metric.to_owned(),
        dimension,
        value,
        detail: None,
    }
}

/// `landing_sessions` per day and entry path; sessions without an entry path are skipped.
pub(crate) fn landing_sessions(answer: &QueryAnswer) -> Vec<Snapshot> {
    let mut sums: BTreeMap<(String, String), f64> = BTreeMap::new();
    for row in rows(answer, &["day", "path", "sessions"]) {
        let (Some(day), Some(path), Some(count)) =
            (wire::text(row[0]), wire::text(row[1]), wire::count(row[2]))
        else {
            continue;
        };
        if path.trim().is_empty() {
            continue;
        }
        *sums.entry((day, landing_path(&path))).or_default() += count as f64;
    }
    sums.into_iter()
        .map(|((day, path), value)| snapshot(day, LANDING_SESSIONS, path, value))
        .collect()
}

/// Each mapped event's daily count as its stage's volume (events of one stage add up).
pub(crate) fn stage_days(answer: &QueryAnswer, maps: &[EventMap]) -> Vec<StageDay> {
    // Keyed by the stage's word: `Stage` has no order of its own.
    let mut sums: BTreeMap<(String, &'static str), (payback_domain::Stage, i64)> = BTreeMap::new();
    for row in rows(answer, &["event", "day", "count"]) {
        let (Some(event), Some(day), Some(count)) =
            (wire::text(row[0]), wire::text(row[1]), wire::count(row[2]))
        else {
            continue;
        };
        let Some(stage) = maps
            .iter()
            .find(|map| map.event == event)
            .and_then(EventMap::stage)
        else {
            continue;
        };
        sums.entry((day, stage.as_str())).or_insert((stage, 0)).1 += count;
    }
    sums.into_iter()
        .map(|((day, _), (stage, volume))| StageDay {
            day,
            stage,
            channel: String::new(),
            volume,
        })
        .collect()
}

/// Friction counts per day and path.
pub(crate) fn friction(answer: &QueryAnswer) -> Vec<Snapshot> {
    let mut sums: BTreeMap<(String, &str, String), f64> = BTreeMap::new();
    for row in rows(answer, &["event", "day", "path", "count"]) {
        let (Some(event), Some(day), Some(path), Some(count)) = (
            wire::text(row[0]),
            wire::text(row[1]),
            wire::text(row[2]),
            wire::count(row[3]),
        ) else {
            continue;
        };
        let metric = match event.as_str() {
            RAGE_CLICK => RAGE_CLICKS,
            DEAD_CLICK => DEAD_CLICKS,
            EXCEPTION => JS_ERRORS,
            _ => continue,
        };
        if path.trim().is_empty() {
            continue;
        }
        *sums.entry((day, metric, landing_path(&path))).or_default() += count as f64;
    }
    sums.into_iter()
        .map(|((day, metric, path), value)| snapshot(day, metric, path, value))
        .collect()
}

/// The sessions with each click signal: session id -> signal words.
pub(crate) fn click_signals(answer: &QueryAnswer) -> BTreeMap<String, BTreeSet<&'static str>> {
    let mut signals: BTreeMap<String, BTreeSet<&'static str>> = BTreeMap::new();
    for row in rows(answer, &["session_id", "event"]) {
        let (Some(session), Some(event)) = (wire::text(row[0]), wire::text(row[1])) else {
            continue;
        };
        let signal = match event.as_str() {
            RAGE_CLICK => SIGNAL_RAGE_CLICK,
            DEAD_CLICK => SIGNAL_DEAD_CLICK,
            _ => continue,
        };
        signals.entry(session).or_default().insert(signal);
    }
    signals
}

/// One `recording` snapshot per recording with a start time: dated the day it started, its
/// duration the value, its playback pointer the detail.
pub(crate) fn recordings(
    host: &str,
    project_id: &str,
    recordings: &[Recording],
    click_signals: &BTreeMap<String, BTreeSet<&'static str>>,
) -> Vec<Snapshot> {
    let mut seen = BTreeSet::new();
    recordings
        .iter()
        .filter_map(|recording| {
            let started = Timestamp::parse_rfc3339(recording.start_time.as_deref()?)?;
            if !seen.insert(recording.id.clone()) {
                return None;
            }
            let mut signals: BTreeSet<&str> = click_signals
                .get(&recording.id)
                .cloned()
                .unwrap_or_default();
            if recording.console_error_count.unwrap_or(0) > 0 {
                signals.insert(SIGNAL_JS_ERROR);
            }
            let duration = recording.recording_duration.unwrap_or(0).max(0);
            let path = recording.start_url.as_deref().map(landing_path);
            let detail = json!({
                "url": playback_url(host, project_id, &recording.id),
                "path": path,
                "started_at": started.to_rfc3339(),
                "signals": signals,
            });
            Some(Snapshot {
                day: started.day(),
                metric: RECORDING.to_owned(),
                dimension: recording.id.clone(),
                value: duration as f64,
                detail: Some(detail.to_string()),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(text: &str) -> QueryAnswer {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn sessions_friction_and_maps_land_per_day_and_path() {
        let sessions = answer(
            r#"{"columns": ["day", "path", "sessions"], "results": [
                ["2026-03-01", "/pricing/", 4], ["2026-03-01", "/pricing", 3], ["2026-03-01", null, 9]
            ]}"#,
        );
        let rows = landing_sessions(&sessions);
        assert_eq!(rows.len(), 1);
        assert_eq!(
            (rows[0].dimension.as_str(), rows[0].value),
            ("/pricing", 7.0)
        );

        let friction_answer = answer(
            r#"{"columns": ["event", "day", "path", "count"], "results": [
                ["$rageclick", "2026-03-01", "/a", 2], ["$exception", "2026-03-02", "/a/", "5"],
                ["$pageview", "2026-03-01", "/a", 50]
            ]}"#,
        );
        let rows = friction(&friction_answer);
        let got: Vec<(&str, &str, f64)> = rows
            .iter()
            .map(|row| (row.day.as_str(), row.metric.as_str(), row.value))
            .collect();
        assert_eq!(
            got,
            vec![
                ("2026-03-01", "rage_clicks", 2.0),
                ("2026-03-02", "js_errors", 5.0)
            ]
        );

        let events = answer(
            r#"{"columns": ["event", "day", "count"], "results": [
                ["signed_up", "2026-03-01", 3], ["trial", "2026-03-01", 2], ["other", "2026-03-01", 9]
            ]}"#,
        );
        let maps = vec![
            EventMap {
                event: "signed_up".into(),
                stage: "signup".into(),
            },
            EventMap {
                event: "trial".into(),
                stage: "signup".into(),
            },
        ];
        let days = stage_days(&events, &maps);
        assert_eq!(days.len(), 1);
        assert_eq!(days[0].volume, 5);
    }

    #[test]
    fn a_recording_carries_its_link_path_and_signals() {
        let recording: Recording = serde_json::from_str(
            r#"{"id": "s1", "start_time": "2026-03-01T10:00:00Z", "recording_duration": 95,
                "start_url": "https://shop.example/pricing?x=1", "console_error_count": 2}"#,
        )
        .unwrap();
        let mut clicks = BTreeMap::new();
        clicks.insert("s1".to_owned(), BTreeSet::from([SIGNAL_RAGE_CLICK]));
        let rows = recordings("https://eu.posthog.com", "7", &[recording], &clicks);
        assert_eq!(rows[0].day, "2026-03-01");
        assert_eq!(rows[0].value, 95.0);
        let detail: serde_json::Value =
            serde_json::from_str(rows[0].detail.as_deref().unwrap()).unwrap();
        assert_eq!(detail["url"], "https://eu.posthog.com/project/7/replay/s1");
        assert_eq!(detail["path"], "/pricing");
        assert_eq!(detail["signals"], json!(["js_error", "rage_click"]));
    }
}
