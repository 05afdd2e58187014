//! The per-identity and daily tables reports read, maintained as each batch lands: daily
//! rollups, identity profiles, touches, revenue rows and their last touch.

use std::collections::{BTreeMap, BTreeSet};

use payback_domain::Timestamp;

// `links.rs` reads the delta type from here, as it did before it moved to `day_rows.rs`.
pub(crate) use super::day_rows::ProfileDelta;
use super::day_rows::{DailySums, KeyValue, ProfileState, StoredStageRow, add_to_counters};
use super::{CHUNK, EventRecord, insert_verb};
use crate::Tx;
use crate::error::StoreResult;

/// What events add to one daily row: how many, and for an identity's row those without a
/// channel of their own and their value (a conversion counts those under the identity's first
/// touch), for an `event_days` row the events' value.
#[derive(Debug, Clone, Copy, Default)]
struct DayCounts {
    events: i64,
    plain_events: i64,
    value_cents: i64,
}

impl DayCounts {
    fn add(&mut self, other: &DayCounts) {
        self.events += other.events;
        self.plain_events += other.plain_events;
        self.value_cents += other.value_cents;
    }
}

/// One identity's daily stage rows: `(stage, day)` -> what each counts.
type StageRows = BTreeMap<(String, String), DayCounts>;

/// Adds `sign` times what one identity's daily stage `rows` contribute to
/// `stage_channel_days` under `channel`: each row's counts, one identity per row, and a
/// `lasts` on its latest day of each stage.
fn add_stage_rows(sums: &mut DailySums, rows: &StageRows, channel: &str, sign: i64) {
    // Keys are ordered by stage, then day: a stage's latest day is its last key.
    let mut latest: BTreeMap<&str, &str> = BTreeMap::new();
    for (stage, day) in rows.keys() {
        latest.insert(stage, day);
    }
    for ((stage, day), counts) in rows {
        let is_last = latest.get(stage.as_str()) == Some(&day.as_str());
        let row = sums
            .stage_channel
            .entry((day.clone(), stage.clone(), channel.to_owned()))
            .or_default();
        row[0] += sign * counts.events;
        row[1] += sign;
        row[2] += sign * i64::from(is_last);
        row[3] += sign * counts.plain_events;
        row[4] += sign * counts.value_cents;
    }
}

/// What the newly stored events of a transaction add to the rollups, merged in memory so each
/// rollup row is written once per transaction however many events touch it.
#[derive(Default)]
pub(super) struct RollupChanges {
    stage_days: BTreeMap<(&'static str, String, String), DayCounts>,
    event_days: BTreeMap<EventDayKey, DayCounts>,
    profiles: BTreeMap<String, ProfileDelta>,
    touches: Vec<Touch>,
    revenue: Vec<RevenueRow>,
    /// Identities whose revenue rows' last touch may have changed.
    recompute: BTreeSet<String>,
    /// Visits per landing path and day (`landing_visits.rs`).
    landing: super::landing_visits::LandingVisits,
}

impl RollupChanges {
    /// Counts a newly stored event (`event_id`) of `identity`.
    pub(super) fn add(&mut self, event: &EventRecord, event_id: i64, identity: Option<&str>) {
        let at = event.occurred_at.millis();
        let day = event.occurred_at.day();
        // The namespace's prefix names the source: `api:<slug>` -> `api`, `web:<slug>` -> `web`.
        let source = event
            .namespace
            .split(':')
            .next()
            .unwrap_or_default()
            .to_owned();
        let channel = event.channel.clone().unwrap_or_default();
        let value = event.value_cents.unwrap_or_default();
        self.landing.add(event);
        let counts = self
            .event_days
            .entry((
                day.clone(),
                event.stage,
                channel,
                identity.is_some(),
                source,
            ))
            .or_default();
        counts.events += 1;
        counts.value_cents += value;
        if event.is_revenue {
            self.revenue.push(RevenueRow {
                event_id,
                stage: event.stage,
                identity: identity.map(str::to_owned),
                occurred_at: at,
                day: day.clone(),
                amount_cents: event.value_cents.unwrap_or_default(),
                currency: event.currency.clone().unwrap_or_default(),
            });
        }
        let Some(identity) = identity else { return };
        let counts = self
            .stage_days
            .entry((event.stage, day, identity.to_owned()))
            .or_default();
        counts.events += 1;
        if event.channel.is_none() {
            counts.plain_events += 1;
            counts.value_cents += value;
        }
        let delta = ProfileDelta {
            first_seen_at: at,
            last_seen_at: at,
            first_touch: event.channel.clone().map(|channel| (at, channel)),
            acquired_at: event.acquires.then_some(at),
            revenue_cents: if event.is_revenue {
                event.value_cents.unwrap_or_default()
            } else {
                0
            },
        };
        if let Some(channel) = &event.channel {
            self.touches.push(Touch {
                identity: identity.to_owned(),
                occurred_at: at,
                event_id,
                channel: channel.clone(),
            });
        }
        if event.channel.is_some() || event.is_revenue {
            self.recompute.insert(identity.to_owned());
        }
        match self.profiles.get_mut(identity) {
            Some(existing) => existing.absorb(delta),
            None => {
                self.profiles.insert(identity.to_owned(), delta);
            }
        }
    }

