//! The demo products' demand: what a search console, an SEO tool and an AI-visibility tool would
//! have stored over the product's history (search queries per day with positions, a weekly
//! keyword and authority reading, AI visibility per engine, the rank tracker's weekly check of
//! its keywords against competitors), so the Demand page (its keyword gaps included) and the
//! timeseries' search columns show something real on a first run.
//!
//! Deterministic (seeded by the product's shape) and written through the store's snapshot
//! upsert under the kinds that write these words, as their runs would.

use payback_domain::snapshot_metric::{
    AI_VISIBILITY, COMPETITOR_POSITION, DOMAIN_RANK, KEYWORD_POSITION, KEYWORD_VOLUME,
    ORGANIC_KEYWORDS, ORGANIC_TRAFFIC, SEARCH_CLICKS, SEARCH_IMPRESSIONS, SEARCH_POSITION,
    SITE_HEALTH,
};
use payback_domain::{DAY_MS, Timestamp};
use payback_store::products::ProductRow;
use payback_store::snapshots::{self, SnapshotRow};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use super::data::Shape;
use crate::error::ApiResult;
use crate::state::AppState;

/// Search queries: (query, daily impressions around, click-through rate, position around).
const QUERIES: &[(&str, f64, f64, f64)] = &[
    ("{slug}", 120.0, 0.32, 1.4),
    ("{slug} pricing", 40.0, 0.25, 2.1),
    ("best tool for small teams", 300.0, 0.02, 8.5),
    ("{slug} alternative", 60.0, 0.08, 4.2),
    ("how to measure ad payback", 90.0, 0.04, 6.8),
];

/// The keywords the rank tracker (`geo_a`) checks against the product's competitors each week,
/// as of the latest check: (keyword, the product's position or `None` when it ranks nowhere
/// within the tracker's depth, the best competitor's position, that competitor, monthly
/// volume). Earlier checks drift a little worse for both, a rank climbed week by week.
#[rustfmt::skip]
pub const TRACKED_KEYWORDS: &[(&str, Option<f64>, f64, &str, f64)] = &[
    ("{slug}", Some(1.0), 6.0, "stackwise.example", 3_600.0),
    ("{slug} alternative", Some(4.0), 2.0, "stackwise.example", 1_800.0),
    ("best tool for small teams", Some(9.0), 3.0, "teamtally.example", 9_000.0),
    ("ad spend payback calculator", None, 5.0, "growthgauge.example", 2_700.0),
];

/// Weekly tracker checks over the last this many weeks.
const TRACKED_WEEKS: usize = 8;

/// AI assistants the visibility tool asks.
const ENGINES: &[(&str, f64)] = &[("chatgpt", 38.0), ("perplexity", 52.0), ("gemini", 27.0)];

/// Writes the product's demand snapshots over its history.
pub async fn seed(state: &AppState, product: &ProductRow, shape: &Shape) -> ApiResult<()> {
    let now = state.clock.now();
    let mut rng = StdRng::seed_from_u64(shape.seed ^ 0xD3_4A_4D);
    let days: Vec<String> = (0..shape.days)
        .rev()
        .map(|ago| Timestamp::from_millis(now.millis() - ago * DAY_MS).day())
        .collect();
    let search = search_days(&mut rng, product, &days);
    let (ranks, mut visibility) = weekly_readings(&mut rng, product, &days);
    visibility.extend(tracker_checks(product, &days));
    let mut tx = state.store.begin().await?;
    snapshots::upsert(&mut tx, &product.id, "search_console", &search, now).await?;
    snapshots::upsert(&mut tx, &product.id, "seo_a", &ranks, now).await?;
    snapshots::upsert(&mut tx, &product.id, "geo_a", &visibility, now).await?;
    tx.commit().await?;
    Ok(())
}

fn row(day: &str, metric: &str, dimension: &str, value: f64) -> SnapshotRow {
    SnapshotRow {
        day: day.to_owned(),
        metric: metric.to_owned(),
        dimension: dimension.to_owned(),
        value,
        detail: None,
    }
}

