//! Writing a batch of events and keeping the per-identity and daily tables reports read.
//!
//! One call, one transaction (the caller's). In order:
//! 1. anonymous ids seen with a user id are linked (first link wins) and their earlier events,
//!    revenue rows, daily rows and profile are merged into the user's identity;
//! 2. each event resolves to its canonical identity (`u:<user>` or `a:<anonymous>`);
//! 3. events are inserted, duplicates (same dedupe id in the namespace) dropped;
//! 4. for the new events only: daily rollups, identity profiles (first touch, acquisition,
//!    revenue), revenue rows;
//! 5. the last touch of every revenue row of the identities touched is recomputed, so events
//!    arriving out of order or identities merging never leave a stale last touch.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use payback_domain::Timestamp;

use crate::Tx;
use crate::error::StoreResult;

/// An event ready to store: validated, classified, not yet resolved to an identity.
#[derive(Debug, Clone)]
pub struct EventRecord {
    pub namespace: String,
    pub dedupe_id: String,
    pub stage: &'static str,
    pub name: Option<String>,
    pub occurred_at: Timestamp,
    pub anonymous_id: Option<String>,
    pub user_id: Option<String>,
    pub email: Option<String>,
    pub value_cents: Option<i64>,
    pub currency: Option<String>,
    pub channel: Option<String>,
    pub attribution: Option<String>,
    /// `attribution.utm_campaign`, kept in its own indexed column for the distribution log.
    pub utm_campaign: Option<String>,
    pub properties: Option<String>,
    /// A valued converted/payment event: it writes a revenue row.
    pub is_revenue: bool,
    /// A converted/payment event: the identity's first one acquires the customer.
    pub acquires: bool,
}

/// What a batch did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct BatchOutcome {
    pub inserted: usize,
    pub duplicates: usize,
}

pub fn user_identity(user_id: &str) -> String {
    format!("u:{user_id}")
}

pub fn anonymous_identity(anonymous_id: &str) -> String {
    format!("a:{anonymous_id}")
}