    pub(super) fn identities_to_recompute(&self) -> impl Iterator<Item = String> + '_ {
        self.recompute.iter().cloned()
    }

    /// Identities this fold brings a paid touch (a `paid_*` channel) for.
    pub(super) fn identities_with_paid_touch(&self) -> impl Iterator<Item = &str> + '_ {
        self.touches
            .iter()
            .filter(|touch| touch.channel.starts_with("paid_"))
            .map(|touch| touch.identity.as_str())
    }

    /// Identities this fold's events acquire (or acquire earlier, when stored): their paid touch
    /// before acquisition may change even when the event brings no touch or revenue.
    pub(super) fn acquiring(&self) -> impl Iterator<Item = &str> + '_ {
        self.profiles
            .iter()
            .filter(|(_, delta)| delta.acquired_at.is_some())
            .map(|(identity, _)| identity.as_str())
    }

    /// Every identity whose rows [`Self::write`] changes: each identified event adds to its
    /// identity's profile.
    pub(super) fn identities(&self) -> impl Iterator<Item = &str> + '_ {
        self.profiles.keys().map(String::as_str)
    }

    pub(super) async fn write(&self, tx: &mut Tx, product_id: &str) -> StoreResult<()> {
        upsert_event_days(tx, product_id, &self.event_days).await?;
        upsert_profiles(tx, product_id, &self.profiles).await?;
        upsert_stage_days(tx, product_id, &self.stage_days).await?;
        insert_touches(tx, product_id, &self.touches).await?;
        insert_revenue(tx, product_id, &self.revenue).await?;
        self.landing.write(tx, product_id).await
    }

    /// This fold's daily stage rows, by identity.
    fn stage_rows_by_identity(&self) -> BTreeMap<&str, StageRows> {
        let mut by_identity: BTreeMap<&str, StageRows> = BTreeMap::new();
        for ((stage, day, identity), counts) in &self.stage_days {
            by_identity
                .entry(identity)
                .or_default()
                .insert(((*stage).to_owned(), day.clone()), *counts);
        }
        by_identity
    }

    /// What this fold changes in the daily tables for the identities of `before` (stored
    /// before it, and not merged in it): each one's contribution as its stored profile and
    /// rows made it (`before`, `stored_rows`) out, and as this fold leaves them (the profile
    /// absorbing the fold's delta, the stored rows plus this fold's) in. Whatever the fold did
    /// (a new day, a later latest day, a first touch moving to another channel) is the
    /// difference; what it left alone nets to zero. Revenue rows and paid touches are
    /// followed apart (`report_days::add_revenue_changes`).
    pub(super) fn add_stored(
        &self,
        sums: &mut DailySums,
        before: &BTreeMap<String, ProfileState>,
        stored_rows: Vec<StoredStageRow>,
    ) {
        let mut stored: BTreeMap<String, StageRows> = BTreeMap::new();
        for row in stored_rows {
            let counts = DayCounts {
                events: row.events,
                plain_events: row.plain_events,
                value_cents: row.plain_value,
            };
            stored
                .entry(row.identity)
                .or_default()
                .insert((row.stage, row.day), counts);
        }
        let fold_rows = self.stage_rows_by_identity();
        for (identity, was) in before {
            let now = self
                .profile_after(identity, Some(was))
                .unwrap_or_else(|| was.clone());
            was.add_to(sums, -1);
            now.add_to(sums, 1);
            let rows = stored.remove(identity).unwrap_or_default();
            add_stage_rows(
                sums,
                &rows,
                was.first_channel.as_deref().unwrap_or_default(),
                -1,
            );
            let mut rows = rows;
            for (key, counts) in fold_rows.get(identity.as_str()).into_iter().flatten() {
                rows.entry(key.clone()).or_default().add(counts);
            }
            add_stage_rows(
                sums,
                &rows,
                now.first_channel.as_deref().unwrap_or_default(),
                1,
            );
        }
    }

    /// The identity's profile as this fold leaves it: `before` (its stored profile, if any)
    /// absorbing this fold's delta. `None` for an identity with neither.
    pub(super) fn profile_after(
        &self,
        identity: &str,
        before: Option<&ProfileState>,
    ) -> Option<ProfileState> {
        let delta = self.profiles.get(identity);
        match (before, delta) {
            (Some(was), Some(delta)) => Some(was.absorbing(delta)),
            (Some(was), None) => Some(was.clone()),
            (None, Some(delta)) => Some(ProfileState::new_from(identity, delta)),
            (None, None) => None,
        }
    }

    /// What the identities of `new` (none of whose rows were stored before this fold, and none
    /// merged in it) and the revenue rows without an identity add to the daily report tables,
    /// from this fold's changes alone: the same sums `report_days.rs` reads back from the
    /// stored rows for the other identities (`TestApp::assert_report_days_exact` holds both to
    /// a recomputation). Their revenue rows, whose touches SQL picks, are added from what it
    /// returns instead (`report_days::add_revenue_changes`).
    pub(super) fn daily_sums(&self, new: &BTreeSet<String>) -> DailySums {
        let mut sums = DailySums::default();
        for (identity, rows) in self.stage_rows_by_identity() {
            if !new.contains(identity) {
                continue;
            }
            let channel = self
                .profiles
                .get(identity)
                .and_then(|profile| profile.first_touch.as_ref())
                .map_or("", |(_, channel)| channel.as_str());
            add_stage_rows(&mut sums, &rows, channel, 1);
        }
        for (identity, delta) in &self.profiles {
            if new.contains(identity) {
                ProfileState::new_from(identity, delta).add_to(&mut sums, 1);
            }
        }
        // No identity: no touch, and never another identity later.
        for revenue in self.revenue.iter().filter(|row| row.identity.is_none()) {
            let key = (revenue.day.clone(), String::new(), String::new(), false);
            let row = sums.revenue.entry(key).or_default();
            row[0] += 1;
            row[1] += revenue.amount_cents;
            let key = (revenue.day.clone(), String::new(), String::new());
            let row = sums.paid.entry(key).or_default();
            row[0] += 1;
            row[1] += revenue.amount_cents;
        }
        sums
    }
}

