//! The demand report (`GET /products/{slug}/demand`): where demand comes from before it becomes
//! a visit. Search impressions and clicks down to customers (`funnel`), the daily trend (the
//! timeseries' own columns, so the two always agree), the window's search queries, each SEO
//! source's latest keyword ranks and authority figures, the keywords competitors rank better
//! for, AI-search visibility by engine, and which sources feed which part. Everything but the funnel's stage volumes comes from the
//! snapshots the demand sources stored (`payback_domain::snapshot_metric`); the kinds that feed
//! it are the kind table's rows with `demand` parts.

use std::collections::BTreeMap;

use payback_domain::Timestamp;
use payback_domain::snapshot_metric::{
    AI_VISIBILITY, BACKLINKS, COMPETITOR_POSITION, DOMAIN_RANK, DOMAIN_RATING, KEYWORD_POSITION,
    KEYWORD_VOLUME, ORGANIC_KEYWORDS, ORGANIC_TRAFFIC, REFERRING_DOMAINS, SITE_HEALTH,
};
use payback_domain::source_kind::KINDS;
use payback_store::connections;
use payback_store::products::ProductRow;
use payback_store::reports::demand::{self, SourceValue};
use serde::Serialize;
use utoipa::ToSchema;

use crate::error::ApiResult;
use crate::input::Window;
use crate::services::series::{self, TimeseriesRow};
use crate::state::AppState;

/// The most queries the report lists (most clicked first).
pub const MAX_QUERIES: usize = 100;
/// The most keyword ranks the report lists (best positions first).
pub const MAX_RANKS: usize = 100;
/// The most keyword gaps the report lists (widest first).
pub const MAX_GAPS: usize = 100;

/// The demand report of a product over a window.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct DemandReport {
    pub product_slug: String,
    /// The UTC days the report covers, ending today.
    pub window_days: i64,
    pub funnel: DemandFunnel,
    /// One row per UTC day of the window, zero-filled, oldest first.
    pub trend: Vec<DemandDay>,
    /// The window's search queries per source, most clicked first (ties: more impressions,
    /// then the query), at most 100.
    pub queries: Vec<SearchQuery>,
    /// Each SEO source's keywords of its latest reading, best position first, at most 100.
    pub ranks: Vec<KeywordRank>,
    /// Keywords a competitor ranked better for than the product at the source's latest
    /// reading: those the product ranked nowhere for first, then the widest gaps; at most 100.
    pub gaps: Vec<KeywordGap>,
    pub ai_visibility: AiVisibility,
    pub authority: Authority,
    /// One per kind that feeds the report, in the kind table's order, connected or not.
    pub sources: Vec<DemandSource>,
}

/// From search impressions to customers over the window.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct DemandFunnel {
    /// Search impressions over every search source (the timeseries' `search_impressions`).
    pub impressions: i64,
    /// Search clicks over every search source.
    pub clicks: i64,
    /// Stage volume of `visit` (the timeseries' `visits`, summed).
    pub visits: i64,
    /// Stage volume of `lead`.
    pub leads: i64,
    /// Identities acquired as customers.
    pub customers: i64,
}

/// One UTC day of the trend.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct DemandDay {
    /// `YYYY-MM-DD`.
    pub day: String,
    pub search_clicks: i64,
    pub search_impressions: i64,
    /// The day's AI-visibility score (0-100); null without a measurement.
    pub ai_visibility: Option<f64>,
}

/// One search query of one source over the window.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct SearchQuery {
    /// The query as the search engine reports it; `(other)` for clicks it names no query for.
    pub query: String,
    pub clicks: i64,
    pub impressions: i64,
    /// The average position over the window (1 is the top), each day weighted by its
    /// impressions; null when the engine gave none.
    pub position: Option<f64>,
    /// The source kind (`search_console`, `search_b`).
    pub source: String,
}

/// One keyword's rank in a source's latest reading.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct KeywordRank {
    pub keyword: String,
    /// The site's organic position for the keyword (1 is the top).
    pub position: f64,
    /// The source kind (`seo_a`, `seo_b`, `geo_a`).
    pub source: String,
    /// The keyword's monthly search volume as the source estimates it; null when not given.
    pub volume: Option<i64>,
    /// The ranking page; null when not given.
    pub url: Option<String>,
    /// The UTC day of the reading.
    pub as_of: String,
}

