//! The demo workspace's own settings (`demo_settings`, migration 0013). Only `payback demo` and
//! `serve --demo` read them; no route does, so no tenant can.

use payback_domain::Timestamp;

use crate::error::StoreResult;
use crate::{Db, Tx};

const PASSWORD: &str = "password";

/// The demo owner's password, once one was chosen.
pub async fn password(db: &Db) -> StoreResult<Option<String>> {
    Ok(on_db!(db, pool => sqlx::query_scalar(
        "SELECT value FROM demo_settings WHERE name = $1")
        .bind(PASSWORD)
        .fetch_optional(pool)
        .await)?)
}

/// Keeps `candidate` as the demo owner's password unless one is kept already, and answers the
/// one kept: of two first runs at once, both go on with the password of the one that wrote first.
pub async fn keep_password(tx: &mut Tx, candidate: &str, now: Timestamp) -> StoreResult<String> {
    on_tx!(tx, conn => sqlx::query(
        "INSERT INTO demo_settings (name, value, created_at) VALUES ($1, $2, $3) \
         ON CONFLICT (name) DO NOTHING")
        .bind(PASSWORD)
        .bind(candidate)
        .bind(now.millis())
        .execute(conn)
        .await.map(|done| done.rows_affected()))?;
    Ok(on_tx!(tx, conn => sqlx::query_scalar(
        "SELECT value FROM demo_settings WHERE name = $1")
        .bind(PASSWORD)
        .fetch_one(conn)
        .await)?)
}
