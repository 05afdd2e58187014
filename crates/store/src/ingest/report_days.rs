//! The daily report tables, kept by the fold: `stage_channel_days`, `identity_days`,
//! `customer_totals`, `revenue_days` (migration 0020), `paid_touch_days` and
//! `cohort_revenue_days` (migration 0025).
//!
//! Each table is a sum over identities of what one identity contributes ([`Table`]): its
//! daily stage rows under its first-touch channel (with `lasts` marking its latest day per
//! stage), its profile's day last seen and day acquired, its revenue rows under their first,
//! last and paid touch and by days since its acquisition, its acquisition under its paid touch.
//! What an identity contributes depends on all of its rows at once (a first touch moving
//! earlier to another channel moves every day of it; a new latest day takes `lasts` off the
//! one before; an earlier acquisition moves every revenue row to another point of the cohort
//! curve), so the fold does not patch the sums statement by statement. It works per identity,
//! in one of three ways:
//!
//! - New in this fold (a first visit, most identities): nothing of theirs is stored, and
//!   everything they contribute is in the fold's own changes, summed in memory ([`DailySums`],
//!   from `rollups.rs`).
//! - Stored, and not merged in this fold: its profile and daily stage rows, and its revenue rows
//!   when the fold may change what they contribute, are read before the fold writes
//!   ([`stored_profiles`], [`stored_stage_rows`], [`stored_revenue_rows`]); its contribution as
//!   they were goes out and as the fold leaves them goes in, both in memory, so only the
//!   difference is written.
//! - Merged into a user or an email's holder: its rows move in SQL (`moves.rs`), so its whole
//!   contribution is taken out before the first statement that changes its rows
//!   ([`Contributions::take_out`]) and put back once after the last
//!   ([`Contributions::put_back`]): two set-based statements per table per fold.
//!
//! The touches a revenue row or a customer is credited to are picked in SQL
//! (`last_touches.rs`); the statements that set them return the rows as they leave them, which
//! is what the first two ways add back ([`RevenueChanges`]). Every way ends in one grouped
//! upsert per table ([`DailySums::add_to_tables`]). Revenue rows without an identity never
//! change after they are written, so they are added as they are inserted.
//!
//! Triggers did this before (migration 0023 says why they went). `reports::report_days`
//! recomputes every table from the rows it sums, which the tests compare against.

use std::collections::{BTreeMap, BTreeSet};

// `mod.rs` reads the profile type from here, as it did before it moved to `day_rows.rs`.
pub(super) use super::day_rows::ProfileState;
use super::day_rows::{DailySums, StoredStageRow};
use super::last_touches::{CustomerTouch, REVENUE_ROW_COLUMNS, RevenueRowTouches};
use crate::Tx;
use crate::error::StoreResult;
use crate::reports::payback::{LAST_POINT_DAY, cohort_age_sql, cohort_point_sql};

/// What an identity contributes to the daily tables, one statement each ([`statement`]),
/// taken out and put back by [`Contributions`] when it merges.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Table {
    /// `stage_channel_days`: its daily stage rows under its first touch.
    StageChannel,
    /// `identity_days`: its profile's day last seen and day acquired.
    Identity,
    /// `customer_totals`: its profile, if a customer.
    CustomerTotals,
    /// `revenue_days`: its revenue rows under its first and last touch.
    Revenue,
    /// `paid_touch_days`' revenue: its revenue rows under their paid touch.
    PaidRevenue,
    /// `paid_touch_days`' customers: its acquisition under its paid touch before it.
    PaidCustomers,
    /// `cohort_revenue_days`: its revenue rows by days since its acquisition.
    CohortRevenue,
}

impl Table {
    /// Every table: a merge moves all of an identity's rows.
    const ALL: [Table; 7] = [
        Table::StageChannel,
        Table::Identity,
        Table::CustomerTotals,
        Table::Revenue,
        Table::PaidRevenue,
        Table::PaidCustomers,
        Table::CohortRevenue,
    ];
}

