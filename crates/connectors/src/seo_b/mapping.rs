//! One run's answers to snapshots, all dated the run day: the domain's rating, live backlinks
//! and live referring domains at dimension `''`, and per organic keyword its best position
//! (the ranking URL as the snapshot's detail) and its monthly volume, with the keyword as
//! dimension.

use std::collections::BTreeSet;

use payback_domain::snapshot_metric::{
    BACKLINKS, DOMAIN_RATING, KEYWORD_POSITION, KEYWORD_VOLUME, REFERRING_DOMAINS,
};

use super::wire::{BacklinksStats, OrganicKeyword};
use crate::batch::Snapshot;

/// What one run read.
#[derive(Debug)]
pub(crate) struct Authority {
    pub domain_rating: f64,
    pub backlinks: BacklinksStats,
    pub keywords: Vec<OrganicKeyword>,
}

/// The snapshots of `read` on `day`, and how many keywords they hold. A keyword listed twice
/// (the list is per keyword and country, and one country is read, so only if Ahrefs repeats a
/// row) keeps its first row, the one with more traffic; a blank keyword is left out, and a
/// position or volume Ahrefs gives as null is not stored (no measurement is not a zero).
pub(crate) fn snapshots(day: &str, read: &Authority) -> (Vec<Snapshot>, usize) {
    let whole = |metric: &str, value: f64| Snapshot {
        day: day.to_owned(),
        metric: metric.to_owned(),
        dimension: String::new(),
        value,
        detail: None,
    };
    // Counts far below 2^53: exact as f64.
    let mut snapshots = vec![
        whole(DOMAIN_RATING, read.domain_rating),
        whole(BACKLINKS, read.backlinks.live as f64),
        whole(REFERRING_DOMAINS, read.backlinks.live_refdomains as f64),
    ];
    let mut seen = BTreeSet::new();
    for row in &read.keywords {
        let keyword = row.keyword.trim();
        if keyword.is_empty() || !seen.insert(keyword.to_owned()) {
            continue;
        }
        let per_keyword = |metric: &str, value: i64, detail: Option<String>| Snapshot {
            day: day.to_owned(),
            metric: metric.to_owned(),
            dimension: keyword.to_owned(),
            value: value as f64,
            detail,
        };
        if let Some(position) = row.best_position {
            let url = row
                .best_position_url
                .clone()
                .filter(|url| !url.trim().is_empty());
            snapshots.push(per_keyword(KEYWORD_POSITION, position, url));
        }
        if let Some(volume) = row.volume {
            snapshots.push(per_keyword(KEYWORD_VOLUME, volume, None));
        }
    }
    (snapshots, seen.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keyword(
        keyword: &str,
        position: Option<i64>,
        url: Option<&str>,
        volume: Option<i64>,
    ) -> OrganicKeyword {
        OrganicKeyword {
            keyword: keyword.to_owned(),
            best_position: position,
            best_position_url: url.map(str::to_owned),
            volume,
        }
    }

    #[test]
    fn a_run_is_three_wholes_and_two_values_per_keyword_on_the_run_day() {
        let read = Authority {
            domain_rating: 47.5,
            backlinks: BacklinksStats {
                live: 1_234,
                live_refdomains: 56,
            },
            keywords: vec![
                keyword(
                    "payback",
                    Some(3),
                    Some("https://shop.example/"),
                    Some(1_900),
                ),
                keyword("cac", None, None, Some(40)),
                keyword("payback", Some(9), Some("https://shop.example/b"), Some(1)),
                keyword(" ", Some(1), None, Some(1)),
                keyword("ltv", Some(12), Some(""), None),
            ],
        };
        let (snapshots, keywords) = snapshots("2026-11-21", &read);
        assert_eq!(keywords, 3);
        let found: Vec<(&str, &str, f64, Option<&str>)> = snapshots
            .iter()
            .map(|s| {
                assert_eq!(s.day, "2026-11-21");
                (
                    s.metric.as_str(),
                    s.dimension.as_str(),
                    s.value,
                    s.detail.as_deref(),
                )
            })
            .collect();
        assert_eq!(
            found,
            [
                ("domain_rating", "", 47.5, None),
                ("backlinks", "", 1_234.0, None),
                ("referring_domains", "", 56.0, None),
                (
                    "keyword_position",
                    "payback",
                    3.0,
                    Some("https://shop.example/")
                ),
                ("keyword_volume", "payback", 1_900.0, None),
                ("keyword_volume", "cac", 40.0, None),
                ("keyword_position", "ltv", 12.0, None),
            ]
        );
    }
}