/// `(day, stage, channel or '', identified, source)`.
type EventDayKey = (String, &'static str, String, bool, String);

async fn upsert_event_days(
    tx: &mut Tx,
    product_id: &str,
    rows: &BTreeMap<EventDayKey, DayCounts>,
) -> StoreResult<()> {
    let rows: Vec<_> = rows
        .iter()
        .map(|((day, stage, channel, identified, source), events)| {
            let key = vec![
                KeyValue::Text(day),
                KeyValue::Text(stage),
                KeyValue::Text(channel),
                KeyValue::Flag(*identified),
                KeyValue::Text(source),
            ];
            (key, vec![events.events, events.value_cents])
        })
        .collect();
    add_to_counters(
        tx,
        product_id,
        "event_days",
        "day, stage, channel, identified, source",
        &["events", "value_cents"],
        &rows,
    )
    .await
}

async fn upsert_stage_days(
    tx: &mut Tx,
    product_id: &str,
    rows: &BTreeMap<(&'static str, String, String), DayCounts>,
) -> StoreResult<()> {
    let rows: Vec<_> = rows
        .iter()
        .map(|((stage, day, identity), counts)| {
            let key = vec![
                KeyValue::Text(stage),
                KeyValue::Text(day),
                KeyValue::Text(identity),
            ];
            let values = vec![counts.events, counts.plain_events, counts.value_cents];
            (key, values)
        })
        .collect();
    add_to_counters(
        tx,
        product_id,
        "stage_identity_days",
        "stage, day, identity",
        &["events", "plain_events", "plain_value"],
        &rows,
    )
    .await
}

/// Merges deltas into profiles. In an UPDATE every right-hand side sees the old row, so each
/// `CASE` compares against the stored values, not ones assigned earlier in the same SET.
pub(crate) async fn upsert_profiles(
    tx: &mut Tx,
    product_id: &str,
    profiles: &BTreeMap<String, ProfileDelta>,
) -> StoreResult<()> {
    let rows: Vec<_> = profiles.iter().collect();
    let verb = insert_verb(tx);
    for chunk in rows.chunks(CHUNK) {
        on_tx!(tx, conn => {
            let mut query = sqlx::QueryBuilder::new(verb);
            query.push(
                " INTO identity_profiles (product_id, identity, first_seen_at, last_seen_at, first_touch_at, \
                 first_channel, acquired_at, acquired_day, revenue_cents) ",
            );
            query.push_values(chunk, |mut row, (identity, delta)| {
                row.push_bind(product_id)
                    .push_bind(*identity)
                    .push_bind(delta.first_seen_at)
                    .push_bind(delta.last_seen_at)
                    .push_bind(delta.first_touch.as_ref().map(|t| t.0))
                    .push_bind(delta.first_touch.as_ref().map(|t| t.1.clone()))
                    .push_bind(delta.acquired_at)
                    .push_bind(delta.acquired_at.map(|at| Timestamp::from_millis(at).day()))
                    .push_bind(delta.revenue_cents);
            });
            query.push(
                " ON CONFLICT (product_id, identity) DO UPDATE SET \
                 first_seen_at = CASE WHEN excluded.first_seen_at < identity_profiles.first_seen_at \
                     THEN excluded.first_seen_at ELSE identity_profiles.first_seen_at END, \
                 last_seen_at = CASE WHEN identity_profiles.last_seen_at IS NULL \
                     OR excluded.last_seen_at > identity_profiles.last_seen_at \
                     THEN excluded.last_seen_at ELSE identity_profiles.last_seen_at END, \
                 first_touch_at = CASE WHEN excluded.first_touch_at IS NOT NULL AND (identity_profiles.first_touch_at IS NULL \
                     OR excluded.first_touch_at < identity_profiles.first_touch_at) \
                     THEN excluded.first_touch_at ELSE identity_profiles.first_touch_at END, \
                 first_channel = CASE WHEN excluded.first_touch_at IS NOT NULL AND (identity_profiles.first_touch_at IS NULL \
                     OR excluded.first_touch_at < identity_profiles.first_touch_at) \
                     THEN excluded.first_channel ELSE identity_profiles.first_channel END, \
                 acquired_at = CASE WHEN excluded.acquired_at IS NOT NULL AND (identity_profiles.acquired_at IS NULL \
                     OR excluded.acquired_at < identity_profiles.acquired_at) \
                     THEN excluded.acquired_at ELSE identity_profiles.acquired_at END, \
                 acquired_day = CASE WHEN excluded.acquired_at IS NOT NULL AND (identity_profiles.acquired_at IS NULL \
                     OR excluded.acquired_at < identity_profiles.acquired_at) \
                     THEN excluded.acquired_day ELSE identity_profiles.acquired_day END, \
                 revenue_cents = identity_profiles.revenue_cents + excluded.revenue_cents",
            );
            query.build().execute(conn).await.map(|done| done.rows_affected())
        })?;
    }
    Ok(())
}

/// A channel-bearing event of an identity: what last touch and paid touch are chosen from.
struct Touch {
    identity: String,
    occurred_at: i64,
    event_id: i64,
    channel: String,
}

async fn insert_touches(tx: &mut Tx, product_id: &str, touches: &[Touch]) -> StoreResult<()> {
    let verb = insert_verb(tx);
    for chunk in touches.chunks(CHUNK) {
        on_tx!(tx, conn => {
            let mut query = sqlx::QueryBuilder::new(verb);
            query.push(" INTO identity_touches (product_id, identity, occurred_at, event_id, channel) ");
            query.push_values(chunk, |mut row, touch| {
                row.push_bind(product_id)
                    .push_bind(&touch.identity)
                    .push_bind(touch.occurred_at)
                    .push_bind(touch.event_id)
                    .push_bind(&touch.channel);
            });
            query.build().execute(conn).await.map(|done| done.rows_affected())
        })?;
    }
    Ok(())
}

struct RevenueRow {
    event_id: i64,
    stage: &'static str,
    identity: Option<String>,
    occurred_at: i64,
    day: String,
    amount_cents: i64,
    currency: String,
}

async fn insert_revenue(tx: &mut Tx, product_id: &str, rows: &[RevenueRow]) -> StoreResult<()> {
    let verb = insert_verb(tx);
    for chunk in rows.chunks(CHUNK) {
        on_tx!(tx, conn => {
            let mut query = sqlx::QueryBuilder::new(verb);
            query.push(
                " INTO transactions (product_id, source, source_ref, kind, stage, identity, occurred_at, day, \
                 amount_cents, currency, event_id) ",
            );
            query.push_values(chunk, |mut row, revenue| {
                row.push_bind(product_id)
                    .push_bind("event")
                    .push_bind(revenue.event_id.to_string())
                    .push_bind(if revenue.amount_cents < 0 { "refund" } else { "sale" })
                    .push_bind(revenue.stage)
                    .push_bind(&revenue.identity)
                    .push_bind(revenue.occurred_at)
                    .push_bind(&revenue.day)
                    .push_bind(revenue.amount_cents)
                    .push_bind(&revenue.currency)
                    .push_bind(revenue.event_id);
            });
            query.push(" ON CONFLICT (product_id, source, source_ref) DO NOTHING");
            query.build().execute(conn).await.map(|done| done.rows_affected())
        })?;
    }
    Ok(())
}
