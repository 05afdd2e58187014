//! The organic social report (`GET /products/{slug}/social`): the audience (followers now and
//! how they moved over the window), each network's figures, the daily trend and the window's most
//! engaged posts, from what the organic social sources (`social_a`, `social_b`) stored: the
//! snapshots `social_impressions`, `social_engagement` and `social_followers` (each network's
//! part under its dimension) and the posts of `store::social_posts`. It reads no ingested events, so it
//! answers at once, without waiting for the fold.

use std::collections::BTreeMap;
use std::ops::Bound;

use payback_domain::Timestamp;
use payback_domain::snapshot_metric::{SOCIAL_ENGAGEMENT, SOCIAL_FOLLOWERS, SOCIAL_IMPRESSIONS};
use payback_domain::span::Span;
use payback_store::products::ProductRow;
use payback_store::snapshots::{self, DimensionValue};
use payback_store::social_posts::{self, SocialPostRow};
use serde::Serialize;
use utoipa::ToSchema;

use crate::error::ApiResult;
use crate::input::Window;
use crate::state::AppState;

/// The networks organic social sources write their parts under (the snapshot dimensions and
/// the posts' `network`), in the order the report lists them.
pub const NETWORKS: [&str; 3] = ["facebook", "instagram", "x"];

/// The most posts the report lists.
pub const MAX_POSTS: i64 = 20;

/// The organic social report of a product over a window.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct SocialReport {
    pub product_slug: String,
    /// The UTC days the report covers, ending today.
    pub window_days: i64,
    pub audience: Audience,
    /// One row per network with anything stored (figures in the window, a followers count, a
    /// post), in the order facebook, instagram, x; empty without any social source.
    pub networks: Vec<SocialNetworkRow>,
    /// One row per UTC day of the window, zero-filled, oldest first.
    pub trend: Vec<SocialDay>,
    /// The window's posts, most engaged first (ties newest first), at most 20.
    pub posts: Vec<SocialPostView>,
}

/// Followers at the end of the window and their change over it. A count is read once per sync
/// (followers as the network shows them that day), so each network's figure is its latest count
/// read on or before the window's last day; 0 when none was ever read.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct Audience {
    /// The sum over networks of each one's latest count.
    pub followers: i64,
    /// `followers` minus what they stood at when the window began: each network's latest count
    /// before the window's first day, or, for a network first read inside the window, its first
    /// count there (growth before the first read is unknown, never counted).
    pub followers_change: i64,
    /// The UTC day of the most recent count read on or before the window's last day
    /// (`YYYY-MM-DD`, possibly before the window); null when none was.
    pub as_of: Option<String>,
    /// The same per network, in the order of `networks`.
    pub by_network: Vec<NetworkFollowers>,
}

/// One network's followers at the end of the window and their change over it.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct NetworkFollowers {
    /// `facebook` (the page), `instagram` (its linked business account) or `x` (the X account).
    pub network: String,
    pub followers: i64,
    pub followers_change: i64,
}

/// One network's figures over the window.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct SocialNetworkRow {
    /// `facebook` (the page), `instagram` (its linked business account) or `x` (the X account).
    pub network: String,
    /// The latest followers count read on or before the window's last day (as in `audience`).
    pub followers: i64,
    /// Impressions over the window's days: the page's media views on Facebook, the account's
    /// views on Instagram, as the network counts them per day; on X, the `impression_count` of
    /// the posts published on those days.
    pub impressions: i64,
    /// Engagements over the window's days: post engagements on Facebook, interactions on
    /// Instagram; on X, likes, replies, reposts and quotes of the posts published on those days.
    pub engagement: i64,
    /// `engagement / impressions`; null without impressions.
    pub engagement_rate: Option<f64>,
}

/// One UTC day of every network together.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct SocialDay {
    /// `YYYY-MM-DD`.
    pub day: String,
    /// Impressions that day over every network (the timeseries' `social_impressions`).
    pub impressions: i64,
    /// Engagements that day over every network (the timeseries' `social_engagement`).
    pub engagement: i64,
    /// Followers at the end of that day over every network: each network's latest count read
    /// on or before it (a count stands until the next read), 0 before the first.
    pub followers: i64,
}