/// A keyword a competitor ranks better for.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct KeywordGap {
    pub keyword: String,
    /// The product's position that day (1 is the top); null when it ranked nowhere within the
    /// depth the source checks.
    pub position: Option<f64>,
    /// The best-ranked competitor, as the source names it.
    pub competitor: String,
    pub competitor_position: f64,
    /// The source kind (`geo_a`).
    pub source: String,
    /// The keyword's monthly search volume as the source estimates it; null when not given.
    pub volume: Option<i64>,
    /// The UTC day of the reading.
    pub as_of: String,
}

/// AI-search visibility at its latest reading.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct AiVisibility {
    /// The mean of the engines' visibility (0-100) on the latest day measured; null without one.
    pub score: Option<f64>,
    /// Each engine's visibility on its latest day measured, by engine name.
    pub engines: Vec<EngineVisibility>,
    /// The site audit's health score (0-100) at its latest reading; null without one.
    pub site_health: Option<f64>,
}

/// One AI engine's visibility.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct EngineVisibility {
    /// The engine's base name as the source reports it (e.g. `chatgpt`).
    pub engine: String,
    /// Share of the tracked prompts whose answers mention the product, 0-100.
    pub visibility: f64,
    /// The UTC day measured.
    pub as_of: String,
}

/// The domain's authority and organic reach at their latest readings; each null without a
/// source that measures it.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct Authority {
    /// Domain Rating, 0-100.
    pub domain_rating: Option<f64>,
    /// Live backlinks.
    pub backlinks: Option<i64>,
    /// Live referring domains.
    pub referring_domains: Option<i64>,
    /// The domain's rank by organic traffic in the SEO tool's database.
    pub rank: Option<i64>,
    /// Keywords the domain ranks for in the top organic results.
    pub organic_keywords: Option<i64>,
    /// Estimated monthly organic visits.
    pub organic_traffic: Option<i64>,
}

/// A kind that feeds the report, and whether this product has it.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct DemandSource {
    /// The kind's wire word.
    pub kind: String,
    /// Whether the product has a connection of this kind.
    pub connected: bool,
    /// RFC 3339 time of the connection's last successful run; null before one or when not
    /// connected.
    pub last_sync_at: Option<String>,
    /// The report's parts this source feeds (`queries`, `trend`, `ranks`, `authority`,
    /// `ai_visibility`); empty when not connected.
    pub parts: Vec<String>,
}

/// The report over `window`.
pub async fn report(
    state: &AppState,
    product: &ProductRow,
    window: Window,
) -> ApiResult<DemandReport> {
    let span = window.span(state.clock.now());
    let (first_day, last_day) = (span.first_day(), span.last_day());
    let db = &state.store;
    let days = series::timeseries(state, product, window).await?;
    let queries = search_queries(state, product, &first_day, &last_day).await?;
    let readings = demand::latest_readings(
        db,
        &product.id,
        &[
            KEYWORD_POSITION,
            KEYWORD_VOLUME,
            COMPETITOR_POSITION,
            AI_VISIBILITY,
            SITE_HEALTH,
            DOMAIN_RATING,
            BACKLINKS,
            REFERRING_DOMAINS,
            DOMAIN_RANK,
            ORGANIC_KEYWORDS,
            ORGANIC_TRAFFIC,
        ],
        &last_day,
    )
    .await?;
    Ok(DemandReport {
        product_slug: product.slug.clone(),
        window_days: window.days,
        funnel: funnel(&days),
        trend: days.iter().map(trend_day).collect(),
        queries,
        ranks: ranks(&readings),
        gaps: gaps(&readings),
        ai_visibility: ai_visibility(&readings),
        authority: authority(&readings),
        sources: sources(state, product).await?,
    })
}

