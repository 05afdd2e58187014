//! Group commit: batches of events that arrive together are written in one transaction.
//!
//! Every transaction pays a fixed price whatever it holds: the product's ingest lock, the
//! link lookup, one upsert per rollup table, and the commit itself, which writes every page
//! the transaction dirtied (random dedupe ids and identities spread 100 events over hundreds
//! of index pages; a few thousand events share many of them). So requests hand their
//! validated batch to a writer lane and wait for its outcome; the lane takes whatever has
//! queued while it was busy, up to [`MAX_GROUP_EVENTS`], and writes each product's share in
//! one transaction. A lone batch on a quiet server is written at once, as before.
//!
//! Products map to a fixed lane, so one product's batches are written in arrival order.
//! SQLite has one writer at a time anyway and gets one lane; PostgreSQL gets several, so
//! products do not wait for each other.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::Arc;
use std::time::Duration;

use payback_domain::Timestamp;
use tokio::sync::{mpsc, oneshot};

use super::{Batch, BatchOutcome, EventRecord, write_batches};
use crate::db::{Backend, Db};
use crate::error::{StoreError, StoreResult};

/// The most events one grouped transaction takes (ten full API batches, 400 of 100 events):
/// large enough to amortise the commit, small enough to keep each wait short.
const MAX_GROUP_EVENTS: usize = 10_000;

/// Writer lanes on PostgreSQL: products hash onto them, so up to this many products write at
/// once (one product's batches queue on its advisory lock anyway).
const POSTGRES_LANES: usize = 4;

/// Requests queued per lane before senders wait: back-pressure instead of unbounded memory.
const LANE_CAPACITY: usize = 1024;

/// Tries of a transaction that failed only because another one ran at the same time.
const ATTEMPTS: u32 = 5;

struct Job {
    product_id: String,
    events: Vec<EventRecord>,
    received_at: Timestamp,
    reply: oneshot::Sender<StoreResult<BatchOutcome>>,
}

/// The handle requests write events through; cheap to clone. The lanes stop once every
/// handle is dropped and the queued batches are written.
#[derive(Clone, Debug)]
pub struct IngestWriter {
    lanes: Arc<[mpsc::Sender<Job>]>,
}

impl IngestWriter {
    /// Starts the writer lanes on the current Tokio runtime.
    pub fn start(db: &Db) -> Self {
        let db = db.for_ingest_writer();
        let count = match db.backend() {
            Backend::Sqlite => 1,
            Backend::Postgres => POSTGRES_LANES,
        };
        let lanes = (0..count)
            .map(|_| {
                let (sender, receiver) = mpsc::channel(LANE_CAPACITY);
                tokio::spawn(run_lane(db.clone(), receiver));
                sender
            })
            .collect();
        Self { lanes }
    }

    /// Stores one validated batch of `product_id`, all or nothing, and reports what it did.
    pub async fn write(
        &self,
        product_id: &str,
        events: Vec<EventRecord>,
        received_at: Timestamp,
    ) -> StoreResult<BatchOutcome> {
        let (reply, outcome) = oneshot::channel();
        let job = Job {
            product_id: product_id.to_owned(),
            events,
            received_at,
            reply,
        };
        self.lane_of(product_id)
            .send(job)
            .await
            .map_err(|_| StoreError::WriterStopped)?;
        outcome.await.map_err(|_| StoreError::WriterStopped)?
    }

    fn lane_of(&self, product_id: &str) -> &mpsc::Sender<Job> {
        let mut hasher = DefaultHasher::new();
        product_id.hash(&mut hasher);
        // The remainder is below the lane count, so it fits any usize.
        let index = usize::try_from(hasher.finish() % self.lanes.len() as u64).unwrap_or(0);
        &self.lanes[index]
    }
}

async fn run_lane(db: Db, mut queue: mpsc::Receiver<Job>) {
    while let Some(first) = queue.recv().await {
        let mut queued = first.events.len();
        let mut jobs = vec![first];
        while queued < MAX_GROUP_EVENTS {
            let Ok(job) = queue.try_recv() else { break };
            queued += job.events.len();
            jobs.push(job);
        }
        for group in by_product(jobs) {
            write_group(&db, group).await;
        }
    }
}

/// Splits jobs by product, keeping arrival order within each product.
fn by_product(jobs: Vec<Job>) -> Vec<Vec<Job>> {
    let mut groups: Vec<Vec<Job>> = Vec::new();
    for job in jobs {
        let same_product = |group: &&mut Vec<Job>| {
            group
                .first()
                .is_some_and(|first| first.product_id == job.product_id)
        };
        match groups.iter_mut().find(same_product) {
            Some(group) => group.push(job),
            None => groups.push(vec![job]),
        }
    }
    groups
}

/// Writes one product's jobs in one transaction and answers each. Should that transaction
/// fail for good, each job is tried alone, so a batch only ever fails for its own reasons.
async fn write_group(db: &Db, jobs: Vec<Job>) {
    let Some(product_id) = jobs.first().map(|job| job.product_id.clone()) else {
        return;
    };
    if jobs.len() > 1 {
        let batches: Vec<Batch<'_>> = jobs.iter().map(Job::batch).collect();
        match write_with_retries(db, &product_id, &batches).await {
            Ok(outcomes) => {
                for (job, outcome) in jobs.into_iter().zip(outcomes) {
                    // A requester that went away no longer needs its answer.
                    let _ = job.reply.send(Ok(outcome));
                }
                return;
            }
            Err(err) => {
                tracing::warn!(error = %err, batches = jobs.len(), "grouped ingest failed; writing its batches one by one");
            }
        }
    }
    for job in jobs {
        let outcome = write_with_retries(db, &product_id, &[job.batch()])
            .await
            .map(|outcomes| outcomes.into_iter().next().unwrap_or_default());
        let _ = job.reply.send(outcome);
    }
}

impl Job {
    fn batch(&self) -> Batch<'_> {
        Batch {
            events: &self.events,
            received_at: self.received_at,
        }
    }
}

/// Concurrent writers of one product can deadlock on PostgreSQL (or find SQLite busy); the
/// database aborts one, and since the transaction is all or nothing, running it again is
/// safe. A few tries with a short, growing pause absorb any realistic contention.
async fn write_with_retries(
    db: &Db,
    product_id: &str,
    batches: &[Batch<'_>],
) -> StoreResult<Vec<BatchOutcome>> {
    let mut attempt = 1;
    loop {
        let written = async {
            let mut tx = db.begin().await?;
            let outcomes = write_batches(&mut tx, product_id, batches).await?;
            tx.commit().await?;
            Ok::<_, StoreError>(outcomes)
        }
        .await;
        match written {
            Err(err) if err.is_transient() && attempt < ATTEMPTS => {
                tracing::debug!(attempt, error = %err, "ingest transaction retried");
                tokio::time::sleep(Duration::from_millis(u64::from(attempt) * 5)).await;
                attempt += 1;
            }
            other => return other,
        }
    }
}
