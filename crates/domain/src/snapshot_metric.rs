//! The words of snapshot metrics, once: what a source writes as a `Snapshot`'s `metric` (dated
//! values that are not events: search clicks per query, AI visibility, followers) and how each
//! report reads a day of it. A connector writes only these words (a sync naming another is
//! refused, so nothing is stored that no report reads); a metric that a new source brings is
//! one more row here.
//!
//! A snapshot is keyed by (product, source kind, day, metric, dimension); a re-read of the same
//! key replaces its value. `dimension` says what the value is about, `''` for the whole
//! property (the site, the page, the account).

/// Clicks from a search engine's results to the site, per search query (dimension: the query).
/// The queries partition the day: clicks the engine attributes to no query go under a dimension
/// of their own (e.g. `(other)`), never a `''` total beside the queries, which would count twice.
pub const SEARCH_CLICKS: &str = "search_clicks";
/// Impressions of the site in a search engine's results, per search query; partitioned as
/// [`SEARCH_CLICKS`].
pub const SEARCH_IMPRESSIONS: &str = "search_impressions";
/// The product's visibility in AI search answers, as the source scores it, at dimension `''`
/// (other dimensions, e.g. one per prompt or engine, are details no total is made of).
pub const AI_VISIBILITY: &str = "ai_visibility";
/// Impressions of a social network's page or account that day, at dimension `''` (per-post
/// values carry the post's id as dimension and are details).
pub const SOCIAL_IMPRESSIONS: &str = "social_impressions";
/// Engagements (reactions, comments, shares, clicks) of a social page that day, at `''`.
pub const SOCIAL_ENGAGEMENT: &str = "social_engagement";
/// Followers of a social page at the end of the day, at `''`.
pub const SOCIAL_FOLLOWERS: &str = "social_followers";
/// The average position of the site in a search engine's results for a query that day
/// (dimension: the query; 1 is the top). A detail: a window's position is the mean of the days'
/// weighted by their impressions, never a sum.
pub const SEARCH_POSITION: &str = "search_position";
/// The rank of the site for a keyword an SEO tool tracks or finds it ranking for, on the day it
/// was measured (dimension: the keyword; the snapshot's detail: the ranking URL, when given).
pub const KEYWORD_POSITION: &str = "keyword_position";
/// A keyword's monthly search volume as the SEO tool estimates it (dimension: the keyword).
pub const KEYWORD_VOLUME: &str = "keyword_volume";
/// The domain's authority score (Ahrefs' Domain Rating, 0-100), at `''`.
pub const DOMAIN_RATING: &str = "domain_rating";
/// Live backlinks to the domain, at `''`.
pub const BACKLINKS: &str = "backlinks";
/// Live referring domains of the domain, at `''`.
pub const REFERRING_DOMAINS: &str = "referring_domains";
/// The domain's rank by organic traffic in the tool's database (Semrush `Rk`), at `''`.
pub const DOMAIN_RANK: &str = "domain_rank";
/// Keywords the domain ranks for in the top organic results (Semrush `Or`), at `''`.
pub const ORGANIC_KEYWORDS: &str = "organic_keywords";
/// The domain's estimated monthly organic visits (Semrush `Ot`), at `''`.
pub const ORGANIC_TRAFFIC: &str = "organic_traffic";
/// The site audit's health score, 0-100, at `''`.
pub const SITE_HEALTH: &str = "site_health";

/// The best position among a project's competitors for one of its tracked keywords, per day
/// (dimension: the keyword; detail: that competitor's name): where a competitor outranks the
/// product, a keyword gap.
pub const COMPETITOR_POSITION: &str = "competitor_position";

/// Sessions that began on a landing page, per day, the dimension the page's path (without query
/// or trailing `/`): what a web or product analytics source counts for the landing pages'
/// `traffic` and discovery.
pub const LANDING_SESSIONS: &str = "landing_sessions";

/// Rage clicks (rapid repeated clicks on one spot) on a page that day, the dimension the page's
/// path as [`LANDING_SESSIONS`] spells it (queries of one path add up): the landing pages'
/// `friction`. Session-replay and product-analytics sources write it.
pub const RAGE_CLICKS: &str = "rage_clicks";
/// Dead clicks (clicks that changed nothing) on a page that day, per path as [`RAGE_CLICKS`].
pub const DEAD_CLICKS: &str = "dead_clicks";
/// JavaScript errors on a page that day, per path as [`RAGE_CLICKS`].
pub const JS_ERRORS: &str = "js_errors";
/// One sampled session recording, dated the day it started (dimension: the vendor's session
/// id; value: its duration in seconds; detail: the JSON of its playback pointer, `url`, `path`,
/// `started_at` and `signals`). A detail, never summed: `GET /products/{slug}/recordings`
/// lists them.
pub const RECORDING: &str = "recording";