/// The identities whose whole contributions a fold has taken out (they merge), to put back
/// when it ends.
#[derive(Debug, Default)]
pub(super) struct Contributions {
    taken: BTreeSet<String>,
}

impl Contributions {
    /// Whether the identity's contribution is out, to be put back by [`Self::put_back`].
    pub(super) fn is_taken(&self, identity: &str) -> bool {
        self.taken.contains(identity)
    }

    /// Takes the contributions of those of `identities` not taken yet out of every table. Call
    /// before the first statement that changes any of their rows.
    pub(super) async fn take_out<'a>(
        &mut self,
        tx: &mut Tx,
        product_id: &str,
        identities: impl IntoIterator<Item = &'a str>,
    ) -> StoreResult<()> {
        // A set: an identity named twice is taken out once.
        let fresh: BTreeSet<&str> = identities
            .into_iter()
            .filter(|identity| !self.taken.contains(*identity))
            .collect();
        let fresh: Vec<&str> = fresh.into_iter().collect();
        for table in Table::ALL {
            apply(tx, product_id, &fresh, -1, table).await?;
        }
        self.taken.extend(fresh.into_iter().map(str::to_owned));
        Ok(())
    }

    /// Adds the contributions of every identity taken out, as their rows are now.
    pub(super) async fn put_back(self, tx: &mut Tx, product_id: &str) -> StoreResult<()> {
        let taken: Vec<&str> = self.taken.iter().map(String::as_str).collect();
        for table in Table::ALL {
            apply(tx, product_id, &taken, 1, table).await?;
        }
        Ok(())
    }
}

/// Adds (`sign` 1) or subtracts (-1) what `identities` contribute to `table`.
async fn apply(
    tx: &mut Tx,
    product_id: &str,
    identities: &[&str],
    sign: i64,
    table: Table,
) -> StoreResult<()> {
    if identities.is_empty() {
        return Ok(());
    }
    match tx {
        Tx::Sqlite(conn) => {
            // SQLite has no arrays: the identities go as one JSON array read through
            // `json_each` (one bound value however many, where an `IN` list hits its cap).
            let list = serde_json::to_string(identities)?;
            sqlx::query(sqlx::AssertSqlSafe(statement(&Dialect::SQLITE, table)))
                .bind(product_id)
                .bind(&list)
                .bind(sign)
                .execute(&mut **conn)
                .await?;
        }
        Tx::Postgres(conn) => {
            sqlx::query(sqlx::AssertSqlSafe(statement(&Dialect::POSTGRES, table)))
                .bind(product_id)
                .bind(identities)
                .bind(sign)
                .persistent(false)
                .execute(&mut **conn)
                .await?;
        }
    }
    Ok(())
}

/// What differs between the backends' statements. `$1` is the product, `$2` the identities,
/// `$3` the sign.
struct Dialect {
    /// `rows(table, index, columns)`: the rows of `table` of each identity, as `d`, beside the
    /// identity as `m.identity`.
    rows: fn(&str, &str, &str) -> String,
    /// The UTC day (`YYYY-MM-DD`) of a profile's last sighting, as `Timestamp::day` spells it.
    seen_day: &'static str,
    /// A true boolean column value.
    true_value: &'static str,
}

impl Dialect {
    /// Each identity's rows are reached through the index leading with product and identity,
    /// named (`INDEXED BY`): left to itself, SQLite may read the product's whole primary-key
    /// range to save the grouping a sort (`moves.rs` met the same). `CROSS JOIN` keeps the
    /// identities the outer loop: with `json_each` inside, the list was parsed again for every
    /// stored row (a 20,000-identity fold spent 70 s in one statement).
    const SQLITE: Dialect = Dialect {
        rows: |table, index, _columns| {
            format!(
                "(SELECT value AS identity FROM json_each($2)) AS m \
                 CROSS JOIN {table} AS d {index} ON d.product_id = $1 AND d.identity = m.identity"
            )
        },
        seen_day: "date((COALESCE(d.last_seen_at, d.first_seen_at) - ((COALESCE(d.last_seen_at, d.first_seen_at) \
                   % 86400000) + 86400000) % 86400000) / 1000, 'unixepoch')",
        true_value: "1",
    };