/// Rows per multi-row INSERT: well under SQLite's 32,766 bound parameters at 18 columns.
const CHUNK: usize = 500;

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
    fn absorb(&mut self, other: ProfileDelta) {
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

pub async fn write_batch(
    tx: &mut Tx,
    product_id: &str,
    events: &[EventRecord],
    received_at: Timestamp,
) -> StoreResult<BatchOutcome> {
    lock_product(tx, product_id).await?;
    let mut recompute: BTreeSet<String> = BTreeSet::new();
    let links = link_identities(tx, product_id, events, received_at, &mut recompute).await?;
    let identities: Vec<Option<String>> = events
        .iter()
        .map(|event| match (&event.user_id, &event.anonymous_id) {
            (Some(user), _) => Some(user_identity(user)),
            (None, Some(anonymous)) => Some(
                links
                    .get(anonymous)
                    .map_or_else(|| anonymous_identity(anonymous), |user| user_identity(user)),
            ),
            (None, None) => None,
        })
        .collect();

    let mut inserted_ids: HashMap<(String, String), i64> = HashMap::new();
    for (chunk, chunk_identities) in events.chunks(CHUNK).zip(identities.chunks(CHUNK)) {
        for (namespace, dedupe_id, id) in
            insert_events(tx, product_id, chunk, chunk_identities, received_at).await?
        {
            inserted_ids.insert((namespace, dedupe_id), id);
        }
    }

    let mut stage_days: BTreeMap<(&'static str, String, String), i64> = BTreeMap::new();
    let mut event_days: BTreeMap<EventDayKey, i64> = BTreeMap::new();
    let mut profiles: BTreeMap<String, ProfileDelta> = BTreeMap::new();
    let mut revenue: Vec<RevenueRow> = Vec::new();
    let mut inserted = 0;
    for (event, identity) in events.iter().zip(&identities) {
        // A dedupe id repeated inside one batch is inserted once: count it once.
        let Some(event_id) =
            inserted_ids.remove(&(event.namespace.clone(), event.dedupe_id.clone()))
        else {
            continue;
        };
        inserted += 1;
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
        *event_days
            .entry((
                day.clone(),
                event.stage,
                channel,
                identity.is_some(),
                source,
            ))
            .or_default() += 1;
        if event.is_revenue {
            revenue.push(RevenueRow {
                event_id,
                stage: event.stage,
                identity: identity.clone(),
                occurred_at: at,
                day: day.clone(),
                amount_cents: event.value_cents.unwrap_or_default(),
                currency: event.currency.clone().unwrap_or_default(),
            });
        }
        let Some(identity) = identity else { continue };
        *stage_days
            .entry((event.stage, day, identity.clone()))
            .or_default() += 1;
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
        if event.channel.is_some() || event.is_revenue {
            recompute.insert(identity.clone());
        }
        match profiles.get_mut(identity) {
            Some(existing) => existing.absorb(delta),
            None => {
                profiles.insert(identity.clone(), delta);
            }
        }
    }

    upsert_event_days(tx, product_id, &event_days).await?;
    upsert_stage_days(tx, product_id, &stage_days).await?;
    upsert_profiles(tx, product_id, &profiles).await?;
    insert_revenue(tx, product_id, &revenue).await?;
    recompute_last_touch(tx, product_id, &recompute).await?;
    Ok(BatchOutcome {
        inserted,
        duplicates: events.len() - inserted,
    })
}

/// The stored links of these anonymous ids. On PostgreSQL the ids go as one array joined
/// through `unnest`: a long `IN ($2, ..., $n)` list under a generic plan was evaluated row by
/// row against a sequential scan (a second per 500-id batch once the table held a few hundred
/// thousand links); the join probes the primary key once per id whatever the plan.
async fn known_links(
    tx: &mut Tx,
    product_id: &str,
    anonymous: &BTreeSet<&str>,
) -> StoreResult<HashMap<String, String>> {
    let ids: Vec<&str> = anonymous.iter().copied().collect();
    let mut links = HashMap::new();
    match tx {
        Tx::Postgres(conn) => {
            let rows: Vec<(String, String)> = sqlx::query_as(
                "SELECT l.anonymous_id, l.user_id FROM unnest($2::text[]) AS wanted(id) \
                 JOIN identity_links l ON l.product_id = $1 AND l.anonymous_id = wanted.id",
            )
            .bind(product_id)
            .bind(&ids)
            .fetch_all(&mut **conn)
            .await?;
            links.extend(rows);
        }
        Tx::Sqlite(conn) => {
            // SQLite turns an IN list into a probe of the primary key per id.
            for chunk in ids.chunks(CHUNK) {
                let mut query = sqlx::QueryBuilder::new(
                    "SELECT anonymous_id, user_id FROM identity_links WHERE product_id = ",
                );
                query.push_bind(product_id).push(" AND anonymous_id IN (");
                let mut list = query.separated(", ");
                for id in chunk {
                    list.push_bind(*id);
                }
                query.push(")");
                let rows: Vec<(String, String)> =
                    query.build_query_as().fetch_all(&mut **conn).await?;
                links.extend(rows);
            }
        }
    }
    Ok(links)
}

/// Links anonymous ids the batch sees together with a user id, merging what the anonymous
/// identity already had into the user's. Returns every link relevant to the batch.
async fn link_identities(
    tx: &mut Tx,
    product_id: &str,
    events: &[EventRecord],
    now: Timestamp,
    recompute: &mut BTreeSet<String>,
) -> StoreResult<HashMap<String, String>> {
    let anonymous: BTreeSet<&str> = events
        .iter()
        .filter_map(|e| e.anonymous_id.as_deref())
        .collect();
    if anonymous.is_empty() {
        return Ok(HashMap::new());
    }
    let mut links: HashMap<String, String> = known_links(tx, product_id, &anonymous).await?;
    let mut new_links: Vec<(String, String)> = Vec::new();
    for event in events {
        let (Some(anonymous), Some(user)) = (&event.anonymous_id, &event.user_id) else {
            continue;
        };
        if links.contains_key(anonymous) {
            continue;
        }
        links.insert(anonymous.clone(), user.clone());
        new_links.push((anonymous.clone(), user.clone()));
        recompute.insert(user_identity(user));
    }
    for chunk in new_links.chunks(CHUNK) {
        merge_anonymous_into_users(tx, product_id, chunk, now).await?;
    }
    Ok(links)
}

#[derive(sqlx::FromRow)]
struct StoredProfile {
    identity: String,
    first_seen_at: i64,
    last_seen_at: Option<i64>,
    first_touch_at: Option<i64>,
    first_channel: Option<String>,
    acquired_at: Option<i64>,
    revenue_cents: i64,
}

/// Records `links` (anonymous id, user id) and moves everything the anonymous identities had
/// (events, revenue rows, daily rows, profiles) to their users, in a fixed number of
/// statements however many links the batch brings. Set-based statements find each row's user
/// through `identity_links` by primary key (`substr(identity, 3)` strips the `a:` prefix).
async fn merge_anonymous_into_users(
    tx: &mut Tx,
    product_id: &str,
    links: &[(String, String)],
    now: Timestamp,
) -> StoreResult<()> {
    on_tx!(tx, conn => {
        let mut query = sqlx::QueryBuilder::new("INSERT INTO identity_links (product_id, anonymous_id, user_id, linked_at) ");
        query.push_values(links, |mut row, (anonymous, user)| {
            row.push_bind(product_id).push_bind(anonymous).push_bind(user).push_bind(now.millis());
        });
        query.push(" ON CONFLICT (product_id, anonymous_id) DO NOTHING");
        query.build().execute(conn).await.map(|done| done.rows_affected())
    })?;
    let anonymous: Vec<String> = links
        .iter()
        .map(|(anonymous, _)| anonymous_identity(anonymous))
        .collect();
    // Each statement is `<head> product_id = ? AND <identity column> IN (...) <tail>`.
    let statements: [(&str, &str, &str); 4] = [
        (
            "UPDATE events SET identity = (SELECT 'u:' || l.user_id FROM identity_links l \
             WHERE l.product_id = events.product_id AND l.anonymous_id = substr(events.identity, 3)) WHERE product_id = ",
            "identity",
            "",
        ),
        (
            "UPDATE transactions SET identity = (SELECT 'u:' || l.user_id FROM identity_links l \
             WHERE l.product_id = transactions.product_id AND l.anonymous_id = substr(transactions.identity, 3)) \
             WHERE product_id = ",
            "identity",
            "",
        ),
        (
            "INSERT INTO stage_identity_days (product_id, stage, day, identity, events) \
             SELECT s.product_id, s.stage, s.day, 'u:' || l.user_id, CAST(SUM(s.events) AS BIGINT) \
             FROM stage_identity_days s JOIN identity_links l \
             ON l.product_id = s.product_id AND l.anonymous_id = substr(s.identity, 3) WHERE s.product_id = ",
            "s.identity",
            // Grouped, so two anonymous ids of one user sharing a stage and day do not hit the
            // same row twice in one upsert.
            " GROUP BY s.product_id, s.stage, s.day, l.user_id \
             ON CONFLICT (product_id, stage, day, identity) DO UPDATE SET events = stage_identity_days.events + excluded.events",
        ),
        (
            "DELETE FROM stage_identity_days WHERE product_id = ",
            "identity",
            "",
        ),
    ];
    for (head, column, tail) in statements {
        on_tx!(tx, conn => {
            let mut query = sqlx::QueryBuilder::new(head);
            query.push_bind(product_id).push(" AND ").push(column).push(" IN (");
            let mut list = query.separated(", ");
            for identity in &anonymous {
                list.push_bind(identity);
            }
            query.push(")").push(tail);
            query.build().execute(conn).await.map(|done| done.rows_affected())
        })?;
    }
    let moved: Vec<StoredProfile> = on_tx!(tx, conn => {
        let mut query = sqlx::QueryBuilder::new("DELETE FROM identity_profiles WHERE product_id = ");
        query.push_bind(product_id).push(" AND identity IN (");
        let mut list = query.separated(", ");
        for identity in &anonymous {
            list.push_bind(identity);
        }
        query.push(") RETURNING identity, first_seen_at, last_seen_at, first_touch_at, first_channel, acquired_at, revenue_cents");
        query.build_query_as().fetch_all(conn).await
    })?;
    let user_of: HashMap<String, String> = links
        .iter()
        .map(|(anonymous, user)| (anonymous_identity(anonymous), user_identity(user)))
        .collect();
    let mut deltas: BTreeMap<String, ProfileDelta> = BTreeMap::new();
    for stored in moved {
        let Some(user) = user_of.get(&stored.identity) else {
            continue;
        };
        let delta = ProfileDelta {
            first_seen_at: stored.first_seen_at,
            last_seen_at: stored.last_seen_at.unwrap_or(stored.first_seen_at),
            first_touch: stored.first_touch_at.zip(stored.first_channel),
            acquired_at: stored.acquired_at,
            revenue_cents: stored.revenue_cents,
        };
        match deltas.get_mut(user) {
            Some(existing) => existing.absorb(delta),
            None => {
                deltas.insert(user.clone(), delta);
            }
        }
    }
    upsert_profiles(tx, product_id, &deltas).await
}

/// Takes the product's ingest lock until the transaction ends. Batches of one product upsert
/// the same rollup rows and merge the same identities; on PostgreSQL, running them side by side
/// deadlocks, so they queue on a transaction-scoped advisory lock (other products, and readers,
/// are not held up). SQLite runs one write transaction at a time already.
async fn lock_product(tx: &mut Tx, product_id: &str) -> StoreResult<()> {
    if let Tx::Postgres(inner) = tx {
        sqlx::query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))")
            .bind(product_id)
            .execute(&mut **inner)
            .await?;
    }
    Ok(())
}

