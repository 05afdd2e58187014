//! The ingest writer: requests append to the inbox; one folder writes the inbox into the
//! tables reports read.
//!
//! A request's batch is answered as soon as it is one committed inbox row (`inbox.rs`), so the
//! request path never waits for the random-keyed trees (dedupe keys, identities, profiles,
//! daily rows) that make a fold expensive. Appends are group-committed: a lane takes whatever
//! queued while it was busy, up to [`MAX_GROUP_EVENTS`], and appends it in one transaction.
//!
//! The folder takes pending batches oldest first, many at a time, and writes each product's
//! share in one transaction with `write_batches`; the more that queued, the more each dirtied
//! index page and each commit is shared. Readers that must see every accepted event call
//! [`IngestWriter::settle`] first: it folds what is pending up to that moment (for one product,
//! or for all), so reports stay exact while the request path stays short. Readers that must
//! answer in bounded time whatever the backlog (reports on a dashboard during a backfill) call
//! [`IngestWriter::settle_within`] instead: exact when the fold catches up in time, otherwise
//! an answer from what is folded and the count of events still pending.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::Arc;
use std::time::Duration;

use payback_domain::Timestamp;
use tokio::sync::{Mutex, Notify, OwnedRwLockWriteGuard, RwLock, mpsc, oneshot};

use super::inbox::{FoldLimit, Inbox, NewBatch, Pending, PendingBatch, encode, set_aside};
use super::{Batch, BatchOutcome, EventRecord, write_batches};
use crate::db::{Backend, Db};
use crate::error::{StoreError, StoreResult};

/// The most events one grouped append takes.
const MAX_GROUP_EVENTS: usize = 10_000;

/// Appending lanes on PostgreSQL: products hash onto them, so several products append at
/// once. SQLite appends through its inbox file's one connection.
const POSTGRES_LANES: usize = 4;

/// Requests queued per lane before senders wait: back-pressure instead of unbounded memory.
const LANE_CAPACITY: usize = 1024;

/// What one fold takes at most: large enough that a backlog is folded in few transactions
/// (each dirtied index page and each commit shared by many events: folds of 5,000 events
/// sustained 27% less than folds of 20,000 on SQLite, BENCHMARKS.md), small enough that the
/// transaction is short. On SQLite every other write (a sign-in, an approval, a job's lease)
/// waits for the fold under way, so it is bounded in events, not only batches: a batch holds
/// from one event to 1,000 (an API batch usually 100), and 200 batches of 1,000 held the
/// database for as long as ten folds of 100-event batches. The bound also caps what a fold
/// decodes into memory, on either backend.
const FOLD_LIMIT: FoldLimit = FoldLimit {
    batches: 200,
    events: 20_000,
};

/// Tries of a transaction that failed only because another one ran at the same time.
const ATTEMPTS: u32 = 5;

/// How often the folder looks for batches it was not told about: those another instance
/// appended to a shared PostgreSQL inbox, or left behind by a previous run.
const POLL: Duration = Duration::from_secs(1);

/// How long the folder waits before trying again after the database failed it.
const BACKOFF: Duration = Duration::from_millis(500);

struct Job {
    product_id: String,
    /// How many events `payload` holds.
    events: usize,
    payload: String,
    received_at: Timestamp,
    reply: oneshot::Sender<StoreResult<()>>,
}

/// A reader asking for everything accepted before it asked to be folded: the batches of its
/// product (or of all) up to the newest it saw pending.
struct Settle {
    product_id: Option<String>,
    through: i64,
    reply: oneshot::Sender<StoreResult<()>>,
}

/// The handle requests write events through; cheap to clone. The lanes and the folder stop
/// once every handle is dropped; what is still pending stays in the inbox for the next start.
#[derive(Clone, Debug)]
pub struct IngestWriter {
    lanes: Arc<[mpsc::Sender<Job>]>,
    settle: mpsc::Sender<Settle>,
    inbox: Inbox,
    /// Taken shared by the folder for each fold, and exclusively by [`Self::pause_folding`].
    folding: Arc<RwLock<()>>,
    /// The exclusive hold while folding is paused.
    paused: Arc<Mutex<Option<OwnedRwLockWriteGuard<()>>>>,
}

