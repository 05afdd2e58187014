//! What SE Ranking answered, as snapshots:
//! - `ai_visibility` per day: each engine's `mention_percent_in_top` at the engine's base name,
//!   and at `''` the engines' mean; a day no engine has a figure for has no snapshot (no
//!   measurement is not a score of 0);
//! - `site_health` at `''`: the audit's `score_percent`, on the run day;
//! - `keyword_position` (detail: the ranking URL when given) and `keyword_volume` per keyword,
//!   on each check's date inside the window;
//! - `competitor_position` per keyword and day: the best position any competitor of the
//!   project reached (detail: that competitor), which the demand report holds against the
//!   product's own to show keyword gaps.

use std::collections::BTreeMap;

use payback_domain::snapshot_metric::{
    AI_VISIBILITY, COMPETITOR_POSITION, KEYWORD_POSITION, KEYWORD_VOLUME, SITE_HEALTH,
};

use super::wire::{Competitor, CompetitorEngine, EnginePositions};
use crate::batch::{DayRange, Snapshot};

fn snapshot(
    day: &str,
    metric: &str,
    dimension: &str,
    value: f64,
    detail: Option<String>,
) -> Snapshot {
    Snapshot {
        day: day.to_owned(),
        metric: metric.to_owned(),
        dimension: dimension.to_owned(),
        value,
        detail,
    }
}

/// One day's figures: `(engine base name, mention share)` for each engine that had one.
#[derive(Debug, Default)]
pub(crate) struct VisibilityDay {
    pub day: String,
    pub figures: Vec<(String, f64)>,
}

/// The `ai_visibility` snapshots of the days read. Two engines of one base name (one per
/// country) are one dimension, so their figures are averaged first; the day's score is then
/// the mean over base names, the same numbers a reader of the per-engine snapshots sees.
pub(crate) fn ai_visibility(days: &[VisibilityDay]) -> Vec<Snapshot> {
    let mut snapshots = Vec::new();
    for day in days {
        let mut by_engine: BTreeMap<&str, (f64, u32)> = BTreeMap::new();
        for (engine, value) in &day.figures {
            let entry = by_engine.entry(engine.as_str()).or_default();
            entry.0 += value;
            entry.1 += 1;
        }
        if by_engine.is_empty() {
            continue;
        }
        let mut total = 0.0;
        for (engine, (sum, count)) in &by_engine {
            let value = sum / f64::from(*count);
            total += value;
            snapshots.push(snapshot(&day.day, AI_VISIBILITY, engine, value, None));
        }
        let engines = u32::try_from(by_engine.len()).unwrap_or(u32::MAX);
        snapshots.push(snapshot(
            &day.day,
            AI_VISIBILITY,
            "",
            total / f64::from(engines),
            None,
        ));
    }
    snapshots
}

/// The site audit's health score on `day`.
pub(crate) fn site_health(day: &str, score: f64) -> Snapshot {
    snapshot(day, SITE_HEALTH, "", score, None)
}

/// What the positions of one read came to.
#[derive(Debug, Default)]
pub(crate) struct Ranks {
    pub snapshots: Vec<Snapshot>,
    pub keywords: usize,
    /// Checks that found the site within the tracked depth.
    pub ranked: usize,
}

/// One keyword's day: its best position with that check's ranking URL, and its volume.
#[derive(Debug, Default)]
struct KeywordDay {
    best: Option<(f64, Option<String>)>,
    volume: Option<f64>,
}

/// The `keyword_position` and `keyword_volume` snapshots of the checks inside `window`. A
/// keyword tracked in several search engines of the project is one dimension: its best
/// (lowest) position that day is kept, with that engine's ranking URL. `pos` 0 (not found) is
/// no position, but the keyword's volume is still stored for the day.
pub(crate) fn ranks(engines: &[EnginePositions], window: &DayRange) -> Ranks {
    let mut days: BTreeMap<(String, String), KeywordDay> = BTreeMap::new();
    for engine in engines {
        for keyword in &engine.keywords {
            let name = keyword.name.trim();
            if name.is_empty() {
                continue;
            }
            for check in &keyword.positions {
                let day = check.date.get(..10).unwrap_or(&check.date).to_owned();
                if !window.contains(&day) {
                    continue;
                }
                let entry = days.entry((day.clone(), name.to_owned())).or_default();
                if let Some(volume) = keyword.volume.filter(|v| v.is_finite()) {
                    entry.volume =
                        Some(entry.volume.map_or(volume, |known: f64| known.max(volume)));
                }
                let Some(pos) = check.pos.filter(|pos| pos.is_finite() && *pos > 0.0) else {
                    continue;
                };
                if entry.best.as_ref().is_some_and(|(best, _)| *best <= pos) {
                    continue;
                }
                let url = keyword
                    .landing_pages
                    .iter()
                    .find(|page| page.date.get(..10) == Some(day.as_str()))
                    .and_then(|page| page.url.clone())
                    .filter(|url| !url.trim().is_empty());
                entry.best = Some((pos, url));
            }
        }
    }
    let mut read = Ranks::default();
    let mut keywords = std::collections::BTreeSet::new();
    for ((day, keyword), KeywordDay { best, volume }) in days {
        if let Some((pos, url)) = best {
            read.ranked += 1;
            read.snapshots
                .push(snapshot(&day, KEYWORD_POSITION, &keyword, pos, url));
        }
        if let Some(volume) = volume {
            read.snapshots
                .push(snapshot(&day, KEYWORD_VOLUME, &keyword, volume, None));
        }
        keywords.insert(keyword);
    }
    read.keywords = keywords.len();
    read
}

