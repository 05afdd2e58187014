//! Recent posts: stored as the batch's [`SocialPost`]s (what a report lists), and each post's
//! engagement as a snapshot detail beside the daily figures ([`PostFigure`]).
//!
//! Facebook (Graph API, Page Post): `GET /{page_id}/posts?fields=id,created_time,message,
//! permalink_url,shares,reactions.summary(total_count).limit(0),comments.summary(total_count)
//! .limit(0)&since&until&limit=25`; a post's engagement is its reactions, comments and shares.
//! Page posts carry no media type since v3.3 retired `type`, so theirs is none. Instagram (IG
//! Media): `GET /{ig_id}/media?fields=id,timestamp,caption,permalink,media_type,like_count,
//! comments_count&limit=25`; a media object's engagement is its likes and comments, its type
//! `IMAGE`, `VIDEO` or `CAROUSEL_ALBUM`. One page of each (the most recent [`RECENT`]): these
//! are the recent posts a report shows, not an archive. Counts are lifetime totals, so a later
//! read replaces them (the stored post and its snapshot, on the UTC day it was published).

use std::collections::BTreeSet;

use payback_domain::Timestamp;
use serde::Deserialize;

use crate::ConnectorError;
use crate::batch::{DayRange, SocialPost};
use crate::graph::client::GraphClient;
use crate::graph::wire::{self, Paged};

use super::insights::next_day;
use super::network::{FACEBOOK, INSTAGRAM};

/// Posts read per network and run.
pub(crate) const RECENT: usize = 25;

const FACEBOOK_FIELDS: &str = "id,created_time,message,permalink_url,shares,\
                               reactions.summary(total_count).limit(0),\
                               comments.summary(total_count).limit(0)";
const INSTAGRAM_FIELDS: &str =
    "id,timestamp,caption,permalink,media_type,like_count,comments_count";

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
    pub message: Option<String>,
    pub permalink_url: Option<String>,
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
    pub caption: Option<String>,
    pub permalink: Option<String>,
    pub media_type: Option<String>,
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
) -> Result<Vec<SocialPost>, ConnectorError> {
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
    Ok(facebook_posts(page.data, days))
}

pub(crate) fn facebook_posts(posts: Vec<FacebookPost>, days: &DayRange) -> Vec<SocialPost> {
    let read = posts.into_iter().filter_map(|post| {
        let summary = |part: Option<Summarized>| {
            part.and_then(|part| part.summary)
                .and_then(|summary| summary.total_count)
                .unwrap_or(0)
        };
        let engagement = summary(post.reactions)
            + summary(post.comments)
            + post.shares.and_then(|shares| shares.count).unwrap_or(0);
        Some(SocialPost {
            id: post.id?,
            network: FACEBOOK.to_owned(),
            published_at: published_at(post.created_time.as_deref()?)?,
            permalink: post.permalink_url.filter(|url| !url.is_empty()),
            text: post.message.as_deref().and_then(SocialPost::excerpt),
            media_type: None,
            engagement: engagement.max(0),
        })
    });
    recent_within(read, days)
}

/// The Instagram account's recent media published within `days`.
pub(crate) async fn instagram(
    client: &GraphClient,
    instagram_id: &str,
    days: &DayRange,
) -> Result<Vec<SocialPost>, ConnectorError> {
    let page: Paged<InstagramMedia> = client
        .get(
            &format!("{instagram_id}/media"),
            &[
                ("fields", INSTAGRAM_FIELDS.to_owned()),
                ("limit", RECENT.to_string()),
            ],
        )
        .await?;
    Ok(instagram_posts(page.data, days))
}

pub(crate) fn instagram_posts(media: Vec<InstagramMedia>, days: &DayRange) -> Vec<SocialPost> {
    let read = media.into_iter().filter_map(|item| {
        let engagement = item.like_count.unwrap_or(0) + item.comments_count.unwrap_or(0);
        Some(SocialPost {
            id: item.id?,
            network: INSTAGRAM.to_owned(),
            published_at: published_at(item.timestamp.as_deref()?)?,
            permalink: item.permalink.filter(|url| !url.is_empty()),
            text: item.caption.as_deref().and_then(SocialPost::excerpt),
            media_type: item.media_type.filter(|kind| !kind.is_empty()),
            engagement: engagement.max(0),
        })
    });
    recent_within(read, days)
}

/// The posts published on `days`, each id once (the first read), at most [`RECENT`]. An id
/// that is empty, or holds a NUL character, names nothing the store can key.
fn recent_within(read: impl Iterator<Item = SocialPost>, days: &DayRange) -> Vec<SocialPost> {
    let mut seen = BTreeSet::new();
    read.filter(|post| {
        !post.id.is_empty()
            && !post.id.contains('\0')
            && days.contains(&post.published_at.day())
            && seen.insert(post.id.clone())
    })
    .take(RECENT)
    .collect()
}

/// A post's engagement as the snapshot detail of the day it was published.
pub(crate) fn figure(post: &SocialPost) -> PostFigure {
    PostFigure {
        id: post.id.clone(),
        day: post.published_at.day(),
        engagement: post.engagement as f64,
    }
}

