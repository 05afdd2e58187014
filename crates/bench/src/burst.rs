//! A burst, then a read (issue 20): accept events as fast as the clients can send them for a
//! while, then time the first report read, and follow the backlog until the fold has caught up,
//! timing a report read and a founder's write (renaming the product) along the way: on SQLite
//! one writer holds the database at a time, so the write waits for the fold under way.
//!
//! The first read waits for the fold at most `read_wait_ms` and answers from what is folded,
//! saying how many events are still pending (`X-Payback-Pending-Events`); a wait longer than
//! the backlog's fold gives the behaviour of before, when every read folded everything first.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::BackendChoice;
use crate::ingest::{Workload, load};
use crate::stats::{millis, percentile};
use crate::target::{self, Target};

/// What one burst run does.
#[derive(Debug, Clone, Copy)]
pub struct Burst {
    pub seconds: u64,
    pub workload: Workload,
    /// `PAYBACK_READ_WAIT_MS` of the instance.
    pub read_wait_ms: u64,
    /// Seconds between the report reads made while the backlog is folded.
    pub read_every: u64,
}

/// The report the issue timed.
const REPORT: &str = "attribution?days=30";

pub async fn run(backend: BackendChoice, burst: Burst) -> anyhow::Result<()> {
    let target = Arc::new(
        target::start_with(backend, |config| config.read_wait_ms = burst.read_wait_ms).await?,
    );
    let Workload {
        concurrency, batch, ..
    } = burst.workload;
    println!(
        "burst benchmark: backend {backend:?}, {} s of batches of {batch} from {concurrency} connections, \
         then GET /products/{{slug}}/{REPORT}; read wait {} ms",
        burst.seconds, burst.read_wait_ms
    );
    let (accepted, _) = load(
        &target,
        burst.workload,
        Duration::from_secs(burst.seconds),
        None,
    )
    .await?;
    let folding = Instant::now();
    let backlog = pending(&target).await?;
    println!(
        "accepted {accepted:.0} events/s for {} s; {backlog} events pending when the burst ended",
        burst.seconds
    );

    let first = read(&target).await?;
    println!(
        "first read: {:.0} ms, status {}, pending header {}, revenue counted {} cents",
        millis(first.took),
        first.status,
        first.pending,
        first.revenue_cents
    );

    println!(
        "| since the burst ended (s) | events pending | report read (ms) | header | write (ms) |"
    );
    println!("|---|---|---|---|---|");
    let mut last_read = Instant::now();
    let mut writes = Vec::new();
    loop {
        let left = pending(&target).await?;
        let read_now = last_read.elapsed() >= Duration::from_secs(burst.read_every);
        let seen = if read_now && left > 0 {
            last_read = Instant::now();
            let read = read(&target).await?;
            let wrote = write(&target, writes.len()).await?;
            writes.push(wrote);
            format!(
                "{:.0} | {} | {:.0}",
                millis(read.took),
                read.pending,
                millis(wrote)
            )
        } else {
            " | | ".to_owned()
        };
        println!(
            "| {:.1} | {left} | {seen} |",
            folding.elapsed().as_secs_f64()
        );
        if left == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
    println!(
        "caught up {:.1} s after the burst ended ({:.0} events/s folded on average)",
        folding.elapsed().as_secs_f64(),
        backlog as f64 / folding.elapsed().as_secs_f64()
    );
    if !writes.is_empty() {
        println!(
            "writes while folding: {} made, p50 {:.0} ms, max {:.0} ms",
            writes.len(),
            millis(percentile(&mut writes, 50.0)),
            millis(percentile(&mut writes, 100.0)),
        );
    }
    let settled = read(&target).await?;
    println!(
        "read once caught up: {:.0} ms, pending header {}, revenue counted {} cents",
        millis(settled.took),
        settled.pending,
        settled.revenue_cents
    );
    match Arc::try_unwrap(target) {
        Ok(target) => target.finish().await,
        Err(_) => anyhow::bail!("a load worker outlived the run"),
    }
}

/// Events of the product waiting in the inbox (the count the header reports).
async fn pending(target: &Target) -> anyhow::Result<u64> {
    Ok(target
        .state
        .ingest
        .pending_events(&[target.product_id.as_str()])
        .await?)
}

struct Read {
    took: Duration,
    status: u16,
    pending: String,
    revenue_cents: i64,
}

/// One timed `POST /products/{slug}` (a new name each time): a small write of the kind a
/// founder makes while the fold runs (approving a card, creating a key, signing in).
async fn write(target: &Target, count: usize) -> anyhow::Result<Duration> {
    let url = format!("{}/products/{}", target.base_url, target.slug);
    let started = Instant::now();
    let response = target
        .client
        .post(url)
        .bearer_auth(&target.api_key)
        .json(&serde_json::json!({ "name": format!("Bench {count}") }))
        .send()
        .await?;
    let took = started.elapsed();
    anyhow::ensure!(
        response.status().is_success(),
        "the write answered {}: {}",
        response.status(),
        response.text().await?
    );
    Ok(took)
}

/// One timed `GET` of the report, as the dashboard sends it.
async fn read(target: &Target) -> anyhow::Result<Read> {
    let url = format!("{}/products/{}/{REPORT}", target.base_url, target.slug);
    let started = Instant::now();
    let response = target
        .client
        .get(url)
        .bearer_auth(&target.api_key)
        .send()
        .await?;
    let status = response.status().as_u16();
    let pending = response
        .headers()
        .get("x-payback-pending-events")
        .and_then(|value| value.to_str().ok())
        .unwrap_or("none")
        .to_owned();
    let body: serde_json::Value = response.json().await?;
    Ok(Read {
        took: started.elapsed(),
        status,
        pending,
        revenue_cents: body["totals"]["revenue_cents"].as_i64().unwrap_or(-1),
    })
}