impl IngestWriter {
    /// Opens the inbox and starts the appending lanes and the folder on the current Tokio
    /// runtime. Batches a previous run left in the inbox are folded first.
    pub async fn start(db: &Db) -> StoreResult<Self> {
        let inbox = Inbox::open(db).await?;
        let appended = Arc::new(Notify::new());
        // Something may be pending from before: look at once.
        appended.notify_one();
        let count = match db.backend() {
            Backend::Sqlite => 1,
            Backend::Postgres => POSTGRES_LANES,
        };
        let lanes = (0..count)
            .map(|_| {
                let (sender, receiver) = mpsc::channel(LANE_CAPACITY);
                tokio::spawn(run_lane(inbox.clone(), appended.clone(), receiver));
                sender
            })
            .collect();
        let (settle, settles) = mpsc::channel(LANE_CAPACITY);
        let folding = Arc::new(RwLock::new(()));
        let folder = Folder {
            db: db.for_ingest_writer(),
            inbox: inbox.clone(),
            store: db.clone(),
            folding: folding.clone(),
        };
        tokio::spawn(folder.run(appended, settles));
        Ok(Self {
            lanes,
            settle,
            inbox,
            folding,
            paused: Arc::new(Mutex::new(None)),
        })
    }

    /// Accepts one validated batch of `product_id`: when this returns, the batch is durable and
    /// will be stored all or nothing (duplicates of stored events dropped).
    pub async fn write(
        &self,
        product_id: &str,
        events: Vec<EventRecord>,
        received_at: Timestamp,
    ) -> StoreResult<()> {
        let (reply, outcome) = oneshot::channel();
        let job = Job {
            product_id: product_id.to_owned(),
            events: events.len(),
            payload: encode(&events)?,
            received_at,
            reply,
        };
        self.lane_of(product_id)
            .send(job)
            .await
            .map_err(|_| StoreError::WriterStopped)?;
        outcome.await.map_err(|_| StoreError::WriterStopped)?
    }

    /// Returns once every batch of `product_id` accepted before the call is folded into the
    /// tables reports read. Cheap when nothing is pending.
    pub async fn settle(&self, product_id: &str) -> StoreResult<()> {
        self.ask_to_settle(Some(product_id.to_owned())).await
    }

    /// Once the store is closed ([`Db::close`]), waits up to `wait` for the folder to finish
    /// the fold under way and stop (what is pending stays in the inbox for the next start),
    /// then closes the inbox. Call it when nothing writes any more (the server has stopped
    /// taking requests). False when the folder was still folding when the wait ran out.
    pub async fn close_within(&self, wait: Duration) -> bool {
        let stopped = tokio::time::timeout(wait, self.settle.closed())
            .await
            .is_ok();
        self.inbox.close().await;
        stopped
    }

    /// [`Self::settle`] for every product: for readers that span products (the portfolio,
    /// health, the jobs).
    pub async fn settle_all(&self) -> StoreResult<()> {
        self.ask_to_settle(None).await
    }

    /// [`Self::settle`], waiting at most `wait`: a backlog (a burst, a backfill) can take
    /// minutes to fold, and a reader on a dashboard should not wait for it. Returns how many of
    /// the product's accepted events are still not folded, so the reader can say so: 0 when
    /// the fold caught up in time. A fold is one transaction per product, so the tables read
    /// afterwards hold whole batches, never part of one.
    pub async fn settle_within(&self, product_id: &str, wait: Duration) -> StoreResult<u64> {
        match tokio::time::timeout(wait, self.settle(product_id)).await {
            Ok(settled) => settled.map(|()| 0),
            // Dropping the wait also withdraws the request, so the folder goes back to folding
            // oldest first instead of favouring a product nobody waits for any more.
            Err(_) => self.inbox.pending_events(&[product_id]).await,
        }
    }

    /// [`Self::settle_all`], waiting at most `wait`; true when everything accepted before the
    /// call was folded in time. Count what is left with [`Self::pending_events`].
    pub async fn settle_all_within(&self, wait: Duration) -> StoreResult<bool> {
        match tokio::time::timeout(wait, self.settle_all()).await {
            Ok(settled) => settled.map(|()| true),
            Err(_) => Ok(false),
        }
    }

    /// How many accepted events of these products are not folded yet: one indexed sum over
    /// their inbox rows, which store their event count beside the payload.
    pub async fn pending_events(&self, product_ids: &[&str]) -> StoreResult<u64> {
        self.inbox.pending_events(product_ids).await
    }

