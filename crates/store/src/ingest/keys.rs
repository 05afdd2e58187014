//! Deduplication by a compact key. An event is the same event as a stored one when product,
//! namespace and dedupe id all match. Instead of a unique index over those three texts (about
//! 90 bytes an entry, at a random place for every event), each event gets a 64-bit key, their
//! hash, and `event_keys` maps keys to the event that holds them (16 bytes an entry).
//!
//! A hash can collide, and a collision must never drop a genuine event: on a key hit the
//! stored event is compared field by field. Two distinct ids that share a key are both kept;
//! the one that came second is deduplicated exactly, through `event_key_collisions` (at 64
//! bits, a database of 100 million events has about one chance in 3,700 of holding any
//! colliding pair: that table stays empty in practice, and is exact when it is not).

use std::collections::{BTreeMap, HashMap, HashSet};

use sha2::{Digest, Sha256};

use super::{CHUNK, EventRecord};
use crate::error::StoreResult;
use crate::{Db, Tx};

/// The dedupe key of an event: the first 8 bytes of SHA-256 over its product, namespace and
/// dedupe id, separated so `("a", "bc")` and `("ab", "c")` differ. Stable across versions and
/// machines: stored keys must keep matching.
pub fn dedupe_key(product_id: &str, namespace: &str, dedupe_id: &str) -> i64 {
    let mut hasher = Sha256::new();
    for part in [product_id, namespace, dedupe_id] {
        hasher.update(part.as_bytes());
        hasher.update([0]);
    }
    let digest = hasher.finalize();
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    i64::from_le_bytes(first)
}

/// How a new event will be found again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Claim {
    /// Its key is free: `event_keys` will map it to the event.
    Key(i64),
    /// Its key belongs to another event: `event_key_collisions` will hold it by its ids.
    Exact,
}

/// An event of the fold not stored before, and not a repeat of an earlier one in the fold.
#[derive(Debug, Clone, Copy)]
pub(super) struct Unseen {
    /// Its position among the fold's events.
    pub index: usize,
    pub claim: Claim,
}

/// The fold's events that are new, in order, each once (the first of repeats within the
/// fold). Runs after the product's ingest lock is taken, so no other fold of this product
/// stores keys in between.
pub(super) async fn unseen(
    tx: &mut Tx,
    product_id: &str,
    events: &[&EventRecord],
) -> StoreResult<Vec<Unseen>> {
    let keys: Vec<i64> = events
        .iter()
        .map(|event| dedupe_key(product_id, &event.namespace, &event.dedupe_id))
        .collect();
    let holders = key_holders(tx, &keys).await?;
    let mut seen_in_fold: HashSet<(&str, &str)> = HashSet::new();
    let mut claimed_in_fold: HashSet<i64> = HashSet::new();
    let mut unseen = Vec::new();
    for (index, (event, key)) in events.iter().zip(&keys).enumerate() {
        let ids = (event.namespace.as_str(), event.dedupe_id.as_str());
        if !seen_in_fold.insert(ids) {
            continue;
        }
        let claim = match holders.get(key) {
            Some(holder) if holder.is(product_id, event) => continue,
            Some(_) => {
                if stored_exactly(tx, product_id, event).await? {
                    continue;
                }
                Claim::Exact
            }
            None if claimed_in_fold.insert(*key) => Claim::Key(*key),
            None => Claim::Exact,
        };
        unseen.push(Unseen { index, claim });
    }
    Ok(unseen)
}

/// A newly stored event and how it will be found again.
#[derive(Debug, Clone, Copy)]
pub(super) struct NewKey<'a> {
    pub namespace: &'a str,
    pub dedupe_id: &'a str,
    pub claim: Claim,
    pub event_id: i64,
}

