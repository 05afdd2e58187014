//! Expands one query body into both driver arms.
//!
//! `$c` is bound to the pool (for [`on_db!`]) or the open connection of a transaction (for
//! [`on_tx!`]) of whichever backend is in use; the body is compiled once per backend, so a query
//! that does not type-check on either driver fails the build.

/// `on_db!(db, pool => sqlx::query("...").execute(pool).await.map(|done| done.rows_affected()))`
macro_rules! on_db {
    ($db:expr, $c:ident => $body:expr) => {
        match $db {
            $crate::db::Db::Sqlite($c) => $body,
            $crate::db::Db::Postgres($c) => $body,
        }
    };
}

/// `on_tx!(tx, conn => sqlx::query("...").execute(conn).await.map(|done| done.rows_affected()))`
macro_rules! on_tx {
    ($tx:expr, $c:ident => $body:expr) => {
        match $tx {
            $crate::db::Tx::Sqlite(inner) => {
                let $c = &mut **inner;
                $body
            }
            $crate::db::Tx::Postgres(inner) => {
                let $c = &mut **inner;
                $body
            }
        }
    };
}

// Why `.map(|done| done.rows_affected())` follows every `execute`: each driver returns its own
// query-result type, and both arms of the expansion must agree on one type.

/// `on_reader!(reader, conn => ...)`: a read that runs on the pool or inside an open transaction
/// (where it sees, and on PostgreSQL waits for, what the transaction locks). See [`crate::Reader`].
macro_rules! on_reader {
    ($reader:expr, $c:ident => $body:expr) => {
        match $reader {
            $crate::db::Reader::Db(db) => on_db!(db, $c => $body),
            $crate::db::Reader::Tx(tx) => on_tx!(tx, $c => $body),
        }
    };
}