/// Inserts events, skipping duplicates; returns `(namespace, dedupe_id, id)` of those inserted.
async fn insert_events(
    tx: &mut Tx,
    product_id: &str,
    events: &[EventRecord],
    identities: &[Option<String>],
    received_at: Timestamp,
) -> StoreResult<Vec<(String, String, i64)>> {
    if events.is_empty() {
        return Ok(Vec::new());
    }
    Ok(on_tx!(tx, conn => {
        let mut query = sqlx::QueryBuilder::new(
            "INSERT INTO events (product_id, namespace, dedupe_id, stage, name, occurred_at, day, identity, anonymous_id, \
             user_id, email, value_cents, currency, channel, attribution, utm_campaign, properties, received_at) ",
        );
        query.push_values(events.iter().zip(identities), |mut row, (event, identity)| {
            row.push_bind(product_id)
                .push_bind(&event.namespace)
                .push_bind(&event.dedupe_id)
                .push_bind(event.stage)
                .push_bind(&event.name)
                .push_bind(event.occurred_at.millis())
                .push_bind(event.occurred_at.day())
                .push_bind(identity)
                .push_bind(&event.anonymous_id)
                .push_bind(&event.user_id)
                .push_bind(&event.email)
                .push_bind(event.value_cents)
                .push_bind(&event.currency)
                .push_bind(&event.channel)
                .push_bind(&event.attribution)
                .push_bind(&event.utm_campaign)
                .push_bind(&event.properties)
                .push_bind(received_at.millis());
        });
        query.push(" ON CONFLICT (product_id, namespace, dedupe_id) DO NOTHING RETURNING namespace, dedupe_id, id");
        query.build_query_as().fetch_all(conn).await
    })?)
}