fn funnel(days: &[TimeseriesRow]) -> DemandFunnel {
    let sum = |of: fn(&TimeseriesRow) -> i64| days.iter().map(of).sum();
    DemandFunnel {
        impressions: sum(|day| day.search_impressions),
        clicks: sum(|day| day.search_clicks),
        visits: sum(|day| day.visits),
        leads: sum(|day| day.leads),
        customers: sum(|day| day.customers),
    }
}

fn trend_day(day: &TimeseriesRow) -> DemandDay {
    DemandDay {
        day: day.day.clone(),
        search_clicks: day.search_clicks,
        search_impressions: day.search_impressions,
        ai_visibility: day.ai_visibility,
    }
}

/// The window's queries per source with their impression-weighted positions.
async fn search_queries(
    state: &AppState,
    product: &ProductRow,
    first_day: &str,
    last_day: &str,
) -> ApiResult<Vec<SearchQuery>> {
    let db = &state.store;
    let positions: BTreeMap<(String, String), f64> =
        demand::query_positions(db, &product.id, first_day, last_day)
            .await?
            .into_iter()
            .filter(|part| part.impressions > 0.0)
            .map(|part| ((part.kind, part.query), part.weighted / part.impressions))
            .collect();
    let mut queries: Vec<SearchQuery> = demand::query_totals(db, &product.id, first_day, last_day)
        .await?
        .into_iter()
        .map(|total| SearchQuery {
            position: positions
                .get(&(total.kind.clone(), total.query.clone()))
                .copied(),
            clicks: total.clicks.round() as i64,
            impressions: total.impressions.round() as i64,
            query: total.query,
            source: total.kind,
        })
        .collect();
    queries.sort_by(|a, b| {
        (b.clicks, b.impressions)
            .cmp(&(a.clicks, a.impressions))
            .then_with(|| (&a.query, &a.source).cmp(&(&b.query, &b.source)))
    });
    queries.truncate(MAX_QUERIES);
    Ok(queries)
}

/// The values of `metric` in `readings`.
fn of_metric<'a>(
    readings: &'a [SourceValue],
    metric: &'a str,
) -> impl Iterator<Item = &'a SourceValue> {
    readings.iter().filter(move |value| value.metric == metric)
}

/// Each source's keywords of its latest ranks reading, with the volume of that source's latest
/// volume reading.
fn ranks(readings: &[SourceValue]) -> Vec<KeywordRank> {
    let volumes: BTreeMap<(&str, &str), f64> = of_metric(readings, KEYWORD_VOLUME)
        .map(|value| ((value.kind.as_str(), value.dimension.as_str()), value.value))
        .collect();
    let mut ranks: Vec<KeywordRank> = of_metric(readings, KEYWORD_POSITION)
        .map(|value| KeywordRank {
            keyword: value.dimension.clone(),
            position: value.value,
            source: value.kind.clone(),
            volume: volumes
                .get(&(value.kind.as_str(), value.dimension.as_str()))
                .map(|volume| volume.round() as i64),
            url: value.detail.clone(),
            as_of: value.day.clone(),
        })
        .collect();
    ranks.sort_by(|a, b| {
        a.position
            .total_cmp(&b.position)
            .then_with(|| b.volume.cmp(&a.volume))
            .then_with(|| (&a.keyword, &a.source).cmp(&(&b.keyword, &b.source)))
    });
    ranks.truncate(MAX_RANKS);
    ranks
}