    /// Each identity's rows are found through a `LATERAL` subquery kept apart from the join
    /// with `OFFSET 0`: an index probe per identity whatever the statistics say (`moves.rs`
    /// says why a plain join is not trusted here, and why these statements are not kept
    /// prepared).
    const POSTGRES: Dialect = Dialect {
        rows: |table, _index, columns| {
            format!(
                "unnest($2::text[]) AS m(identity) CROSS JOIN LATERAL (SELECT {columns} FROM {table} \
                 WHERE product_id = $1 AND identity = m.identity OFFSET 0) AS d"
            )
        },
        seen_day: "payback_day(COALESCE(d.last_seen_at, d.first_seen_at))",
        true_value: "true",
    };
}

/// The identity's first-touch channel now, '' for none: one probe of the profiles' key.
const CHANNEL: &str = "COALESCE((SELECT p.first_channel FROM identity_profiles p \
     WHERE p.product_id = $1 AND p.identity = m.identity), '')";

/// The statement adding `$3` times the identities' contributions to `table`.
fn statement(dialect: &Dialect, table: Table) -> String {
    let stage_rows = || {
        (dialect.rows)(
            "stage_identity_days",
            "INDEXED BY stage_identity_days_by_identity",
            "day, stage, events, plain_events, plain_value",
        )
    };
    let profiles = || {
        (dialect.rows)(
            "identity_profiles",
            "",
            "first_seen_at, last_seen_at, first_channel, acquired_at, acquired_day, revenue_cents, \
             acquired_paid_channel, acquired_paid_tags",
        )
    };
    let revenue_rows = || {
        (dialect.rows)(
            "transactions",
            "INDEXED BY transactions_by_identity",
            "day, occurred_at, last_channel, paid_channel, paid_tags, amount_cents",
        )
    };
    let seen_day = dialect.seen_day;
    let identified = dialect.true_value;
    let paid_touch_sums = "ON CONFLICT (product_id, day, channel, tags) DO UPDATE SET \
         revenue_rows = paid_touch_days.revenue_rows + excluded.revenue_rows, \
         revenue_cents = paid_touch_days.revenue_cents + excluded.revenue_cents, \
         customers = paid_touch_days.customers + excluded.customers";
    match table {
        // Its daily stage rows under its channel; `last` marks its latest day of each stage.
        Table::StageChannel => format!(
            "INSERT INTO stage_channel_days (product_id, day, stage, channel, events, identities, lasts, \
             plain_events, plain_value) \
             SELECT $1, r.day, r.stage, r.channel, CAST(SUM(r.sign * r.events) AS BIGINT), CAST(SUM(r.sign) AS BIGINT), \
             CAST(SUM(r.sign * r.last) AS BIGINT), CAST(SUM(r.sign * r.plain_events) AS BIGINT), \
             CAST(SUM(r.sign * r.plain_value) AS BIGINT) \
             FROM (SELECT d.day, d.stage, d.events, d.plain_events, d.plain_value, CAST($3 AS BIGINT) AS sign, \
                   {CHANNEL} AS channel, \
                   CASE WHEN d.day = MAX(d.day) OVER (PARTITION BY m.identity, d.stage) THEN 1 ELSE 0 END AS last \
                   FROM {}) AS r \
             WHERE true GROUP BY r.day, r.stage, r.channel \
             ON CONFLICT (product_id, day, stage, channel) DO UPDATE SET \
             events = stage_channel_days.events + excluded.events, \
             identities = stage_channel_days.identities + excluded.identities, \
             lasts = stage_channel_days.lasts + excluded.lasts, \
             plain_events = stage_channel_days.plain_events + excluded.plain_events, \
             plain_value = stage_channel_days.plain_value + excluded.plain_value",
            stage_rows()
        ),
        // Its profile: seen on its last day, acquired (with its revenue) on its acquisition day.
        Table::Identity => format!(
            "INSERT INTO identity_days (product_id, day, channel, seen, acquired, acquired_revenue) \
             SELECT $1, c.day, c.channel, CAST(SUM(c.seen) AS BIGINT), CAST(SUM(c.acquired) AS BIGINT), \
             CAST(SUM(c.revenue) AS BIGINT) \
             FROM (SELECT {seen_day} AS day, COALESCE(d.first_channel, '') AS channel, CAST($3 AS BIGINT) AS seen, \
                   CAST(0 AS BIGINT) AS acquired, CAST(0 AS BIGINT) AS revenue FROM {} \
                   UNION ALL \
                   SELECT d.acquired_day, COALESCE(d.first_channel, ''), 0, CAST($3 AS BIGINT), $3 * d.revenue_cents \
                   FROM {} WHERE d.acquired_at IS NOT NULL) AS c \
             WHERE true GROUP BY c.day, c.channel \
             ON CONFLICT (product_id, day, channel) DO UPDATE SET seen = identity_days.seen + excluded.seen, \
             acquired = identity_days.acquired + excluded.acquired, \
             acquired_revenue = identity_days.acquired_revenue + excluded.acquired_revenue",
            profiles(),
            profiles()
        ),
        // Its profile, if a customer, in the product's totals.
        Table::CustomerTotals => format!(
            "INSERT INTO customer_totals (product_id, customers, revenue) \
             SELECT $1, CAST(SUM(r.sign) AS BIGINT), CAST(SUM(r.sign * r.revenue_cents) AS BIGINT) \
             FROM (SELECT CAST($3 AS BIGINT) AS sign, d.revenue_cents FROM {} \
                   WHERE d.acquired_at IS NOT NULL) AS r \
             WHERE true HAVING COUNT(*) > 0 \
             ON CONFLICT (product_id) DO UPDATE SET customers = customer_totals.customers + excluded.customers, \
             revenue = customer_totals.revenue + excluded.revenue",
            profiles()
        ),
        // Its revenue rows under its first touch and their last touch (its first when none).
        Table::Revenue => format!(
            "INSERT INTO revenue_days (product_id, day, first_channel, last_channel, identified, rows, cents) \
             SELECT $1, r.day, r.first_channel, r.last_channel, {identified}, CAST(SUM(r.sign) AS BIGINT), \
             CAST(SUM(r.sign * r.amount_cents) AS BIGINT) \
             FROM (SELECT d.day, CAST($3 AS BIGINT) AS sign, d.amount_cents, {CHANNEL} AS first_channel, \
                   COALESCE(d.last_channel, NULLIF({CHANNEL}, ''), '') AS last_channel \
                   FROM {}) AS r \
             WHERE true GROUP BY r.day, r.first_channel, r.last_channel \
             ON CONFLICT (product_id, day, first_channel, last_channel, identified) DO UPDATE SET \
             rows = revenue_days.rows + excluded.rows, cents = revenue_days.cents + excluded.cents",
            revenue_rows()
        ),
        // Its revenue rows under their paid touch.
        Table::PaidRevenue => format!(
            "INSERT INTO paid_touch_days (product_id, day, channel, tags, revenue_rows, revenue_cents, customers) \
             SELECT $1, r.day, r.channel, r.tags, CAST(SUM(r.sign) AS BIGINT), \
             CAST(SUM(r.sign * r.amount_cents) AS BIGINT), 0 \
             FROM (SELECT d.day, CAST($3 AS BIGINT) AS sign, d.amount_cents, COALESCE(d.paid_channel, '') AS channel, \
                   COALESCE(d.paid_tags, '') AS tags FROM {}) AS r \
             WHERE true GROUP BY r.day, r.channel, r.tags {paid_touch_sums}",
            revenue_rows()
        ),
        // Its acquisition, if a customer, under its paid touch before it.
        Table::PaidCustomers => format!(
            "INSERT INTO paid_touch_days (product_id, day, channel, tags, revenue_rows, revenue_cents, customers) \
             SELECT $1, c.day, c.channel, c.tags, 0, 0, CAST(SUM(c.sign) AS BIGINT) \
             FROM (SELECT d.acquired_day AS day, COALESCE(d.acquired_paid_channel, '') AS channel, \
                   COALESCE(d.acquired_paid_tags, '') AS tags, CAST($3 AS BIGINT) AS sign \
                   FROM {} WHERE d.acquired_at IS NOT NULL) AS c \
             WHERE true GROUP BY c.day, c.channel, c.tags {paid_touch_sums}",
            profiles()
        ),
        // Its revenue rows, if a customer, by the point of its cohort curve they count from.
        Table::CohortRevenue => format!(
            "INSERT INTO cohort_revenue_days (product_id, acquired_day, point_day, rows, cents) \
             SELECT $1, a.acquired_day, {}, CAST(SUM(a.sign) AS BIGINT), CAST(SUM(a.sign * a.amount_cents) AS BIGINT) \
             FROM (SELECT p.acquired_day, d.amount_cents, CAST($3 AS BIGINT) AS sign, {} AS age \
                   FROM {} JOIN identity_profiles p ON p.product_id = $1 AND p.identity = m.identity \
                   WHERE p.acquired_at IS NOT NULL) AS a \
             WHERE a.age >= 0 AND a.age <= {LAST_POINT_DAY} GROUP BY a.acquired_day, 3 \
             ON CONFLICT (product_id, acquired_day, point_day) DO UPDATE SET \
             rows = cohort_revenue_days.rows + excluded.rows, cents = cohort_revenue_days.cents + excluded.cents",
            cohort_point_sql("a.age"),
            cohort_age_sql("d.occurred_at", "p.acquired_at"),
            revenue_rows()
        ),
    }
}