/// Each day's queries, growing over the history with some noise.
fn search_days(rng: &mut StdRng, product: &ProductRow, days: &[String]) -> Vec<SnapshotRow> {
    let mut rows = Vec::new();
    for (at, day) in days.iter().enumerate() {
        let growth = 0.5 + at as f64 / days.len() as f64;
        for (query, impressions, ctr, position) in QUERIES {
            let query = query.replace("{slug}", &product.slug);
            let shown = (impressions * growth * rng.random_range(0.7..1.3)).round();
            let clicks = (shown * ctr * rng.random_range(0.6..1.4)).round();
            let place = (position * rng.random_range(0.85..1.15) * 10.0).round() / 10.0;
            rows.push(row(day, SEARCH_IMPRESSIONS, &query, shown));
            rows.push(row(day, SEARCH_CLICKS, &query, clicks));
            if shown > 0.0 {
                rows.push(row(day, SEARCH_POSITION, &query, place));
            }
        }
    }
    rows
}

/// A weekly SEO reading (ranks, volumes, authority) and a daily AI-visibility reading over the
/// last 30 days, with a site-health score each week.
fn weekly_readings(
    rng: &mut StdRng,
    product: &ProductRow,
    days: &[String],
) -> (Vec<SnapshotRow>, Vec<SnapshotRow>) {
    let mut ranks = Vec::new();
    let mut visibility = Vec::new();
    let domain = product
        .domain
        .clone()
        .unwrap_or_else(|| format!("{}.example", product.slug));
    let recent = days.len().saturating_sub(30);
    for (at, day) in days.iter().enumerate() {
        let weeks_left = (days.len() - 1 - at).is_multiple_of(7);
        if weeks_left {
            for (query, impressions, _, position) in QUERIES {
                let keyword = query.replace("{slug}", &product.slug);
                let place = (position * rng.random_range(0.9..1.2)).round().max(1.0);
                ranks.push(SnapshotRow {
                    detail: Some(format!("https://{domain}/")),
                    ..row(day, KEYWORD_POSITION, &keyword, place)
                });
                ranks.push(row(
                    day,
                    KEYWORD_VOLUME,
                    &keyword,
                    (impressions * 30.0).round(),
                ));
            }
            let size = 1.0 + at as f64 / days.len() as f64;
            ranks.push(row(day, DOMAIN_RANK, "", (900_000.0 / size).round()));
            ranks.push(row(day, ORGANIC_KEYWORDS, "", (140.0 * size).round()));
            ranks.push(row(day, ORGANIC_TRAFFIC, "", (1_800.0 * size).round()));
            let health = rng.random_range(72.0..92.0_f64).round();
            visibility.push(row(day, SITE_HEALTH, "", health));
        }
        if at >= recent {
            let mut scores = Vec::new();
            for (engine, around) in ENGINES {
                let score = (around * rng.random_range(0.8..1.2) * 10.0).round() / 10.0;
                visibility.push(row(day, AI_VISIBILITY, engine, score));
                scores.push(score);
            }
            let mean = scores.iter().sum::<f64>() / scores.len() as f64;
            visibility.push(row(day, AI_VISIBILITY, "", mean));
        }
    }
    (ranks, visibility)
}

/// The rank tracker's weekly checks (the same days as the SEO reading, the latest today): the
/// product's position and volume per tracked keyword, and the best competitor's position with
/// its name, as SE Ranking's runs store them. A keyword the product ranks nowhere for has no
/// position of its own that day.
fn tracker_checks(product: &ProductRow, days: &[String]) -> Vec<SnapshotRow> {
    let mut rows = Vec::new();
    let weekly = days.iter().rev().step_by(7).take(TRACKED_WEEKS);
    for (weeks_ago, day) in weekly.enumerate() {
        let drift = (weeks_ago / 3) as f64;
        for (keyword, ours, theirs, competitor, volume) in TRACKED_KEYWORDS {
            let keyword = keyword.replace("{slug}", &product.slug);
            if let Some(ours) = ours {
                rows.push(row(day, KEYWORD_POSITION, &keyword, ours + drift));
            }
            rows.push(row(day, KEYWORD_VOLUME, &keyword, *volume));
            rows.push(SnapshotRow {
                detail: Some((*competitor).to_owned()),
                ..row(day, COMPETITOR_POSITION, &keyword, theirs + drift)
            });
        }
    }
    rows
}
