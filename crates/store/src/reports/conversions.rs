//! Conversion definitions (upserted by key) and the counts behind them.
//!
//! A conversion is a stage's events, optionally narrowed to one event name and one source. A
//! definition with neither is counted from daily tables (migration 0020), a few rows per day
//! whatever the traffic: events with a channel of their own, and identity-less ones, from
//! `event_days`; identified events without one, under their identity's first touch, from
//! `stage_channel_days` (`plain_events`, `plain_value`). One naming an event or a source reads
//! `events` through its `(product_id, stage, occurred_at)` index, never a scan of the product's
//! events. Functions take the product id of a product the caller already resolved through its
//! [`crate::AccountScope`].

use std::collections::BTreeMap;

use payback_domain::Timestamp;
use payback_domain::span::Span;

use crate::error::StoreResult;
use crate::identity_sql::current_identity;
use crate::{Db, Tx};

/// The channel row for conversions with neither an event channel nor an identity first touch.
pub const UNATTRIBUTED: &str = "unattributed";

#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct ConversionRow {
    pub key: String,
    pub label: String,
    pub tier: String,
    pub stage: String,
    pub source: Option<String>,
    pub event_name: Option<String>,
    pub value_mode: String,
    pub fixed_value_cents: Option<i64>,
    pub currency: Option<String>,
    pub score_mode: String,
    pub target_cpa_cents: Option<i64>,
    /// Serialized JSON object.
    pub grade_weights: Option<String>,
    pub is_active: bool,
    pub created_at: i64,
    pub updated_at: i64,
}

const COLUMNS: &str = "key, label, tier, stage, source, event_name, value_mode, fixed_value_cents, currency, \
                       score_mode, target_cpa_cents, grade_weights, is_active, created_at, updated_at";

/// A checked definition to store; every field is replaced on upsert.
#[derive(Debug, Clone)]
pub struct NewConversion<'a> {
    pub key: &'a str,
    pub label: &'a str,
    pub tier: &'a str,
    pub stage: &'a str,
    pub source: Option<&'a str>,
    pub event_name: Option<&'a str>,
    pub value_mode: &'a str,
    pub fixed_value_cents: Option<i64>,
    pub currency: Option<&'a str>,
    pub score_mode: &'a str,
    pub target_cpa_cents: Option<i64>,
    pub grade_weights: Option<&'a str>,
    pub is_active: bool,
}

/// Every definition of the product, oldest first.
pub async fn list(db: &Db, product_id: &str) -> StoreResult<Vec<ConversionRow>> {
    let sql =
        format!("SELECT {COLUMNS} FROM conversions WHERE product_id = $1 ORDER BY created_at, key");
    Ok(
        on_db!(db, pool => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str())).bind(product_id).fetch_all(pool).await)?,
    )
}

/// The definition under `key`, read inside the writing transaction.
pub async fn find(tx: &mut Tx, product_id: &str, key: &str) -> StoreResult<Option<ConversionRow>> {
    let sql = format!("SELECT {COLUMNS} FROM conversions WHERE product_id = $1 AND key = $2");
    Ok(
        on_tx!(tx, conn => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str())).bind(product_id).bind(key).fetch_optional(conn).await)?,
    )
}

