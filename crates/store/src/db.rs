//! Connecting, migrating and opening transactions on either backend.

use std::str::FromStr;
use std::time::Duration;

use sqlx::postgres::{PgPool, PgPoolOptions};
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};
use sqlx::{Postgres, Sqlite, Transaction};

use crate::error::{StoreError, StoreResult};

static SQLITE_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/sqlite");
static POSTGRES_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/postgres");

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// A pool on one of the two supported backends.
#[derive(Debug, Clone)]
pub enum Db {
    Sqlite(SqlitePool),
    Postgres(PgPool),
}

/// An open transaction; writes that belong together go through one and commit once.
pub enum Tx {
    Sqlite(Transaction<'static, Sqlite>),
    Postgres(Transaction<'static, Postgres>),
}

impl Db {
    /// Opens `sqlite://path` (creating the file and its directory) or `postgres://...`.
    pub async fn connect(url: &str) -> StoreResult<Self> {
        if let Some(path) = url
            .strip_prefix("sqlite://")
            .or_else(|| url.strip_prefix("sqlite:"))
        {
            Self::connect_sqlite(path).await
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            let pool = PgPoolOptions::new()
                .max_connections(16)
                .acquire_timeout(Duration::from_secs(10))
                .connect(url)
                .await
                .map_err(|err| StoreError::Connect(err.to_string()))?;
            Ok(Db::Postgres(pool))
        } else {
            Err(StoreError::Connect(
                "the database URL must start with sqlite:// or postgres://".to_owned(),
            ))
        }
    }

    async fn connect_sqlite(path: &str) -> StoreResult<Self> {
        let (file, query) = path.split_once('?').unwrap_or((path, ""));
        let parent = std::path::Path::new(file)
            .parent()
            .filter(|d| !d.as_os_str().is_empty());
        if let Some(dir) = parent.filter(|_| file != ":memory:") {
            std::fs::create_dir_all(dir).map_err(|err| {
                StoreError::Connect(format!("cannot create {}: {err}", dir.display()))
            })?;
        }
        let url = if query.is_empty() {
            format!("sqlite://{file}")
        } else {
            format!("sqlite://{file}?{query}")
        };
        let options = SqliteConnectOptions::from_str(&url)
            .map_err(|err| StoreError::Connect(err.to_string()))?
            .create_if_missing(true)
            .foreign_keys(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .busy_timeout(Duration::from_secs(10))
            // SQLite's default page cache is 2 MB per connection; with random dedupe ids and
            // identities the event indexes' leaf pages are then read back from the OS on every
            // insert. 64 MB keeps them in memory (the raw insert benchmark: +30%).
            .pragma("cache_size", "-65536")
            .pragma("temp_store", "memory")
            // A commit that leaves more than `wal_autocheckpoint` pages in the WAL checkpoints
            // there and then, fsyncs included, inside the committing request (150-200 ms after
            // a grouped ingest transaction, ~55 ms after a single batch). The checkpoint task
            // below does it in the background instead; the high bound only stops the WAL from
            // growing without end should that task fall behind. `journal_size_limit` only
            // trims a WAL that grew past 256 MB (a long reader held checkpoints back): a WAL
            // kept at its working size is overwritten in place, while one truncated after each
            // checkpoint is grown again block by block, and on ext4 those allocations wait for
            // the journal commit of the checkpoint's fsync (measured with a 64 MB limit: p95 of
            // single batches 346 ms, 139 ms without).
            .pragma("wal_autocheckpoint", "65536")
            .pragma("journal_size_limit", "268435456");
        let pool = SqlitePoolOptions::new()
            .max_connections(8)
            .connect_with(options)
            .await
            .map_err(|err| StoreError::Connect(err.to_string()))?;
        if file != ":memory:" {
            tokio::spawn(checkpoint_in_background(pool.clone()));
        }
        Ok(Db::Sqlite(pool))
    }

    /// The pool the event writer uses. On SQLite, a pool of one connection of its own: SQLite
    /// writes one transaction at a time anyway, and the same connection every time keeps its
    /// page cache warm (a pooled one had often seen other connections write since it last ran,
    /// and re-read those pages; single 100-event batches then took 50-70 ms instead of 10).
    /// On PostgreSQL, this pool.
    pub fn for_ingest_writer(&self) -> Db {
        match self {
            Db::Sqlite(pool) => Db::Sqlite(
                SqlitePoolOptions::new()
                    .max_connections(1)
                    // Kept for the life of the process: its cache is the point.
                    .idle_timeout(None)
                    .max_lifetime(None)
                    .connect_lazy_with(
                        (*pool.connect_options())
                            .clone()
                            .pragma("cache_size", FOLD_CACHE_KIB)
                            // See `ingest::insert_verb`: an immediate foreign key makes SQLite
                            // journal every multi-row statement. Every row the fold writes
                            // names a product that existed when its batch was accepted, and
                            // products are not deleted (a deletion would cascade from the
                            // deleting connection, which enforces them).
                            .foreign_keys(false),
                    ),
            ),
            Db::Postgres(pool) => Db::Postgres(pool.clone()),
        }
    }

    pub fn backend(&self) -> Backend {
        match self {
            Db::Sqlite(_) => Backend::Sqlite,
            Db::Postgres(_) => Backend::Postgres,
        }
    }

    /// Applies pending migrations of this backend, then the data steps SQL cannot take (the
    /// dedupe keys of events stored before migration 0010: a hash SQLite has no function for).
    pub async fn migrate(&self) -> StoreResult<()> {
        match self {
            Db::Sqlite(pool) => SQLITE_MIGRATIONS.run(pool).await?,
            Db::Postgres(pool) => POSTGRES_MIGRATIONS.run(pool).await?,
        }
        crate::ingest::backfill_dedupe_keys(self).await
    }

    pub async fn begin(&self) -> StoreResult<Tx> {
        Ok(match self {
            // IMMEDIATE takes the write lock at BEGIN. A deferred transaction that reads and
            // then writes fails with SQLITE_BUSY (not retried by busy_timeout) when another
            // writer committed in between; every transaction here writes, so take it up front.
            Db::Sqlite(pool) => Tx::Sqlite(pool.begin_with("BEGIN IMMEDIATE").await?),
            Db::Postgres(pool) => Tx::Postgres(pool.begin().await?),
        })
    }

    pub async fn close(&self) {
        on_db!(self, pool => pool.close().await)
    }

    /// Whether [`Db::close`] was called: the service is shutting down.
    pub fn is_closed(&self) -> bool {
        on_db!(self, pool => pool.is_closed())
    }
}

/// The page cache of the connection that folds ingested events (negative: KiB), larger than
/// the pool's 64 MB: a fold of thousands of events dirties pages all over the event, identity
/// and rollup indexes, and a cache smaller than those spills dirty pages to the WAL before the
/// commit and reads them back. Only grows as the database does.
const FOLD_CACHE_KIB: &str = "-262144";

/// How often the WAL is copied back into the database file. Often: each checkpoint ends in an
/// fsync that stalls concurrent WAL appends for its duration, and small ones stall briefly
/// (ingestion at half load, p99 per batch: 429 ms checkpointing every 2 s, 245 ms every 250 ms,
/// 165 ms every 100 ms). An idle server's checkpoint finds nothing to copy and returns.
const CHECKPOINT_EVERY: Duration = Duration::from_millis(100);

/// Copies committed WAL pages into the database file, off every request's path, until the pool
/// closes. PASSIVE never waits for readers or writers: it copies what it can and tries again
/// next time.
pub(crate) async fn checkpoint_in_background(pool: SqlitePool) {
    let mut tick = tokio::time::interval(CHECKPOINT_EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    while !pool.is_closed() {
        tick.tick().await;
        if let Err(err) = sqlx::query("PRAGMA wal_checkpoint(PASSIVE)")
            .execute(&pool)
            .await
        {
            if pool.is_closed() {
                break;
            }
            tracing::warn!(error = %err, "WAL checkpoint failed; retrying");
        }
    }
}

/// Where a read runs: on the pool, or inside a transaction that will act on what it reads.
pub enum Reader<'a> {
    Db(&'a Db),
    Tx(&'a mut Tx),
}

impl Reader<'_> {
    /// A shorter-lived reader over the same pool or transaction, for several reads in a row.
    pub fn reborrow(&mut self) -> Reader<'_> {
        match self {
            Reader::Db(db) => Reader::Db(db),
            Reader::Tx(tx) => Reader::Tx(tx),
        }
    }
}

impl<'a> From<&'a Db> for Reader<'a> {
    fn from(db: &'a Db) -> Self {
        Reader::Db(db)
    }
}

impl<'a> From<&'a mut Tx> for Reader<'a> {
    fn from(tx: &'a mut Tx) -> Self {
        Reader::Tx(tx)
    }
}

impl Tx {
    pub fn backend(&self) -> Backend {
        match self {
            Tx::Sqlite(_) => Backend::Sqlite,
            Tx::Postgres(_) => Backend::Postgres,
        }
    }

    pub async fn commit(self) -> StoreResult<()> {
        match self {
            Tx::Sqlite(tx) => tx.commit().await?,
            Tx::Postgres(tx) => tx.commit().await?,
        }
        Ok(())
    }
}

/// The migration versions of each backend, for the test that keeps them in step.
pub fn migration_versions() -> (Vec<i64>, Vec<i64>) {
    let versions = |m: &sqlx::migrate::Migrator| m.iter().map(|mig| mig.version).collect();
    (versions(&SQLITE_MIGRATIONS), versions(&POSTGRES_MIGRATIONS))
}
