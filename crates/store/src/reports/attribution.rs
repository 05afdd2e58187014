//! Report queries: attribution. First touch is the identity profile's `first_channel`, last
//! touch a revenue row's `COALESCE(last_channel, first_channel)`; both are maintained at write
//! time, and so are their sums per day (migration 0020: `revenue_days` per first and last
//! touch, `identity_days` per first touch), so the report reads those daily tables, `spend_rows`
//! and `event_days`, a few rows a day whatever the traffic (the sales list reads `transactions`
//! and `identity_profiles`, the ads report's keyword level also `spend_keyword_rows`). The ads
//! report reads its revenue and customers per paid touch from `paid_touch_days` (migration
//! 0025), a row per ad and day.

use payback_domain::span::Span;

use crate::Db;
use crate::error::StoreResult;

/// One channel's sums; `channel` is `None` for "no channel" (no identity, or an identity that
/// never had a channel-bearing event).
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct ChannelSum {
    pub channel: Option<String>,
    pub cents: i64,
    pub count: i64,
}

/// Spend per channel over the window's days.
pub async fn spend_by_channel(
    db: &Db,
    product_id: &str,
    span: Span,
) -> StoreResult<Vec<ChannelSum>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT channel, COALESCE(CAST(SUM(spend_cents) AS BIGINT), 0) AS cents, COUNT(*) AS count \
         FROM spend_rows WHERE product_id = $1 AND day >= $2 AND day <= $3 GROUP BY channel")
        .bind(product_id).bind(span.first_day()).bind(span.last_day())
        .fetch_all(pool).await)?)
}

/// Net revenue and revenue-row count of the window per first-touch channel (channels with
/// revenue rows only).
pub async fn revenue_by_first_channel(
    db: &Db,
    product_id: &str,
    span: Span,
) -> StoreResult<Vec<ChannelSum>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT NULLIF(first_channel, '') AS channel, COALESCE(CAST(SUM(cents) AS BIGINT), 0) AS cents, \
         CAST(SUM(rows) AS BIGINT) AS count \
         FROM revenue_days WHERE product_id = $1 AND day >= $2 AND day <= $3 \
         GROUP BY first_channel HAVING SUM(rows) <> 0")
        .bind(product_id).bind(span.first_day()).bind(span.last_day())
        .fetch_all(pool).await)?)
}

/// Net revenue and revenue-row count of the window per last-touch channel (the row's stored
/// last touch, else the identity's first touch).
pub async fn revenue_by_last_channel(
    db: &Db,
    product_id: &str,
    span: Span,
) -> StoreResult<Vec<ChannelSum>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT NULLIF(last_channel, '') AS channel, COALESCE(CAST(SUM(cents) AS BIGINT), 0) AS cents, \
         CAST(SUM(rows) AS BIGINT) AS count \
         FROM revenue_days WHERE product_id = $1 AND day >= $2 AND day <= $3 \
         GROUP BY last_channel HAVING SUM(rows) <> 0")
        .bind(product_id).bind(span.first_day()).bind(span.last_day())
        .fetch_all(pool).await)?)
}

/// Customers acquired in the window per first-touch channel (`cents` is their all-time revenue).
pub async fn customers_by_first_channel(
    db: &Db,
    product_id: &str,
    span: Span,
) -> StoreResult<Vec<ChannelSum>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT NULLIF(channel, '') AS channel, COALESCE(CAST(SUM(acquired_revenue) AS BIGINT), 0) AS cents, \
         CAST(SUM(acquired) AS BIGINT) AS count \
         FROM identity_days WHERE product_id = $1 AND day >= $2 AND day <= $3 \
         GROUP BY channel HAVING SUM(acquired) <> 0")
        .bind(product_id).bind(span.first_day()).bind(span.last_day())
        .fetch_all(pool).await)?)
}

/// What the attribution rests on, over the window.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Coverage {
    pub identities_total: i64,
    pub identities_with_channel: i64,
    pub events_total: i64,
    pub events_with_channel: i64,
    pub transactions_total: i64,
    pub transactions_with_identity: i64,
    /// Emails a second user named in the window while the first held them (their events count
    /// for the first: `ingest/emails.rs`).
    pub email_conflicts: i64,
}

