//! Cohort payback: customers by acquisition, their cumulative revenue since acquisition, and
//! spend. Reads the daily tables the fold keeps (`identity_days` for customers,
//! `cohort_revenue_days` for their revenue by days since acquisition) and `spend_rows`: a few
//! rows a day, never a row per customer or sale.

use payback_domain::{DAY_MS, Timestamp};

use crate::Db;
use crate::error::StoreResult;

/// Days after acquisition at which cumulative revenue is read (the cohort curve's points).
/// `cohort_revenue_days` (migration 0025) is kept per point: changing them means a migration
/// that refills it.
pub const POINT_DAYS: [i64; 6] = [0, 7, 14, 30, 60, 90];

/// The point a revenue row `age_days` UTC days after its customer's acquisition day counts
/// from (its revenue is in every point from this one on), if any: the first point at or after
/// the age; none before the acquisition day or past the last point.
pub fn cohort_point(age_days: i64) -> Option<i64> {
    if age_days < 0 {
        return None;
    }
    POINT_DAYS.iter().copied().find(|point| age_days <= *point)
}

/// [`cohort_point`] in SQL, of a row whose age in days is `age` (an expression), for rows
/// already limited to ages of 0 through the last point.
pub(crate) fn cohort_point_sql(age: &str) -> String {
    let cases: Vec<String> = POINT_DAYS
        .iter()
        .filter(|point| **point != LAST_POINT_DAY)
        .map(|point| format!("WHEN {age} <= {point} THEN {point}"))
        .collect();
    format!("CASE {} ELSE {LAST_POINT_DAY} END", cases.join(" "))
}

/// The last point: revenue rows later than this many days after acquisition count for none.
pub(crate) const LAST_POINT_DAY: i64 = POINT_DAYS[POINT_DAYS.len() - 1];

/// UTC days from the acquisition day of a customer acquired at `acquired_at` to the day of a
/// revenue row at `occurred_at` (both epoch milliseconds).
pub fn cohort_age_days(occurred_at: i64, acquired_at: i64) -> i64 {
    occurred_at.div_euclid(DAY_MS) - acquired_at.div_euclid(DAY_MS)
}

/// [`cohort_age_days`] in SQL, of the columns `occurred_at` and `acquired_at`. SQL's `%` and
/// `/` truncate towards zero, so each instant is first brought down to its day's midnight (an
/// event may predate 1970).
pub(crate) fn cohort_age_sql(occurred_at: &str, acquired_at: &str) -> String {
    let day_number =
        |at: &str| format!("({at} - (({at} % {DAY_MS}) + {DAY_MS}) % {DAY_MS}) / {DAY_MS}");
    format!(
        "({} - {})",
        day_number(occurred_at),
        day_number(acquired_at)
    )
}

/// Revenue of the customers acquired on one day that counts from one point of the curve on
/// (see [`cohort_point`]).
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct CohortRevenue {
    pub acquired_day: String,
    pub point_day: i64,
    pub cents: i64,
}

/// The cohort revenue of the customers acquired from `first_day` through `last_day`, from
/// `cohort_revenue_days`: at most a row per day and point.
pub async fn cohort_revenue(
    db: &Db,
    product_id: &str,
    first_day: &str,
    last_day: &str,
) -> StoreResult<Vec<CohortRevenue>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT acquired_day, point_day, cents FROM cohort_revenue_days \
         WHERE product_id = $1 AND acquired_day >= $2 AND acquired_day <= $3 AND rows <> 0 \
         ORDER BY acquired_day, point_day")
        .bind(product_id)
        .bind(first_day)
        .bind(last_day)
        .fetch_all(pool)
        .await)?)
}

/// Customers acquired per day from `first_day` through `last_day` (days with any), from
/// `identity_days`.
pub async fn customers_by_day(
    db: &Db,
    product_id: &str,
    first_day: &str,
    last_day: &str,
) -> StoreResult<Vec<(String, i64)>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT day, CAST(SUM(acquired) AS BIGINT) FROM identity_days \
         WHERE product_id = $1 AND day >= $2 AND day <= $3 \
         GROUP BY day HAVING SUM(acquired) <> 0 ORDER BY day")
        .bind(product_id)
        .bind(first_day)
        .bind(last_day)
        .fetch_all(pool)
        .await)?)
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
