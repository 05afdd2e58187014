//! Batches set aside because the database refused them while folding (`ingest_failures`): what
//! an operator lists, folds again once the cause is mended, or discards.
//!
//! A batch is set aside whole (it was accepted whole), so it is retried whole: in one
//! transaction with the removal of its `ingest_failures` row, so a retried batch is either
//! stored and gone from the list, or still listed, never both.

use payback_domain::Timestamp;

use super::writer::refused_by_database;
use super::{Batch, EventRecord, write_batches};
use crate::Db;
use crate::error::StoreResult;

/// One set-aside batch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetAside {
    /// Its id in the inbox it came from; with the product, it names the batch.
    pub inbox_id: i64,
    pub product_id: String,
    pub received_at: Timestamp,
    pub events: usize,
    /// The database's words when it last refused the batch.
    pub error: String,
}

/// What a retry did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RetryOutcome {
    /// Batches stored and taken off the list.
    pub stored: usize,
    /// Batches refused again: still listed, with the new error.
    pub refused: usize,
}

#[derive(sqlx::FromRow)]
struct FailureRow {
    inbox_id: i64,
    product_id: String,
    received_at: i64,
    payload: String,
    error: String,
}

/// The set-aside batches of `product_id` (or of every product), oldest first.
pub async fn set_aside_batches(db: &Db, product_id: Option<&str>) -> StoreResult<Vec<SetAside>> {
    failure_rows(db, product_id)
        .await?
        .into_iter()
        .map(|row| {
            let events: Vec<EventRecord> = serde_json::from_str(&row.payload)?;
            Ok(SetAside {
                inbox_id: row.inbox_id,
                product_id: row.product_id,
                received_at: Timestamp::from_millis(row.received_at),
                events: events.len(),
                error: row.error,
            })
        })
        .collect()
}

/// Folds every set-aside batch of `product_id` (or of every product) again, oldest first.
pub async fn retry_set_aside(db: &Db, product_id: Option<&str>) -> StoreResult<RetryOutcome> {
    let mut outcome = RetryOutcome::default();
    for row in failure_rows(db, product_id).await? {
        let events: Vec<EventRecord> = serde_json::from_str(&row.payload)?;
        let batch = Batch {
            events: &events,
            received_at: Timestamp::from_millis(row.received_at),
        };
        let mut tx = db.begin().await?;
        let written = async {
            write_batches(&mut tx, &row.product_id, &[batch]).await?;
            on_tx!(&mut tx, conn => sqlx::query(
                "DELETE FROM ingest_failures WHERE inbox_id = $1 AND product_id = $2")
                .bind(row.inbox_id)
                .bind(&row.product_id)
                .execute(conn)
                .await
                .map(|done| done.rows_affected()))?;
            Ok(())
        }
        .await;
        match written {
            Ok(()) => {
                tx.commit().await?;
                outcome.stored += 1;
            }
            Err(err) if refused_by_database(&err) => {
                // Dropped unfinished: rolled back, nothing of the batch stays.
                drop(tx);
                record_error(db, &row, &err.to_string()).await?;
                outcome.refused += 1;
            }
            Err(err) => return Err(err),
        }
    }
    Ok(outcome)
}

/// Drops the set-aside batches of `product_id` (or of every product) for good; returns how
/// many.
pub async fn discard_set_aside(db: &Db, product_id: Option<&str>) -> StoreResult<u64> {
    Ok(on_db!(db, pool => sqlx::query(
        "DELETE FROM ingest_failures WHERE ($1 IS NULL OR product_id = $1)")
        .bind(product_id)
        .execute(pool)
        .await
        .map(|done| done.rows_affected()))?)
}

async fn failure_rows(db: &Db, product_id: Option<&str>) -> StoreResult<Vec<FailureRow>> {
    Ok(on_db!(db, pool => sqlx::query_as(
        "SELECT inbox_id, product_id, received_at, payload, error FROM ingest_failures \
         WHERE ($1 IS NULL OR product_id = $1) ORDER BY received_at, inbox_id")
        .bind(product_id)
        .fetch_all(pool)
        .await)?)
}

async fn record_error(db: &Db, row: &FailureRow, error: &str) -> StoreResult<()> {
    on_db!(db, pool => sqlx::query(
        "UPDATE ingest_failures SET error = $1 WHERE inbox_id = $2 AND product_id = $3")
        .bind(error)
        .bind(row.inbox_id)
        .bind(&row.product_id)
        .execute(pool)
        .await
        .map(|done| done.rows_affected()))?;
    Ok(())
}