pub async fn coverage(db: &Db, product_id: &str, span: Span) -> StoreResult<Coverage> {
    let (first_day, last_day) = (span.first_day(), span.last_day());
    let (identities_total, identities_with_channel) =
        active_identities(db, product_id, span).await?;
    let (events_total, events_with_channel): (i64, i64) = on_db!(db, pool => sqlx::query_as(
        "SELECT COALESCE(CAST(SUM(events) AS BIGINT), 0), \
         COALESCE(CAST(SUM(CASE WHEN channel <> '' THEN events ELSE 0 END) AS BIGINT), 0) \
         FROM event_days WHERE product_id = $1 AND day >= $2 AND day <= $3")
        .bind(product_id).bind(&first_day).bind(&last_day)
        .fetch_one(pool).await)?;
    let (transactions_total, transactions_with_identity): (i64, i64) = on_db!(db, pool => sqlx::query_as(
        "SELECT COALESCE(CAST(SUM(rows) AS BIGINT), 0), \
         COALESCE(CAST(SUM(CASE WHEN identified THEN rows ELSE 0 END) AS BIGINT), 0) FROM revenue_days \
         WHERE product_id = $1 AND day >= $2 AND day <= $3")
        .bind(product_id).bind(&first_day).bind(&last_day)
        .fetch_one(pool).await)?;
    // Through the partial index of conflicting emails: a range of the rare rows that have one.
    let email_conflicts: i64 = on_db!(db, pool => sqlx::query_scalar(
        "SELECT COUNT(*) FROM email_identities \
         WHERE product_id = $1 AND conflict_at IS NOT NULL AND conflict_at >= $2 AND conflict_at < $3")
        .bind(product_id).bind(span.start.millis()).bind(span.end.millis())
        .fetch_one(pool).await)?;
    Ok(Coverage {
        identities_total,
        identities_with_channel,
        events_total,
        events_with_channel,
        transactions_total,
        transactions_with_identity,
        email_conflicts,
    })
}

/// Identities active in the window, and how many of them have a first touch. A window that
/// reaches past every identity's last activity (the usual one, ending today) sums the
/// identities last seen on each of its days (`identity_days.seen`, per first-touch channel):
/// active in it means last seen in it. Any other window deduplicates its `(stage, day,
/// identity)` rows.
async fn active_identities(db: &Db, product_id: &str, span: Span) -> StoreResult<(i64, i64)> {
    let (first_day, last_day) = (span.first_day(), span.last_day());
    let later: Option<i64> = on_db!(db, pool => sqlx::query_scalar(
        "SELECT seen FROM identity_days WHERE product_id = $1 AND day > $2 AND seen <> 0 LIMIT 1")
        .bind(product_id).bind(&last_day)
        .fetch_optional(pool).await)?;
    if later.is_none() {
        return Ok(on_db!(db, pool => sqlx::query_as(
            "SELECT COALESCE(CAST(SUM(seen) AS BIGINT), 0), \
             COALESCE(CAST(SUM(CASE WHEN channel <> '' THEN seen ELSE 0 END) AS BIGINT), 0) \
             FROM identity_days WHERE product_id = $1 AND day >= $2 AND day <= $3")
            .bind(product_id).bind(&first_day).bind(&last_day)
            .fetch_one(pool).await)?);
    }
    // Distinct identities first (read from the covering `(product_id, day, identity)` index),
    // then one profile lookup each: the window's rows are many more than its identities.
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT COUNT(*), COUNT(p.first_channel) FROM \
         (SELECT DISTINCT identity FROM stage_identity_days WHERE product_id = $1 AND day >= $2 AND day <= $3) d \
         LEFT JOIN identity_profiles p ON p.product_id = $1 AND p.identity = d.identity")
        .bind(product_id).bind(span.first_day()).bind(span.last_day())
        .fetch_one(pool).await)?)
}

/// One revenue row with its touches.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct SaleRow {
    pub id: i64,
    pub occurred_at: i64,
    pub day: String,
    pub amount_cents: i64,
    pub currency: String,
    pub kind: String,
    pub stage: Option<String>,
    pub identity: Option<String>,
    pub first_channel: Option<String>,
    pub last_channel: Option<String>,
}

/// Which revenue rows a sales list shows: by first-touch channel, `None` = no channel.
#[derive(Debug, Clone, Copy)]
pub enum SalesFilter<'a> {
    All,
    FirstTouch(Option<&'a str>),
}

const SALES_FROM: &str = "FROM transactions t \
     LEFT JOIN identity_profiles p ON p.product_id = t.product_id AND p.identity = t.identity \
     WHERE t.product_id = $1 AND t.occurred_at >= $2 AND t.occurred_at < $3 \
     AND ($4 = 0 OR ($4 = 1 AND p.first_channel IS NULL) OR ($4 = 2 AND p.first_channel = $5))";