/// Meta's times, `2026-11-20T10:00:00+0000`: ISO 8601 with a basic offset, which RFC 3339
/// writes `+00:00`. An RFC 3339 time is taken as it is.
fn published_at(time: &str) -> Option<Timestamp> {
    Timestamp::parse_rfc3339(time).or_else(|| {
        let split = time.len().checked_sub(5)?;
        let (clock, offset) = (time.get(..split)?, time.get(split..)?);
        let (sign, digits) = offset.split_at_checked(1)?;
        if !matches!(sign, "+" | "-") || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        Timestamp::parse_rfc3339(&format!("{clock}{sign}{}:{}", &digits[..2], &digits[2..]))
    })
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

    fn at(text: &str) -> Timestamp {
        Timestamp::parse_rfc3339(text).unwrap()
    }

    #[test]
    fn meta_times_read_with_their_basic_offset() {
        assert_eq!(
            published_at("2026-11-20T10:00:00+0000"),
            Some(at("2026-11-20T10:00:00Z"))
        );
        assert_eq!(
            published_at("2026-11-20T23:30:00-0130"),
            Some(at("2026-11-21T01:00:00Z"))
        );
        assert_eq!(
            published_at("2026-11-20T10:00:00Z"),
            Some(at("2026-11-20T10:00:00Z"))
        );
        assert_eq!(published_at("2026-11-20"), None);
        assert_eq!(published_at("2026-11-20T10:00:00+00x0"), None);
        assert_eq!(published_at("é"), None);
    }

    #[test]
    fn facebook_engagement_is_reactions_comments_and_shares() {
        let page: Paged<FacebookPost> = serde_json::from_str(
            r#"{"data": [
                {"id": "101_555", "created_time": "2026-11-20T10:00:00+0000", "shares": {"count": 3},
                 "message": "Black Friday is here", "permalink_url": "https://www.facebook.com/101/posts/555",
                 "reactions": {"data": [], "summary": {"total_count": 10, "viewer_reaction": "NONE"}},
                 "comments": {"data": [], "summary": {"order": "ranked", "total_count": 2, "can_comment": true}}},
                {"id": "101_556", "created_time": "2026-11-21T23:59:59+0000"},
                {"id": "101_555", "created_time": "2026-11-20T10:00:00+0000", "shares": {"count": 9}},
                {"id": "101_400", "created_time": "2026-10-01T10:00:00+0000", "shares": {"count": 50}}
              ],
              "paging": {"cursors": {"before": "a", "after": "b"}, "next": "https://graph.facebook.com/..."}}"#,
        )
        .unwrap();
        let posts = facebook_posts(page.data, &days());
        assert_eq!(
            posts,
            [
                SocialPost {
                    id: "101_555".into(),
                    network: "facebook".into(),
                    published_at: at("2026-11-20T10:00:00Z"),
                    permalink: Some("https://www.facebook.com/101/posts/555".into()),
                    text: Some("Black Friday is here".into()),
                    media_type: None,
                    engagement: 15,
                },
                SocialPost {
                    id: "101_556".into(),
                    network: "facebook".into(),
                    published_at: at("2026-11-21T23:59:59Z"),
                    permalink: None,
                    text: None,
                    media_type: None,
                    engagement: 0,
                },
            ]
        );
        assert_eq!(
            figure(&posts[0]),
            PostFigure {
                id: "101_555".into(),
                day: "2026-11-20".into(),
                engagement: 15.0
            }
        );
    }

    #[test]
    fn instagram_engagement_is_likes_and_comments() {
        let caption = format!("Behind the scenes {}", "#".repeat(400));
        let body = serde_json::json!({"data": [
            {"id": "17900000000000001", "timestamp": "2026-11-19T08:30:00+0000", "like_count": 40,
             "comments_count": 5, "caption": caption, "media_type": "CAROUSEL_ALBUM",
             "permalink": "https://www.instagram.com/p/abc/"},
            {"id": "17900000000000002", "timestamp": "2026-11-01T08:30:00+0000", "like_count": 9},
            {"timestamp": "2026-11-19T08:30:00+0000", "like_count": 1},
            {"id": "", "timestamp": "2026-11-19T08:30:00+0000", "like_count": 1}
        ]});
        let page: Paged<InstagramMedia> = serde_json::from_value(body).unwrap();
        let posts = instagram_posts(page.data, &days());
        assert_eq!(posts.len(), 1, "{posts:?}");
        let post = &posts[0];
        assert_eq!(
            (post.id.as_str(), post.network.as_str(), post.engagement),
            ("17900000000000001", "instagram", 45)
        );
        assert_eq!(post.published_at, at("2026-11-19T08:30:00Z"));
        assert_eq!(
            post.permalink.as_deref(),
            Some("https://www.instagram.com/p/abc/")
        );
        assert_eq!(post.media_type.as_deref(), Some("CAROUSEL_ALBUM"));
        let text = post.text.as_deref().unwrap();
        assert_eq!(text.chars().count(), SocialPost::TEXT_CHARS);
        assert!(text.starts_with("Behind the scenes ###"), "{text}");
    }

    #[test]
    fn at_most_the_recent_posts_are_kept() {
        let media = (0..40)
            .map(|n| InstagramMedia {
                id: Some(format!("179{n:03}")),
                timestamp: Some("2026-11-19T08:30:00+0000".into()),
                like_count: Some(n),
                ..InstagramMedia::default()
            })
            .collect();
        let posts = instagram_posts(media, &days());
        assert_eq!(posts.len(), RECENT);
        assert_eq!(posts[0].id, "179000");
        assert_eq!(posts[RECENT - 1].id, format!("179{:03}", RECENT - 1));
    }
}