/// Each source's keywords of its latest competitor reading that a competitor ranked better
/// for than the product's position of the same day (or where the product ranked nowhere).
fn gaps(readings: &[SourceValue]) -> Vec<KeywordGap> {
    let ours: BTreeMap<(&str, &str, &str), f64> = of_metric(readings, KEYWORD_POSITION)
        .map(|value| {
            let key = (
                value.kind.as_str(),
                value.day.as_str(),
                value.dimension.as_str(),
            );
            (key, value.value)
        })
        .collect();
    let volumes: BTreeMap<(&str, &str), f64> = of_metric(readings, KEYWORD_VOLUME)
        .map(|value| ((value.kind.as_str(), value.dimension.as_str()), value.value))
        .collect();
    let mut gaps: Vec<KeywordGap> = of_metric(readings, COMPETITOR_POSITION)
        .filter_map(|theirs| {
            let key = (
                theirs.kind.as_str(),
                theirs.day.as_str(),
                theirs.dimension.as_str(),
            );
            let position = ours.get(&key).copied();
            if position.is_some_and(|ours| ours <= theirs.value) {
                return None;
            }
            Some(KeywordGap {
                keyword: theirs.dimension.clone(),
                position,
                competitor: theirs.detail.clone().unwrap_or_default(),
                competitor_position: theirs.value,
                source: theirs.kind.clone(),
                volume: volumes
                    .get(&(theirs.kind.as_str(), theirs.dimension.as_str()))
                    .map(|volume| volume.round() as i64),
                as_of: theirs.day.clone(),
            })
        })
        .collect();
    // Unranked first, then the widest gap; ties by volume, then the keyword.
    let width = |gap: &KeywordGap| gap.position.unwrap_or(f64::INFINITY) - gap.competitor_position;
    gaps.sort_by(|a, b| {
        width(b)
            .total_cmp(&width(a))
            .then_with(|| b.volume.cmp(&a.volume))
            .then_with(|| (&a.keyword, &a.source).cmp(&(&b.keyword, &b.source)))
    });
    gaps.truncate(MAX_GAPS);
    gaps
}

/// The latest whole-domain value of `metric` (dimension `''`): the most recent day's, the mean
/// where several sources measured it that day.
fn latest_whole(readings: &[SourceValue], metric: &str) -> Option<(f64, String)> {
    let wholes: Vec<&SourceValue> = of_metric(readings, metric)
        .filter(|value| value.dimension.is_empty())
        .collect();
    let day = wholes.iter().map(|value| value.day.as_str()).max()?;
    let that_day: Vec<f64> = wholes
        .iter()
        .filter(|value| value.day == day)
        .map(|value| value.value)
        .collect();
    let mean = that_day.iter().sum::<f64>() / that_day.len() as f64;
    Some((mean, day.to_owned()))
}

fn ai_visibility(readings: &[SourceValue]) -> AiVisibility {
    let mut engines: Vec<EngineVisibility> = of_metric(readings, AI_VISIBILITY)
        .filter(|value| !value.dimension.is_empty())
        .map(|value| EngineVisibility {
            engine: value.dimension.clone(),
            visibility: value.value,
            as_of: value.day.clone(),
        })
        .collect();
    engines.sort_by(|a, b| a.engine.cmp(&b.engine));
    AiVisibility {
        score: latest_whole(readings, AI_VISIBILITY).map(|(score, _)| score),
        engines,
        site_health: latest_whole(readings, SITE_HEALTH).map(|(health, _)| health),
    }
}

fn authority(readings: &[SourceValue]) -> Authority {
    let count = |metric| latest_whole(readings, metric).map(|(value, _)| value.round() as i64);
    Authority {
        domain_rating: latest_whole(readings, DOMAIN_RATING).map(|(rating, _)| rating),
        backlinks: count(BACKLINKS),
        referring_domains: count(REFERRING_DOMAINS),
        rank: count(DOMAIN_RANK),
        organic_keywords: count(ORGANIC_KEYWORDS),
        organic_traffic: count(ORGANIC_TRAFFIC),
    }
}

/// Every kind with demand parts, whether connected and when last read.
async fn sources(state: &AppState, product: &ProductRow) -> ApiResult<Vec<DemandSource>> {
    let connected = connections::for_product(&state.store, &product.id).await?;
    Ok(KINDS
        .iter()
        .filter(|spec| !spec.demand.is_empty())
        .map(|spec| {
            let connection = connected.iter().find(|row| row.kind == spec.kind);
            DemandSource {
                kind: spec.wire.to_owned(),
                connected: connection.is_some(),
                last_sync_at: connection
                    .and_then(|row| row.last_sync_at)
                    .map(|at| Timestamp::from_millis(at).to_rfc3339()),
                parts: connection.map_or_else(Vec::new, |_| {
                    spec.demand
                        .iter()
                        .map(|part| part.word().to_owned())
                        .collect()
                }),
            }
        })
        .collect())
}
