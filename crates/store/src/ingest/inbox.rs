//! The inbox: accepted batches waiting to be folded into `events` and the tables reports read.
//!
//! A request is answered once its batch is one committed row here. Appending touches one
//! index whose keys only grow (the row id, and the product's rows in id order), so it costs
//! the same however large the product's history is; the random-keyed trees (dedupe keys,
//! identities, profiles) are written later by the folder, many batches to a transaction.
//!
//! On PostgreSQL the inbox is a table of the main database. On SQLite it is a database file
//! of its own next to the main one (`<file>.inbox`): SQLite has one writer per file, and a
//! fold holds the main file's write lock for a while; appends to another file never wait for
//! it. Folding is idempotent (events dedupe on their key, links keep the first), so a batch
//! folded into the main file but not yet removed from the inbox when the process stopped is
//! folded again as a no-op.

use std::str::FromStr;
use std::time::Duration;

use payback_domain::{Stage, Timestamp};
use sqlx::QueryBuilder;
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};

use super::EventRecord;
use crate::db::{Db, checkpoint_in_background};
use crate::error::{StoreError, StoreResult};

static SQLITE_INBOX_MIGRATIONS: sqlx::migrate::Migrator =
    sqlx::migrate!("./migrations/sqlite-inbox");

/// Where pending batches are kept: on SQLite the inbox file's pool (an in-memory main database
/// gets an in-memory inbox on one connection that lives as long as the process), on PostgreSQL
/// the main pool.
#[derive(Debug, Clone)]
pub(super) struct Inbox {
    db: Db,
}

/// One accepted batch, as appended: its events already serialised (by the request's own
/// task, so the appending lane only writes).
pub(super) struct NewBatch<'a> {
    pub product_id: &'a str,
    pub payload: &'a str,
    /// How many events `payload` holds, stored beside it so the pending count never reads
    /// payloads.
    pub events: usize,
    pub received_at: Timestamp,
}

/// A batch's events as the inbox stores them.
pub(super) fn encode(events: &[EventRecord]) -> StoreResult<String> {
    Ok(serde_json::to_string(events)?)
}

/// One batch waiting to be folded.
#[derive(Debug)]
pub(super) struct PendingBatch {
    pub id: i64,
    pub product_id: String,
    pub received_at: Timestamp,
    pub events: Vec<EventRecord>,
    /// The stored text, kept to set aside should the database refuse the batch.
    pub payload: String,
}

/// Which pending batches a fold takes.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Pending<'a> {
    /// Only this product's.
    pub product_id: Option<&'a str>,
    /// Only those appended up to this row id.
    pub through: Option<i64>,
}

/// How much one fold takes off the inbox.
#[derive(Debug, Clone, Copy)]
pub(super) struct FoldLimit {
    pub batches: i64,
    pub events: i64,
}

#[derive(sqlx::FromRow)]
struct PendingRow {
    id: i64,
    product_id: String,
    received_at: i64,
    payload: String,
}

impl Inbox {
    /// Opens the inbox of `db`, creating (and migrating) the SQLite inbox file if needed.
    pub async fn open(db: &Db) -> StoreResult<Self> {
        let db = match db {
            Db::Postgres(pool) => Db::Postgres(pool.clone()),
            Db::Sqlite(main) => Db::Sqlite(open_sqlite_inbox(main).await?),
        };
        Ok(Inbox { db })
    }

    /// Closes the inbox's connections (on SQLite its own file's; on PostgreSQL the store's
    /// pool, closed with the store anyway).
    pub async fn close(&self) {
        self.db.close().await;
    }

