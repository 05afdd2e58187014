//! Report queries: the sums behind each product row (portfolio and single product). Each metric
//! is one query grouped by product over all requested products, so a portfolio of N products
//! costs a fixed number of queries, not N times as many.

use std::collections::HashMap;

use payback_domain::span::Span;
use sqlx::QueryBuilder;

use crate::Db;
use crate::aggregate_stages::counts_first_party;
use crate::error::StoreResult;

/// The raw sums of one product; the ratios (CAC, LTV, LTV:CAC) are derived by the caller.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProductSums {
    pub spend_7d_cents: i64,
    pub spend_30d_cents: i64,
    pub spend_prev_30d_cents: i64,
    pub visits_30d: i64,
    pub leads_30d: i64,
    pub customers_30d: i64,
    pub revenue_30d_cents: i64,
    pub revenue_prev_30d_cents: i64,
    /// All-time net revenue of every customer ever acquired, and how many there are.
    pub customers_revenue_cents: i64,
    pub customers_all_time: i64,
}

/// The windows a product row reads: the last 7 days and the last 30 (with the 30 before).
#[derive(Debug, Clone, Copy)]
pub struct RowWindows {
    pub week: Span,
    pub month: Span,
}

/// Product ids per query; well under SQLite's bound-parameter limit.
const CHUNK: usize = 500;

/// Sums for each of `product_ids` (every id gets an entry, zero when it has no data).
pub async fn sums(
    db: &Db,
    product_ids: &[&str],
    windows: RowWindows,
) -> StoreResult<HashMap<String, ProductSums>> {
    let mut out: HashMap<String, ProductSums> = product_ids
        .iter()
        .map(|id| ((*id).to_owned(), ProductSums::default()))
        .collect();
    for chunk in product_ids.chunks(CHUNK) {
        spend(db, chunk, windows, &mut out).await?;
        revenue(db, chunk, windows.month, &mut out).await?;
        customers(db, chunk, windows.month, &mut out).await?;
        for (stage, slot) in [("visit", Volume::Visits), ("lead", Volume::Leads)] {
            for (product, volume) in stage_volume(db, chunk, stage, windows.month).await? {
                if let Some(sums) = out.get_mut(&product) {
                    match slot {
                        Volume::Visits => sums.visits_30d += volume,
                        Volume::Leads => sums.leads_30d += volume,
                    }
                }
            }
        }
    }
    Ok(out)
}

#[derive(Clone, Copy)]
enum Volume {
    Visits,
    Leads,
}

/// `product_id IN ($a, $b, ...)`, one bound parameter per id.
fn push_ids<DB: sqlx::Database>(query: &mut QueryBuilder<DB>, ids: &[&str])
where
    for<'t> &'t str: sqlx::Encode<'t, DB> + sqlx::Type<DB>,
{
    query.push("product_id IN (");
    let mut list = query.separated(", ");
    for id in ids {
        list.push_bind(*id);
    }
    query.push(")");
}

async fn spend(
    db: &Db,
    ids: &[&str],
    windows: RowWindows,
    out: &mut HashMap<String, ProductSums>,
) -> StoreResult<()> {
    let (week_from, month_from) = (windows.week.first_day(), windows.month.first_day());
    let previous = windows.month.previous();
    let (from, to) = (previous.first_day(), windows.month.last_day());
    let rows: Vec<(String, i64, i64, i64)> = on_db!(db, pool => {
        let mut query = QueryBuilder::new("SELECT product_id, COALESCE(CAST(SUM(CASE WHEN day >= ");
        query.push_bind(&week_from).push(" THEN spend_cents ELSE 0 END) AS BIGINT), 0), COALESCE(CAST(SUM(CASE WHEN day >= ");
        query.push_bind(&month_from).push(" THEN spend_cents ELSE 0 END) AS BIGINT), 0), COALESCE(CAST(SUM(CASE WHEN day < ");
        query.push_bind(&month_from).push(" THEN spend_cents ELSE 0 END) AS BIGINT), 0) FROM spend_rows WHERE ");
        push_ids(&mut query, ids);
        query.push(" AND day >= ").push_bind(&from).push(" AND day <= ").push_bind(&to).push(" GROUP BY product_id");
        query.build_query_as().fetch_all(pool).await
    })?;
    for (product, week, month, before) in rows {
        if let Some(sums) = out.get_mut(&product) {
            sums.spend_7d_cents = week;
            sums.spend_30d_cents = month;
            sums.spend_prev_30d_cents = before;
        }
    }
    Ok(())
}

async fn revenue(
    db: &Db,
    ids: &[&str],
    month: Span,
    out: &mut HashMap<String, ProductSums>,
) -> StoreResult<()> {
    let previous = month.previous();
    // `revenue_days` (migration 0020): the revenue rows' sums per day.
    let (month_from, from, to) = (month.first_day(), previous.first_day(), month.last_day());
    let rows: Vec<(String, i64, i64)> = on_db!(db, pool => {
        let mut query = QueryBuilder::new("SELECT product_id, COALESCE(CAST(SUM(CASE WHEN day >= ");
        query.push_bind(&month_from).push(" THEN cents ELSE 0 END) AS BIGINT), 0), COALESCE(CAST(SUM(CASE WHEN day < ");
        query.push_bind(&month_from).push(" THEN cents ELSE 0 END) AS BIGINT), 0) FROM revenue_days WHERE ");
        push_ids(&mut query, ids);
        query.push(" AND day >= ").push_bind(&from)
            .push(" AND day <= ").push_bind(&to).push(" GROUP BY product_id");
        query.build_query_as().fetch_all(pool).await
    })?;
    for (product, current, before) in rows {
        if let Some(sums) = out.get_mut(&product) {
            sums.revenue_30d_cents = current;
            sums.revenue_prev_30d_cents = before;
        }
    }
    Ok(())
}

