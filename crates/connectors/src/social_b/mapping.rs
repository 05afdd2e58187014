//! What one run read, as the batch's parts, in `payback_domain::snapshot_metric`'s words and
//! at the dimensions `social_a` uses for a network: each figure at `''` (the kind's whole, what
//! the timeseries sums over sources) and at [`NETWORK`] (the social report's row for X).
//!
//! - `social_followers`: the account's `followers_count`, on the run's day (the window's last).
//! - `social_impressions` and `social_engagement`: per UTC day the window's posts were
//!   published, the sum of their `impression_count`, and of their likes, replies, reposts and
//!   quotes. Every day of the window is written, 0 without posts, so a post deleted since the
//!   last read leaves no stale figure behind (the batch writer upserts, it never clears).
//! - posts: each post of the window as a [`SocialPost`] on network [`NETWORK`], its URL the
//!   public `https://x.com/{username}/status/{id}`.

use std::collections::BTreeMap;

use payback_domain::snapshot_metric::{SOCIAL_ENGAGEMENT, SOCIAL_FOLLOWERS, SOCIAL_IMPRESSIONS};
use payback_domain::{DAY_MS, Timestamp};

use super::wire::Tweet;
use crate::batch::{DayRange, Snapshot, SocialPost};

/// The network word of X: the snapshot dimension and the posts' `network`.
pub const NETWORK: &str = "x";

/// One post of the window, read.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Post {
    pub id: String,
    pub published_at: Timestamp,
    pub text: Option<String>,
    pub impressions: i64,
    pub engagement: i64,
}

/// The posts of `tweets` published inside `[from, to)`, and how many were outside or carried
/// no readable `created_at` (those are not counted anywhere).
pub(crate) fn posts_within(
    tweets: Vec<Tweet>,
    from: Timestamp,
    to: Timestamp,
) -> (Vec<Post>, usize) {
    let mut kept = Vec::new();
    let mut left_out = 0;
    for tweet in tweets {
        let at = tweet
            .created_at
            .as_deref()
            .and_then(Timestamp::parse_rfc3339);
        match at {
            Some(at) if from <= at && at < to => kept.push(Post {
                impressions: tweet.public_metrics.impression_count.max(0),
                engagement: tweet.public_metrics.engagement(),
                id: tweet.id,
                published_at: at,
                text: tweet.text,
            }),
            _ => left_out += 1,
        }
    }
    (kept, left_out)
}

/// Impressions and engagement per publish day, every day of `days` present (0 without posts).
pub(crate) fn per_day(posts: &[Post], days: &DayRange) -> BTreeMap<String, (i64, i64)> {
    let mut sums: BTreeMap<String, (i64, i64)> = BTreeMap::new();
    if let (Some(first), Some(last)) = (
        Timestamp::parse_day(&days.first),
        Timestamp::parse_day(&days.last),
    ) {
        let mut day = first;
        while day <= last {
            sums.insert(day.day(), (0, 0));
            day = day.plus_millis(DAY_MS);
        }
    }
    for post in posts {
        let sum = sums.entry(post.published_at.day()).or_default();
        sum.0 += post.impressions;
        sum.1 += post.engagement;
    }
    sums
}

/// The snapshots of one run: the days' sums and the followers count on `followers_day`.
pub(crate) fn snapshots(
    days: &BTreeMap<String, (i64, i64)>,
    followers_day: &str,
    followers: Option<i64>,
) -> Vec<Snapshot> {
    let mut out = Vec::new();
    for (day, (impressions, engagement)) in days {
        push_both(&mut out, day, SOCIAL_IMPRESSIONS, *impressions);
        push_both(&mut out, day, SOCIAL_ENGAGEMENT, *engagement);
    }
    if let Some(followers) = followers {
        push_both(&mut out, followers_day, SOCIAL_FOLLOWERS, followers.max(0));
    }
    out
}

/// The posts as the batch stores them.
pub(crate) fn social_posts(posts: &[Post], username: &str) -> Vec<SocialPost> {
    posts
        .iter()
        .map(|post| SocialPost {
            id: post.id.clone(),
            network: NETWORK.to_owned(),
            published_at: post.published_at,
            permalink: Some(format!("https://x.com/{username}/status/{}", post.id)),
            text: post.text.as_deref().and_then(SocialPost::excerpt),
            media_type: None,
            engagement: post.engagement,
        })
        .collect()
}

