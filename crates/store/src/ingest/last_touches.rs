//! The touches a revenue row or a customer is credited to, kept on the rows themselves: each
//! revenue row's last touch (`transactions.last_touch_at`, `last_channel`) and last paid touch
//! (`transactions.paid_touch_id`, with that touch's channel and ad tags in `paid_channel` and
//! `paid_tags`), and each customer's last paid touch before acquisition (`identity_profiles`'
//! `acquired_touch_id`, `acquired_paid_channel`, `acquired_paid_tags`; migration 0024).
//!
//! They change only when the identity's touches, revenue rows or acquisition change, which
//! the fold knows, so it recomputes them for those identities; a report then reads them as
//! columns instead of searching each identity's touches per row (the ads report did so for a
//! year of revenue rows and customers: 100-130 ms at 1M events on SQLite).

use std::collections::BTreeSet;

use super::CHUNK;
use crate::error::StoreResult;
use crate::reports::attribution::AdLevel;
use crate::{Backend, Tx};

/// The ad tags of the touch event `e` as one JSON object text (`{"utm_campaign": .., "utm_id":
/// .., "utm_term": .., "utm_content": ..}`, each a string or null): what the ads report groups
/// by at every grain, so a window's revenue groups into a row per ad, not per sale. The event's
/// `attribution` is JSON the ingestion wrote from its typed attribution, always well formed.
pub(crate) fn ad_tags_of_touch(backend: Backend) -> String {
    let pairs: Vec<String> = AdLevel::ALL
        .iter()
        .map(|level| {
            let key = level.tag_key();
            match backend {
                Backend::Sqlite => format!("'{key}', json_extract(e.attribution, '$.{key}')"),
                Backend::Postgres => format!("'{key}', CAST(e.attribution AS json) ->> '{key}'"),
            }
        })
        .collect();
    let pairs = pairs.join(", ");
    match backend {
        Backend::Sqlite => format!("json_object({pairs})"),
        Backend::Postgres => format!("CAST(json_build_object({pairs}) AS text)"),
    }
}

/// The event id of the identity's latest paid touch (a `paid_*` channel) at or before `at` of
/// the row of `table` being updated (ties: the later-ingested event): one descent of the
/// touches' primary key, walking back past unpaid touches.
fn latest_paid_touch(table: &str, at: &str) -> String {
    format!(
        "(SELECT t.event_id FROM identity_touches t WHERE t.product_id = {table}.product_id \
         AND t.identity = {table}.identity AND t.occurred_at <= {table}.{at} \
         AND substr(t.channel, 1, 5) = 'paid_' ORDER BY t.occurred_at DESC, t.event_id DESC LIMIT 1)"
    )
}

/// `(id, channel, tags)` of the paid touch `touch` (an event id), NULLs when there is none.
fn paid_touch_columns(backend: Backend, touch: &str) -> String {
    format!(
        "(SELECT e.id, e.channel, {} FROM events e WHERE e.id = {touch})",
        ad_tags_of_touch(backend)
    )
}

/// Sets each revenue row's last touch to the identity's latest channel-bearing event at or
/// before it, and its paid touch to the latest paid one (ties: the later-ingested event).
fn revenue_touches(backend: Backend) -> String {
    format!(
        "UPDATE transactions SET (last_touch_at, last_channel) = (\
         SELECT t.occurred_at, t.channel FROM identity_touches t \
         WHERE t.product_id = transactions.product_id AND t.identity = transactions.identity \
         AND t.occurred_at <= transactions.occurred_at \
         ORDER BY t.occurred_at DESC, t.event_id DESC LIMIT 1), \
         (paid_touch_id, paid_channel, paid_tags) = {}",
        paid_touch_columns(backend, &latest_paid_touch("transactions", "occurred_at"))
    )
}

/// Sets each customer's paid touch to the identity's latest paid touch at or before its
/// acquisition.
fn customer_touches(backend: Backend) -> String {
    format!(
        "UPDATE identity_profiles SET (acquired_touch_id, acquired_paid_channel, acquired_paid_tags) = {}",
        paid_touch_columns(
            backend,
            &latest_paid_touch("identity_profiles", "acquired_at")
        )
    )
}