/// `(day, stage, channel or '', identified, source)`.
type EventDayKey = (String, &'static str, String, bool, String);

async fn upsert_event_days(
    tx: &mut Tx,
    product_id: &str,
    rows: &BTreeMap<EventDayKey, i64>,
) -> StoreResult<()> {
    let rows: Vec<_> = rows.iter().collect();
    for chunk in rows.chunks(CHUNK) {
        on_tx!(tx, conn => {
            let mut query = sqlx::QueryBuilder::new("INSERT INTO event_days (product_id, day, stage, channel, identified, source, events) ");
            query.push_values(chunk, |mut row, ((day, stage, channel, identified, source), events)| {
                row.push_bind(product_id)
                    .push_bind(day)
                    .push_bind(*stage)
                    .push_bind(channel)
                    .push_bind(*identified)
                    .push_bind(source)
                    .push_bind(**events);
            });
            query.push(
                " ON CONFLICT (product_id, day, stage, channel, identified, source) \
                 DO UPDATE SET events = event_days.events + excluded.events",
            );
            query.build().execute(conn).await.map(|done| done.rows_affected())
        })?;
    }
    Ok(())
}

async fn upsert_stage_days(
    tx: &mut Tx,
    product_id: &str,
    rows: &BTreeMap<(&'static str, String, String), i64>,
) -> StoreResult<()> {
    let rows: Vec<_> = rows.iter().collect();
    for chunk in rows.chunks(CHUNK) {
        on_tx!(tx, conn => {
            let mut query = sqlx::QueryBuilder::new("INSERT INTO stage_identity_days (product_id, stage, day, identity, events) ");
            query.push_values(chunk, |mut row, ((stage, day, identity), events)| {
                row.push_bind(product_id).push_bind(*stage).push_bind(day).push_bind(identity).push_bind(**events);
            });
            query.push(
                " ON CONFLICT (product_id, stage, day, identity) \
                 DO UPDATE SET events = stage_identity_days.events + excluded.events",
            );
            query.build().execute(conn).await.map(|done| done.rows_affected())
        })?;
    }
    Ok(())
}

/// Merges deltas into profiles. In an UPDATE every right-hand side sees the old row, so each
/// `CASE` compares against the stored values, not ones assigned earlier in the same SET.
pub(crate) async fn upsert_profiles(
    tx: &mut Tx,
    product_id: &str,
    profiles: &BTreeMap<String, ProfileDelta>,
) -> StoreResult<()> {
    let rows: Vec<_> = profiles.iter().collect();
    for chunk in rows.chunks(CHUNK) {
        on_tx!(tx, conn => {
            let mut query = sqlx::QueryBuilder::new(
                "INSERT INTO identity_profiles (product_id, identity, first_seen_at, last_seen_at, first_touch_at, \
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
    for chunk in rows.chunks(CHUNK) {
        on_tx!(tx, conn => {
            let mut query = sqlx::QueryBuilder::new(
                "INSERT INTO transactions (product_id, source, source_ref, kind, stage, identity, occurred_at, day, \
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

/// Sets each revenue row's last touch of `identities` to the identity's latest channel-bearing
/// event at or before it (ties: the later-ingested event).
pub async fn recompute_last_touch(
    tx: &mut Tx,
    product_id: &str,
    identities: &BTreeSet<String>,
) -> StoreResult<()> {
    let identities: Vec<&String> = identities.iter().collect();
    for chunk in identities.chunks(CHUNK) {
        on_tx!(tx, conn => {
            let mut query = sqlx::QueryBuilder::new(
                "UPDATE transactions SET (last_touch_at, last_channel) = (\
                 SELECT e.occurred_at, e.channel FROM events e \
                 WHERE e.product_id = transactions.product_id AND e.identity = transactions.identity \
                 AND e.channel IS NOT NULL AND e.occurred_at <= transactions.occurred_at \
                 ORDER BY e.occurred_at DESC, e.id DESC LIMIT 1) WHERE product_id = ",
            );
            query.push_bind(product_id).push(" AND identity IN (");
            let mut list = query.separated(", ");
            for identity in chunk {
                list.push_bind(*identity);
            }
            query.push(")");
            query.build().execute(conn).await.map(|done| done.rows_affected())
        })?;
    }
    Ok(())
}
