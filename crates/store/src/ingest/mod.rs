//! Writing a batch of events and keeping the per-identity and daily tables reports read.
//!
//! One call, one transaction (the caller's). In order:
//! 1. anonymous ids seen with a user id are linked (first link wins) and their touches, revenue
//!    rows, daily rows and profile are merged into the user's identity (their earlier events
//!    keep the identity they were stored under: `identity_sql.rs`); the emails events name are
//!    claimed (`emails.rs`: an anonymous id naming a user's email is linked to the user, and an
//!    email-only identity whose email is claimed is merged into its holder the same way);
//! 2. each event resolves to its canonical identity (`u:<user>`, `a:<anonymous>`, or for an
//!    event with only an email its holder's, `e:<email>` while nobody holds it);
//! 3. events are inserted, duplicates (same dedupe id in the namespace) dropped;
//! 4. for the new events only: daily rollups, identity profiles (first touch, acquisition,
//!    revenue), touches (channel-bearing events with an identity), revenue rows;
//! 5. the last touch and last paid touch of every revenue row of the identities touched, and
//!    the last paid touch before acquisition of those that are customers, are recomputed
//!    (`last_touches.rs`), so events arriving out of order or identities merging never leave
//!    a stale one;
//! 6. the daily report tables follow every identity the fold changed: its contribution as its
//!    rows were (read before the write, or for a merge taken out before it) out, as they are
//!    now in (`report_days.rs`).

mod day_rows;
mod emails;
pub mod failures;
mod inbox;
mod keys;
mod landing_visits;
mod last_touches;
mod links;
mod moves;
mod report_days;
mod rollups;
mod writer;

use std::collections::{BTreeMap, BTreeSet, HashMap};

use payback_domain::Timestamp;
use serde::{Deserialize, Serialize};

use crate::Tx;
use crate::error::StoreResult;
pub(crate) use keys::backfill as backfill_dedupe_keys;
pub use keys::dedupe_key;
use links::link_identities;
use report_days::{Contributions, ProfileState, RevenueChanges};
use rollups::RollupChanges;
pub use writer::IngestWriter;

/// An event ready to store: validated, classified, not yet resolved to an identity. It waits in
/// the inbox in this shape (serialised as JSON) until the writer folds it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct EventRecord {
    pub namespace: String,
    pub dedupe_id: String,
    #[serde(with = "inbox::stage_name")]
    pub stage: StageName,
    pub name: Option<String>,
    #[serde(with = "inbox::epoch_millis")]
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

/// A stage's canonical name. An alias, not `&'static str` spelled out in the field: serde's
/// derive borrows fields written as `&str` from the input, which a stored batch cannot lend.
pub type StageName = &'static str;

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
pub(crate) const CHUNK: usize = 500;

/// Events per insert on PostgreSQL, where they go as one array per column: a whole fold as a
/// rule, bounded so one statement's arrays stay a few megabytes.
const ARRAY_CHUNK: usize = 10_000;

/// One request's events and when they arrived: the unit whose outcome is reported.
#[derive(Debug, Clone, Copy)]
pub struct Batch<'a> {
    pub events: &'a [EventRecord],
    pub received_at: Timestamp,
}

/// Writes one batch in the caller's transaction.
pub async fn write_batch(
    tx: &mut Tx,
    product_id: &str,
    events: &[EventRecord],
    received_at: Timestamp,
) -> StoreResult<BatchOutcome> {
    let outcomes = write_batches(
        tx,
        product_id,
        &[Batch {
            events,
            received_at,
        }],
    )
    .await?;
    Ok(outcomes.into_iter().next().unwrap_or_default())
}

