//! Report queries: the funnel (stage x channel volumes, daily stage volumes, which sources
//! feed each stage) and the saved funnel definition.
//!
//! Stage volume, as the metric definitions say: distinct identities with the stage in the
//! period, plus each identity-less event of the stage (`event_days` with `identified = false`),
//! plus the volumes sources write (`aggregate_stage_days`; a stage a source owns, web analytics
//! visits, counts no first-party volume: `aggregate_stages::counts_first_party!`). Every window is a range of UTC days,
//! read from daily tables only: the identified part from `stage_channel_days` (migration 0020),
//! a few rows per day and channel whatever the traffic. Its distinct identities over a window
//! are the identities whose latest day with the stage falls in it (`lasts`), which holds while
//! nobody has a later day than the window's last: always for a window ending today, unless an
//! event is dated tomorrow (up to five minutes ahead). Then, or for a window of the past, the
//! distinct identities are counted from `stage_identity_days` instead.

use payback_domain::Timestamp;
use payback_domain::span::Span;

use crate::aggregate_stages::counts_first_party;
use crate::error::StoreResult;
use crate::{Db, Tx};

/// The (stage, channel) cells sources counted over the window: each row's volume is its events
/// too, and a row of no channel (`''`) lands in the channel-null cell.
macro_rules! aggregate_cells {
    () => {
        "SELECT stage, NULLIF(channel, '') AS channel, SUM(volume) AS events, SUM(volume) AS volume \
         FROM aggregate_stage_days \
         WHERE product_id = $1 AND day >= $2 AND day <= $3 \
         GROUP BY stage, channel"
    };
}

/// One (stage, channel) cell of the funnel over a window.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct StageChannelRow {
    pub stage: String,
    /// Identified traffic: the identity's first-touch channel; identity-less events: the
    /// event's own channel; aggregate rows: the channel the source counted them under (none for
    /// a row of no channel).
    pub channel: Option<String>,
    pub events: i64,
    pub volume: i64,
}

/// The stage x channel cells of `span`, merged across the three kinds of input.
///
/// Aggregate rows carry no per-event detail: their volume counts as their events too, since a
/// source's daily count is the only event count there is.
pub async fn stage_channels(
    db: &Db,
    product_id: &str,
    span: Span,
) -> StoreResult<Vec<StageChannelRow>> {
    if settled(db, product_id, None, span).await? {
        return Ok(on_db!(db, pool => sqlx::query_as(STAGE_CHANNELS_SETTLED)
            .bind(product_id)
            .bind(span.first_day())
            .bind(span.last_day())
            .bind(false)
            .fetch_all(pool)
            .await)?);
    }
    // The outer GROUP BY merges cells with the same (stage, channel): an identity with no first
    // touch and an identity-less event with no channel both land in the channel-null cell.
    const SQL: &str = concat!(
        "SELECT stage, channel, CAST(SUM(events) AS BIGINT) AS events, CAST(SUM(volume) AS BIGINT) AS volume \
         FROM ( \
           SELECT s.stage AS stage, p.first_channel AS channel, SUM(s.events) AS events, \
                  COUNT(DISTINCT s.identity) AS volume \
           FROM stage_identity_days s \
           LEFT JOIN identity_profiles p ON p.product_id = s.product_id AND p.identity = s.identity \
           WHERE s.product_id = $1 AND s.day >= $2 AND s.day <= $3 AND ",
        counts_first_party!("s"),
        " GROUP BY s.stage, p.first_channel \
           UNION ALL \
           SELECT stage, NULLIF(channel, '') AS channel, SUM(events) AS events, SUM(events) AS volume \
           FROM event_days \
           WHERE product_id = $1 AND day >= $2 AND day <= $3 AND identified = $4 AND ",
        counts_first_party!("event_days"),
        " GROUP BY stage, channel \
           UNION ALL ",
        aggregate_cells!(),
        " ) cells \
         GROUP BY stage, channel"
    );
    Ok(on_db!(db, pool => sqlx::query_as(SQL)
        .bind(product_id)
        .bind(span.first_day())
        .bind(span.last_day())
        .bind(false)
        .fetch_all(pool)
        .await)?)
}

/// [`stage_channels`] from the daily table: identified events and distinct identities per
/// (stage, first-touch channel) summed over the window's days; the other inputs as there.
const STAGE_CHANNELS_SETTLED: &str = concat!(
    "SELECT stage, channel, CAST(SUM(events) AS BIGINT) AS events, \
     CAST(SUM(volume) AS BIGINT) AS volume \
     FROM ( \
       SELECT stage, NULLIF(channel, '') AS channel, SUM(events) AS events, SUM(lasts) AS volume \
       FROM stage_channel_days \
       WHERE product_id = $1 AND day >= $2 AND day <= $3 AND ",
    counts_first_party!("stage_channel_days"),
    " GROUP BY stage, channel \
       UNION ALL \
       SELECT stage, NULLIF(channel, '') AS channel, SUM(events) AS events, SUM(events) AS volume \
       FROM event_days \
       WHERE product_id = $1 AND day >= $2 AND day <= $3 AND identified = $4 AND ",
    counts_first_party!("event_days"),
    " GROUP BY stage, channel \
       UNION ALL ",
    aggregate_cells!(),
    " ) cells \
     GROUP BY stage, channel"
);

