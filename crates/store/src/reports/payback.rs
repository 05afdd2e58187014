//! Cohort payback: customers by acquisition, their cumulative revenue since acquisition, and
//! spend. Reads `identity_profiles` through its acquisition index, `transactions` through its
//! identity index and `spend_rows`; never raw events.

use payback_domain::{DAY_MS, Timestamp};

use crate::Db;
use crate::error::StoreResult;

/// Days after acquisition at which cumulative revenue is read (the cohort curve's points).
pub const POINT_DAYS: [i64; 6] = [0, 7, 14, 30, 60, 90];

/// One customer acquired in the span and their net revenue up to each point of
/// [`POINT_DAYS`]: revenue rows from their acquisition day through `d` UTC days after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CustomerCurve {
    pub acquired_at: Timestamp,
    pub cumulative_cents: [i64; POINT_DAYS.len()],
}

#[derive(sqlx::FromRow)]
struct CurveRow {
    acquired_at: i64,
    d0: i64,
    d7: i64,
    d14: i64,
    d30: i64,
    d60: i64,
    d90: i64,
}

/// Customers acquired in `[from, to)` with their revenue curves.
pub async fn customer_curves(
    db: &Db,
    product_id: &str,
    from: Timestamp,
    to: Timestamp,
) -> StoreResult<Vec<CustomerCurve>> {
    // `start` is midnight UTC of the acquisition day; point `d` takes revenue rows before the
    // end of day `d` after it. The offsets are bound, not spliced, so the SQL is constant.
    let [o0, o7, o14, o30, o60, o90] = POINT_DAYS.map(|d| (d + 1) * DAY_MS);
    let rows: Vec<CurveRow> = on_db!(db, pool => sqlx::query_as(
        "SELECT c.acquired_at, \
         CAST(COALESCE(SUM(CASE WHEN t.occurred_at < c.start + $5 THEN t.amount_cents ELSE 0 END), 0) AS BIGINT) AS d0, \
         CAST(COALESCE(SUM(CASE WHEN t.occurred_at < c.start + $6 THEN t.amount_cents ELSE 0 END), 0) AS BIGINT) AS d7, \
         CAST(COALESCE(SUM(CASE WHEN t.occurred_at < c.start + $7 THEN t.amount_cents ELSE 0 END), 0) AS BIGINT) AS d14, \
         CAST(COALESCE(SUM(CASE WHEN t.occurred_at < c.start + $8 THEN t.amount_cents ELSE 0 END), 0) AS BIGINT) AS d30, \
         CAST(COALESCE(SUM(CASE WHEN t.occurred_at < c.start + $9 THEN t.amount_cents ELSE 0 END), 0) AS BIGINT) AS d60, \
         CAST(COALESCE(SUM(CASE WHEN t.occurred_at < c.start + $10 THEN t.amount_cents ELSE 0 END), 0) AS BIGINT) AS d90 \
         FROM (SELECT identity, acquired_at, acquired_at - (acquired_at % $4) AS start FROM identity_profiles \
               WHERE product_id = $1 AND acquired_at >= $2 AND acquired_at < $3) c \
         LEFT JOIN transactions t ON t.product_id = $1 AND t.identity = c.identity AND t.occurred_at >= c.start \
         GROUP BY c.identity, c.acquired_at \
         ORDER BY c.acquired_at, c.identity")
        .bind(product_id)
        .bind(from.millis())
        .bind(to.millis())
        .bind(DAY_MS)
        .bind(o0)
        .bind(o7)
        .bind(o14)
        .bind(o30)
        .bind(o60)
        .bind(o90)
        .fetch_all(pool)
        .await)?;
    Ok(rows
        .into_iter()
        .map(|row| CustomerCurve {
            acquired_at: Timestamp::from_millis(row.acquired_at),
            cumulative_cents: [row.d0, row.d7, row.d14, row.d30, row.d60, row.d90],
        })
        .collect())
}

/// Spend per day between two days (inclusive), oldest first.
pub async fn spend_by_day(
    db: &Db,
    product_id: &str,
    first_day: &str,
    last_day: &str,
) -> StoreResult<Vec<(String, i64)>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT day, CAST(SUM(spend_cents) AS BIGINT) FROM spend_rows \
         WHERE product_id = $1 AND day >= $2 AND day <= $3 GROUP BY day ORDER BY day")
        .bind(product_id)
        .bind(first_day)
        .bind(last_day)
        .fetch_all(pool)
        .await)?)
}

/// Spend per channel between two days (inclusive).
pub async fn spend_by_channel(
    db: &Db,
    product_id: &str,
    first_day: &str,
    last_day: &str,
) -> StoreResult<Vec<(String, i64)>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT channel, CAST(SUM(spend_cents) AS BIGINT) FROM spend_rows \
         WHERE product_id = $1 AND day >= $2 AND day <= $3 GROUP BY channel ORDER BY channel")
        .bind(product_id)
        .bind(first_day)
        .bind(last_day)
        .fetch_all(pool)
        .await)?)
}

/// Customers acquired in `[from, to)`, two UTC midnights, per first-touch channel (`None`: no
/// channel ever), from `identity_days` (migration 0020).
pub async fn customers_by_first_channel(
    db: &Db,
    product_id: &str,
    from: Timestamp,
    to: Timestamp,
) -> StoreResult<Vec<(Option<String>, i64)>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT NULLIF(channel, ''), CAST(SUM(acquired) AS BIGINT) FROM identity_days \
         WHERE product_id = $1 AND day >= $2 AND day <= $3 \
         GROUP BY channel HAVING SUM(acquired) <> 0 ORDER BY channel")
        .bind(product_id)
        .bind(from.day())
        .bind(to.minus_millis(1).day())
        .fetch_all(pool)
        .await)?)
}