/// Records how each newly stored event of the product is found again.
pub(super) async fn remember(
    tx: &mut Tx,
    product_id: &str,
    stored: &[NewKey<'_>],
) -> StoreResult<()> {
    let keyed: Vec<(i64, i64)> = stored
        .iter()
        .filter_map(|new| match new.claim {
            Claim::Key(key) => Some((key, new.event_id)),
            Claim::Exact => None,
        })
        .collect();
    let mut taken: HashSet<i64> = HashSet::new();
    let verb = super::insert_verb(tx);
    for chunk in keyed.chunks(CHUNK) {
        let inserted: Vec<i64> = on_tx!(tx, conn => {
            let mut query = sqlx::QueryBuilder::new(verb);
            query.push(" INTO event_keys (key, event_id) ");
            query.push_values(chunk, |mut row, (key, id)| {
                row.push_bind(*key).push_bind(*id);
            });
            // On PostgreSQL another product's fold may have stored the same key since this
            // fold looked: the event then falls back to its exact entry below.
            query.push(" ON CONFLICT (key) DO NOTHING RETURNING key");
            query.build_query_scalar().fetch_all(conn).await
        })?;
        taken.extend(chunk.iter().map(|(key, _)| *key));
        for key in inserted {
            taken.remove(&key);
        }
    }
    let exact: Vec<&NewKey<'_>> = stored
        .iter()
        .filter(|new| match new.claim {
            Claim::Key(key) => taken.contains(&key),
            Claim::Exact => true,
        })
        .collect();
    for chunk in exact.chunks(CHUNK) {
        on_tx!(tx, conn => {
            let mut query = sqlx::QueryBuilder::new(
                "INSERT INTO event_key_collisions (product_id, namespace, dedupe_id, event_id) ",
            );
            query.push_values(chunk, |mut row, new| {
                row.push_bind(product_id)
                    .push_bind(new.namespace)
                    .push_bind(new.dedupe_id)
                    .push_bind(new.event_id);
            });
            query.build().execute(conn).await.map(|done| done.rows_affected())
        })?;
    }
    Ok(())
}

/// The event that holds a key, as stored (`None`s: a key whose event is gone, which still
/// holds the key).
#[derive(sqlx::FromRow)]
struct Holder {
    key: i64,
    product_id: Option<String>,
    namespace: Option<String>,
    dedupe_id: Option<String>,
}

impl Holder {
    fn is(&self, product_id: &str, event: &EventRecord) -> bool {
        self.product_id.as_deref() == Some(product_id)
            && self.namespace.as_deref() == Some(event.namespace.as_str())
            && self.dedupe_id.as_deref() == Some(event.dedupe_id.as_str())
    }
}

/// The stored events holding any of `keys`. On PostgreSQL the keys go as one array joined
/// through `unnest` (a long `IN` list planned as a filter over a scan elsewhere in ingest).
async fn key_holders(tx: &mut Tx, keys: &[i64]) -> StoreResult<HashMap<i64, Holder>> {
    const COLUMNS: &str = "SELECT k.key, e.product_id, e.namespace, e.dedupe_id ";
    let mut holders = HashMap::new();
    match tx {
        Tx::Postgres(conn) => {
            let rows: Vec<Holder> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "{COLUMNS}FROM unnest($1::bigint[]) AS wanted(key) \
                 JOIN event_keys k ON k.key = wanted.key LEFT JOIN events e ON e.id = k.event_id"
            )))
            .bind(keys)
            .fetch_all(&mut **conn)
            .await?;
            holders.extend(rows.into_iter().map(|holder| (holder.key, holder)));
        }
        Tx::Sqlite(conn) => {
            for chunk in keys.chunks(CHUNK) {
                let mut query = sqlx::QueryBuilder::new(COLUMNS);
                query.push(
                    "FROM event_keys k LEFT JOIN events e ON e.id = k.event_id WHERE k.key IN (",
                );
                let mut list = query.separated(", ");
                for key in chunk {
                    list.push_bind(*key);
                }
                query.push(")");
                let rows: Vec<Holder> = query.build_query_as().fetch_all(&mut **conn).await?;
                holders.extend(rows.into_iter().map(|holder| (holder.key, holder)));
            }
        }
    }
    Ok(holders)
}

/// Whether an event whose key another event holds was stored before, by its exact ids.
async fn stored_exactly(tx: &mut Tx, product_id: &str, event: &EventRecord) -> StoreResult<bool> {
    let found: Option<i64> = on_tx!(tx, conn => sqlx::query_scalar(
        "SELECT event_id FROM event_key_collisions WHERE product_id = $1 AND namespace = $2 AND dedupe_id = $3")
        .bind(product_id).bind(&event.namespace).bind(&event.dedupe_id)
        .fetch_optional(conn).await)?;
    Ok(found.is_some())
}

/// Events stored before keys existed (migration 0010 names the last of them) get theirs, in
/// one transaction. Their ids were unique by the old constraint, so a key already taken is a
/// true collision and goes to the exact table. Runs at every start; does nothing once done.
pub(crate) async fn backfill(db: &Db) -> StoreResult<()> {
    let mut tx = db.begin().await?;
    let through: Option<i64> = on_tx!(&mut tx, conn => sqlx::query_scalar(
        "SELECT MAX(through_event_id) FROM event_keys_backfill").fetch_one(conn).await)?;
    let Some(through) = through else {
        return Ok(());
    };
    let mut after = 0_i64;
    loop {
        let rows: Vec<Legacy> = on_tx!(&mut tx, conn => sqlx::query_as(
            "SELECT id, product_id, namespace, dedupe_id FROM events WHERE id > $1 AND id <= $2 ORDER BY id LIMIT $3")
            .bind(after).bind(through).bind(BACKFILL_CHUNK)
            .fetch_all(conn).await)?;
        let Some(last) = rows.last() else { break };
        after = last.id;
        let mut by_product: BTreeMap<&str, Vec<NewKey<'_>>> = BTreeMap::new();
        for row in &rows {
            by_product.entry(&row.product_id).or_default().push(NewKey {
                namespace: &row.namespace,
                dedupe_id: &row.dedupe_id,
                claim: Claim::Key(dedupe_key(&row.product_id, &row.namespace, &row.dedupe_id)),
                event_id: row.id,
            });
        }
        for (product_id, stored) in by_product {
            remember(&mut tx, product_id, &stored).await?;
        }
    }
    on_tx!(&mut tx, conn => sqlx::query("DELETE FROM event_keys_backfill")
        .execute(conn).await.map(|done| done.rows_affected()))?;
    tx.commit().await
}

/// An event stored before keys existed.
#[derive(sqlx::FromRow)]
struct Legacy {
    id: i64,
    product_id: String,
    namespace: String,
    dedupe_id: String,
}

const BACKFILL_CHUNK: i64 = 5_000;