/// Whether no identity of the product has a day (of `stage`, or of any stage) after the span's
/// last: then the identities whose latest day falls in the span are exactly those with a day in
/// it. One probe of the daily table's key past the span.
pub(crate) async fn settled(
    db: &Db,
    product_id: &str,
    stage: Option<&str>,
    span: Span,
) -> StoreResult<bool> {
    let later: Option<i64> = on_db!(db, pool => sqlx::query_scalar(
        "SELECT lasts FROM stage_channel_days \
         WHERE product_id = $1 AND day > $2 AND lasts <> 0 AND ($3 IS NULL OR stage = $3) LIMIT 1")
        .bind(product_id)
        .bind(span.last_day())
        .bind(stage)
        .fetch_optional(pool)
        .await)?;
    Ok(later.is_none())
}

/// One stage's volume on one day.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct DayStageVolume {
    pub day: String,
    /// Read back typed: a stored stage outside the vocabulary fails the read.
    #[sqlx(try_from = "String")]
    pub stage: payback_domain::stage::Stage,
    pub volume: i64,
}

/// Stage volume per day of `span`, oldest first; only (day, stage) pairs with some input.
/// A day's distinct identities are that day's: an identity active on two days counts on each.
pub async fn daily_stage_volumes(
    db: &Db,
    product_id: &str,
    span: Span,
) -> StoreResult<Vec<DayStageVolume>> {
    // A day's distinct identities are its `stage_identity_days` rows, which
    // `stage_channel_days.identities` counts per first-touch channel.
    const SQL: &str = concat!(
        "SELECT day, stage, CAST(SUM(volume) AS BIGINT) AS volume \
         FROM ( \
           SELECT day, stage, SUM(identities) AS volume FROM stage_channel_days \
           WHERE product_id = $1 AND day >= $2 AND day <= $3 AND ",
        counts_first_party!("stage_channel_days"),
        " GROUP BY day, stage \
           UNION ALL \
           SELECT day, stage, SUM(events) AS volume FROM event_days \
           WHERE product_id = $1 AND day >= $2 AND day <= $3 AND identified = $4 AND ",
        counts_first_party!("event_days"),
        " GROUP BY day, stage \
           UNION ALL \
           SELECT day, stage, SUM(volume) AS volume FROM aggregate_stage_days \
           WHERE product_id = $1 AND day >= $2 AND day <= $3 GROUP BY day, stage \
         ) volumes \
         GROUP BY day, stage \
         ORDER BY day, stage"
    );
    Ok(on_db!(db, pool => sqlx::query_as(SQL)
        .bind(product_id)
        .bind(span.first_day())
        .bind(span.last_day())
        .bind(false)
        .fetch_all(pool)
        .await)?)
}

/// `(stage, source)` for every source that wrote the stage in `span` (events by their
/// namespace's source, and aggregate rows), distinct, sorted.
pub async fn stage_sources(
    db: &Db,
    product_id: &str,
    span: Span,
) -> StoreResult<Vec<(String, String)>> {
    let sql = "SELECT stage, source FROM event_days \
         WHERE product_id = $1 AND day >= $2 AND day <= $3 AND events > 0 \
         UNION \
         SELECT stage, source FROM aggregate_stage_days \
         WHERE product_id = $1 AND day >= $2 AND day <= $3 \
         ORDER BY stage, source";
    Ok(on_db!(db, pool => sqlx::query_as(sql)
        .bind(product_id)
        .bind(span.first_day())
        .bind(span.last_day())
        .fetch_all(pool)
        .await)?)
}

/// The saved funnel steps (JSON text), or `None` while the product is on the built-in ladder.
pub async fn definition(db: &Db, product_id: &str) -> StoreResult<Option<String>> {
    Ok(on_db!(db, pool => sqlx::query_scalar(
        "SELECT steps FROM funnel_definitions WHERE product_id = $1")
        .bind(product_id)
        .fetch_optional(pool)
        .await)?)
}

/// Saves the funnel steps (JSON text) and returns the ones saved before, if any, read under the
/// same lock as the write so the audit's "before" is the row this write replaced.
pub async fn save_definition(
    tx: &mut Tx,
    product_id: &str,
    steps: &str,
    now: Timestamp,
) -> StoreResult<Option<String>> {
    // SQLite transactions already hold the database write lock (BEGIN IMMEDIATE). On
    // PostgreSQL a definition row may not exist yet, so lock the product row instead: two
    // concurrent saves then run one after the other and each sees the other's steps.
    if let Tx::Postgres(conn) = tx {
        sqlx::query("SELECT id FROM products WHERE id = $1 FOR UPDATE")
            .bind(product_id)
            .fetch_optional(&mut **conn)
            .await?;
    }
    let previous: Option<String> = on_tx!(tx, conn => sqlx::query_scalar(
        "SELECT steps FROM funnel_definitions WHERE product_id = $1")
        .bind(product_id)
        .fetch_optional(conn)
        .await)?;
    on_tx!(tx, conn => sqlx::query(
        "INSERT INTO funnel_definitions (product_id, steps, updated_at) VALUES ($1, $2, $3) \
         ON CONFLICT (product_id) DO UPDATE SET steps = excluded.steps, updated_at = excluded.updated_at")
        .bind(product_id)
        .bind(steps)
        .bind(now.millis())
        .execute(conn)
        .await
        .map(|done| done.rows_affected()))?;
    Ok(previous)
}
