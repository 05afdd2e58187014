//! What one sync pass read, normalized: the one shape every [`Source`](crate::Source) answers,
//! whatever its vendor. The server's sync run writes each part where it belongs (events and
//! revenue through ingestion, daily stage volumes and spend by replacing the days read).

use payback_domain::event::IncomingEvent;
use payback_domain::{Stage, Timestamp};

/// One sync pass's batch and the line the connection's status shows.
#[derive(Debug, Clone, Default)]
pub struct SyncOutput {
    /// Events in the ingestion schema; their `dedupe_id`s are the vendor's ids, so a re-sync
    /// stores nothing twice.
    pub events: Vec<IncomingEvent>,
    /// Daily stage volumes of sources that count rather than list (web analytics sessions).
    pub stage_days: Option<StageDaysRead>,
    /// Money movements that are not funnel steps of their own (a refund, a dispute).
    pub revenue: Vec<RevenueRow>,
    /// Ad spend, one entry per ad account read.
    pub spend: Vec<SpendRead>,
    /// Dated metric values that are not events (search clicks per query, followers, ...).
    pub snapshots: Vec<Snapshot>,
    /// Recent posts of an organic social source, with their engagement so far.
    pub posts: Vec<SocialPost>,
    pub detail: String,
}

/// The UTC days (inclusive, `YYYY-MM-DD`) a part of the batch covers: everything stored for
/// them before is replaced by what the pass read, so a day the vendor restated, or a campaign
/// that is gone, is right after the next pass.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DayRange {
    pub first: String,
    pub last: String,
}

impl DayRange {
    /// The UTC days of `[from, to)`'s instants.
    pub fn of_window(window: crate::SyncWindow) -> Self {
        // `to` is exclusive: a window ending at midnight ends with the day before.
        let last = if window.to.millis() > window.from.millis() {
            window.to.minus_millis(1)
        } else {
            window.from
        };
        Self {
            first: window.from.day(),
            last: last.day(),
        }
    }

    pub fn contains(&self, day: &str) -> bool {
        self.first.as_str() <= day && day <= self.last.as_str()
    }
}

/// A stage's volume on one day, as a source counts it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StageDay {
    pub day: String,
    pub stage: Stage,
    /// The channel (a word of `payback_domain::channel`) the volume came through, or `''` for a
    /// source that counts no channel.
    pub channel: String,
    pub volume: i64,
}

/// The daily stage volumes of the days read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StageDaysRead {
    pub days: DayRange,
    pub rows: Vec<StageDay>,
}

/// One money movement: positive for a sale, negative when money goes back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RevenueRow {
    /// The vendor's id of the movement; unique per source, so a re-read stores it once.
    pub id: String,
    pub occurred_at: Timestamp,
    /// `converted` or `payment`: the stages whose valued events are revenue.
    pub stage: Stage,
    pub amount_cents: i64,
    pub currency: String,
    pub user_id: Option<String>,
    pub email: Option<String>,
    /// What the movement is, e.g. `refund`.
    pub name: Option<String>,
}

impl RevenueRow {
    /// The movement in the ingestion schema. Revenue is booked by the fold from valued events,
    /// which is where a payer's email finds its identity and the row its last touch; writing
    /// it any other way would skip both.
    pub fn into_event(self) -> IncomingEvent {
        IncomingEvent {
            dedupe_id: self.id,
            stage: self.stage.as_str().to_owned(),
            name: self.name,
            occurred_at: Some(self.occurred_at.to_rfc3339()),
            anonymous_id: None,
            user_id: self.user_id,
            email: self.email,
            value: Some(self.amount_cents),
            currency: Some(self.currency),
            attribution: None,
            properties: None,
        }
    }
}

/// One ad account's spend over the days a pass read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpendRead {
    /// The vendor's id of the ad account; its rows of these days are replaced.
    pub ad_account: String,
    pub days: DayRange,
    pub rows: Vec<SpendRow>,
    /// Keyword grain: a breakdown of `rows`' spend, never summed with them (a network that
    /// reports keywords apart from ads, e.g. Google Ads' keyword_view beside ad_group_ad);
    /// `rows` then carry an empty keyword_id. Their `ad_id` is empty. Replaced for the same
    /// days as `rows`, in the same transaction.
    pub keywords: Vec<SpendRow>,
}

/// One day of spend at the finest grain the network reports (campaign, ad group, keyword, ad);
/// an empty id means the network has no such level for this row. Rows of one read never
/// overlap, so spend at every level sums to its campaign's.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SpendRow {
    pub day: String,
    /// `google`, `meta`, `linkedin`: the kind table's network of the source.
    pub network: String,
    /// `paid_google`, `paid_meta`, `paid_linkedin`: the kind table's channel of the source.
    pub channel: String,
    pub campaign_id: String,
    pub campaign_name: Option<String>,
    pub ad_group_id: String,
    pub ad_group_name: Option<String>,
    pub keyword_id: String,
    pub keyword: Option<String>,
    pub ad_id: String,
    pub ad_name: Option<String>,
    pub spend_cents: i64,
    pub impressions: i64,
    pub clicks: i64,
    /// The ad account's currency, as the network reports it.
    pub currency: String,
}