/// What the fold changes in `revenue_days`, `paid_touch_days` and `cohort_revenue_days` for the
/// identities it does not merge, summed in memory: each identity's revenue rows as they were
/// (`rows_before`, read before the write, under its profile before) out, and as they are
/// (`rows_after`, returned by the recomputation of their touches, under its profile after) in;
/// an identity whose touches were not recomputed (`recomputed`) but whose acquisition moved
/// keeps its rows. Customers whose paid touch was recomputed (`customers_after`) move from
/// their paid touch before to the one after.
pub(super) struct RevenueChanges<'a> {
    pub profiles_before: &'a BTreeMap<String, ProfileState>,
    pub rows_before: Vec<RevenueRowTouches>,
    pub rows_after: Vec<RevenueRowTouches>,
    pub recomputed: &'a BTreeSet<String>,
    pub customers_after: Vec<CustomerTouch>,
}

impl RevenueChanges<'_> {
    /// Adds the changes of the identities `followed` (those not merged), with `profile_after`
    /// giving each one's profile as the fold leaves it.
    pub(super) fn add_to(
        &self,
        sums: &mut DailySums,
        followed: &BTreeSet<&str>,
        profile_after: impl Fn(&str, Option<&ProfileState>) -> Option<ProfileState>,
    ) {
        let before = by_identity(&self.rows_before, followed);
        let after = by_identity(&self.rows_after, followed);
        let identities: BTreeSet<&str> = before.keys().chain(after.keys()).copied().collect();
        for identity in identities {
            let was = self.profiles_before.get(identity);
            let rows_was = before.get(identity).map(Vec::as_slice).unwrap_or_default();
            if let Some(was) = was {
                was.add_revenue_rows(sums, rows_was, -1);
            }
            let rows_now = if self.recomputed.contains(identity) {
                after.get(identity).map(Vec::as_slice).unwrap_or_default()
            } else {
                rows_was
            };
            if let Some(now) = profile_after(identity, was) {
                now.add_revenue_rows(sums, rows_now, 1);
            }
        }
        for customer in &self.customers_after {
            if !followed.contains(customer.identity.as_str()) {
                continue;
            }
            if let Some(was) = self.profiles_before.get(&customer.identity) {
                was.add_paid_customer(sums, -1);
            }
            let touch = (
                &customer.acquired_paid_channel,
                &customer.acquired_paid_tags,
            );
            sums.add_paid_customer(&customer.acquired_day, touch, 1);
        }
    }
}