/// Inserts the definition or replaces every field of the one with the same key; the creation
/// time of a replaced definition is kept, so "oldest first" stays stable across edits.
pub async fn upsert(
    tx: &mut Tx,
    product_id: &str,
    conversion: &NewConversion<'_>,
    now: Timestamp,
) -> StoreResult<ConversionRow> {
    let sql = format!(
        "INSERT INTO conversions (product_id, key, label, tier, stage, source, event_name, value_mode, \
         fixed_value_cents, currency, score_mode, target_cpa_cents, grade_weights, is_active, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $15) \
         ON CONFLICT (product_id, key) DO UPDATE SET label = excluded.label, tier = excluded.tier, \
         stage = excluded.stage, source = excluded.source, event_name = excluded.event_name, \
         value_mode = excluded.value_mode, fixed_value_cents = excluded.fixed_value_cents, \
         currency = excluded.currency, score_mode = excluded.score_mode, \
         target_cpa_cents = excluded.target_cpa_cents, grade_weights = excluded.grade_weights, \
         is_active = excluded.is_active, updated_at = excluded.updated_at \
         RETURNING {COLUMNS}"
    );
    Ok(
        on_tx!(tx, conn => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str()))
        .bind(product_id)
        .bind(conversion.key)
        .bind(conversion.label)
        .bind(conversion.tier)
        .bind(conversion.stage)
        .bind(conversion.source)
        .bind(conversion.event_name)
        .bind(conversion.value_mode)
        .bind(conversion.fixed_value_cents)
        .bind(conversion.currency)
        .bind(conversion.score_mode)
        .bind(conversion.target_cpa_cents)
        .bind(conversion.grade_weights)
        .bind(conversion.is_active)
        .bind(now.millis())
        .fetch_one(conn)
        .await)?,
    )
}

/// Deletes the definition; returns it, or `None` when there was none. Events stay.
pub async fn delete(
    tx: &mut Tx,
    product_id: &str,
    key: &str,
) -> StoreResult<Option<ConversionRow>> {
    let sql =
        format!("DELETE FROM conversions WHERE product_id = $1 AND key = $2 RETURNING {COLUMNS}");
    Ok(
        on_tx!(tx, conn => sqlx::query_as(sqlx::AssertSqlSafe(sql.as_str())).bind(product_id).bind(key).fetch_optional(conn).await)?,
    )
}

/// Which events a definition counts.
#[derive(Debug, Clone, Copy)]
pub struct Matcher<'a> {
    pub stage: &'a str,
    /// Only events with exactly this name.
    pub event_name: Option<&'a str>,
    /// Only what this source wrote: events in its `<source>:` namespaces and its daily
    /// aggregate rows. `None`: events of every namespace (aggregate rows belong to the source
    /// that wrote them and count only for definitions naming it).
    pub source: Option<&'a str>,
}

/// Matching events (and aggregate volume) of one channel in a span.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChannelTally {
    pub channel: String,
    pub count: i64,
    /// Sum of the events' own `value` (for converted and payment events, their revenue rows).
    pub value_cents: i64,
}

#[derive(sqlx::FromRow)]
struct TallyRow {
    channel: Option<String>,
    events: i64,
    value_cents: i64,
}

