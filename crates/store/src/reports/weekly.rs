//! Report queries: the weekly scorecard's figures, per ISO week (Monday to Sunday, UTC days)
//! of a run of consecutive weeks, read from the daily tables the fold keeps (never raw events):
//!
//! - stage volumes of `visit`, `lead` and `signup`: distinct identities with the stage that week
//!   (`stage_identity_days`, one statement grouping its days by week, so an identity active on
//!   two days of a week counts once), plus each identity-less event of the stage (`event_days`)
//!   and the volumes sources wrote (`aggregate_stage_days`);
//! - customers acquired (`identity_days.acquired`), net revenue (`revenue_days`) and spend
//!   (`spend_rows`), summed over the week's days;
//! - search clicks and impressions, summed over the week's days by their snapshot words' day
//!   rule, and social followers at the week's last day with a reading (a level, not a flow).

use payback_domain::snapshot_metric::{SEARCH_CLICKS, SEARCH_IMPRESSIONS, SOCIAL_FOLLOWERS};
use payback_domain::span::Span;
use payback_domain::{DAY_MS, Timestamp};

use crate::Db;
use crate::aggregate_stages::counts_first_party;
use crate::error::StoreResult;
use crate::reports::series;

/// The stages the scorecard counts, with their wire words.
const STAGES: [&str; 3] = ["visit", "lead", "signup"];

/// One week's figures; counts are whole numbers, money integer cents.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct WeekFigures {
    pub visits: i64,
    pub leads: i64,
    pub signups: i64,
    pub customers: i64,
    pub revenue_cents: i64,
    pub spend_cents: i64,
    pub search_clicks: f64,
    pub search_impressions: f64,
    /// Followers at the week's last day with a reading; `None` without one.
    pub social_followers: Option<f64>,
}

/// The figures of `weeks` consecutive ISO weeks starting on the Monday `first_monday`
/// (`YYYY-MM-DD`), oldest first. An empty answer for 0 weeks.
pub async fn weekly(
    db: &Db,
    product_id: &str,
    first_monday: &str,
    weeks: usize,
) -> StoreResult<Vec<WeekFigures>> {
    let mut figures = vec![WeekFigures::default(); weeks];
    let Some(start) = Timestamp::parse_day(first_monday) else {
        return Ok(figures);
    };
    if weeks == 0 {
        return Ok(figures);
    }
    let span = Span {
        start,
        end: start.plus_millis(7 * DAY_MS * weeks as i64),
    };
    // The week of a day: whole weeks since the first Monday.
    let week_of = |day: &str| -> Option<usize> {
        let at = Timestamp::parse_day(day)?;
        let index = usize::try_from((at.millis() - start.millis()).div_euclid(7 * DAY_MS)).ok()?;
        (index < weeks).then_some(index)
    };

    for (index, stage, volume) in identified_stage_volumes(db, product_id, span, weeks).await? {
        if let Some(week) = usize::try_from(index).ok().and_then(|i| figures.get_mut(i)) {
            *stage_field(week, &stage) += volume;
        }
    }
    for (day, stage, volume) in unidentified_stage_volumes(db, product_id, span).await? {
        if let Some(week) = week_of(&day).and_then(|i| figures.get_mut(i)) {
            *stage_field(week, &stage) += volume;
        }
    }
    let daily: [(Counter, Vec<(String, i64)>); 3] = [
        (
            |w| &mut w.customers,
            series::customers_by_day(db, product_id, span).await?,
        ),
        (
            |w| &mut w.revenue_cents,
            series::revenue_by_day(db, product_id, span).await?,
        ),
        (
            |w| &mut w.spend_cents,
            series::spend_by_day(db, product_id, span).await?,
        ),
    ];
    for (field, rows) in daily {
        for (day, value) in rows {
            if let Some(week) = week_of(&day).and_then(|i| figures.get_mut(i)) {
                *field(week) += value;
            }
        }
    }
    // Oldest day first, so the last reading of a week wins for followers.
    let mut snapshots = series::snapshot_metrics_by_day(
        db,
        product_id,
        span,
        &[SEARCH_CLICKS, SEARCH_IMPRESSIONS, SOCIAL_FOLLOWERS],
    )
    .await?;
    snapshots.sort_by(|a, b| a.day.cmp(&b.day));
    for value in snapshots {
        let Some(week) = week_of(&value.day).and_then(|i| figures.get_mut(i)) else {
            continue;
        };
        match value.metric.as_str() {
            SEARCH_CLICKS => week.search_clicks += value.value,
            SEARCH_IMPRESSIONS => week.search_impressions += value.value,
            SOCIAL_FOLLOWERS => week.social_followers = Some(value.value),
            _ => {}
        }
    }
    Ok(figures)
}