/// The `rows` of the identities `followed`, by identity.
fn by_identity<'r>(
    rows: &'r [RevenueRowTouches],
    followed: &BTreeSet<&str>,
) -> BTreeMap<&'r str, Vec<&'r RevenueRowTouches>> {
    let mut grouped: BTreeMap<&str, Vec<&RevenueRowTouches>> = BTreeMap::new();
    for row in rows {
        if followed.contains(row.identity.as_str()) {
            grouped.entry(row.identity.as_str()).or_default().push(row);
        }
    }
    grouped
}

/// The stored profiles of `identities` (those without one have no rows of their own: every
/// identified row the fold writes comes with its identity's profile).
pub(super) async fn stored_profiles(
    tx: &mut Tx,
    product_id: &str,
    identities: &[&str],
) -> StoreResult<BTreeMap<String, ProfileState>> {
    let rows: Vec<ProfileState> = rows_of(
        tx,
        product_id,
        identities,
        "identity_profiles",
        "",
        "first_seen_at, last_seen_at, first_touch_at, first_channel, acquired_at, acquired_day, revenue_cents, \
         acquired_paid_channel, acquired_paid_tags",
    )
    .await?;
    Ok(rows
        .into_iter()
        .map(|row| (row.identity.clone(), row))
        .collect())
}

