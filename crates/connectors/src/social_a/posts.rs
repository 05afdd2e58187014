//! Recent posts and their engagement, as details beside the daily figures.
//!
//! Facebook: `GET /{page_id}/posts?fields=id,created_time,shares,reactions.summary(total_count)
//! .limit(0),comments.summary(total_count).limit(0)&since&until&limit=25`; a post's engagement is
//! its reactions, comments and shares. Instagram: `GET /{ig_id}/media?fields=id,timestamp,
//! like_count,comments_count&limit=25`; a media object's engagement is its likes and comments.
//! One page of each (the most recent [`RECENT`]): these are the recent posts a report shows, not
//! an archive. Counts are lifetime totals, stored on the day the post was published (its UTC
//! date), so a later read updates them.

use serde::Deserialize;

use crate::ConnectorError;
use crate::batch::DayRange;
use crate::graph::client::GraphClient;
use crate::graph::wire::{self, Paged};

use super::insights::next_day;

/// Posts read per network and run.
pub(crate) const RECENT: usize = 25;

const FACEBOOK_FIELDS: &str = "id,created_time,shares,reactions.summary(total_count).limit(0),\
                               comments.summary(total_count).limit(0)";
const INSTAGRAM_FIELDS: &str = "id,timestamp,like_count,comments_count";

/// One post's engagement on the day it was published.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PostFigure {
    pub id: String,
    pub day: String,
    pub engagement: f64,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct FacebookPost {
    #[serde(deserialize_with = "wire::id")]
    pub id: Option<String>,
    pub created_time: Option<String>,
    pub shares: Option<Count>,
    pub reactions: Option<Summarized>,
    pub comments: Option<Summarized>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct Count {
    #[serde(deserialize_with = "wire::int")]
    pub count: Option<i64>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct Summarized {
    pub summary: Option<Summary>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct Summary {
    #[serde(deserialize_with = "wire::int")]
    pub total_count: Option<i64>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct InstagramMedia {
    #[serde(deserialize_with = "wire::id")]
    pub id: Option<String>,
    pub timestamp: Option<String>,
    #[serde(deserialize_with = "wire::int")]
    pub like_count: Option<i64>,
    #[serde(deserialize_with = "wire::int")]
    pub comments_count: Option<i64>,
}

/// The page's recent posts published within `days`.
pub(crate) async fn facebook(
    client: &GraphClient,
    page_id: &str,
    days: &DayRange,
) -> Result<Vec<PostFigure>, ConnectorError> {
    let page: Paged<FacebookPost> = client
        .get(
            &format!("{page_id}/posts"),
            &[
                ("fields", FACEBOOK_FIELDS.to_owned()),
                ("since", days.first.clone()),
                (
                    "until",
                    next_day(&days.last).unwrap_or_else(|| days.last.clone()),
                ),
                ("limit", RECENT.to_string()),
            ],
        )
        .await?;
    Ok(facebook_figures(page.data, days))
}

pub(crate) fn facebook_figures(posts: Vec<FacebookPost>, days: &DayRange) -> Vec<PostFigure> {
    posts
        .into_iter()
        .filter_map(|post| {
            let day = published_day(post.created_time.as_deref()?)?;
            if !days.contains(&day) {
                return None;
            }
            let summary = |part: Option<Summarized>| {
                part.and_then(|part| part.summary)
                    .and_then(|summary| summary.total_count)
                    .unwrap_or(0)
            };
            let engagement = summary(post.reactions)
                + summary(post.comments)
                + post.shares.and_then(|shares| shares.count).unwrap_or(0);
            Some(PostFigure {
                id: post.id.filter(|id| !id.is_empty())?,
                day,
                engagement: engagement.max(0) as f64,
            })
        })
        .take(RECENT)
        .collect()
}

/// The Instagram account's recent media published within `days`.
pub(crate) async fn instagram(
    client: &GraphClient,
    instagram_id: &str,
    days: &DayRange,
) -> Result<Vec<PostFigure>, ConnectorError> {
    let page: Paged<InstagramMedia> = client
        .get(
            &format!("{instagram_id}/media"),
            &[
                ("fields", INSTAGRAM_FIELDS.to_owned()),
                ("limit", RECENT.to_string()),
            ],
        )
        .await?;
    Ok(instagram_figures(page.data, days))
}

pub(crate) fn instagram_figures(media: Vec<InstagramMedia>, days: &DayRange) -> Vec<PostFigure> {
    media
        .into_iter()
        .filter_map(|item| {
            let day = published_day(item.timestamp.as_deref()?)?;
            if !days.contains(&day) {
                return None;
            }
            let engagement = item.like_count.unwrap_or(0) + item.comments_count.unwrap_or(0);
            Some(PostFigure {
                id: item.id.filter(|id| !id.is_empty())?,
                day,
                engagement: engagement.max(0) as f64,
            })
        })
        .take(RECENT)
        .collect()
}

/// The UTC day of Meta's `2026-11-20T10:00:00+0000` (Meta writes these times in UTC).
fn published_day(time: &str) -> Option<String> {
    let day = time.get(..10)?;
    payback_domain::Timestamp::parse_day(day).map(|at| at.day())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn days() -> DayRange {
        DayRange {
            first: "2026-11-14".into(),
            last: "2026-11-21".into(),
        }
    }

    #[test]
    fn facebook_engagement_is_reactions_comments_and_shares() {
        let page: Paged<FacebookPost> = serde_json::from_str(
            r#"{"data": [
                {"id": "101_555", "created_time": "2026-11-20T10:00:00+0000", "shares": {"count": 3},
                 "reactions": {"data": [], "summary": {"total_count": 10, "viewer_reaction": "NONE"}},
                 "comments": {"data": [], "summary": {"order": "ranked", "total_count": 2, "can_comment": true}}},
                {"id": "101_556", "created_time": "2026-11-21T23:59:59+0000"},
                {"id": "101_400", "created_time": "2026-10-01T10:00:00+0000", "shares": {"count": 50}}
              ],
              "paging": {"cursors": {"before": "a", "after": "b"}, "next": "https://graph.facebook.com/..."}}"#,
        )
        .unwrap();
        assert_eq!(
            facebook_figures(page.data, &days()),
            [
                PostFigure {
                    id: "101_555".into(),
                    day: "2026-11-20".into(),
                    engagement: 15.0
                },
                PostFigure {
                    id: "101_556".into(),
                    day: "2026-11-21".into(),
                    engagement: 0.0
                },
            ]
        );
    }

    #[test]
    fn instagram_engagement_is_likes_and_comments() {
        let page: Paged<InstagramMedia> = serde_json::from_str(
            r#"{"data": [
                {"id": "17900000000000001", "timestamp": "2026-11-19T08:30:00+0000", "like_count": 40, "comments_count": 5},
                {"id": "17900000000000002", "timestamp": "2026-11-01T08:30:00+0000", "like_count": 9},
                {"timestamp": "2026-11-19T08:30:00+0000", "like_count": 1}
            ]}"#,
        )
        .unwrap();
        assert_eq!(
            instagram_figures(page.data, &days()),
            [PostFigure {
                id: "17900000000000001".into(),
                day: "2026-11-19".into(),
                engagement: 45.0
            }]
        );
    }
}