/// One of a week's whole-number figures.
type Counter = fn(&mut WeekFigures) -> &mut i64;

/// A stage's counter in a week's figures; the stages are [`STAGES`].
fn stage_field<'a>(week: &'a mut WeekFigures, stage: &str) -> &'a mut i64 {
    match stage {
        "visit" => &mut week.visits,
        "lead" => &mut week.leads,
        _ => &mut week.signups,
    }
}

/// `(week index, stage, distinct identities)` of [`STAGES`]: the weeks are a `VALUES` list
/// joined to the daily identity rows by day range, so the distinct count is per week.
async fn identified_stage_volumes(
    db: &Db,
    product_id: &str,
    span: Span,
    weeks: usize,
) -> StoreResult<Vec<(i64, String, i64)>> {
    let bounds: Vec<(i64, String, String)> = (0..weeks)
        .map(|index| {
            let monday = span.start.plus_millis(7 * DAY_MS * index as i64);
            (
                index as i64,
                monday.day(),
                monday.plus_millis(6 * DAY_MS).day(),
            )
        })
        .collect();
    let mut rows = Vec::new();
    // 3 parameters a week: 500 weeks a statement stays far under SQLite's 32766.
    for chunk in bounds.chunks(500) {
        let found: Vec<(i64, String, i64)> = on_db!(db, pool => {
            let mut query = sqlx::QueryBuilder::new("WITH weeks (idx, first_day, last_day) AS (");
            query.push_values(chunk, |mut row, (index, first, last)| {
                row.push_bind(*index).push_bind(first).push_bind(last);
            });
            query.push(
                ") SELECT w.idx, s.stage, CAST(COUNT(DISTINCT s.identity) AS BIGINT) \
                 FROM weeks w JOIN stage_identity_days s ON s.product_id = ",
            );
            query.push_bind(product_id);
            query.push(" AND s.day >= w.first_day AND s.day <= w.last_day AND s.stage IN (");
            let mut stages = query.separated(", ");
            for stage in STAGES {
                stages.push_bind(stage);
            }
            query.push(") AND ").push(counts_first_party!("s"));
            query.push(" GROUP BY w.idx, s.stage");
            query.build_query_as().fetch_all(pool).await
        })?;
        rows.extend(found);
    }
    Ok(rows)
}

/// `(day, stage, volume)` of [`STAGES`] that no identity carries: identity-less events and the
/// volumes sources wrote, per day of `span`.
async fn unidentified_stage_volumes(
    db: &Db,
    product_id: &str,
    span: Span,
) -> StoreResult<Vec<(String, String, i64)>> {
    const SQL: &str = concat!(
        "SELECT day, stage, CAST(SUM(volume) AS BIGINT) FROM ( \
           SELECT day, stage, SUM(events) AS volume FROM event_days \
           WHERE product_id = $1 AND day >= $2 AND day <= $3 AND identified = $4 \
             AND stage IN ($5, $6, $7) AND ",
        counts_first_party!("event_days"),
        " GROUP BY day, stage \
           UNION ALL \
           SELECT day, stage, SUM(volume) AS volume FROM aggregate_stage_days \
           WHERE product_id = $1 AND day >= $2 AND day <= $3 \
             AND stage IN ($5, $6, $7) GROUP BY day, stage \
         ) volumes GROUP BY day, stage"
    );
    Ok(on_db!(db, pool => sqlx::query_as(SQL)
        .bind(product_id)
        .bind(span.first_day())
        .bind(span.last_day())
        .bind(false)
        .bind(STAGES[0])
        .bind(STAGES[1])
        .bind(STAGES[2])
        .fetch_all(pool)
        .await)?)
}

/// `(all-time net revenue of every customer ever acquired, their count)` (`customer_totals`),
/// for the LTV the scorecard's LTV:CAC divides; zeros without customers.
pub async fn customer_totals(db: &Db, product_id: &str) -> StoreResult<(i64, i64)> {
    let totals: Option<(i64, i64)> = on_db!(db, pool => sqlx::query_as(
        "SELECT CAST(revenue AS BIGINT), CAST(customers AS BIGINT) FROM customer_totals \
         WHERE product_id = $1")
        .bind(product_id)
        .fetch_optional(pool)
        .await)?;
    Ok(totals.unwrap_or((0, 0)))
}