    /// Stops folding until [`Self::resume_folding`]: returns once a fold in progress has
    /// ended, and none starts meanwhile. Appends go on, and readers that settle wait as long
    /// as they are allowed to (an unbounded [`Self::settle`] waits until folding resumes).
    /// Tests use it to hold a backlog in place; an operator could use it to take the fold off
    /// a busy database for a while without refusing events.
    pub async fn pause_folding(&self) {
        let mut paused = self.paused.lock().await;
        if paused.is_none() {
            *paused = Some(self.folding.clone().write_owned().await);
        }
    }

    /// Lets the folder go on after [`Self::pause_folding`]; a no-op when not paused.
    pub async fn resume_folding(&self) {
        self.paused.lock().await.take();
    }

    async fn ask_to_settle(&self, product_id: Option<String>) -> StoreResult<()> {
        // A stopped folder (the store closed) settles nothing, pending or not.
        if self.settle.is_closed() {
            return Err(StoreError::WriterStopped);
        }
        // Nothing pending (the usual case for a read): no need to queue behind a fold.
        let Some(through) = self.inbox.newest(product_id.as_deref()).await? else {
            return Ok(());
        };
        let (reply, done) = oneshot::channel();
        self.settle
            .send(Settle {
                product_id,
                through,
                reply,
            })
            .await
            .map_err(|_| StoreError::WriterStopped)?;
        done.await.map_err(|_| StoreError::WriterStopped)?
    }

    fn lane_of(&self, product_id: &str) -> &mpsc::Sender<Job> {
        let mut hasher = DefaultHasher::new();
        product_id.hash(&mut hasher);
        // The remainder is below the lane count, so it fits any usize.
        let index = usize::try_from(hasher.finish() % self.lanes.len() as u64).unwrap_or(0);
        &self.lanes[index]
    }
}

/// Appends whatever queued while the previous append ran, in one transaction, then wakes the
/// folder. Should the group fail, each job is appended alone, so a batch only ever fails for
/// its own reasons.
async fn run_lane(inbox: Inbox, appended: Arc<Notify>, mut queue: mpsc::Receiver<Job>) {
    while let Some(first) = queue.recv().await {
        let mut queued = first.events;
        let mut jobs = vec![first];
        while queued < MAX_GROUP_EVENTS {
            let Ok(job) = queue.try_recv() else { break };
            queued += job.events;
            jobs.push(job);
        }
        let group: Vec<NewBatch<'_>> = jobs.iter().map(Job::new_batch).collect();
        let written = inbox.append(&group).await;
        drop(group);
        match written {
            Ok(()) => {
                for job in jobs {
                    // A requester that went away no longer needs its answer.
                    let _ = job.reply.send(Ok(()));
                }
            }
            Err(err) if jobs.len() == 1 => {
                if let Some(job) = jobs.pop() {
                    let _ = job.reply.send(Err(err));
                }
            }
            Err(err) => {
                tracing::warn!(error = %err, batches = jobs.len(), "grouped append failed; appending its batches one by one");
                for job in jobs {
                    let outcome = inbox.append(&[job.new_batch()]).await;
                    let _ = job.reply.send(outcome);
                }
            }
        }
        appended.notify_one();
    }
}

impl Job {
    fn new_batch(&self) -> NewBatch<'_> {
        NewBatch {
            product_id: &self.product_id,
            payload: &self.payload,
            events: self.events,
            received_at: self.received_at,
        }
    }
}

/// Writes the inbox into the main database, oldest batch first.
struct Folder {
    /// The pool the folder writes through (`Db::for_ingest_writer`).
    db: Db,
    inbox: Inbox,
    /// The service's pool. Once it is closed the service is shutting down, and the folder
    /// stops (and closes its own pool) instead of retrying against a closed one.
    store: Db,
    /// Held shared for each fold, so a pause waits for the fold in progress.
    folding: Arc<RwLock<()>>,
}

impl Folder {
    async fn run(self, appended: Arc<Notify>, mut settles: mpsc::Receiver<Settle>) {
        loop {
            tokio::select! {
                // A waiting reader goes first.
                biased;
                settle = settles.recv() => match settle {
                    Some(settle) => self.answer(settle).await,
                    None => return,
                },
                () = appended.notified() => {}
                () = tokio::time::sleep(POLL) => {}
            }
            if self.store.is_closed() {
                return self.stop().await;
            }
            // Fold the backlog, answering readers between folds.
            loop {
                while let Ok(settle) = settles.try_recv() {
                    self.answer(settle).await;
                }
                match self.fold(Pending::default()).await {
                    Ok(0) => break,
                    Ok(_) => {}
                    Err(_) if self.store.is_closed() => return self.stop().await,
                    Err(err) => {
                        tracing::warn!(error = %err, "folding the ingest inbox failed; retrying");
                        tokio::time::sleep(BACKOFF).await;
                        break;
                    }
                }
            }
        }
    }

