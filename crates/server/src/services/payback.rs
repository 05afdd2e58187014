//! Cohort payback: did the spend of a week come back as revenue from the customers acquired
//! that week, and by how many days after acquisition; and CAC per first-touch channel.
//!
//! - Cohorts: customers by the ISO week (Monday, UTC) of their acquisition, the last
//!   [`COHORT_WEEKS`] weeks including the current one, oldest first. A cohort's spend is all
//!   spend of that week; its points give the cumulative net revenue of its customers from their
//!   acquisition day through `d` days after it, for each `d` of
//!   [`payback_store::reports::payback::POINT_DAYS`] that every customer of the cohort has fully
//!   lived through. `payback_day` is the first point whose revenue reaches the spend.
//! - CAC: the last 90 days' spend per channel over the customers first touched by it in those
//!   days; customers with no channel ever are the `unattributed` row.

use std::collections::BTreeMap;

use payback_domain::span::Span;
use payback_domain::{DAY_MS, Timestamp, metrics};
use payback_store::reports::payback::{self, POINT_DAYS};
use serde::Serialize;
use utoipa::ToSchema;

use crate::error::ApiResult;
use crate::services::acting::Caller;
use crate::services::products;
use crate::state::AppState;

/// Half a year of weekly cohorts: enough for the oldest ones to show their 90-day point.
pub const COHORT_WEEKS: i64 = 26;
/// The CAC block's window.
pub const CAC_DAYS: i64 = 90;
const WEEK_MS: i64 = 7 * DAY_MS;
/// The row of customers without any channel.
pub const UNATTRIBUTED: &str = "unattributed";