/// A post as the latest sync read it.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct SocialPostView {
    /// The network's id of the post.
    pub id: String,
    /// `facebook`, `instagram` or `x`.
    pub network: String,
    /// RFC 3339, UTC.
    pub published_at: String,
    /// The post's public URL; null when the network gave none.
    pub permalink: Option<String>,
    /// The first 280 characters of the message or caption; null without one.
    pub text: Option<String>,
    /// The network's word for the post (`IMAGE`, `VIDEO`, `CAROUSEL_ALBUM` on Instagram); null
    /// on Facebook, whose posts no longer say.
    pub media_type: Option<String>,
    /// Lifetime engagement at the latest read: reactions, comments and shares on Facebook;
    /// likes and comments on Instagram; likes, replies, reposts and quotes on X.
    pub engagement: i64,
}

/// The report of `product` over `window`'s days ending today.
pub async fn report(
    state: &AppState,
    product: &ProductRow,
    window: Window,
) -> ApiResult<SocialReport> {
    let span = window.span(state.clock.now());
    let (first_day, last_day) = (span.first_day(), span.last_day());
    let db = &state.store;
    let wholes = [SOCIAL_IMPRESSIONS, SOCIAL_ENGAGEMENT];
    let daily = snapshots::daily_values(db, &product.id, &first_day, &last_day, &wholes).await?;
    let parts = snapshots::dimension_days(
        db,
        &product.id,
        &[SOCIAL_IMPRESSIONS, SOCIAL_ENGAGEMENT, SOCIAL_FOLLOWERS],
        &NETWORKS,
        &first_day,
        &last_day,
    )
    .await?;
    let before =
        snapshots::latest_before(db, &product.id, SOCIAL_FOLLOWERS, &NETWORKS, &first_day).await?;
    let posts = social_posts::recent(db, &product.id, span.start, MAX_POSTS).await?;

    let followers = Followers::read(&parts, &before);
    let totals = |metric: &str, network: &str| -> i64 {
        count(
            parts
                .iter()
                .filter(|v| v.metric == metric && v.dimension == network)
                .map(|v| v.value)
                .sum(),
        )
    };
    let present: Vec<&str> = NETWORKS
        .into_iter()
        .filter(|network| {
            parts.iter().any(|v| v.dimension == *network)
                || before.iter().any(|v| v.dimension == *network)
                || posts.iter().any(|post| post.network == *network)
        })
        .collect();
    let networks = present
        .iter()
        .map(|network| {
            let impressions = totals(SOCIAL_IMPRESSIONS, network);
            let engagement = totals(SOCIAL_ENGAGEMENT, network);
            SocialNetworkRow {
                network: (*network).to_owned(),
                followers: followers.at_end(network),
                impressions,
                engagement,
                engagement_rate: (impressions > 0).then(|| engagement as f64 / impressions as f64),
            }
        })
        .collect();
    let by_network: Vec<NetworkFollowers> = present
        .iter()
        .map(|network| NetworkFollowers {
            network: (*network).to_owned(),
            followers: followers.at_end(network),
            followers_change: followers.change(network),
        })
        .collect();
    let audience = Audience {
        followers: by_network.iter().map(|n| n.followers).sum(),
        followers_change: by_network.iter().map(|n| n.followers_change).sum(),
        as_of: followers.as_of(),
        by_network,
    };
    Ok(SocialReport {
        product_slug: product.slug.clone(),
        window_days: window.days,
        audience,
        networks,
        trend: trend(span, &daily, &followers),
        posts: posts.into_iter().map(post_view).collect(),
    })
}

/// Each network's followers counts: the one standing when the window began and those read in
/// it, each by its day.
struct Followers {
    before: BTreeMap<String, (String, f64)>,
    read: BTreeMap<String, BTreeMap<String, f64>>,
}

impl Followers {
    fn read(parts: &[DimensionValue], before: &[DimensionValue]) -> Self {
        let mut read: BTreeMap<String, BTreeMap<String, f64>> = BTreeMap::new();
        for value in parts.iter().filter(|v| v.metric == SOCIAL_FOLLOWERS) {
            read.entry(value.dimension.clone())
                .or_default()
                .insert(value.day.clone(), value.value);
        }
        Self {
            before: before
                .iter()
                .map(|v| (v.dimension.clone(), (v.day.clone(), v.value)))
                .collect(),
            read,
        }
    }

    /// The network's latest count on or before `day` (a day of the window).
    fn on(&self, network: &str, day: &str) -> Option<f64> {
        self.read
            .get(network)
            .and_then(|days| {
                days.range::<str, _>((Bound::Unbounded, Bound::Included(day)))
                    .next_back()
            })
            .map(|(_, value)| *value)
            .or_else(|| self.before.get(network).map(|(_, value)| *value))
    }