/// Customers acquired in the window (`identity_days`, per acquisition day), and every customer
/// ever acquired with their all-time revenue, for LTV (`customer_totals`, one row a product;
/// both of migration 0020).
async fn customers(
    db: &Db,
    ids: &[&str],
    month: Span,
    out: &mut HashMap<String, ProductSums>,
) -> StoreResult<()> {
    let acquired: Vec<(String, i64)> = on_db!(db, pool => {
        let mut query = QueryBuilder::new(
            "SELECT product_id, COALESCE(CAST(SUM(acquired) AS BIGINT), 0) FROM identity_days WHERE ");
        push_ids(&mut query, ids);
        query.push(" AND day >= ").push_bind(month.first_day())
            .push(" AND day <= ").push_bind(month.last_day()).push(" GROUP BY product_id");
        query.build_query_as().fetch_all(pool).await
    })?;
    for (product, in_window) in acquired {
        if let Some(sums) = out.get_mut(&product) {
            sums.customers_30d = in_window;
        }
    }
    let totals: Vec<(String, i64, i64)> = on_db!(db, pool => {
        let mut query = QueryBuilder::new(
            "SELECT product_id, CAST(revenue AS BIGINT), CAST(customers AS BIGINT) FROM customer_totals WHERE ");
        push_ids(&mut query, ids);
        query.build_query_as().fetch_all(pool).await
    })?;
    for (product, revenue, all_time) in totals {
        if let Some(sums) = out.get_mut(&product) {
            sums.customers_revenue_cents = revenue;
            sums.customers_all_time = all_time;
        }
    }
    Ok(())
}

/// Stage volume per product over a window: distinct identities with the stage, plus each
/// identity-less event of the stage, plus the aggregate rows sources wrote. The distinct
/// identities are those whose latest day with the stage falls in the window
/// (`stage_channel_days.lasts`, see `reports::funnel`), for each product none of whose
/// identities has a later day; for the others they are counted from `stage_identity_days`.
pub async fn stage_volume(
    db: &Db,
    ids: &[&str],
    stage: &str,
    span: Span,
) -> StoreResult<HashMap<String, i64>> {
    let (from, to) = (span.first_day(), span.last_day());
    let mut volumes: HashMap<String, i64> = HashMap::new();
    // Per product: identities whose latest day is in the window, and whether any is later.
    let lasts: Vec<(String, i64, i64)> = on_db!(db, pool => {
        let mut query = QueryBuilder::new(
            "SELECT product_id, CAST(COALESCE(SUM(CASE WHEN day <= ");
        query.push_bind(&to).push(" THEN lasts ELSE 0 END), 0) AS BIGINT), \
            CAST(COALESCE(SUM(CASE WHEN day > ").push_bind(&to)
            .push(" THEN lasts ELSE 0 END), 0) AS BIGINT) FROM stage_channel_days WHERE ");
        push_ids(&mut query, ids);
        query.push(" AND stage = ").push_bind(stage).push(" AND day >= ").push_bind(&from)
            .push(" AND ").push(counts_first_party!("stage_channel_days"))
            .push(" GROUP BY product_id");
        query.build_query_as().fetch_all(pool).await
    })?;
    let mut unsettled: Vec<&str> = Vec::new();
    for (product, within, later) in lasts {
        match ids.iter().find(|id| **id == product) {
            Some(id) if later != 0 => unsettled.push(id),
            _ => *volumes.entry(product).or_default() += within,
        }
    }
    if !unsettled.is_empty() {
        for (product, volume) in distinct_identities(db, &unsettled, stage, span).await? {
            *volumes.entry(product).or_default() += volume;
        }
    }
    let parts = [
        (
            "COALESCE(CAST(SUM(events) AS BIGINT), 0)",
            "event_days",
            " AND identified = ",
        ),
        (
            "COALESCE(CAST(SUM(volume) AS BIGINT), 0)",
            "aggregate_stage_days",
            "",
        ),
    ];
    for (measure, table, identified) in parts {
        let rows: Vec<(String, i64)> = on_db!(db, pool => {
            let mut query = QueryBuilder::new(format!("SELECT product_id, {measure} FROM {table} WHERE "));
            push_ids(&mut query, ids);
            query.push(" AND stage = ").push_bind(stage)
                .push(" AND day >= ").push_bind(&from).push(" AND day <= ").push_bind(&to);
            if !identified.is_empty() {
                query.push(identified).push_bind(false);
                query.push(" AND ").push(counts_first_party!("event_days"));
            }
            query.push(" GROUP BY product_id");
            query.build_query_as().fetch_all(pool).await
        })?;
        for (product, volume) in rows {
            *volumes.entry(product).or_default() += volume;
        }
    }
    Ok(volumes)
}

/// Distinct identities with `stage` in the span per product, from `stage_identity_days`.
async fn distinct_identities(
    db: &Db,
    ids: &[&str],
    stage: &str,
    span: Span,
) -> StoreResult<Vec<(String, i64)>> {
    Ok(on_db!(db, pool => {
        let mut query = QueryBuilder::new(
            "SELECT product_id, COUNT(DISTINCT identity) FROM stage_identity_days WHERE ");
        push_ids(&mut query, ids);
        query.push(" AND stage = ").push_bind(stage)
            .push(" AND day >= ").push_bind(span.first_day())
            .push(" AND day <= ").push_bind(span.last_day())
            .push(" AND ").push(counts_first_party!("stage_identity_days"))
            .push(" GROUP BY product_id");
        query.build_query_as().fetch_all(pool).await
    })?)
}