    /// Appends batches in one transaction: all are durable, or none.
    pub async fn append(&self, batches: &[NewBatch<'_>]) -> StoreResult<()> {
        let rows: Vec<(&str, i64, &str, i64)> = batches
            .iter()
            .map(|batch| {
                // A batch holds at most a few thousand events; saturate rather than fail.
                let events = i64::try_from(batch.events).unwrap_or(i64::MAX);
                let at = batch.received_at.millis();
                (batch.product_id, at, batch.payload, events)
            })
            .collect();
        let mut tx = self.db.begin().await?;
        for chunk in rows.chunks(APPEND_CHUNK) {
            on_tx!(&mut tx, conn => {
                let mut query = QueryBuilder::new(
                    "INSERT INTO event_inbox (product_id, received_at, payload, events) ",
                );
                query.push_values(chunk, |mut row, (product, at, payload, events)| {
                    row.push_bind(*product)
                        .push_bind(*at)
                        .push_bind(payload)
                        .push_bind(*events);
                });
                query.build().execute(conn).await.map(|done| done.rows_affected())
            })?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// The newest pending batch's id, if any is pending.
    pub async fn newest(&self, product_id: Option<&str>) -> StoreResult<Option<i64>> {
        Ok(on_db!(&self.db, pool => {
            let mut query = QueryBuilder::new("SELECT MAX(id) FROM event_inbox");
            if let Some(product) = product_id {
                query.push(" WHERE product_id = ").push_bind(product);
            }
            query.build_query_scalar().fetch_one(pool).await
        })?)
    }

    /// How many events of these products wait to be folded. The product index holds each
    /// row's event count, so this sums index entries and never reads a payload (on SQLite a
    /// payload spills onto overflow pages that a column stored after it would be read through).
    pub async fn pending_events(&self, product_ids: &[&str]) -> StoreResult<u64> {
        if product_ids.is_empty() {
            return Ok(0);
        }
        let sum: i64 = on_db!(&self.db, pool => {
            let mut query = QueryBuilder::new(
                "SELECT CAST(COALESCE(SUM(events), 0) AS BIGINT) FROM event_inbox WHERE product_id IN (",
            );
            let mut list = query.separated(", ");
            for product in product_ids {
                list.push_bind(*product);
            }
            query.push(")");
            query.build_query_scalar().fetch_one(pool).await
        })?;
        Ok(u64::try_from(sum).unwrap_or(0))
    }

    /// The oldest pending batches, at most `limit.batches`, and no more than it takes to reach
    /// `limit.events` events (the batch that crosses it included, so a fold always takes at
    /// least one). The counts come from an index (`event_inbox_by_product`, or on SQLite
    /// `event_inbox_in_order`), so only the payloads taken are read.
    pub async fn pending(
        &self,
        which: Pending<'_>,
        limit: FoldLimit,
    ) -> StoreResult<Vec<PendingBatch>> {
        let rows: Vec<PendingRow> = on_db!(&self.db, pool => {
            let mut query = QueryBuilder::new(
                "SELECT id, product_id, received_at, payload FROM event_inbox WHERE id IN (\
                 SELECT id FROM (SELECT id, SUM(events) OVER (ORDER BY id) - events AS before \
                 FROM (SELECT id, events FROM event_inbox WHERE 1 = 1",
            );
            if let Some(product) = which.product_id {
                query.push(" AND product_id = ").push_bind(product);
            }
            if let Some(through) = which.through {
                query.push(" AND id <= ").push_bind(through);
            }
            query.push(" ORDER BY id LIMIT ").push_bind(limit.batches);
            query.push(") AS oldest) AS counted WHERE before < ").push_bind(limit.events);
            query.push(") ORDER BY id");
            query.build_query_as().fetch_all(pool).await
        })?;
        rows.into_iter().map(PendingBatch::decode).collect()
    }

    /// Removes folded (or set aside) batches.
    pub async fn remove(&self, ids: &[i64]) -> StoreResult<()> {
        if ids.is_empty() {
            return Ok(());
        }
        on_db!(&self.db, pool => {
            let mut query = QueryBuilder::new("DELETE FROM event_inbox WHERE id IN (");
            let mut list = query.separated(", ");
            for id in ids {
                list.push_bind(*id);
            }
            query.push(")");
            query.build().execute(pool).await.map(|done| done.rows_affected())
        })?;
        Ok(())
    }
}

/// Rows per INSERT, well under either backend's limit of bound parameters.
const APPEND_CHUNK: usize = 1_000;

/// The inbox file beside the main SQLite database (`<file>.inbox`), migrated. An in-memory
/// main database (its file name is empty or `:memory:`) gets an in-memory inbox.
async fn open_sqlite_inbox(main: &SqlitePool) -> StoreResult<SqlitePool> {
    let file = main
        .connect_options()
        .get_filename()
        .to_string_lossy()
        .into_owned();
    let in_memory = file.is_empty() || file == ":memory:";
    let url = if in_memory {
        "sqlite::memory:".to_owned()
    } else {
        format!("sqlite://{file}.inbox")
    };
    let options = SqliteConnectOptions::from_str(&url)
        .map_err(|err| StoreError::Connect(err.to_string()))?
        .create_if_missing(true)
        .journal_mode(SqliteJournalMode::Wal)
        .synchronous(SqliteSynchronous::Normal)
        .busy_timeout(Duration::from_secs(10))
        // Checkpoints run in the background, as for the main file.
        .pragma("wal_autocheckpoint", "65536")
        .pragma("journal_size_limit", "67108864");
    // A file gets a few connections, so an append never waits for the folder's reads or the
    // background checkpoint (whose fsync can take a while when the main file is being written
    // hard); an in-memory inbox exists only on its one connection.
    let inbox = SqlitePoolOptions::new()
        .max_connections(if in_memory { 1 } else { 4 })
        .idle_timeout(None)
        .max_lifetime(None)
        .connect_with(options)
        .await
        .map_err(|err| StoreError::Connect(err.to_string()))?;
    SQLITE_INBOX_MIGRATIONS.run(&inbox).await?;
    if !in_memory {
        tokio::spawn(checkpoint_in_background(inbox.clone()));
    }
    Ok(inbox)
}

impl PendingBatch {
    fn decode(row: PendingRow) -> StoreResult<Self> {
        let events: Vec<EventRecord> = serde_json::from_str(&row.payload)?;
        Ok(PendingBatch {
            id: row.id,
            product_id: row.product_id,
            received_at: Timestamp::from_millis(row.received_at),
            events,
            payload: row.payload,
        })
    }
}

/// Sets a batch the database refused aside in `ingest_failures` (main database) with the
/// error, so the batches behind it are folded; its inbox row is then removed by the caller.
pub(super) async fn set_aside(db: &Db, batch: &PendingBatch, error: &str) -> StoreResult<()> {
    on_db!(db, pool => sqlx::query(
        "INSERT INTO ingest_failures (inbox_id, product_id, received_at, payload, error) \
         VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(batch.id)
    .bind(&batch.product_id)
    .bind(batch.received_at.millis())
    .bind(&batch.payload)
    .bind(error)
    .execute(pool)
    .await
    .map(|done| done.rows_affected()))?;
    Ok(())
}

/// `EventRecord::stage` as its wire name; read back as the canonical `&'static str`.
pub(super) mod stage_name {
    use super::Stage;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(
        stage: &&'static str,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(stage)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<&'static str, D::Error> {
        let name = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        Stage::parse(&name)
            .map(Stage::as_str)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown stage {name}")))
    }
}

/// A [`Timestamp`] as epoch milliseconds.
pub(super) mod epoch_millis {
    use super::Timestamp;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(at: &Timestamp, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_i64(at.millis())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Timestamp, D::Error> {
        i64::deserialize(deserializer).map(Timestamp::from_millis)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Appends batches of these event counts for `product`, oldest first.
    async fn append(inbox: &Inbox, product: &str, counts: &[usize]) {
        let batches: Vec<NewBatch<'_>> = counts
            .iter()
            .map(|&events| NewBatch {
                product_id: product,
                payload: "[]",
                events,
                received_at: Timestamp::from_millis(0),
            })
            .collect();
        inbox.append(&batches).await.unwrap();
    }

    async fn taken(inbox: &Inbox, which: Pending<'_>, batches: i64, events: i64) -> Vec<i64> {
        let limit = FoldLimit { batches, events };
        let pending = inbox.pending(which, limit).await.unwrap();
        pending.iter().map(|batch| batch.id).collect()
    }

    /// A fold takes the oldest batches until their events reach the limit, the batch that
    /// crosses it included (so one larger than the limit is still folded), and never more
    /// batches than allowed; one product's fold skips other products' batches.
    #[tokio::test]
    async fn a_fold_is_bounded_in_events_and_batches() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}/payback.db", dir.path().display());
        let inbox = Inbox::open(&Db::connect(&url).await.unwrap())
            .await
            .unwrap();
        append(&inbox, "p1", &[3_000, 1_500, 1_000, 100]).await;
        append(&inbox, "p2", &[9_000, 100]).await;
        append(&inbox, "p1", &[100]).await;
        let all = Pending::default();
        assert_eq!(taken(&inbox, all, 200, 5_000).await, vec![1, 2, 3]);
        assert_eq!(taken(&inbox, all, 200, 4_500).await, vec![1, 2]);
        assert_eq!(taken(&inbox, all, 2, 100_000).await, vec![1, 2]);
        assert_eq!(taken(&inbox, all, 200, 1).await, vec![1]);
        inbox.remove(&[1, 2, 3, 4]).await.unwrap();
        assert_eq!(taken(&inbox, all, 200, 5_000).await, vec![5]);
        let p1 = Pending {
            product_id: Some("p1"),
            through: None,
        };
        assert_eq!(taken(&inbox, p1, 200, 5_000).await, vec![7]);
        let through = Pending {
            product_id: None,
            through: Some(6),
        };
        assert_eq!(taken(&inbox, through, 200, 20_000).await, vec![5, 6]);
    }
}