/// Writes several batches of one product in the caller's transaction, as if one after the
/// other: a dedupe id seen in an earlier batch (or earlier in the same batch) counts as that
/// batch's and is a duplicate afterwards. Returns one outcome per batch, in order.
pub async fn write_batches(
    tx: &mut Tx,
    product_id: &str,
    batches: &[Batch<'_>],
) -> StoreResult<Vec<BatchOutcome>> {
    lock_product(tx, product_id).await?;
    let events: Vec<&EventRecord> = batches.iter().flat_map(|batch| batch.events).collect();
    let received_at: Vec<i64> = batches
        .iter()
        .flat_map(|batch| std::iter::repeat_n(batch.received_at.millis(), batch.events.len()))
        .collect();
    let batch_of: Vec<usize> = batches
        .iter()
        .enumerate()
        .flat_map(|(index, batch)| std::iter::repeat_n(index, batch.events.len()))
        .collect();
    // A link is recorded when this transaction runs: the latest arrival among the batches.
    let linked_at = batches
        .iter()
        .map(|batch| batch.received_at)
        .max_by_key(|at| at.millis())
        .unwrap_or(Timestamp::from_millis(0));

    let mut recompute: BTreeSet<String> = BTreeSet::new();
    let mut contributions = Contributions::default();
    let stitched = link_identities(
        tx,
        product_id,
        &events,
        linked_at,
        &mut recompute,
        &mut contributions,
    )
    .await?;
    let identities: Vec<Option<String>> = events
        .iter()
        .map(|event| match (&event.user_id, &event.anonymous_id) {
            (Some(user), _) => Some(user_identity(user)),
            (None, Some(anonymous)) => Some(
                stitched
                    .links
                    .get(anonymous)
                    .map_or_else(|| anonymous_identity(anonymous), |user| user_identity(user)),
            ),
            (None, None) => event
                .email
                .as_ref()
                .and_then(|email| stitched.by_email.get(email).cloned()),
        })
        .collect();

    let unseen = keys::unseen(tx, product_id, &events).await?;
    // Where each new event sits in `unseen`, to match the ids the inserts return.
    let position: HashMap<(&str, &str), usize> = unseen
        .iter()
        .enumerate()
        .map(|(at, new)| {
            let event = events[new.index];
            ((event.namespace.as_str(), event.dedupe_id.as_str()), at)
        })
        .collect();
    let mut event_ids: Vec<Option<i64>> = vec![None; unseen.len()];
    let per_insert = match tx {
        Tx::Sqlite(_) => CHUNK,
        Tx::Postgres(_) => ARRAY_CHUNK,
    };
    for chunk in unseen.chunks(per_insert) {
        let rows: Vec<NewRow<'_>> = chunk
            .iter()
            .map(|new| NewRow {
                event: events[new.index],
                identity: identities[new.index].as_deref(),
                received_at: received_at[new.index],
            })
            .collect();
        for (namespace, dedupe_id, id) in insert_events(tx, product_id, &rows).await? {
            if let Some(&at) = position.get(&(namespace.as_str(), dedupe_id.as_str())) {
                event_ids[at] = Some(id);
            }
        }
    }

    let mut changes = RollupChanges::default();
    let mut outcomes: Vec<BatchOutcome> = batches
        .iter()
        .map(|batch| BatchOutcome {
            inserted: 0,
            duplicates: batch.events.len(),
        })
        .collect();
    let mut new_keys = Vec::with_capacity(unseen.len());
    for (new, event_id) in unseen.iter().zip(event_ids) {
        let Some(event_id) = event_id else { continue };
        let event = events[new.index];
        if let Some(outcome) = outcomes.get_mut(batch_of[new.index]) {
            outcome.inserted += 1;
            outcome.duplicates -= 1;
        }
        changes.add(event, event_id, identities[new.index].as_deref());
        new_keys.push(keys::NewKey {
            namespace: &event.namespace,
            dedupe_id: &event.dedupe_id,
            claim: new.claim,
            event_id,
        });
    }
    keys::remember(tx, product_id, &new_keys).await?;
    recompute.extend(changes.identities_to_recompute());
    keep_report_days(tx, product_id, &changes, &recompute, contributions).await?;
    Ok(outcomes)
}

/// Writes the fold's changes, recomputes the touches credited on the rows of the identities
/// it touches (`last_touches.rs`), and keeps the daily report tables (`report_days.rs`) for
/// every one of them not already taken out by a merge: identities new in this fold are summed
/// from its changes; stored ones from their profiles, daily stage rows and (when the fold may
/// change what they contribute) revenue rows read before the write (one range of an identity
/// index each) and the fold's changes to them. Revenue rows and customers whose touches SQL
/// recomputes come back from the statements that recompute them.
async fn keep_report_days(
    tx: &mut Tx,
    product_id: &str,
    changes: &RollupChanges,
    recompute: &BTreeSet<String>,
    contributions: Contributions,
) -> StoreResult<()> {
    let followed: BTreeSet<&str> = changes
        .identities()
        .chain(recompute.iter().map(String::as_str))
        .filter(|identity| !contributions.is_taken(identity))
        .collect();
    let untaken: Vec<&str> = followed.iter().copied().collect();
    let before = report_days::stored_profiles(tx, product_id, &untaken).await?;
    let new: BTreeSet<String> = untaken
        .iter()
        .filter(|identity| !before.contains_key(**identity))
        .map(|identity| (*identity).to_owned())
        .collect();
    let stored: Vec<&str> = before.keys().map(String::as_str).collect();
    let stored_rows = report_days::stored_stage_rows(tx, product_id, &stored).await?;

    // A stored identity's revenue rows contribute differently when their touches are
    // recomputed (a new touch may change the last or paid one, an earlier first touch the
    // first) or its acquisition moves earlier (their days since it). Those that cannot have
    // any (most visitors) are not read.
    let acquiring: BTreeSet<&str> = changes.acquiring().collect();
    let revenue_may_change: Vec<&str> = before
        .values()
        .filter(|profile| profile.may_have_revenue())
        .map(|profile| profile.identity.as_str())
        .filter(|identity| recompute.contains(*identity) || acquiring.contains(identity))
        .collect();
    let rows_before = report_days::stored_revenue_rows(tx, product_id, &revenue_may_change).await?;

    let customers = customers_to_recompute(changes, recompute, &contributions, &followed, &before);

    changes.write(tx, product_id).await?;
    let rows_after = last_touches::recompute_revenue_touches(tx, product_id, recompute).await?;
    let customers_after =
        last_touches::recompute_customer_touches(tx, product_id, &customers).await?;

    contributions.put_back(tx, product_id).await?;
    let mut sums = changes.daily_sums(&new);
    changes.add_stored(&mut sums, &before, stored_rows);
    let revenue = RevenueChanges {
        profiles_before: &before,
        rows_before,
        rows_after,
        recomputed: recompute,
        customers_after,
    };
    revenue.add_to(&mut sums, &followed, |identity, was| {
        changes.profile_after(identity, was)
    });
    sums.add_to_tables(tx, product_id).await
}

/// The identities whose paid touch before acquisition the fold must recompute. It changes
/// only when the identity merges, is acquired (earlier), or gains a paid touch; most visits
/// do none of these, and most visitors are no customers before the fold or after it.
fn customers_to_recompute(
    changes: &RollupChanges,
    recompute: &BTreeSet<String>,
    contributions: &Contributions,
    followed: &BTreeSet<&str>,
    before: &BTreeMap<String, ProfileState>,
) -> BTreeSet<String> {
    let acquiring: BTreeSet<&str> = changes.acquiring().collect();
    let paid_touch: BTreeSet<&str> = changes.identities_with_paid_touch().collect();
    let was_customer = |identity: &str| {
        before
            .get(identity)
            .is_some_and(|profile| profile.acquired_at.is_some())
    };
    let merged = recompute
        .iter()
        .map(String::as_str)
        .filter(|identity| contributions.is_taken(identity));
    followed
        .iter()
        .copied()
        .filter(|identity| {
            acquiring.contains(identity)
                || (was_customer(identity) && paid_touch.contains(identity))
        })
        .chain(merged)
        .map(str::to_owned)
        .collect()
}

/// Takes the product's ingest lock until the transaction ends. Batches of one product upsert
/// the same rollup rows and merge the same identities; on PostgreSQL, running them side by side
/// deadlocks, so they queue (other products, and readers, are not held up).
async fn lock_product(tx: &mut Tx, product_id: &str) -> StoreResult<()> {
    crate::locks::hold_until_commit(tx, product_id).await
}

/// How the fold's multi-row writes begin: `INSERT`, and on SQLite `INSERT OR FAIL`.
///
/// SQLite gives a statement that writes many rows and may stop on a constraint (`ABORT`, the
/// default) a statement journal: the first change to each page copies the page aside so the
/// statement alone can be undone. A fold's statements touch pages all over the event, key and
/// rollup trees, and that copying was a tenth of the fold's time (`perf`, BENCHMARKS.md). `FAIL`
/// stops the same way without undoing the statement's earlier rows, so it needs no journal;
/// the whole transaction is rolled back on any error anyway, so no partial statement survives.
/// (Immediate foreign keys would bring the journal back: the fold's SQLite connection does not
/// enforce them, see `Db::for_ingest_writer`.)
pub(crate) fn insert_verb(tx: &Tx) -> &'static str {
    match tx {
        Tx::Sqlite(_) => "INSERT OR FAIL",
        Tx::Postgres(_) => "INSERT",
    }
}

