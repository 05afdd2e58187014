//! Raw SQL against a test app's store, for tests that seed or inspect tables the API does not
//! show (maintained rollups, source-written rows). One place holds the per-backend dispatch, so
//! a test states its query once and runs it on whichever backend it was spawned with.

use sqlx::FromRow;
use sqlx::postgres::PgRow;
use sqlx::sqlite::SqliteRow;

use payback_store::Db;

use crate::TestApp;

/// A value bound to a `$n` placeholder of a raw query.
#[derive(Debug, Clone, Copy)]
pub enum Bind<'a> {
    Text(&'a str),
    Int(i64),
}

impl<'a> From<&'a str> for Bind<'a> {
    fn from(text: &'a str) -> Self {
        Bind::Text(text)
    }
}

impl<'a> From<&'a String> for Bind<'a> {
    fn from(text: &'a String) -> Self {
        Bind::Text(text)
    }
}

impl From<i64> for Bind<'_> {
    fn from(value: i64) -> Self {
        Bind::Int(value)
    }
}

/// Binds `$binds` in order onto `$query` (a `query`, `query_as` or `query_scalar` builder).
macro_rules! bind_all {
    ($query:expr, $binds:expr) => {{
        let mut query = $query;
        for bind in $binds {
            query = match *bind {
                Bind::Text(text) => query.bind(text),
                Bind::Int(value) => query.bind(value),
            };
        }
        query
    }};
}

/// Runs `$body` with `$pool` bound to the store's pool of either backend.
macro_rules! on_pool {
    ($db:expr, $pool:ident => $body:expr) => {
        match $db {
            Db::Sqlite($pool) => $body,
            Db::Postgres($pool) => $body,
        }
    };
}

impl TestApp {
    /// Settles the inbox, then checks that every product's daily report tables equal a
    /// recomputation from the rows they sum (`payback_store::reports::report_days`): the fold
    /// keeps them by taking contributions out and putting them back, and a path it missed
    /// would drift silently. Panics naming each table that differs.
    pub async fn assert_report_days_exact(&self) {
        self.settle().await;
        let products: Vec<(String,)> = self.sql_rows("SELECT id FROM products", &[]).await;
        for (product_id,) in products {
            let differences =
                payback_store::reports::report_days::differences(&self.state.store, &product_id)
                    .await
                    .unwrap_or_else(|err| panic!("checking the daily report tables: {err}"));
            let drifted: Vec<_> = differences.iter().filter(|(_, rows)| *rows != 0).collect();
            assert!(
                drifted.is_empty(),
                "product {product_id}: the daily report tables differ from a recomputation: {drifted:?}"
            );
        }
    }

    /// Waits until every event accepted so far is folded from the ingest inbox into the tables
    /// (as every report does before it reads), so raw reads see them.
    pub async fn settle(&self) {
        self.state
            .ingest
            .settle_all()
            .await
            .unwrap_or_else(|err| panic!("settling the ingest inbox: {err}"));
    }

    /// Every row `sql` returns, decoded as `T` (a tuple or a `FromRow` struct).
    pub async fn sql_rows<T>(&self, sql: &str, binds: &[Bind<'_>]) -> Vec<T>
    where
        T: for<'r> FromRow<'r, SqliteRow> + for<'r> FromRow<'r, PgRow> + Send + Unpin,
    {
        self.settle().await;
        on_pool!(&self.state.store, pool => {
            bind_all!(sqlx::query_as(sqlx::AssertSqlSafe(sql)), binds).fetch_all(pool).await
        })
        .unwrap_or_else(|err| panic!("{sql}: {err}"))
    }

    /// The one value of the one row `sql` returns.
    pub async fn sql_value<T>(&self, sql: &str, binds: &[Bind<'_>]) -> T
    where
        (T,): for<'r> FromRow<'r, SqliteRow> + for<'r> FromRow<'r, PgRow> + Send + Unpin,
    {
        let rows: Vec<(T,)> = self.sql_rows(sql, binds).await;
        let mut rows = rows.into_iter();
        match (rows.next(), rows.next()) {
            (Some((value,)), None) => value,
            _ => panic!("{sql}: expected exactly one row"),
        }
    }

    /// Runs a statement; returns the rows it affected.
    pub async fn sql_execute(&self, sql: &str, binds: &[Bind<'_>]) -> u64 {
        self.settle().await;
        on_pool!(&self.state.store, pool => {
            bind_all!(sqlx::query(sqlx::AssertSqlSafe(sql)), binds)
                .execute(pool)
                .await
                .map(|done| done.rows_affected())
        })
        .unwrap_or_else(|err| panic!("{sql}: {err}"))
    }

    /// The dedupe ids of `product_id`'s stored events, sorted; only those of `stage` when given.
    pub async fn stored_dedupe_ids(&self, product_id: &str, stage: Option<&str>) -> Vec<String> {
        let (sql, binds) = match stage {
            Some(stage) => (
                "SELECT dedupe_id FROM events WHERE product_id = $1 AND stage = $2 ORDER BY dedupe_id",
                vec![product_id.into(), stage.into()],
            ),
            None => (
                "SELECT dedupe_id FROM events WHERE product_id = $1 ORDER BY dedupe_id",
                vec![product_id.into()],
            ),
        };
        let rows: Vec<(String,)> = self.sql_rows(sql, &binds).await;
        rows.into_iter().map(|(id,)| id).collect()
    }

    /// Writes one daily aggregate stage volume, as a source that reports volumes rather than
    /// events (web analytics, a database's counts) will once it exists.
    pub async fn insert_aggregate_stage_day(
        &self,
        product_id: &str,
        day: &str,
        stage: &str,
        source: &str,
        volume: i64,
    ) {
        let sql = "INSERT INTO aggregate_stage_days (product_id, day, stage, source, volume) \
                   VALUES ($1, $2, $3, $4, $5)";
        let binds = [
            product_id.into(),
            day.into(),
            stage.into(),
            source.into(),
            volume.into(),
        ];
        self.sql_execute(sql, &binds).await;
    }
}
