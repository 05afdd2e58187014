//! The shapes of an identity's rows that the fold sums in memory, shared by the fold's writes
//! (`rollups.rs`) and the daily report tables they feed (`report_days.rs`): the profile delta a
//! batch brings ([`ProfileDelta`]), a stored profile and what it contributes ([`ProfileState`]),
//! a stored daily stage row ([`StoredStageRow`]), the sums in memory ([`DailySums`]), and the
//! one multi-row upsert that adds counts to a counter table ([`add_to_counters`]). Both of those
//! modules read these and neither reads the other, so they stay apart.

use std::collections::BTreeMap;

use super::last_touches::RevenueRowTouches;
use super::{CHUNK, insert_verb};
use crate::Tx;
use crate::error::StoreResult;
use crate::reports::payback::{cohort_age_days, cohort_point};

/// Per-identity changes a batch brings, merged into `identity_profiles` with one upsert.
#[derive(Debug, Clone)]
pub(crate) struct ProfileDelta {
    pub first_seen_at: i64,
    pub last_seen_at: i64,
    pub first_touch: Option<(i64, String)>,
    pub acquired_at: Option<i64>,
    pub revenue_cents: i64,
}

impl ProfileDelta {
    pub(super) fn absorb(&mut self, other: ProfileDelta) {
        self.first_seen_at = self.first_seen_at.min(other.first_seen_at);
        self.last_seen_at = self.last_seen_at.max(other.last_seen_at);
        let earlier = |touch: &(i64, String)| {
            self.first_touch
                .as_ref()
                .is_none_or(|mine| touch.0 < mine.0)
        };
        if let Some(touch) = other.first_touch.filter(earlier) {
            self.first_touch = Some(touch);
        }
        self.acquired_at = match (self.acquired_at, other.acquired_at) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        self.revenue_cents += other.revenue_cents;
    }
}

/// Daily-table contributions summed in memory: those of identities new in this fold and of
/// revenue rows without an identity, keyed as each table is.
#[derive(Debug, Default)]
pub(super) struct DailySums {
    /// `(day, stage, channel)` -> events, identities, lasts, plain events, plain value.
    pub stage_channel: BTreeMap<(String, String, String), [i64; 5]>,
    /// `(day, channel)` -> seen, acquired, acquired revenue.
    pub identity: BTreeMap<(String, String), [i64; 3]>,
    /// Customers and their revenue.
    pub customers: [i64; 2],
    /// `(day, first channel, last channel, identified)` -> rows, cents.
    pub revenue: BTreeMap<(String, String, String, bool), [i64; 2]>,
    /// `(day, paid channel, paid tags)` -> revenue rows, their cents, customers.
    pub paid: BTreeMap<(String, String, String), [i64; 3]>,
    /// `(acquisition day, point day)` -> revenue rows, cents.
    pub cohort: BTreeMap<(String, i64), [i64; 2]>,
}

impl DailySums {
    /// Adds `sign` customers acquired on `day` under their paid touch `(channel, tags)`
    /// (`None`: none) to `paid_touch_days`.
    pub(super) fn add_paid_customer(
        &mut self,
        day: &str,
        (channel, tags): (&Option<String>, &Option<String>),
        sign: i64,
    ) {
        let key = (
            day.to_owned(),
            channel.clone().unwrap_or_default(),
            tags.clone().unwrap_or_default(),
        );
        self.paid.entry(key).or_default()[2] += sign;
    }

    /// Adds the sums to the daily tables: one multi-row upsert per table ([`counter_rows`]).
    pub(super) async fn add_to_tables(&self, tx: &mut Tx, product_id: &str) -> StoreResult<()> {
        let stage_rows = counter_rows(&self.stage_channel, |(day, stage, channel)| {
            vec![
                KeyValue::Text(day),
                KeyValue::Text(stage),
                KeyValue::Text(channel),
            ]
        });
        add_to_counters(
            tx,
            product_id,
            "stage_channel_days",
            "day, stage, channel",
            &[
                "events",
                "identities",
                "lasts",
                "plain_events",
                "plain_value",
            ],
            &stage_rows,
        )
        .await?;
        let identity_rows = counter_rows(&self.identity, |(day, channel)| {
            vec![KeyValue::Text(day), KeyValue::Text(channel)]
        });
        add_to_counters(
            tx,
            product_id,
            "identity_days",
            "day, channel",
            &["seen", "acquired", "acquired_revenue"],
            &identity_rows,
        )
        .await?;
        if self.customers != [0, 0] {
            let [customers, revenue] = self.customers;
            on_tx!(tx, conn => {
                sqlx::query(
                    "INSERT INTO customer_totals (product_id, customers, revenue) VALUES ($1, $2, $3) \
                     ON CONFLICT (product_id) DO UPDATE SET customers = customer_totals.customers + excluded.customers, \
                     revenue = customer_totals.revenue + excluded.revenue",
                )
                .bind(product_id)
                .bind(customers)
                .bind(revenue)
                .execute(conn)
                .await
                .map(|done| done.rows_affected())
            })?;
        }
        let revenue_rows = counter_rows(&self.revenue, |(day, first, last, identified)| {
            vec![
                KeyValue::Text(day),
                KeyValue::Text(first),
                KeyValue::Text(last),
                KeyValue::Flag(*identified),
            ]
        });
        add_to_counters(
            tx,
            product_id,
            "revenue_days",
            "day, first_channel, last_channel, identified",
            &["rows", "cents"],
            &revenue_rows,
        )
        .await?;
        let paid_rows = counter_rows(&self.paid, |(day, channel, tags)| {
            vec![
                KeyValue::Text(day),
                KeyValue::Text(channel),
                KeyValue::Text(tags),
            ]
        });
        add_to_counters(
            tx,
            product_id,
            "paid_touch_days",
            "day, channel, tags",
            &["revenue_rows", "revenue_cents", "customers"],
            &paid_rows,
        )
        .await?;
        let cohort_rows = counter_rows(&self.cohort, |(day, point)| {
            vec![KeyValue::Text(day), KeyValue::Number(*point)]
        });
        add_to_counters(
            tx,
            product_id,
            "cohort_revenue_days",
            "acquired_day, point_day",
            &["rows", "cents"],
            &cohort_rows,
        )
        .await
    }
}