/// A revenue row as the daily tables see it: read before the fold writes, or returned by
/// [`recompute_revenue_touches`] after.
#[derive(Debug, Clone, sqlx::FromRow)]
pub(super) struct RevenueRowTouches {
    pub identity: String,
    pub day: String,
    pub occurred_at: i64,
    pub amount_cents: i64,
    pub last_channel: Option<String>,
    pub paid_channel: Option<String>,
    pub paid_tags: Option<String>,
}

/// The columns of [`RevenueRowTouches`] after `identity`.
pub(super) const REVENUE_ROW_COLUMNS: &str =
    "day, occurred_at, amount_cents, last_channel, paid_channel, paid_tags";

/// A customer's paid touch before acquisition, as [`recompute_customer_touches`] leaves it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub(super) struct CustomerTouch {
    pub identity: String,
    pub acquired_day: String,
    pub acquired_paid_channel: Option<String>,
    pub acquired_paid_tags: Option<String>,
}

/// Recomputes the last and paid touch of every revenue row of `identities`; returns every one
/// of those rows as it now is.
pub(super) async fn recompute_revenue_touches(
    tx: &mut Tx,
    product_id: &str,
    identities: &BTreeSet<String>,
) -> StoreResult<Vec<RevenueRowTouches>> {
    let update = revenue_touches(tx.backend());
    let returning = format!("identity, {REVENUE_ROW_COLUMNS}");
    update_rows_of(
        tx,
        product_id,
        identities,
        &update,
        "transactions",
        "",
        &returning,
    )
    .await
}

/// Recomputes the paid touch of `identities` that are customers; returns each of those.
pub(super) async fn recompute_customer_touches(
    tx: &mut Tx,
    product_id: &str,
    identities: &BTreeSet<String>,
) -> StoreResult<Vec<CustomerTouch>> {
    let update = customer_touches(tx.backend());
    update_rows_of(
        tx,
        product_id,
        identities,
        &update,
        "identity_profiles",
        // The unary `+` keeps this term off the acquisition index: SQLite otherwise reads
        // every customer of the product per statement instead of probing each identity's key
        // (the fold lost a quarter of its rate).
        " AND +acquired_at IS NOT NULL",
        "identity, acquired_day, acquired_paid_channel, acquired_paid_tags",
    )
    .await
}

/// Runs `update` (an `UPDATE {table} SET ...` without `WHERE`) on the rows of `table` of
/// `identities` that match `filter`, returning the `returning` columns of each as updated.
/// The rows are found as in `moves.rs`: an `IN` list on SQLite; on PostgreSQL an array probed
/// through a `LATERAL` subquery (the `IN` list's plan flipped between 0.16 s and 3.5 s for one
/// 20,000-event fold).
async fn update_rows_of<T>(
    tx: &mut Tx,
    product_id: &str,
    identities: &BTreeSet<String>,
    update: &str,
    table: &str,
    filter: &str,
    returning: &str,
) -> StoreResult<Vec<T>>
where
    T: Send + Unpin + for<'r> sqlx::FromRow<'r, sqlx::sqlite::SqliteRow>,
    T: for<'r> sqlx::FromRow<'r, sqlx::postgres::PgRow>,
{
    if identities.is_empty() {
        return Ok(Vec::new());
    }
    let identities: Vec<&String> = identities.iter().collect();
    let mut updated = Vec::new();
    match tx {
        Tx::Sqlite(conn) => {
            for chunk in identities.chunks(CHUNK) {
                let mut query = sqlx::QueryBuilder::new(update);
                query
                    .push(" WHERE product_id = ")
                    .push_bind(product_id)
                    .push(filter)
                    .push(" AND identity IN (");
                let mut list = query.separated(", ");
                for identity in chunk {
                    list.push_bind(*identity);
                }
                query.push(format_args!(") RETURNING {returning}"));
                updated.extend(query.build_query_as().fetch_all(&mut **conn).await?);
            }
        }
        Tx::Postgres(conn) => {
            let sql = format!(
                "{update} WHERE ctid = ANY(ARRAY(SELECT r.ctid FROM unnest($2::text[]) AS m(identity) \
                 CROSS JOIN LATERAL (SELECT ctid FROM {table} \
                 WHERE product_id = $1 AND identity = m.identity{filter} OFFSET 0) AS r)) \
                 RETURNING {returning}"
            );
            updated = sqlx::query_as(sqlx::AssertSqlSafe(sql))
                .bind(product_id)
                .bind(&identities)
                .persistent(false)
                .fetch_all(&mut **conn)
                .await?;
        }
    }
    Ok(updated)
}