/// The `competitor_position` snapshots of the checks inside `window`: per keyword and day, the
/// best (lowest) position among the competitors, with that competitor's name. A competitor's
/// keyword is the project's keyword of the same search engine and id (its name when SE Ranking
/// gives one); `pos` 0 (not found) is no position.
pub(crate) fn competitor_positions(
    site: &[EnginePositions],
    competitors: &[(Competitor, Vec<CompetitorEngine>)],
    window: &DayRange,
) -> Vec<Snapshot> {
    let names: BTreeMap<(Option<&str>, &str), &str> = site
        .iter()
        .flat_map(|engine| {
            engine.keywords.iter().filter_map(move |keyword| {
                let id = keyword.id.as_deref()?;
                Some(((engine.site_engine_id.as_deref(), id), keyword.name.trim()))
            })
        })
        .collect();
    let mut best: BTreeMap<(String, String), (f64, String)> = BTreeMap::new();
    for (competitor, engines) in competitors {
        let label = competitor.label();
        for engine in engines {
            for keyword in &engine.keywords {
                let name = keyword
                    .name
                    .as_deref()
                    .map(str::trim)
                    .filter(|name| !name.is_empty())
                    .or_else(|| {
                        let id = keyword.id.as_deref()?;
                        names.get(&(engine.site_engine_id.as_deref(), id)).copied()
                    });
                let Some(name) = name.filter(|name| !name.is_empty()) else {
                    continue;
                };
                for check in &keyword.positions {
                    let day = check.date.get(..10).unwrap_or(&check.date).to_owned();
                    let Some(pos) = check.pos.filter(|pos| pos.is_finite() && *pos > 0.0) else {
                        continue;
                    };
                    if !window.contains(&day) {
                        continue;
                    }
                    let entry = best.entry((day, name.to_owned()));
                    match entry {
                        std::collections::btree_map::Entry::Occupied(mut seen) => {
                            if pos < seen.get().0 {
                                seen.insert((pos, label.clone()));
                            }
                        }
                        std::collections::btree_map::Entry::Vacant(free) => {
                            free.insert((pos, label.clone()));
                        }
                    }
                }
            }
        }
    }
    best.into_iter()
        .map(|((day, keyword), (pos, competitor))| {
            snapshot(&day, COMPETITOR_POSITION, &keyword, pos, Some(competitor))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geo_a::wire::{CompetitorKeyword, KeywordPositions, LandingPage, Position};

    fn value(snapshots: &[Snapshot], day: &str, metric: &str, dimension: &str) -> Option<f64> {
        snapshots
            .iter()
            .find(|s| s.day == day && s.metric == metric && s.dimension == dimension)
            .map(|s| s.value)
    }

    #[test]
    fn each_day_is_the_engines_mean_and_a_day_without_figures_is_none() {
        let days = [
            VisibilityDay {
                day: "2026-11-19".into(),
                figures: vec![("chatgpt".into(), 40.0), ("perplexity".into(), 10.0)],
            },
            VisibilityDay {
                day: "2026-11-20".into(),
                figures: vec![
                    ("chatgpt".into(), 30.0),
                    ("chatgpt".into(), 50.0),
                    ("gemini".into(), 0.0),
                ],
            },
            VisibilityDay {
                day: "2026-11-21".into(),
                figures: vec![],
            },
        ];
        let snapshots = ai_visibility(&days);
        assert_eq!(
            value(&snapshots, "2026-11-19", AI_VISIBILITY, ""),
            Some(25.0)
        );
        assert_eq!(
            value(&snapshots, "2026-11-19", AI_VISIBILITY, "perplexity"),
            Some(10.0)
        );
        assert_eq!(
            value(&snapshots, "2026-11-20", AI_VISIBILITY, "chatgpt"),
            Some(40.0)
        );
        // A measured 0 is a figure; it counts in the mean.
        assert_eq!(
            value(&snapshots, "2026-11-20", AI_VISIBILITY, ""),
            Some(20.0)
        );
        assert!(snapshots.iter().all(|s| s.day != "2026-11-21"));
        assert_eq!(snapshots.len(), 6);
    }

    #[test]
    fn ranks_keep_the_best_engine_and_the_window_and_skip_not_found() {
        let keyword = |name: &str, checks: &[(&str, f64)], url: &str| KeywordPositions {
            id: None,
            name: name.into(),
            volume: Some(390.0),
            positions: checks
                .iter()
                .map(|(date, pos)| Position {
                    date: (*date).into(),
                    pos: Some(*pos),
                })
                .collect(),
            landing_pages: vec![LandingPage {
                date: "2026-11-20".into(),
                url: Some(url.into()),
            }],
        };
        let engines = [
            EnginePositions {
                site_engine_id: Some("1".into()),
                keywords: vec![
                    keyword(
                        "payback",
                        &[("2026-11-20", 7.0), ("2026-11-10", 1.0)],
                        "https://a/",
                    ),
                    keyword("cac", &[("2026-11-20", 0.0)], "https://c/"),
                ],
            },
            EnginePositions {
                site_engine_id: Some("2".into()),
                keywords: vec![keyword("payback", &[("2026-11-20", 3.0)], "https://b/")],
            },
        ];
        let window = DayRange {
            first: "2026-11-19".into(),
            last: "2026-11-20".into(),
        };
        let read = ranks(&engines, &window);
        assert_eq!((read.keywords, read.ranked), (2, 1));
        let best = read
            .snapshots
            .iter()
            .find(|s| s.metric == KEYWORD_POSITION)
            .unwrap();
        assert_eq!(
            (best.value, best.detail.as_deref()),
            (3.0, Some("https://b/"))
        );
        assert_eq!(
            value(&read.snapshots, "2026-11-20", KEYWORD_VOLUME, "cac"),
            Some(390.0)
        );
        assert_eq!(
            value(&read.snapshots, "2026-11-20", KEYWORD_POSITION, "cac"),
            None
        );
        assert!(read.snapshots.iter().all(|s| s.day == "2026-11-20"));
    }

    #[test]
    fn the_best_competitor_of_each_keyword_and_day_by_the_projects_keyword_ids() {
        let site = [EnginePositions {
            site_engine_id: Some("1".into()),
            keywords: vec![
                KeywordPositions {
                    id: Some("5".into()),
                    name: "payback".into(),
                    volume: None,
                    positions: Vec::new(),
                    landing_pages: Vec::new(),
                },
                KeywordPositions {
                    id: Some("6".into()),
                    name: "cac".into(),
                    volume: None,
                    positions: Vec::new(),
                    landing_pages: Vec::new(),
                },
            ],
        }];
        let checks = |pairs: &[(&str, f64)]| -> Vec<Position> {
            pairs
                .iter()
                .map(|(date, pos)| Position {
                    date: (*date).into(),
                    pos: Some(*pos),
                })
                .collect()
        };
        let competitor = |id: &str, name: &str, keywords: Vec<CompetitorKeyword>| {
            (
                Competitor {
                    id: id.into(),
                    name: Some(name.into()),
                    url: None,
                },
                vec![CompetitorEngine {
                    site_engine_id: Some("1".into()),
                    keywords,
                }],
            )
        };
        let by_id = |id: &str, positions| CompetitorKeyword {
            id: Some(id.into()),
            name: None,
            positions,
        };
        let competitors = [
            competitor(
                "1",
                "rival.example",
                vec![
                    by_id("5", checks(&[("2026-11-20", 4.0), ("2026-11-01", 1.0)])),
                    by_id("6", checks(&[("2026-11-20", 0.0)])),
                    by_id("99", checks(&[("2026-11-20", 1.0)])),
                ],
            ),
            competitor(
                "2",
                "other.example",
                vec![by_id("5", checks(&[("2026-11-20", 2.0)]))],
            ),
        ];
        let window = DayRange {
            first: "2026-11-19".into(),
            last: "2026-11-20".into(),
        };
        let snapshots = competitor_positions(&site, &competitors, &window);
        assert_eq!(snapshots.len(), 1, "{snapshots:?}");
        let gap = &snapshots[0];
        assert_eq!(
            (
                gap.day.as_str(),
                gap.metric.as_str(),
                gap.dimension.as_str()
            ),
            ("2026-11-20", COMPETITOR_POSITION, "payback")
        );
        assert_eq!(
            (gap.value, gap.detail.as_deref()),
            (2.0, Some("other.example"))
        );
    }
}