/// The value at `''` (the kind's whole) and at the network's dimension: X is this kind's only
/// network, so both are the same number.
fn push_both(out: &mut Vec<Snapshot>, day: &str, metric: &str, value: i64) {
    for dimension in ["", NETWORK] {
        out.push(Snapshot {
            day: day.to_owned(),
            metric: metric.to_owned(),
            dimension: dimension.to_owned(),
            value: value as f64,
            detail: None,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::social_b::wire::TweetMetrics;

    fn tweet(id: &str, created_at: Option<&str>, impressions: i64, likes: i64) -> Tweet {
        Tweet {
            id: id.to_owned(),
            text: Some(format!("post {id}")),
            created_at: created_at.map(str::to_owned),
            public_metrics: TweetMetrics {
                retweet_count: 1,
                reply_count: 2,
                like_count: likes,
                quote_count: 3,
                impression_count: impressions,
            },
        }
    }

    #[test]
    fn posts_of_the_window_sum_by_their_publish_day() {
        let from = Timestamp::parse_day("2026-11-19").unwrap();
        let to = Timestamp::parse_day("2026-11-21").unwrap();
        let (posts, left_out) = posts_within(
            vec![
                tweet("3", Some("2026-11-20T23:59:59.000Z"), 100, 10),
                tweet("2", Some("2026-11-20T08:00:00.000Z"), 50, 4),
                tweet("1", Some("2026-11-19T00:00:00.000Z"), 7, 0),
                tweet("0", Some("2026-11-18T23:59:59.000Z"), 1_000, 100),
                tweet("9", None, 1_000, 100),
            ],
            from,
            to,
        );
        assert_eq!((posts.len(), left_out), (3, 2));
        let days = per_day(
            &posts,
            &DayRange {
                first: "2026-11-18".into(),
                last: "2026-11-20".into(),
            },
        );
        assert_eq!(
            days.into_iter().collect::<Vec<_>>(),
            [
                ("2026-11-18".to_owned(), (0, 0)),
                ("2026-11-19".to_owned(), (7, 6)),
                ("2026-11-20".to_owned(), (150, 26)),
            ]
        );
    }

    #[test]
    fn each_figure_lands_at_the_whole_and_at_x() {
        let days = BTreeMap::from([("2026-11-20".to_owned(), (150, 26))]);
        let rows: Vec<(String, String, String, f64)> = snapshots(&days, "2026-11-21", Some(321))
            .into_iter()
            .map(|s| (s.day, s.metric, s.dimension, s.value))
            .collect();
        let row = |day: &str, metric: &str, dimension: &str, value: f64| {
            (
                day.to_owned(),
                metric.to_owned(),
                dimension.to_owned(),
                value,
            )
        };
        assert_eq!(
            rows,
            [
                row("2026-11-20", "social_impressions", "", 150.0),
                row("2026-11-20", "social_impressions", "x", 150.0),
                row("2026-11-20", "social_engagement", "", 26.0),
                row("2026-11-20", "social_engagement", "x", 26.0),
                row("2026-11-21", "social_followers", "", 321.0),
                row("2026-11-21", "social_followers", "x", 321.0),
            ]
        );
        assert!(snapshots(&BTreeMap::new(), "2026-11-21", None).is_empty());
    }

    #[test]
    fn posts_carry_their_public_url_on_network_x() {
        let post = Post {
            id: "1460323737035677698".into(),
            published_at: Timestamp::from_millis(1_795_000_000_000),
            text: Some("hello".into()),
            impressions: 10,
            engagement: 3,
        };
        let stored = social_posts(&[post], "shop");
        assert_eq!(stored[0].network, "x");
        assert_eq!(
            stored[0].permalink.as_deref(),
            Some("https://x.com/shop/status/1460323737035677698")
        );
        assert_eq!(
            (stored[0].engagement, stored[0].media_type.as_deref()),
            (3, None)
        );
    }
}