    /// The network's latest count on or before the window's last day, with its day.
    fn latest(&self, network: &str) -> Option<(&str, f64)> {
        self.read
            .get(network)
            .and_then(|days| days.iter().next_back())
            .map(|(day, value)| (day.as_str(), *value))
            .or_else(|| {
                self.before
                    .get(network)
                    .map(|(day, value)| (day.as_str(), *value))
            })
    }

    fn at_end(&self, network: &str) -> i64 {
        self.latest(network).map_or(0, |(_, value)| count(value))
    }

    fn change(&self, network: &str) -> i64 {
        let start = self
            .before
            .get(network)
            .map(|(_, value)| *value)
            .or_else(|| {
                self.read
                    .get(network)
                    .and_then(|days| days.values().next().copied())
            });
        start.map_or(0, |start| self.at_end(network) - count(start))
    }

    /// The day of the most recent count any network has.
    fn as_of(&self) -> Option<String> {
        NETWORKS
            .iter()
            .filter_map(|network| self.latest(network).map(|(day, _)| day))
            .max()
            .map(str::to_owned)
    }
}

fn trend(span: Span, daily: &[snapshots::DailyValue], followers: &Followers) -> Vec<SocialDay> {
    let mut values: BTreeMap<(&str, &str), f64> = BTreeMap::new();
    for value in daily {
        values.insert((value.day.as_str(), value.metric.as_str()), value.value);
    }
    let on = |day: &str, metric: &str| values.get(&(day, metric)).copied().map_or(0, count);
    span.each_day()
        .map(|day| SocialDay {
            impressions: on(&day, SOCIAL_IMPRESSIONS),
            engagement: on(&day, SOCIAL_ENGAGEMENT),
            followers: NETWORKS
                .iter()
                .filter_map(|network| followers.on(network, &day))
                .map(count)
                .sum(),
            day,
        })
        .collect()
}

fn post_view(post: SocialPostRow) -> SocialPostView {
    SocialPostView {
        id: post.post_id,
        network: post.network,
        published_at: Timestamp::from_millis(post.published_at).to_rfc3339(),
        permalink: post.permalink,
        text: post.text,
        media_type: post.media_type,
        engagement: post.engagement,
    }
}

/// Snapshot values are stored as numbers; the report's are counts.
fn count(value: f64) -> i64 {
    value.round() as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(day: &str, dimension: &str, value: f64) -> DimensionValue {
        DimensionValue {
            day: day.to_owned(),
            metric: SOCIAL_FOLLOWERS.to_owned(),
            dimension: dimension.to_owned(),
            value,
        }
    }

    #[test]
    fn a_count_stands_until_the_next_and_change_starts_where_the_window_does() {
        let read = [
            value("2026-11-10", "facebook", 1_200.0),
            value("2026-11-21", "facebook", 1_234.0),
            value("2026-11-12", "instagram", 500.0),
            value("2026-11-21", "instagram", 567.4),
        ];
        let before = [value("2026-10-01", "facebook", 1_100.0)];
        let followers = Followers::read(&read, &before);
        assert_eq!(followers.on("facebook", "2026-11-09"), Some(1_100.0));
        assert_eq!(followers.on("facebook", "2026-11-15"), Some(1_200.0));
        assert_eq!(followers.on("instagram", "2026-11-11"), None);
        assert_eq!(followers.on("instagram", "2026-11-20"), Some(500.0));
        assert_eq!(followers.at_end("instagram"), 567);
        // From the count standing before the window; from the first read inside it otherwise.
        assert_eq!(followers.change("facebook"), 134);
        assert_eq!(followers.change("instagram"), 67);
        assert_eq!(followers.as_of().as_deref(), Some("2026-11-21"));
    }

    #[test]
    fn a_count_before_the_window_is_the_whole_story_when_none_was_read_since() {
        let followers = Followers::read(&[], &[value("2026-09-30", "facebook", 90.0)]);
        assert_eq!(followers.at_end("facebook"), 90);
        assert_eq!(followers.change("facebook"), 0);
        assert_eq!(followers.as_of().as_deref(), Some("2026-09-30"));
        let nothing = Followers::read(&[], &[]);
        assert_eq!(
            (nothing.at_end("facebook"), nothing.change("facebook")),
            (0, 0)
        );
        assert_eq!(nothing.as_of(), None);
    }
}
