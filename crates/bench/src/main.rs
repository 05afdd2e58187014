//! `payback-bench`: the measurements behind BENCHMARKS.md.
//!
//! `payback-bench ingest --backend sqlite|postgres`: HTTP ingestion throughput (batches of 100
//! events with random UUIDv4 dedupe ids), per-batch latency at half that load, and the raw
//! insert rate of the same rows into the same database for comparison.
//! `payback-bench reports --backend ...`: report latency on a product with 1M events, 100k
//! identities, 10k revenue rows and two years of daily spend (`--identities`, `--revenue-rows`
//! for other shapes), every report at each of `--windows` (default 7,30,90,365 days);
//! `--keep` leaves the loaded database for a later run's `--reuse`.
//! `payback-bench burst --backend ...`: accept events as fast as possible for a while, then time
//! the first report read and follow the pending count until the fold has caught up.
//! `payback-bench syncs --backend ... --connections 1000 --latency-ms 200 --instances 1|2`: the
//! sync scheduler: that many due connections whose vendor (on loopback) answers after the
//! latency, and the time until every one has run once.

mod burst;
mod dataset;
mod ingest;
mod reports;
mod stats;
mod syncs;
mod target;

use clap::{Parser, Subcommand, ValueEnum};

#[derive(Parser)]
#[command(name = "payback-bench", about = "Benchmarks of the Payback service")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum BackendChoice {
    Sqlite,
    Postgres,
}

#[derive(Subcommand)]
enum Command {
    /// Ingestion throughput and latency through the HTTP API.
    Ingest {
        #[arg(long, value_enum, default_value = "sqlite")]
        backend: BackendChoice,
        /// Seconds of the saturation phase (and of the half-load phase).
        #[arg(long, default_value_t = 20)]
        seconds: u64,
        /// Concurrent client connections in the saturation phase.
        #[arg(long, default_value_t = 16)]
        concurrency: usize,
        #[arg(long, default_value_t = 100)]
        batch: usize,
        /// How long before it is sent each event occurred, at most (random within). The
        /// default is live traffic: a page's events reach the server within minutes. 43200
        /// (30 days) is a backfill of history.
        #[arg(long, default_value_t = 5)]
        spread_minutes: i64,
    },
    /// A burst of ingestion, then the first report read and the backlog until caught up.
    Burst {
        #[arg(long, value_enum, default_value = "sqlite")]
        backend: BackendChoice,
        /// Seconds of the burst.
        #[arg(long, default_value_t = 10)]
        seconds: u64,
        /// Concurrent client connections sending the burst.
        #[arg(long, default_value_t = 4)]
        concurrency: usize,
        #[arg(long, default_value_t = 100)]
        batch: usize,
        /// How long before it is sent each event occurred, at most (random within).
        #[arg(long, default_value_t = 5)]
        spread_minutes: i64,
        /// The instance's `PAYBACK_READ_WAIT_MS`; a value longer than the fold (600000) reads
        /// as every read did before issue 20: after folding everything pending.
        #[arg(long, default_value_t = 1_000)]
        read_wait_ms: u64,
        /// Seconds between report reads while the backlog is folded.
        #[arg(long, default_value_t = 10)]
        read_every: u64,
    },
    /// The sync scheduler: due connections against a slow vendor, until each has run once.
    Syncs {
        #[arg(long, value_enum, default_value = "sqlite")]
        backend: BackendChoice,
        /// Due connections (one product each).
        #[arg(long, default_value_t = 1_000)]
        connections: usize,
        /// Milliseconds the loopback vendor takes to answer each run's request.
        #[arg(long, default_value_t = 200)]
        latency_ms: u64,
        /// Instances (each its own `AppState` and pools) sharing the one database.
        #[arg(long, default_value_t = 1)]
        instances: usize,
        /// Each instance's `PAYBACK_SYNC_CONCURRENCY`; unset, the default.
        #[arg(long)]
        concurrency: Option<usize>,
    },
    /// Report latency at scale.
    Reports {
        #[arg(long, value_enum, default_value = "sqlite")]
        backend: BackendChoice,
        #[arg(long, default_value_t = 1_000_000)]
        events: usize,
        #[arg(long, default_value_t = 100_000)]
        identities: usize,
        #[arg(long, default_value_t = 10_000)]
        revenue_rows: usize,
        #[arg(long, default_value_t = 730)]
        spend_days: i64,
        /// When the loaded events occur: anywhere in the span in no order, or in generation
        /// order (a chronological backfill, which loads several times faster).
        #[arg(long, value_enum, default_value = "random")]
        order: dataset::Order,
        /// Timed requests per endpoint.
        #[arg(long, default_value_t = 50)]
        runs: usize,
        /// The windows (days) at which each windowed report is timed.
        #[arg(long, value_delimiter = ',', default_value = "7,30,90,365")]
        windows: Vec<i64>,
        /// Leave the loaded database in place (printing its URL) for a later `--reuse`.
        #[arg(long)]
        keep: bool,
        /// Time the reports on a database an earlier `--keep` run loaded, without loading.
        #[arg(long)]
        reuse: Option<String>,
        /// Write each endpoint's last response body into this directory.
        #[arg(long)]
        bodies: Option<std::path::PathBuf>,
        /// Before timing, recompute the daily report tables from the rows they sum and say how
        /// many rows differ.
        #[arg(long)]
        check: bool,
    },
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let _ = rustls::crypto::ring::default_provider().install_default();
    // Only what goes wrong: a failing request shows why in the server's own words.
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn,sqlx=warn")),
        )
        .with_writer(std::io::stderr)
        .init();
    match Cli::parse().command {
        Command::Ingest {
            backend,
            seconds,
            concurrency,
            batch,
            spread_minutes,
        } => {
            let workload = ingest::Workload {
                concurrency,
                batch,
                spread_ms: spread_minutes * 60_000,
            };
            ingest::run(backend, seconds, workload).await
        }
        Command::Burst {
            backend,
            seconds,
            concurrency,
            batch,
            spread_minutes,
            read_wait_ms,
            read_every,
        } => {
            let workload = ingest::Workload {
                concurrency,
                batch,
                spread_ms: spread_minutes * 60_000,
            };
            let plan = burst::Burst {
                seconds,
                workload,
                read_wait_ms,
                read_every,
            };
            burst::run(backend, plan).await
        }
        Command::Syncs {
            backend,
            connections,
            latency_ms,
            instances,
            concurrency,
        } => {
            let plan = syncs::Plan {
                connections,
                latency: std::time::Duration::from_millis(latency_ms),
                instances,
                concurrency,
            };
            syncs::run(backend, plan).await
        }
        Command::Reports {
            backend,
            events,
            identities,
            revenue_rows,
            spend_days,
            order,
            runs,
            windows,
            keep,
            reuse,
            bodies,
            check,
        } => {
            let shape = dataset::Shape {
                events,
                identities,
                revenue_rows,
                spend_days,
                order,
            };
            let plan = reports::Plan {
                runs,
                windows,
                keep,
                reuse,
                bodies,
                check,
            };
            reports::run(backend, shape, plan).await
        }
    }
}