/// Revenue rows of the window, newest first, and how many match before the limit.
pub async fn sales(
    db: &Db,
    product_id: &str,
    span: Span,
    filter: SalesFilter<'_>,
    limit: i64,
) -> StoreResult<(i64, Vec<SaleRow>)> {
    // The filter travels as a mode number so one query text serves all three cases.
    let (mode, channel): (i64, Option<&str>) = match filter {
        SalesFilter::All => (0, None),
        SalesFilter::FirstTouch(None) => (1, None),
        SalesFilter::FirstTouch(Some(channel)) => (2, Some(channel)),
    };
    // Counted from `revenue_days`, which the fold keeps exact (a row per day and channel pair):
    // a window is whole UTC days, so its days sum to the rows it holds, without reading each
    // (50,000 of them at 365 days in a revenue-heavy product). Its first channel is '' where
    // the profile's is NULL or there is no identity, as the filter's mode 1 reads it.
    // Not kept prepared: PostgreSQL's generic plan (after five runs) cannot see how many days
    // the bounds span and probes the primary key row by row; planned for the actual bounds, a
    // year of a busy product's rows is one sequential pass (2.7 -> 1.2 ms at 10M events).
    let total: i64 = on_db!(db, pool => sqlx::query_scalar(
        "SELECT CAST(COALESCE(SUM(rows), 0) AS BIGINT) FROM revenue_days \
         WHERE product_id = $1 AND day >= $2 AND day <= $3 \
         AND ($4 = 0 OR ($4 = 1 AND first_channel = '') OR ($4 = 2 AND first_channel = $5))")
        .bind(product_id).bind(span.first_day()).bind(span.last_day()).bind(mode).bind(channel)
        .persistent(false)
        .fetch_one(pool).await)?;
    let rows_sql = format!(
        "SELECT t.id, t.occurred_at, t.day, t.amount_cents, t.currency, t.kind, t.stage, t.identity, \
         p.first_channel, COALESCE(t.last_channel, p.first_channel) AS last_channel {SALES_FROM} \
         ORDER BY t.occurred_at DESC, t.id DESC LIMIT $6"
    );
    let rows = on_db!(db, pool => sqlx::query_as(sqlx::AssertSqlSafe(rows_sql.as_str()))
        .bind(product_id).bind(span.start.millis()).bind(span.end.millis()).bind(mode).bind(channel).bind(limit)
        .fetch_all(pool).await)?;
    Ok((total, rows))
}

/// The ad grain an ads report groups by; each names its id and label columns in `spend_rows`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AdLevel {
    Campaign,
    AdGroup,
    Keyword,
    Ad,
}

impl AdLevel {
    pub const ALL: [AdLevel; 4] = [
        AdLevel::Campaign,
        AdLevel::AdGroup,
        AdLevel::Keyword,
        AdLevel::Ad,
    ];

    fn columns(self) -> (&'static str, &'static str) {
        match self {
            AdLevel::Campaign => ("campaign_id", "campaign_name"),
            AdLevel::AdGroup => ("ad_group_id", "ad_group_name"),
            AdLevel::Keyword => ("keyword_id", "keyword"),
            AdLevel::Ad => ("ad_id", "ad_name"),
        }
    }

    /// The attribution key of a touch that names its dimension value at this grain.
    pub fn tag_key(self) -> &'static str {
        match self {
            AdLevel::Campaign => "utm_campaign",
            AdLevel::AdGroup => "utm_id",
            AdLevel::Keyword => "utm_term",
            AdLevel::Ad => "utm_content",
        }
    }

    /// The spend rows of this grain for product `$1`, as `channel, day, id, name, spend_cents,
    /// impressions, clicks`; `id` '' is spend with nothing at this grain. With `window`, on
    /// days `$2..=$3` only, and summing (per channel) to the channels' spend in `spend_rows`,
    /// as every level does; without, all days, for the ids and names ever seen.
    ///
    /// At `keyword`, a network that reports keywords apart from ads has its keyword breakdown
    /// in `spend_keyword_rows` and its ad rows in `spend_rows` with no keyword id: the keyword
    /// rows are read as well and, with `window`, subtracted once more under id '', so a
    /// channel's `no_dimension` spend is its `spend_rows` total minus its keyword spend (the
    /// keyword-grain rows of `spend_rows` plus `spend_keyword_rows`). Impressions and clicks
    /// follow the same rule.
    fn source(self, window: bool) -> String {
        let (id, name) = self.columns();
        let days = if window {
            " AND day >= $2 AND day <= $3"
        } else {
            ""
        };
        let spend = format!(
            "SELECT channel, day, {id} AS id, {name} AS name, spend_cents, impressions, clicks \
             FROM spend_rows WHERE product_id = $1{days}"
        );
        if self != AdLevel::Keyword {
            return spend;
        }
        let keywords = format!(
            "{spend} UNION ALL SELECT channel, day, keyword_id AS id, keyword AS name, spend_cents, impressions, clicks \
             FROM spend_keyword_rows WHERE product_id = $1{days}"
        );
        if !window {
            return keywords;
        }
        format!(
            "{keywords} UNION ALL SELECT channel, day, '' AS id, NULL AS name, -spend_cents, -impressions, -clicks \
             FROM spend_keyword_rows WHERE product_id = $1{days}"
        )
    }
}