    /// Ends the folder: what is still in the inbox stays there for the next start, and readers
    /// waiting on a fold are told the writer stopped (their channel closes with it).
    async fn stop(self) {
        tracing::debug!("the store is closed; the ingest folder stops");
        self.db.close().await;
    }

    /// Folds what `settle` waits for, then answers it. A reader that stopped waiting (its
    /// bounded wait ran out) is not folded for any further: the readers queued behind it, and
    /// the oldest batches of every product, come first again.
    async fn answer(&self, settle: Settle) {
        let which = Pending {
            product_id: settle.product_id.as_deref(),
            through: Some(settle.through),
        };
        let outcome = async {
            while !settle.reply.is_closed() && self.fold(which).await? > 0 {}
            Ok(())
        }
        .await;
        let _ = settle.reply.send(outcome);
    }

    /// Folds up to [`FOLD_LIMIT`] of the pending batches; returns how many it took off the inbox.
    async fn fold(&self, which: Pending<'_>) -> StoreResult<usize> {
        let _folding = self.folding.read().await;
        let pending = self.inbox.pending(which, FOLD_LIMIT).await?;
        if pending.is_empty() {
            return Ok(0);
        }
        let mut done = Vec::with_capacity(pending.len());
        for group in by_product(pending) {
            self.fold_product(&group).await?;
            done.extend(group.iter().map(|batch| batch.id));
        }
        self.inbox.remove(&done).await?;
        Ok(done.len())
    }

    /// Writes one product's batches in one transaction. Should the database refuse it, each
    /// batch is written alone and one it refuses is set aside with the error: it was valid
    /// when accepted, so only a defect (or a product deleted meanwhile) gets it here, and the
    /// batches behind it must not wait on it.
    async fn fold_product(&self, group: &[PendingBatch]) -> StoreResult<()> {
        let Some(product_id) = group.first().map(|batch| batch.product_id.as_str()) else {
            return Ok(());
        };
        let batches: Vec<Batch<'_>> = group.iter().map(PendingBatch::batch).collect();
        let refused = match write_with_retries(&self.db, product_id, &batches).await {
            Ok(_) => return Ok(()),
            Err(err) if refused_by_database(&err) => err,
            Err(err) => return Err(err),
        };
        if group.len() > 1 {
            tracing::warn!(error = %refused, batches = group.len(), "folding a group failed; folding its batches one by one");
        }
        for batch in group {
            match write_with_retries(&self.db, product_id, &[batch.batch()]).await {
                Ok(_) => {}
                Err(err) if refused_by_database(&err) => {
                    tracing::error!(error = %err, inbox_id = batch.id, product_id, "an accepted batch was refused while folding; set aside in ingest_failures");
                    set_aside(&self.db, batch, &err.to_string()).await?;
                }
                Err(err) => return Err(err),
            }
        }
        Ok(())
    }
}

/// The database refused a statement (a constraint, a value it cannot store): trying again
/// gives the same answer. Anything else (the connection, a timeout) may pass.
pub(super) fn refused_by_database(err: &StoreError) -> bool {
    matches!(err, StoreError::Database(sqlx::Error::Database(_))) && !err.is_transient()
}

impl PendingBatch {
    fn batch(&self) -> Batch<'_> {
        Batch {
            events: &self.events,
            received_at: self.received_at,
        }
    }
}

/// Splits batches by product, keeping arrival order within each product.
fn by_product(batches: Vec<PendingBatch>) -> Vec<Vec<PendingBatch>> {
    let mut groups: Vec<Vec<PendingBatch>> = Vec::new();
    for batch in batches {
        let same_product = |group: &&mut Vec<PendingBatch>| {
            group
                .first()
                .is_some_and(|first| first.product_id == batch.product_id)
        };
        match groups.iter_mut().find(same_product) {
            Some(group) => group.push(batch),
            None => groups.push(vec![batch]),
        }
    }
    groups
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
