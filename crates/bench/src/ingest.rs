//! Ingestion through the HTTP API: saturation throughput, latency at half that load, and the
//! raw insert rate of the same rows into the same database.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use payback_domain::{Clock, SystemClock};
use payback_store::Db;
use payback_store::ingest::{EventRecord, dedupe_key};

use crate::BackendChoice;
use crate::dataset::EventMix;
use crate::stats::{millis, percentile};
use crate::target::{self, Target};

const IDENTITIES: usize = 100_000;

/// What the clients send.
#[derive(Debug, Clone, Copy)]
pub struct Workload {
    /// Concurrent client connections in the saturation phase.
    pub concurrency: usize,
    /// Events per request.
    pub batch: usize,
    /// How long before it is sent each event occurred, at most.
    pub spread_ms: i64,
}

pub async fn run(backend: BackendChoice, seconds: u64, workload: Workload) -> anyhow::Result<()> {
    let target = Arc::new(target::start(backend).await?);
    let Workload {
        concurrency,
        batch,
        spread_ms,
    } = workload;
    println!(
        "ingest benchmark: backend {backend:?}, batches of {batch}, {concurrency} connections, {seconds} s per phase, \
         events occurred up to {} min before they are sent",
        spread_ms / 60_000
    );

    // Warm-up: connection pools, statement caches, the first pages of every index.
    load(&target, workload, Duration::from_secs(2), None).await?;
    settle(&target).await?;
    let started = Instant::now();
    let (saturation, latencies) =
        load(&target, workload, Duration::from_secs(seconds), None).await?;
    let mut latencies = latencies;
    println!(
        "saturation: {:.0} events/s accepted ({} batches), batch latency p50 {:.1} ms p99 {:.1} ms",
        saturation,
        latencies.len(),
        millis(percentile(&mut latencies, 50.0)),
        millis(percentile(&mut latencies, 99.0)),
    );
    // Accepted is not yet countable: the run is only done once the folder has written every
    // accepted event into the tables reports read.
    let loaded = started.elapsed();
    let drain = settle(&target).await?;
    let sustained = saturation * loaded.as_secs_f64() / (loaded + drain).as_secs_f64();
    println!(
        "  folded: the backlog took {:.1} s more to fold; sustained (accepted and folded) {sustained:.0} events/s",
        drain.as_secs_f64(),
    );

    let phase = Duration::from_secs(seconds);
    paced_phase(&target, "half load", saturation / 2.0, workload, phase).await?;
    // Half of what is accepted is more than a fold can keep up with; the latency at half of
    // what is sustained (accepted and folded) is the one a server can offer indefinitely.
    paced_phase(
        &target,
        "half of sustained",
        sustained / 2.0,
        workload,
        phase,
    )
    .await?;

    let raw = raw_insert_rate(
        &target.state.store,
        workload,
        Duration::from_secs(seconds.div_ceil(2)),
    )
    .await?;
    println!(
        "raw insert of the same rows (multi-row INSERT of {batch}, one transaction each, no rollups): {:.0} events/s; \
         HTTP ingestion is {:.2} of it",
        raw,
        saturation / raw
    );
    match Arc::try_unwrap(target) {
        Ok(target) => target.finish().await,
        Err(_) => anyhow::bail!("a load worker outlived the run"),
    }
}

/// Offers `rate` events/s for `duration`, then waits for the fold; prints the batch latencies
/// and how long the backlog took.
async fn paced_phase(
    target: &Arc<Target>,
    label: &str,
    rate: f64,
    workload: Workload,
    duration: Duration,
) -> anyhow::Result<()> {
    let (achieved, mut paced) = load(target, workload, duration, Some(rate)).await?;
    let drain = settle(target).await?;
    println!(
        "{label} ({rate:.0} events/s offered, {achieved:.0} achieved): batch latency p50 {:.1} ms p95 {:.1} ms p99 {:.1} ms max {:.1} ms; folded {:.1} s after",
        millis(percentile(&mut paced, 50.0)),
        millis(percentile(&mut paced, 95.0)),
        millis(percentile(&mut paced, 99.0)),
        millis(percentile(&mut paced, 100.0)),
        drain.as_secs_f64(),
    );
    Ok(())
}

/// Waits until every accepted event is folded; returns how long that took.
async fn settle(target: &Target) -> anyhow::Result<Duration> {
    let started = Instant::now();
    target.state.ingest.settle_all().await?;
    Ok(started.elapsed())
}