/// The rows of one table's sums to add, keyed by `key`: those whose sums are all zero are left
/// out, since an identity followed from its stored rows contributes most of them once out and
/// once back in.
fn counter_rows<'a, K, const N: usize>(
    sums: &'a BTreeMap<K, [i64; N]>,
    key: impl Fn(&'a K) -> Vec<KeyValue<'a>>,
) -> Vec<(Vec<KeyValue<'a>>, Vec<i64>)> {
    sums.iter()
        .filter(|(_, sums)| changes_anything(*sums))
        .map(|(at, sums)| (key(at), sums.to_vec()))
        .collect()
}

/// Whether adding `sums` to a row would change it.
fn changes_anything(sums: &[i64]) -> bool {
    sums.iter().any(|sum| *sum != 0)
}

/// What a stored profile contributes and how its first touch may move: read before the fold
/// writes; what it is after is [`ProfileState::absorbing`] the fold's delta.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub(super) struct ProfileState {
    pub identity: String,
    pub first_seen_at: i64,
    pub last_seen_at: Option<i64>,
    pub first_touch_at: Option<i64>,
    pub first_channel: Option<String>,
    pub acquired_at: Option<i64>,
    pub acquired_day: Option<String>,
    pub revenue_cents: i64,
    /// The paid touch before acquisition, which SQL recomputes (`last_touches.rs`): read
    /// before the fold, never derived from its delta.
    pub acquired_paid_channel: Option<String>,
    pub acquired_paid_tags: Option<String>,
}

impl ProfileState {
    /// The profile `upsert_profiles` inserts for an identity new in this fold.
    pub(super) fn new_from(identity: &str, delta: &ProfileDelta) -> ProfileState {
        ProfileState {
            identity: identity.to_owned(),
            first_seen_at: delta.first_seen_at,
            last_seen_at: Some(delta.last_seen_at),
            first_touch_at: delta.first_touch.as_ref().map(|(at, _)| *at),
            first_channel: delta
                .first_touch
                .as_ref()
                .map(|(_, channel)| channel.clone()),
            acquired_at: delta.acquired_at,
            acquired_day: delta
                .acquired_at
                .map(|at| payback_domain::Timestamp::from_millis(at).day()),
            revenue_cents: delta.revenue_cents,
            acquired_paid_channel: None,
            acquired_paid_tags: None,
        }
    }

    /// The profile after `upsert_profiles` merges `delta` into it: each field as that
    /// statement's `CASE` decides it, against the stored values.
    pub(super) fn absorbing(&self, delta: &ProfileDelta) -> ProfileState {
        let mut after = self.clone();
        after.first_seen_at = self.first_seen_at.min(delta.first_seen_at);
        if self
            .last_seen_at
            .is_none_or(|stored| delta.last_seen_at > stored)
        {
            after.last_seen_at = Some(delta.last_seen_at);
        }
        if let Some((at, channel)) = &delta.first_touch
            && self.first_touch_at.is_none_or(|stored| *at < stored)
        {
            after.first_touch_at = Some(*at);
            after.first_channel = Some(channel.clone());
        }
        if let Some(at) = delta.acquired_at
            && self.acquired_at.is_none_or(|stored| at < stored)
        {
            after.acquired_at = Some(at);
            after.acquired_day = Some(payback_domain::Timestamp::from_millis(at).day());
        }
        after.revenue_cents += delta.revenue_cents;
        after
    }

    /// Whether the identity may have revenue rows. Every revenue row adds its amount to the
    /// profile, and one of zero or more cents acquires the customer; only refunds do not, and
    /// their sum is below zero. So an identity neither acquired nor with revenue has none.
    pub(super) fn may_have_revenue(&self) -> bool {
        self.acquired_at.is_some() || self.revenue_cents != 0
    }

