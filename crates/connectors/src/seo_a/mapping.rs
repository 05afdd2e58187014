//! Semrush's reports to snapshots, all dated the run day (Semrush's figures are its latest
//! estimate, not a day's count):
//! - `domain_rank`'s line: `domain_rank` (`Rk`), `organic_keywords` (`Or`) and
//!   `organic_traffic` (`Ot`) at dimension `''`,
//! - each `domain_organic` line: `keyword_position` (`Po`, detail the ranking `Ur`) and
//!   `keyword_volume` (`Nq`) with the keyword as dimension.
//!
//! A cell Semrush leaves empty gives no snapshot (no figure is not 0); a cell that is not a
//! number fails the read, since its figure would be lost silently otherwise.

use std::collections::BTreeMap;

use payback_domain::snapshot_metric::{
    DOMAIN_RANK, KEYWORD_POSITION, KEYWORD_VOLUME, ORGANIC_KEYWORDS, ORGANIC_TRAFFIC,
};

use super::wire::{self, Column, Table};
use crate::ConnectorError;
use crate::batch::Snapshot;

/// The overview's snapshots on `day` (none when Semrush found nothing).
pub(crate) fn overview(table: &Table, day: &str) -> Result<Vec<Snapshot>, ConnectorError> {
    let Some(row) = table.rows().first() else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for (column, metric) in [
        (wire::RANK, DOMAIN_RANK),
        (wire::ORGANIC_KEYWORDS, ORGANIC_KEYWORDS),
        (wire::ORGANIC_TRAFFIC, ORGANIC_TRAFFIC),
    ] {
        let at = position(table, column, "domain_rank")?;
        if let Some(value) = number(row, at, column, "domain_rank")? {
            out.push(snapshot(day, metric, "", value, None));
        }
    }
    Ok(out)
}

/// One keyword's figures.
#[derive(Debug, Clone, PartialEq)]
struct Ranked {
    position: Option<f64>,
    volume: Option<f64>,
    url: Option<String>,
}

/// The keywords' snapshots on `day`. A keyword Semrush lists twice (two of the domain's URLs
/// rank for it) keeps its best position, with that URL.
pub(crate) fn keywords(table: &Table, day: &str) -> Result<Vec<Snapshot>, ConnectorError> {
    const REPORT: &str = "domain_organic";
    let keyword_at = position(table, wire::KEYWORD, REPORT)?;
    let position_at = position(table, wire::POSITION, REPORT)?;
    let volume_at = position(table, wire::SEARCH_VOLUME, REPORT)?;
    let url_at = table.position(wire::URL);
    let mut ranked: BTreeMap<String, Ranked> = BTreeMap::new();
    for row in table.rows() {
        let keyword = row.get(keyword_at).map(|k| k.trim()).unwrap_or_default();
        if keyword.is_empty() {
            continue;
        }
        let seen = Ranked {
            position: number(row, position_at, wire::POSITION, REPORT)?,
            volume: number(row, volume_at, wire::SEARCH_VOLUME, REPORT)?,
            url: url_at
                .and_then(|at| row.get(at))
                .map(|url| url.trim().to_owned())
                .filter(|url| !url.is_empty()),
        };
        ranked
            .entry(keyword.to_owned())
            .and_modify(|known| {
                if better(seen.position, known.position) {
                    *known = seen.clone();
                }
            })
            .or_insert(seen);
    }
    let mut out = Vec::new();
    for (keyword, figures) in ranked {
        if let Some(position) = figures.position {
            out.push(snapshot(
                day,
                KEYWORD_POSITION,
                &keyword,
                position,
                figures.url,
            ));
        }
        if let Some(volume) = figures.volume {
            out.push(snapshot(day, KEYWORD_VOLUME, &keyword, volume, None));
        }
    }
    Ok(out)
}

/// Whether position `seen` beats `known` (a smaller position is higher on the page).
fn better(seen: Option<f64>, known: Option<f64>) -> bool {
    match (seen, known) {
        (Some(seen), Some(known)) => seen < known,
        (Some(_), None) => true,
        _ => false,
    }
}

fn position(table: &Table, column: Column, report: &str) -> Result<usize, ConnectorError> {
    table.position(column).ok_or_else(|| {
        ConnectorError::Vendor(format!(
            "Semrush's {report} answer has no {} ({}) column",
            column.name, column.code
        ))
    })
}

fn number(
    row: &[String],
    at: usize,
    column: Column,
    report: &str,
) -> Result<Option<f64>, ConnectorError> {
    let cell = row.get(at).map(|cell| cell.trim()).unwrap_or_default();
    if cell.is_empty() {
        return Ok(None);
    }
    cell.parse::<f64>()
        .ok()
        .filter(|value| value.is_finite())
        .map(Some)
        .ok_or_else(|| {
            ConnectorError::Vendor(format!(
                "Semrush's {report} answer has {cell:?} as {}, not a number",
                column.name
            ))
        })
}

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

#[cfg(test)]
mod tests {
    use super::*;

    const DAY: &str = "2026-11-21";

    #[test]
    fn the_overview_is_three_figures_of_the_whole_domain() {
        let table = Table::parse(
            "Domain;Rank;Organic Keywords;Organic Traffic\r\nshop.example;48210;1530;",
        )
        .unwrap();
        let snapshots = overview(&table, DAY).unwrap();
        let figures: Vec<(&str, &str, f64)> = snapshots
            .iter()
            .map(|s| (s.metric.as_str(), s.dimension.as_str(), s.value))
            .collect();
        // Traffic left empty is no figure, not 0.
        assert_eq!(
            figures,
            [
                ("domain_rank", "", 48_210.0),
                ("organic_keywords", "", 1_530.0)
            ]
        );
        assert!(snapshots.iter().all(|s| s.day == DAY && s.detail.is_none()));
        let bad = Table::parse("Rank;Organic Keywords;Organic Traffic\r\nn/a;1;2").unwrap();
        assert!(matches!(
            overview(&bad, DAY),
            Err(ConnectorError::Vendor(_))
        ));
        let missing = Table::parse("Rank\r\n1").unwrap();
        assert!(overview(&missing, DAY).is_err());
    }

    #[test]
    fn each_keyword_has_its_best_position_with_its_url_and_its_volume() {
        let table = Table::parse(
            "Keyword;Position;Search Volume;Url;Traffic (%)\r\n\
             payback;3;2400;https://shop.example/;12.50\r\n\
             payback;1;2400;https://shop.example/payback;4.00\r\n\
             cac;9;880;;1.10\r\n\
             ;4;10;https://shop.example/x;0.5",
        )
        .unwrap();
        let snapshots = keywords(&table, DAY).unwrap();
        let figures: Vec<(&str, &str, f64, Option<&str>)> = snapshots
            .iter()
            .map(|s| {
                (
                    s.metric.as_str(),
                    s.dimension.as_str(),
                    s.value,
                    s.detail.as_deref(),
                )
            })
            .collect();
        assert_eq!(
            figures,
            [
                ("keyword_position", "cac", 9.0, None),
                ("keyword_volume", "cac", 880.0, None),
                (
                    "keyword_position",
                    "payback",
                    1.0,
                    Some("https://shop.example/payback")
                ),
                ("keyword_volume", "payback", 2_400.0, None),
            ]
        );
    }
}