/// Counts per channel: the event's own channel, else its identity's first touch, else
/// [`UNATTRIBUTED`]. Ordered by count (highest first), then channel.
pub async fn tally(
    db: &Db,
    product_id: &str,
    matcher: Matcher<'_>,
    span: Span,
) -> StoreResult<Vec<ChannelTally>> {
    if matcher.event_name.is_none() && matcher.source.is_none() {
        let rows: Vec<TallyRow> = on_db!(db, pool => sqlx::query_as(DAILY_TALLY)
            .bind(product_id)
            .bind(matcher.stage)
            .bind(span.first_day())
            .bind(span.last_day())
            .bind(false)
            .fetch_all(pool)
            .await)?;
        return Ok(sorted(merge(rows)));
    }
    // `_` is a LIKE wildcard; source names contain it, so it is escaped.
    let namespace_pattern = matcher
        .source
        .map(|source| format!("{}:%", source.replace('_', "\\_")));
    const SQL: &str = concat!(
        "SELECT COALESCE(e.channel, p.first_channel) AS channel, COUNT(*) AS events, \
         CAST(COALESCE(SUM(e.value_cents), 0) AS BIGINT) AS value_cents \
         FROM events e LEFT JOIN identity_profiles p ON p.product_id = e.product_id AND p.identity = ",
        current_identity!("e"),
        " WHERE e.product_id = $1 AND e.stage = $2 AND e.occurred_at >= $3 AND e.occurred_at < $4 \
         AND ($5 IS NULL OR e.name = $5) AND ($6 IS NULL OR e.namespace LIKE $6 ESCAPE '\\') \
         GROUP BY COALESCE(e.channel, p.first_channel)"
    );
    let rows: Vec<TallyRow> = on_db!(db, pool => sqlx::query_as(SQL)
        .bind(product_id)
        .bind(matcher.stage)
        .bind(span.start.millis())
        .bind(span.end.millis())
        .bind(matcher.event_name)
        .bind(namespace_pattern.as_deref())
        .fetch_all(pool)
        .await)?;
    let mut channels = merge(rows);
    // Daily aggregate rows carry no names, channels or amounts: they count only for a
    // definition that names their source and no event name, and only as unattributed volume.
    if let (Some(source), None) = (matcher.source, matcher.event_name) {
        let volume: i64 = on_db!(db, pool => sqlx::query_scalar(
            "SELECT CAST(COALESCE(SUM(volume), 0) AS BIGINT) FROM aggregate_stage_days \
             WHERE product_id = $1 AND stage = $2 AND source = $3 AND day >= $4 AND day <= $5")
            .bind(product_id)
            .bind(matcher.stage)
            .bind(source)
            .bind(span.first_day())
            .bind(span.last_day())
            .fetch_one(pool)
            .await)?;
        if volume != 0 {
            add(&mut channels, UNATTRIBUTED.to_owned(), volume, 0);
        }
    }
    Ok(sorted(channels))
}

/// [`tally`] of a definition with no event name and no source, from the daily tables: the
/// stage's events with a channel of their own, and identity-less ones (`unattributed` without
/// a channel), from `event_days`; identified ones without a channel, under their identity's
/// first touch, from `stage_channel_days`. Cells with no events are left out, as a count of
/// events leaves them.
const DAILY_TALLY: &str = "SELECT channel, CAST(SUM(events) AS BIGINT) AS events, \
     CAST(COALESCE(SUM(value_cents), 0) AS BIGINT) AS value_cents FROM ( \
       SELECT NULLIF(channel, '') AS channel, SUM(events) AS events, SUM(value_cents) AS value_cents \
       FROM event_days WHERE product_id = $1 AND stage = $2 AND day >= $3 AND day <= $4 \
       AND (channel <> '' OR identified = $5) GROUP BY channel \
       UNION ALL \
       SELECT NULLIF(channel, '') AS channel, SUM(plain_events) AS events, SUM(plain_value) AS value_cents \
       FROM stage_channel_days WHERE product_id = $1 AND stage = $2 AND day >= $3 AND day <= $4 \
       GROUP BY channel \
     ) cells GROUP BY channel HAVING SUM(events) <> 0";

/// Tally rows per channel name (`None`: [`UNATTRIBUTED`]).
fn merge(rows: Vec<TallyRow>) -> BTreeMap<String, ChannelTally> {
    let mut channels = BTreeMap::new();
    for row in rows {
        let channel = row.channel.unwrap_or_else(|| UNATTRIBUTED.to_owned());
        add(&mut channels, channel, row.events, row.value_cents);
    }
    channels
}

fn add(
    channels: &mut BTreeMap<String, ChannelTally>,
    channel: String,
    count: i64,
    value_cents: i64,
) {
    let entry = channels
        .entry(channel.clone())
        .or_insert_with(|| ChannelTally {
            channel,
            ..ChannelTally::default()
        });
    entry.count += count;
    entry.value_cents += value_cents;
}

/// Highest count first, then channel.
fn sorted(channels: BTreeMap<String, ChannelTally>) -> Vec<ChannelTally> {
    let mut tallies: Vec<ChannelTally> = channels.into_values().collect();
    tallies.sort_by(|a, b| {
        b.count
            .cmp(&a.count)
            .then_with(|| a.channel.cmp(&b.channel))
    });
    tallies
}