    /// Its contribution to `identity_days` (and, through `acquired`, `customer_totals`),
    /// added `sign` times.
    pub(super) fn add_to(&self, sums: &mut DailySums, sign: i64) {
        let channel = self.first_channel.clone().unwrap_or_default();
        let seen_at = self.last_seen_at.unwrap_or(self.first_seen_at);
        let seen_day = payback_domain::Timestamp::from_millis(seen_at).day();
        sums.identity
            .entry((seen_day, channel.clone()))
            .or_default()[0] += sign;
        if let (Some(_), Some(day)) = (self.acquired_at, &self.acquired_day) {
            let row = sums.identity.entry((day.clone(), channel)).or_default();
            row[1] += sign;
            row[2] += sign * self.revenue_cents;
            sums.customers[0] += sign;
            sums.customers[1] += sign * self.revenue_cents;
        }
    }

    /// What its revenue `rows` (all of them) contribute to `revenue_days` (under its first
    /// touch and each row's last), `paid_touch_days` (under each row's paid touch) and, if a
    /// customer, `cohort_revenue_days`, added `sign` times: what the take-out statements of
    /// `report_days.rs` (its `Table::Revenue`, `Table::PaidRevenue` and `Table::CohortRevenue`)
    /// sum in SQL.
    pub(super) fn add_revenue_rows(
        &self,
        sums: &mut DailySums,
        rows: &[&RevenueRowTouches],
        sign: i64,
    ) {
        let first = self.first_channel.clone().unwrap_or_default();
        for row in rows {
            let last = row.last_channel.clone().unwrap_or_else(|| first.clone());
            let revenue = sums
                .revenue
                .entry((row.day.clone(), first.clone(), last, true))
                .or_default();
            revenue[0] += sign;
            revenue[1] += sign * row.amount_cents;
            let paid = sums
                .paid
                .entry((
                    row.day.clone(),
                    row.paid_channel.clone().unwrap_or_default(),
                    row.paid_tags.clone().unwrap_or_default(),
                ))
                .or_default();
            paid[0] += sign;
            paid[1] += sign * row.amount_cents;
            if let (Some(acquired_at), Some(acquired_day)) = (self.acquired_at, &self.acquired_day)
                && let Some(point) = cohort_point(cohort_age_days(row.occurred_at, acquired_at))
            {
                let cohort = sums
                    .cohort
                    .entry((acquired_day.clone(), point))
                    .or_default();
                cohort[0] += sign;
                cohort[1] += sign * row.amount_cents;
            }
        }
    }

    /// Its acquisition, if a customer, under its paid touch before it (`paid_touch_days`),
    /// added `sign` times.
    pub(super) fn add_paid_customer(&self, sums: &mut DailySums, sign: i64) {
        if let (Some(_), Some(day)) = (self.acquired_at, &self.acquired_day) {
            let touch = (&self.acquired_paid_channel, &self.acquired_paid_tags);
            sums.add_paid_customer(day, touch, sign);
        }
    }
}

/// A stored daily identity row (`stage_identity_days`) of an identity the fold touches.
#[derive(Debug, Clone, sqlx::FromRow)]
pub(super) struct StoredStageRow {
    pub identity: String,
    pub stage: String,
    pub day: String,
    pub events: i64,
    pub plain_events: i64,
    pub plain_value: i64,
}

/// One column of a counter row's key.
pub(super) enum KeyValue<'a> {
    Text(&'a str),
    Flag(bool),
    Number(i64),
}

/// Adds each row's counts to the `counters` columns of the `table` row keyed by the product and
/// `key_columns` (the table's primary key, in order), creating rows that do not exist yet.
pub(super) async fn add_to_counters(
    tx: &mut Tx,
    product_id: &str,
    table: &'static str,
    key_columns: &'static str,
    counters: &[&'static str],
    rows: &[(Vec<KeyValue<'_>>, Vec<i64>)],
) -> StoreResult<()> {
    let verb = insert_verb(tx);
    let columns = counters.join(", ");
    let sums: Vec<String> = counters
        .iter()
        .map(|c| format!("{c} = {table}.{c} + excluded.{c}"))
        .collect();
    let sums = sums.join(", ");
    for chunk in rows.chunks(CHUNK) {
        on_tx!(tx, conn => {
            let mut query = sqlx::QueryBuilder::new(verb);
            query.push(format_args!(" INTO {table} (product_id, {key_columns}, {columns}) "));
            query.push_values(chunk, |mut row, (key, counts)| {
                row.push_bind(product_id);
                for value in key {
                    match *value {
                        KeyValue::Text(text) => row.push_bind(text),
                        KeyValue::Flag(flag) => row.push_bind(flag),
                        KeyValue::Number(number) => row.push_bind(number),
                    };
                }
                for count in counts {
                    row.push_bind(*count);
                }
            });
            query.push(format_args!(
                " ON CONFLICT (product_id, {key_columns}) DO UPDATE SET {sums}"
            ));
            query.build().execute(conn).await.map(|done| done.rows_affected())
        })?;
    }
    Ok(())
}
