//! `payback-bench`: the measurements behind BENCHMARKS.md.
//!
//! `payback-bench ingest --backend sqlite|postgres`: HTTP ingestion throughput (batches of 100
//! events with random UUIDv4 dedupe ids), per-batch latency at half that load, and the raw
//! insert rate of the same rows into the same database for comparison.
//! `payback-bench reports --backend ...`: report latency on a product with 1M events, 100k
//! identities, 10k revenue rows and two years of daily spend (`--identities`, `--revenue-rows`
//! for other shapes).
//! `payback-bench burst --backend ...`: accept events as fast as possible for a while, then time
//! the first report read and follow the pending count until the fold has caught up.

mod burst;
mod dataset;
mod ingest;
mod reports;
mod stats;
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
        /// Timed requests per endpoint.
        #[arg(long, default_value_t = 50)]
        runs: usize,
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
        Command::Reports {
            backend,
            events,
            identities,
            revenue_rows,
            spend_days,
            runs,
        } => {
            let shape = dataset::Shape {
                events,
                identities,
                revenue_rows,
                spend_days,
            };
            reports::run(backend, shape, runs).await
        }
    }
}
