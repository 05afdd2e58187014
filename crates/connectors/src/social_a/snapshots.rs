//! The figures read, as snapshots in `payback_domain::snapshot_metric`'s words.
//!
//! The kind's whole figure of a day (dimension `''`, what reports sum over networks) is the
//! page's plus its Instagram account's: `social_impressions` from views, `social_engagement`
//! from post engagements and interactions, `social_followers` from the followers counts (read
//! now, so written on the window's last day, the day of the run). Each part is also written
//! under dimension `facebook` or `instagram`, and each recent post's engagement under the post's
//! id: details no total is made of. A day without any figure gets no snapshot (no data is not 0).

use std::collections::{BTreeMap, BTreeSet};

use payback_domain::snapshot_metric::{SOCIAL_ENGAGEMENT, SOCIAL_FOLLOWERS, SOCIAL_IMPRESSIONS};

use super::insights::DayFigures;
use super::network::{FACEBOOK, INSTAGRAM};
use super::posts::PostFigure;
use crate::batch::Snapshot;

/// Everything one run read.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Figures {
    pub facebook_days: BTreeMap<String, DayFigures>,
    pub instagram_days: BTreeMap<String, DayFigures>,
    /// The day the followers counts are written on, with each network's count.
    pub followers_day: Option<String>,
    pub facebook_followers: Option<i64>,
    pub instagram_followers: Option<i64>,
    pub posts: Vec<PostFigure>,
}

/// The snapshots of `figures`, each (day, metric, dimension) once.
pub(crate) fn snapshots(figures: &Figures) -> Vec<Snapshot> {
    let mut out = Vec::new();
    let days: BTreeSet<&String> = figures
        .facebook_days
        .keys()
        .chain(figures.instagram_days.keys())
        .collect();
    for day in days {
        let facebook = figures.facebook_days.get(day).copied().unwrap_or_default();
        let instagram = figures.instagram_days.get(day).copied().unwrap_or_default();
        push_parts(
            &mut out,
            day,
            SOCIAL_IMPRESSIONS,
            facebook.views,
            instagram.views,
        );
        push_parts(
            &mut out,
            day,
            SOCIAL_ENGAGEMENT,
            facebook.engagement,
            instagram.engagement,
        );
    }
    if let Some(day) = &figures.followers_day {
        push_parts(
            &mut out,
            day,
            SOCIAL_FOLLOWERS,
            figures.facebook_followers.map(|n| n as f64),
            figures.instagram_followers.map(|n| n as f64),
        );
    }
    let mut posted = BTreeSet::new();
    for post in &figures.posts {
        // A post id is unique, but a detail must never shadow a network's part.
        if post.id == FACEBOOK || post.id == INSTAGRAM || !posted.insert(post.id.as_str()) {
            continue;
        }
        out.push(snapshot(
            &post.day,
            SOCIAL_ENGAGEMENT,
            &post.id,
            post.engagement,
        ));
    }
    out
}

/// The whole (`''`) and each present part of one metric on one day.
fn push_parts(
    out: &mut Vec<Snapshot>,
    day: &str,
    metric: &str,
    facebook: Option<f64>,
    instagram: Option<f64>,
) {
    if facebook.is_none() && instagram.is_none() {
        return;
    }
    out.push(snapshot(
        day,
        metric,
        "",
        facebook.unwrap_or(0.0) + instagram.unwrap_or(0.0),
    ));
    if let Some(value) = facebook {
        out.push(snapshot(day, metric, FACEBOOK, value));
    }
    if let Some(value) = instagram {
        out.push(snapshot(day, metric, INSTAGRAM, value));
    }
}

fn snapshot(day: &str, metric: &str, dimension: &str, value: f64) -> Snapshot {
    Snapshot {
        day: day.to_owned(),
        metric: metric.to_owned(),
        dimension: dimension.to_owned(),
        value,
        detail: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn figure(views: Option<f64>, engagement: Option<f64>) -> DayFigures {
        DayFigures { views, engagement }
    }

    fn rows(snapshots: &[Snapshot]) -> Vec<(String, String, String, f64)> {
        snapshots
            .iter()
            .map(|s| {
                (
                    s.day.clone(),
                    s.metric.clone(),
                    s.dimension.clone(),
                    s.value,
                )
            })
            .collect()
    }

    fn row(day: &str, metric: &str, dimension: &str, value: f64) -> (String, String, String, f64) {
        (day.into(), metric.into(), dimension.into(), value)
    }

    #[test]
    fn a_day_is_the_page_plus_its_instagram_account_with_the_parts_as_details() {
        let figures = Figures {
            facebook_days: BTreeMap::from([
                ("2026-11-20".to_owned(), figure(Some(100.0), Some(7.0))),
                ("2026-11-21".to_owned(), figure(Some(50.0), None)),
            ]),
            instagram_days: BTreeMap::from([(
                "2026-11-20".to_owned(),
                figure(Some(400.0), Some(30.0)),
            )]),
            followers_day: Some("2026-11-21".into()),
            facebook_followers: Some(1_234),
            instagram_followers: Some(567),
            posts: vec![
                PostFigure {
                    id: "101_555".into(),
                    day: "2026-11-20".into(),
                    engagement: 15.0,
                },
                PostFigure {
                    id: "101_555".into(),
                    day: "2026-11-20".into(),
                    engagement: 15.0,
                },
            ],
        };
        assert_eq!(
            rows(&snapshots(&figures)),
            [
                row("2026-11-20", "social_impressions", "", 500.0),
                row("2026-11-20", "social_impressions", "facebook", 100.0),
                row("2026-11-20", "social_impressions", "instagram", 400.0),
                row("2026-11-20", "social_engagement", "", 37.0),
                row("2026-11-20", "social_engagement", "facebook", 7.0),
                row("2026-11-20", "social_engagement", "instagram", 30.0),
                row("2026-11-21", "social_impressions", "", 50.0),
                row("2026-11-21", "social_impressions", "facebook", 50.0),
                row("2026-11-21", "social_followers", "", 1_801.0),
                row("2026-11-21", "social_followers", "facebook", 1_234.0),
                row("2026-11-21", "social_followers", "instagram", 567.0),
                row("2026-11-20", "social_engagement", "101_555", 15.0),
            ]
        );
    }

    #[test]
    fn every_word_is_one_reports_read() {
        let figures = Figures {
            facebook_days: BTreeMap::from([(
                "2026-11-20".to_owned(),
                figure(Some(1.0), Some(1.0)),
            )]),
            followers_day: Some("2026-11-20".into()),
            facebook_followers: Some(3),
            ..Figures::default()
        };
        for snapshot in snapshots(&figures) {
            assert!(
                payback_domain::snapshot_metric::find(&snapshot.metric).is_some(),
                "{}",
                snapshot.metric
            );
        }
        assert!(snapshots(&Figures::default()).is_empty());
    }
}