#[derive(Debug, Serialize, ToSchema)]
pub struct CohortPoint {
    /// Days since acquisition.
    pub day: i64,
    /// Net revenue of the cohort's customers from their acquisition day through `day` days
    /// after it.
    pub cumulative_revenue_cents: i64,
    /// Per customer, rounded to the cent; null when the cohort has no customers.
    pub per_customer_cents: Option<i64>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Cohort {
    /// The Monday (UTC) starting the acquisition week, `YYYY-MM-DD`.
    pub cohort: String,
    pub customers: i64,
    /// All spend of the week.
    pub spend_cents: i64,
    /// Null when the cohort has no customers.
    pub cac_cents: Option<i64>,
    /// Only the points every customer of the cohort has fully lived through.
    pub points: Vec<CohortPoint>,
    /// The first point day whose cumulative revenue reaches the spend; null if none yet (or no
    /// customers).
    pub payback_day: Option<i64>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CacRow {
    pub channel: String,
    pub spend_cents: i64,
    /// Customers acquired in the 90 days whose first touch was this channel.
    pub customers: i64,
    /// Null when no customers.
    pub cac_cents: Option<i64>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PaybackReport {
    pub cohorts: Vec<Cohort>,
    /// Every channel with spend or customers in the last 90 days; `unattributed` last.
    pub cac: Vec<CacRow>,
}

/// Midnight UTC of the Monday of `at`'s ISO week.
pub fn week_start(at: Timestamp) -> Timestamp {
    let day = at.millis().div_euclid(DAY_MS);
    // 1970-01-01 was a Thursday: three days after a Monday.
    let since_monday = (day + 3).rem_euclid(7);
    Timestamp::from_millis((day - since_monday) * DAY_MS)
}

pub async fn report(state: &AppState, caller: &Caller, slug: &str) -> ApiResult<PaybackReport> {
    let product = products::find_settled(state, caller.scope()?, slug).await?;
    let now = state.clock.now();
    Ok(PaybackReport {
        cohorts: cohorts(state, &product.id, now).await?,
        cac: cac(state, &product.id, now).await?,
    })
}

async fn cohorts(state: &AppState, product_id: &str, now: Timestamp) -> ApiResult<Vec<Cohort>> {
    let this_week = week_start(now);
    let first = this_week.minus_millis((COHORT_WEEKS - 1) * WEEK_MS);
    let end = this_week.plus_millis(WEEK_MS);
    let week_of = |at: Timestamp| ((at.millis() - first.millis()).div_euclid(WEEK_MS)) as usize;
    let week_of_day = |day: &str| Timestamp::parse_day(day).map(week_of);

    let mut spend = vec![0_i64; COHORT_WEEKS as usize];
    let last_day = end.minus_millis(1).day();
    for (day, cents) in
        payback::spend_by_day(&state.store, product_id, &first.day(), &last_day).await?
    {
        if let Some(week) = week_of_day(&day).and_then(|week| spend.get_mut(week)) {
            *week += cents;
        }
    }
    let mut customers = vec![0_i64; COHORT_WEEKS as usize];
    for (day, count) in
        payback::customers_by_day(&state.store, product_id, &first.day(), &last_day).await?
    {
        if let Some(week) = week_of_day(&day).and_then(|week| customers.get_mut(week)) {
            *week += count;
        }
    }
    // Revenue counting from each point on, summed up to each point below.
    let mut revenue = vec![[0_i64; POINT_DAYS.len()]; COHORT_WEEKS as usize];
    for row in payback::cohort_revenue(&state.store, product_id, &first.day(), &last_day).await? {
        let Some(sums) = week_of_day(&row.acquired_day).and_then(|week| revenue.get_mut(week))
        else {
            continue;
        };
        for (sum, point) in sums.iter_mut().zip(POINT_DAYS) {
            if row.point_day <= point {
                *sum += row.cents;
            }
        }
    }

    let today = now.start_of_day();
    let mut cohorts = Vec::with_capacity(COHORT_WEEKS as usize);
    for week in 0..COHORT_WEEKS as usize {
        let monday = first.plus_millis(week as i64 * WEEK_MS);
        let (count, spent) = (customers[week], spend[week]);
        // Day `d` is over for the week's last customer once Sunday + d has ended.
        let points: Vec<CohortPoint> = POINT_DAYS
            .iter()
            .zip(revenue[week])
            .filter(|(d, _)| monday.plus_millis(WEEK_MS + *d * DAY_MS) <= today)
            .map(|(d, cents)| CohortPoint {
                day: *d,
                cumulative_revenue_cents: cents,
                per_customer_cents: metrics::ltv(cents, count),
            })
            .collect();
        let payback_day = points
            .iter()
            .find(|p| count > 0 && p.cumulative_revenue_cents >= spent)
            .map(|p| p.day);
        cohorts.push(Cohort {
            cohort: monday.day(),
            customers: count,
            spend_cents: spent,
            cac_cents: metrics::cac(spent, count),
            points,
            payback_day,
        });
    }
    Ok(cohorts)
}

async fn cac(state: &AppState, product_id: &str, now: Timestamp) -> ApiResult<Vec<CacRow>> {
    let span = Span::days_ending(now, CAC_DAYS);
    // channel -> (spend, customers); `None` sorts first, so it is moved last below.
    let mut rows: BTreeMap<Option<String>, (i64, i64)> = BTreeMap::new();
    for (channel, cents) in payback::spend_by_channel(
        &state.store,
        product_id,
        &span.first_day(),
        &span.last_day(),
    )
    .await?
    {
        rows.entry(Some(channel)).or_default().0 += cents;
    }
    for (channel, count) in
        payback::customers_by_first_channel(&state.store, product_id, span.start, span.end).await?
    {
        // A channel literally named `unattributed` joins the row of that name.
        let channel = channel.filter(|c| c != UNATTRIBUTED);
        rows.entry(channel).or_default().1 += count;
    }
    let unattributed = rows.remove(&None);
    let named = rows
        .into_iter()
        .filter_map(|(channel, totals)| channel.map(|c| (c, totals)));
    Ok(named
        .chain(unattributed.map(|totals| (UNATTRIBUTED.to_owned(), totals)))
        .map(|(channel, (spend_cents, customers))| CacRow {
            // No spend can belong to `unattributed`, so its customers did not come "for free":
            // its CAC is unknown (null), as in the attribution report, never 0.
            cac_cents: (channel != UNATTRIBUTED)
                .then(|| metrics::cac(spend_cents, customers))
                .flatten(),
            channel,
            spend_cents,
            customers,
        })
        .collect())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // a failing unwrap is the test's failure message
mod tests {
    use super::*;

    #[test]
    fn weeks_start_on_monday_utc() {
        let monday = |text: &str| week_start(Timestamp::parse_rfc3339(text).unwrap()).day();
        assert_eq!(monday("2026-11-21T12:00:00Z"), "2026-11-16");
        assert_eq!(monday("2026-11-16T00:00:00Z"), "2026-11-16");
        assert_eq!(monday("2026-11-15T23:59:59.999Z"), "2026-11-09");
        assert_eq!(monday("1970-01-01T00:00:00Z"), "1969-12-29");
        assert_eq!(monday("2027-01-03T08:00:00+09:00"), "2026-12-28");
    }
}