/// How a report makes one value of a day out of a metric's snapshots.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DayValue {
    /// The sum over every dimension and every source (the dimensions partition the day).
    SumOfDimensions,
    /// The sum over sources of the value at dimension `''` (one whole figure per network).
    SumOfWholes,
    /// The value at dimension `''`; the mean when several sources report one; none when none
    /// does (no measurement is not a score of 0).
    Whole,
    /// No value of a day: each dimension is a detail read as it is (a query's position, a
    /// keyword's rank), never added up.
    Details,
}

/// One metric word and how a day of it is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SnapshotMetric {
    pub word: &'static str,
    pub day_value: DayValue,
}

/// Every metric a source may write. The timeseries reads the search, AI-visibility and social
/// words into its columns of the same name; the demand report reads the rest.
pub const METRICS: &[SnapshotMetric] = &[
    SnapshotMetric {
        word: COMPETITOR_POSITION,
        day_value: DayValue::Details,
    },
    SnapshotMetric {
        word: LANDING_SESSIONS,
        day_value: DayValue::SumOfDimensions,
    },
    SnapshotMetric {
        word: RAGE_CLICKS,
        day_value: DayValue::SumOfDimensions,
    },
    SnapshotMetric {
        word: DEAD_CLICKS,
        day_value: DayValue::SumOfDimensions,
    },
    SnapshotMetric {
        word: JS_ERRORS,
        day_value: DayValue::SumOfDimensions,
    },
    SnapshotMetric {
        word: RECORDING,
        day_value: DayValue::Details,
    },
    SnapshotMetric {
        word: SEARCH_CLICKS,
        day_value: DayValue::SumOfDimensions,
    },
    SnapshotMetric {
        word: SEARCH_IMPRESSIONS,
        day_value: DayValue::SumOfDimensions,
    },
    SnapshotMetric {
        word: AI_VISIBILITY,
        day_value: DayValue::Whole,
    },
    SnapshotMetric {
        word: SOCIAL_IMPRESSIONS,
        day_value: DayValue::SumOfWholes,
    },
    SnapshotMetric {
        word: SOCIAL_ENGAGEMENT,
        day_value: DayValue::SumOfWholes,
    },
    SnapshotMetric {
        word: SOCIAL_FOLLOWERS,
        day_value: DayValue::SumOfWholes,
    },
    SnapshotMetric {
        word: SEARCH_POSITION,
        day_value: DayValue::Details,
    },
    SnapshotMetric {
        word: KEYWORD_POSITION,
        day_value: DayValue::Details,
    },
    SnapshotMetric {
        word: KEYWORD_VOLUME,
        day_value: DayValue::Details,
    },
    SnapshotMetric {
        word: DOMAIN_RATING,
        day_value: DayValue::Whole,
    },
    SnapshotMetric {
        word: BACKLINKS,
        day_value: DayValue::Whole,
    },
    SnapshotMetric {
        word: REFERRING_DOMAINS,
        day_value: DayValue::Whole,
    },
    SnapshotMetric {
        word: DOMAIN_RANK,
        day_value: DayValue::Whole,
    },
    SnapshotMetric {
        word: ORGANIC_KEYWORDS,
        day_value: DayValue::Whole,
    },
    SnapshotMetric {
        word: ORGANIC_TRAFFIC,
        day_value: DayValue::Whole,
    },
    SnapshotMetric {
        word: SITE_HEALTH,
        day_value: DayValue::Whole,
    },
];

/// The metric of `word`, if a source may write it.
pub fn find(word: &str) -> Option<&'static SnapshotMetric> {
    METRICS.iter().find(|metric| metric.word == word)
}

/// The words, for messages naming what is accepted.
pub fn words() -> Vec<&'static str> {
    METRICS.iter().map(|metric| metric.word).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_word_is_listed_once_and_found() {
        let mut words = words();
        assert_eq!(words.len(), 22);
        words.sort_unstable();
        words.dedup();
        assert_eq!(words.len(), METRICS.len());
        for metric in METRICS {
            assert_eq!(find(metric.word), Some(metric));
        }
        assert_eq!(find("sessions"), None);
        assert_eq!(find(AI_VISIBILITY).unwrap().day_value, DayValue::Whole);
    }
}