/// Every stored revenue row of `identities`, with its touches: one range of the identity
/// index each.
pub(super) async fn stored_revenue_rows(
    tx: &mut Tx,
    product_id: &str,
    identities: &[&str],
) -> StoreResult<Vec<RevenueRowTouches>> {
    rows_of(
        tx,
        product_id,
        identities,
        "transactions",
        "INDEXED BY transactions_by_identity",
        REVENUE_ROW_COLUMNS,
    )
    .await
}

/// Every stored daily identity row of `identities`: one range of the identity index each.
pub(super) async fn stored_stage_rows(
    tx: &mut Tx,
    product_id: &str,
    identities: &[&str],
) -> StoreResult<Vec<StoredStageRow>> {
    rows_of(
        tx,
        product_id,
        identities,
        "stage_identity_days",
        "INDEXED BY stage_identity_days_by_identity",
        "stage, day, events, plain_events, plain_value",
    )
    .await
}

/// The `columns` of every row of `table` of each of `identities`, beside the identity (read
/// as `identity`), through the `Dialect`'s per-identity probes (`index`: SQLite's `INDEXED BY`).
async fn rows_of<T>(
    tx: &mut Tx,
    product_id: &str,
    identities: &[&str],
    table: &str,
    index: &str,
    columns: &str,
) -> StoreResult<Vec<T>>
where
    T: Send + Unpin + for<'r> sqlx::FromRow<'r, sqlx::sqlite::SqliteRow>,
    T: for<'r> sqlx::FromRow<'r, sqlx::postgres::PgRow>,
{
    if identities.is_empty() {
        return Ok(Vec::new());
    }
    let selected: Vec<String> = columns
        .split(", ")
        .map(|column| format!("d.{column}"))
        .collect();
    let selected = selected.join(", ");
    Ok(match tx {
        Tx::Sqlite(conn) => {
            let rows = (Dialect::SQLITE.rows)(table, index, columns);
            let sql = format!("SELECT m.identity, {selected} FROM {rows}");
            sqlx::query_as(sqlx::AssertSqlSafe(sql))
                .bind(product_id)
                .bind(serde_json::to_string(identities)?)
                .fetch_all(&mut **conn)
                .await?
        }
        Tx::Postgres(conn) => {
            let rows = (Dialect::POSTGRES.rows)(table, index, columns);
            let sql = format!("SELECT m.identity, {selected} FROM {rows}");
            sqlx::query_as(sqlx::AssertSqlSafe(sql))
                .bind(product_id)
                .bind(identities)
                .persistent(false)
                .fetch_all(&mut **conn)
                .await?
        }
    })
}