/// An event to insert, resolved to its identity.
struct NewRow<'a> {
    event: &'a EventRecord,
    identity: Option<&'a str>,
    received_at: i64,
}

/// Inserts events known to be new (`keys::unseen`); returns `(namespace, dedupe_id, id)` of
/// each.
async fn insert_events(
    tx: &mut Tx,
    product_id: &str,
    rows: &[NewRow<'_>],
) -> StoreResult<Vec<(String, String, i64)>> {
    if rows.is_empty() {
        return Ok(Vec::new());
    }
    let verb = insert_verb(tx);
    Ok(match tx {
        Tx::Sqlite(conn) => insert_events_as_values(conn, verb, product_id, rows).await?,
        Tx::Postgres(conn) => insert_events_as_arrays(conn, product_id, rows).await?,
    })
}

/// SQLite: one multi-row `VALUES` list (its bound parameters are capped, hence [`CHUNK`]).
async fn insert_events_as_values(
    conn: &mut sqlx::SqliteConnection,
    verb: &str,
    product_id: &str,
    rows: &[NewRow<'_>],
) -> Result<Vec<(String, String, i64)>, sqlx::Error> {
    let mut query = sqlx::QueryBuilder::new(verb);
    query.push(format_args!(" INTO events ({EVENT_COLUMNS}) "));
    query.push_values(
        rows,
        |mut row,
         NewRow {
             event,
             identity,
             received_at,
         }| {
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
                .push_bind(*received_at);
        },
    );
    query.push(" RETURNING namespace, dedupe_id, id");
    query.build_query_as().fetch_all(conn).await
}

/// PostgreSQL: one array per column, unnested by the server. A `VALUES` list of thousands of
/// rows is a new statement for PostgreSQL to parse and plan each time (its text grows with the
/// row count); the arrays keep one prepared statement whatever the count.
async fn insert_events_as_arrays(
    conn: &mut sqlx::PgConnection,
    product_id: &str,
    rows: &[NewRow<'_>],
) -> Result<Vec<(String, String, i64)>, sqlx::Error> {
    let texts = |field: fn(&EventRecord) -> &str| -> Vec<&str> {
        rows.iter().map(|row| field(row.event)).collect()
    };
    let optional = |field: fn(&EventRecord) -> Option<&str>| -> Vec<Option<&str>> {
        rows.iter().map(|row| field(row.event)).collect()
    };
    let sql = format!(
        "INSERT INTO events ({EVENT_COLUMNS}) \
         SELECT $1, * FROM UNNEST($2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[], \
         $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::bigint[], $13::text[], \
         $14::text[], $15::text[], $16::text[], $17::text[], $18::bigint[]) \
         RETURNING namespace, dedupe_id, id"
    );
    sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(product_id)
        .bind(texts(|e| &e.namespace))
        .bind(texts(|e| &e.dedupe_id))
        .bind(texts(|e| e.stage))
        .bind(optional(|e| e.name.as_deref()))
        .bind(
            rows.iter()
                .map(|row| row.event.occurred_at.millis())
                .collect::<Vec<i64>>(),
        )
        .bind(
            rows.iter()
                .map(|row| row.event.occurred_at.day())
                .collect::<Vec<String>>(),
        )
        .bind(
            rows.iter()
                .map(|row| row.identity)
                .collect::<Vec<Option<&str>>>(),
        )
        .bind(optional(|e| e.anonymous_id.as_deref()))
        .bind(optional(|e| e.user_id.as_deref()))
        .bind(optional(|e| e.email.as_deref()))
        .bind(
            rows.iter()
                .map(|row| row.event.value_cents)
                .collect::<Vec<Option<i64>>>(),
        )
        .bind(optional(|e| e.currency.as_deref()))
        .bind(optional(|e| e.channel.as_deref()))
        .bind(optional(|e| e.attribution.as_deref()))
        .bind(optional(|e| e.utm_campaign.as_deref()))
        .bind(optional(|e| e.properties.as_deref()))
        .bind(rows.iter().map(|row| row.received_at).collect::<Vec<i64>>())
        .fetch_all(conn)
        .await
}

/// The columns an event is inserted with, in the order both inserts bind them.
const EVENT_COLUMNS: &str = "product_id, namespace, dedupe_id, stage, name, occurred_at, day, identity, \
    anonymous_id, user_id, email, value_cents, currency, channel, attribution, utm_campaign, properties, \
    received_at";