/// Spend of one dimension value (`id` '' = rows with nothing at this grain).
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct AdSpend {
    pub channel: String,
    pub id: String,
    pub name: Option<String>,
    pub spend_cents: i64,
    pub impressions: i64,
    pub clicks: i64,
}

/// Spend, impressions and clicks of the window per channel and dimension id (see
/// [`AdLevel::source`] for the keyword grain).
pub async fn ad_spend(
    db: &Db,
    product_id: &str,
    span: Span,
    level: AdLevel,
) -> StoreResult<Vec<AdSpend>> {
    let source = level.source(true);
    let sql = format!(
        "SELECT channel, id, MAX(name) AS name, COALESCE(CAST(SUM(spend_cents) AS BIGINT), 0) AS spend_cents, \
         COALESCE(CAST(SUM(impressions) AS BIGINT), 0) AS impressions, COALESCE(CAST(SUM(clicks) AS BIGINT), 0) AS clicks \
         FROM ({source}) grain GROUP BY channel, id ORDER BY channel, id"
    );
    Ok(
        on_db!(db, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
        .bind(product_id).bind(span.first_day()).bind(span.last_day())
        .fetch_all(pool).await)?,
    )
}

/// Every dimension value ever seen at this grain, with its names, oldest day first (so a
/// later name of the same id wins when read in order).
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct AdDimension {
    pub channel: String,
    pub id: String,
    pub name: Option<String>,
    pub last_day: String,
}

pub async fn ad_dimensions(
    db: &Db,
    product_id: &str,
    level: AdLevel,
) -> StoreResult<Vec<AdDimension>> {
    let source = level.source(false);
    let sql = format!(
        "SELECT channel, id, name, MAX(day) AS last_day FROM ({source}) grain \
         WHERE id <> '' GROUP BY channel, id, name ORDER BY MAX(day), channel, id"
    );
    Ok(
        on_db!(db, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
        .bind(product_id)
        .fetch_all(pool).await)?,
    )
}

/// What is credited to paid touches of one channel and the same ad tags over a window: its
/// revenue rows (each row's paid touch is the identity's last at or before it) and the
/// customers acquired in it (their last paid touch before acquisition). The fold keeps both
/// on the rows (`ingest/last_touches.rs`) and their sums per day in `paid_touch_days`.
/// `channel` is `None` for what has no paid touch (or no identity); `tags` is the touch's JSON
/// object of ad tags (`ingest::last_touches::ad_tags_of_touch`).
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct PaidTouch {
    pub channel: Option<String>,
    pub tags: Option<String>,
    pub revenue_rows: i64,
    pub revenue_cents: i64,
    pub customers: i64,
}

/// The window's revenue rows and acquisitions by their paid touch's channel and ad tags: a row
/// per ad, read from a row per ad and day.
pub async fn paid_touches(db: &Db, product_id: &str, span: Span) -> StoreResult<Vec<PaidTouch>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT NULLIF(channel, '') AS channel, NULLIF(tags, '') AS tags, \
         CAST(SUM(revenue_rows) AS BIGINT) AS revenue_rows, CAST(SUM(revenue_cents) AS BIGINT) AS revenue_cents, \
         CAST(SUM(customers) AS BIGINT) AS customers FROM paid_touch_days \
         WHERE product_id = $1 AND day >= $2 AND day <= $3 GROUP BY channel, tags \
         HAVING SUM(revenue_rows) <> 0 OR SUM(customers) <> 0")
        .bind(product_id).bind(span.first_day()).bind(span.last_day())
        .fetch_all(pool).await)?)
}
