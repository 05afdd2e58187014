//! Named locks held until the transaction ends, for writes that must not run side by side.
//!
//! PostgreSQL runs write transactions concurrently: two that both find a row absent would both
//! insert it (one then fails on the unique constraint), and two that upsert the same rows in a
//! different order deadlock. Such writers take a transaction-scoped advisory lock on a name
//! first and queue there; nothing else (readers, other names) waits. SQLite runs one write
//! transaction at a time already (`BEGIN IMMEDIATE`), so there it is a no-op.

use crate::Tx;
use crate::error::StoreResult;

/// Waits for, then holds until commit or rollback, the lock called `name`. Two names that hash
/// alike only serialise a little more than needed.
pub(crate) async fn hold_until_commit(tx: &mut Tx, name: &str) -> StoreResult<()> {
    if let Tx::Postgres(inner) = tx {
        sqlx::query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))")
            .bind(name)
            .execute(&mut **inner)
            .await?;
    }
    Ok(())
}