/// Sends batches from `concurrency` connections for `duration`; paced to `rate` events/s when
/// given. Returns events/s accepted and every batch's latency.
pub async fn load(
    target: &Arc<Target>,
    workload: Workload,
    duration: Duration,
    rate: Option<f64>,
) -> anyhow::Result<(f64, Vec<Duration>)> {
    let Workload {
        concurrency,
        batch,
        spread_ms,
    } = workload;
    let accepted = Arc::new(AtomicU64::new(0));
    let started = Instant::now();
    let deadline = started + duration;
    let mut workers = Vec::new();
    for worker in 0..concurrency {
        let target = target.clone();
        let accepted = accepted.clone();
        // Each connection sends one batch per period when paced.
        let period = rate.map(|r| Duration::from_secs_f64(concurrency as f64 * batch as f64 / r));
        workers.push(tokio::spawn(async move {
            let mut mix =
                EventMix::new(worker as u64 + 1, IDENTITIES, SystemClock.now(), spread_ms);
            let url = format!("{}/products/{}/events", target.base_url, target.slug);
            let mut latencies = Vec::new();
            // Paced workers start evenly spread over one period: the offered load arrives as
            // a steady stream, not as bursts of `concurrency` batches at the same instant.
            let mut tick = period.map(|p| {
                let offset = p.mul_f64(worker as f64 / concurrency as f64);
                let mut interval =
                    tokio::time::interval_at(tokio::time::Instant::now() + offset, p);
                interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
                interval
            });
            while Instant::now() < deadline {
                if let Some(tick) = tick.as_mut() {
                    tick.tick().await;
                }
                mix.set_now(SystemClock.now());
                let body = serde_json::to_vec(&mix.json_batch(batch))?;
                let sent = Instant::now();
                let response = target
                    .client
                    .post(&url)
                    .bearer_auth(&target.api_key)
                    .header("content-type", "application/json")
                    .body(body)
                    .send()
                    .await?;
                let status = response.status();
                response.bytes().await?;
                latencies.push(sent.elapsed());
                anyhow::ensure!(status.is_success(), "ingestion answered {status}");
                accepted.fetch_add(batch as u64, Ordering::Relaxed);
            }
            Ok::<_, anyhow::Error>(latencies)
        }));
    }
    let mut latencies = Vec::new();
    for worker in workers {
        latencies.extend(worker.await??);
    }
    let elapsed = started.elapsed().as_secs_f64();
    Ok((accepted.load(Ordering::Relaxed) as f64 / elapsed, latencies))
}

/// Inserts the same kind of rows straight into `events`, one multi-row INSERT per transaction.
async fn raw_insert_rate(db: &Db, workload: Workload, duration: Duration) -> anyhow::Result<f64> {
    let batch = workload.batch;
    let mut mix = EventMix::new(99, IDENTITIES, SystemClock.now(), workload.spread_ms);
    let product_id: String = match db {
        Db::Sqlite(pool) => {
            sqlx::query_scalar("SELECT id FROM products LIMIT 1")
                .fetch_one(pool)
                .await?
        }
        Db::Postgres(pool) => {
            sqlx::query_scalar("SELECT id FROM products LIMIT 1")
                .fetch_one(pool)
                .await?
        }
    };
    let started = Instant::now();
    let mut inserted = 0usize;
    while started.elapsed() < duration {
        mix.set_now(SystemClock.now());
        let rows = mix.records(batch, inserted, 33, "raw:bench");
        match db {
            Db::Sqlite(pool) => {
                let mut tx = pool.begin_with("BEGIN IMMEDIATE").await?;
                raw_insert::<sqlx::Sqlite>(&mut tx, &product_id, &rows).await?;
                tx.commit().await?;
            }
            Db::Postgres(pool) => {
                let mut tx = pool.begin().await?;
                raw_insert::<sqlx::Postgres>(&mut tx, &product_id, &rows).await?;
                tx.commit().await?;
            }
        }
        inserted += rows.len();
    }
    Ok(inserted as f64 / started.elapsed().as_secs_f64())
}

async fn raw_insert<'c, DB>(
    conn: &'c mut DB::Connection,
    product_id: &str,
    rows: &[EventRecord],
) -> anyhow::Result<()>
where
    DB: sqlx::Database,
    for<'q> &'q str: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    for<'q> String: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    for<'q> Option<String>: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    for<'q> i64: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    for<'q> Option<i64>: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    for<'r> i64: sqlx::Decode<'r, DB>,
    (i64,): for<'r> sqlx::FromRow<'r, DB::Row>,
    for<'q> <DB as sqlx::Database>::Arguments: sqlx::IntoArguments<DB>,
    for<'e> &'e mut DB::Connection: sqlx::Executor<'e, Database = DB>,
{
    let mut query = sqlx::QueryBuilder::<DB>::new(
        "INSERT INTO events (product_id, namespace, dedupe_id, stage, name, occurred_at, day, identity, anonymous_id, \
         user_id, email, value_cents, currency, channel, attribution, utm_campaign, properties, received_at) ",
    );
    query.push_values(rows, |mut row, event| {
        row.push_bind(product_id.to_owned())
            .push_bind(event.namespace.clone())
            .push_bind(event.dedupe_id.clone())
            .push_bind(event.stage.to_owned())
            .push_bind(event.name.clone())
            .push_bind(event.occurred_at.millis())
            .push_bind(event.occurred_at.day())
            .push_bind(event.user_id.clone().or_else(|| event.anonymous_id.clone()))
            .push_bind(event.anonymous_id.clone())
            .push_bind(event.user_id.clone())
            .push_bind(event.email.clone())
            .push_bind(event.value_cents)
            .push_bind(event.currency.clone())
            .push_bind(event.channel.clone())
            .push_bind(event.attribution.clone())
            .push_bind(event.utm_campaign.clone())
            .push_bind(event.properties.clone())
            .push_bind(event.occurred_at.millis());
    });
    query.push(" RETURNING id");
    let ids: Vec<i64> = query.build_query_scalar().fetch_all(&mut *conn).await?;
    // The dedupe entries every stored event gets (`store/src/ingest/keys.rs`), paired with the
    // ids in the order they came back: the same index work, whatever the pairing.
    let mut keys = sqlx::QueryBuilder::<DB>::new("INSERT INTO event_keys (key, event_id) ");
    keys.push_values(rows.iter().zip(ids), |mut row, (event, id)| {
        row.push_bind(dedupe_key(product_id, &event.namespace, &event.dedupe_id))
            .push_bind(id);
    });
    keys.build().execute(&mut *conn).await?;
    Ok(())
}