/// A dated metric value with a dimension (clicks of one search query, followers of a page),
/// stored under the connection's kind; a later read of the same (day, metric, dimension)
/// replaces the value.
#[derive(Debug, Clone, PartialEq)]
pub struct Snapshot {
    /// `YYYY-MM-DD`, UTC.
    pub day: String,
    /// A word of `payback_domain::snapshot_metric` (e.g. `SEARCH_CLICKS`), whose docs say what
    /// the dimension is and how a day's value is read; any other word refuses the batch.
    pub metric: String,
    /// What the value is about (`''` for the whole property). Each (day, metric, dimension)
    /// once per read.
    pub dimension: String,
    /// A finite number.
    pub value: f64,
    /// Text that goes with the value where its metric's docs name one (a keyword position's
    /// ranking URL); `None` otherwise.
    pub detail: Option<String>,
}

/// A post of an organic social page or account as one read saw it. Stored per (product, source
/// kind, `id`): a later read of the same post replaces everything but its identity, so the
/// engagement is always the latest lifetime count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SocialPost {
    /// The network's id of the post; unique per source, each once per read.
    pub id: String,
    /// `facebook` or `instagram`: the network the post is on, the same word as the network's
    /// snapshot dimension.
    pub network: String,
    pub published_at: Timestamp,
    /// The post's public URL, when the network gives one.
    pub permalink: Option<String>,
    /// The first [`SocialPost::TEXT_CHARS`] characters of the message or caption.
    pub text: Option<String>,
    /// The network's word for what the post is (`IMAGE`, `VIDEO`, `CAROUSEL_ALBUM` on
    /// Instagram); none when the network does not say.
    pub media_type: Option<String>,
    /// Lifetime engagement as the network counts it (reactions, comments and shares on
    /// Facebook; likes and comments on Instagram); never negative.
    pub engagement: i64,
}

impl SocialPost {
    /// How much of a post's text is kept: enough to recognize it in a report.
    pub const TEXT_CHARS: usize = 280;

    /// `text` as stored: its first [`SocialPost::TEXT_CHARS`] characters without NUL characters
    /// (which PostgreSQL's text refuses); none when nothing is left.
    pub fn excerpt(text: &str) -> Option<String> {
        let kept: String = text
            .chars()
            .filter(|c| *c != '\0')
            .take(Self::TEXT_CHARS)
            .collect();
        (!kept.trim().is_empty()).then_some(kept)
    }
}

#[cfg(test)]
mod tests {
    use payback_domain::DAY_MS;

    use super::*;
    use crate::SyncWindow;

    #[test]
    fn a_window_covers_the_days_of_its_instants() {
        let now = Timestamp::from_millis(1_795_262_400_000); // 2026-11-21T12:00:00Z
        let window = SyncWindow {
            from: now.minus_millis(7 * DAY_MS),
            to: now,
        };
        let days = DayRange::of_window(window);
        assert_eq!(days.first, "2026-11-14");
        assert_eq!(days.last, "2026-11-21");
        assert!(days.contains("2026-11-14") && days.contains("2026-11-21"));
        assert!(!days.contains("2026-11-13") && !days.contains("2026-11-22"));
        // A window ending at midnight does not reach into the day it ends at.
        let midnight = SyncWindow {
            from: now.start_of_day().minus_millis(DAY_MS),
            to: now.start_of_day(),
        };
        let days = DayRange::of_window(midnight);
        assert_eq!(
            (days.first.as_str(), days.last.as_str()),
            ("2026-11-20", "2026-11-20")
        );
    }

    #[test]
    fn a_post_keeps_the_first_280_characters_of_its_text() {
        let long = "é".repeat(300);
        let kept = SocialPost::excerpt(&long).unwrap();
        assert_eq!(kept.chars().count(), 280);
        assert_eq!(kept.len(), 560, "characters, not bytes");
        assert_eq!(
            SocialPost::excerpt("Sale\0 today").as_deref(),
            Some("Sale today")
        );
        assert_eq!(SocialPost::excerpt("  \n"), None);
        assert_eq!(SocialPost::excerpt(""), None);
    }

    #[test]
    fn a_revenue_row_is_a_valued_event_that_ingestion_accepts() {
        let now = Timestamp::from_millis(1_795_262_400_000);
        let refund = RevenueRow {
            id: "re_1".to_owned(),
            occurred_at: now.minus_millis(DAY_MS),
            stage: Stage::Payment,
            amount_cents: -1_250,
            currency: "USD".to_owned(),
            user_id: None,
            email: Some("Buyer@Example.com".to_owned()),
            name: Some("refund".to_owned()),
        };
        let valid = refund.into_event().validate(now, "USD").unwrap();
        assert_eq!(valid.dedupe_id, "re_1");
        assert_eq!(valid.stage, Stage::Payment);
        assert_eq!(valid.value_cents, Some(-1_250));
        assert_eq!(valid.occurred_at, now.minus_millis(DAY_MS));
        assert_eq!(valid.email.as_deref(), Some("buyer@example.com"));
        assert!(valid.is_revenue() && !valid.acquires_customer());
    }
}
