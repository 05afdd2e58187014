//! The sync scheduler at scale (issue 21, part 8): many due connections whose vendor answers
//! slowly, and the time until every one has run once.
//!
//! The vendor is a tiny HTTP server on loopback answering each request after `latency` (keep-
//! alive, like a vendor's API); the connections are of one kind whose source, registered
//! through `SourceRegistry::register` as a test fake would be, asks it once per run through the
//! instance's shared HTTP client and writes one snapshot value from the answer. So each run is
//! the real thing minus the vendor's own work: claim, the product read, the phases, one round
//! trip, one write transaction, the booking. Each instance is an `AppState` of its own (its own
//! pools) on the one database, running `services::sync::run_due` passes back to back.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use payback_connectors::{
    DayRange, Revocation, Snapshot, Source, SourceFuture, SyncOutput, SyncWindow,
};
use payback_domain::SystemClock;
use payback_domain::connection::ConnectionKind;
use payback_domain::snapshot_metric::SEARCH_CLICKS;
use payback_server::services::sync;
use payback_server::state::{OpenFuture, OpenSource};
use payback_server::{AppState, Config};
use payback_store::connections::{self, NewConnection};
use payback_store::products::{self, NewProduct};
use payback_store::{AccountScope, Db};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};

use crate::{BackendChoice, target};

/// An hourly kind with no connector of its own yet: the loopback source stands in for it.
const KIND: ConnectionKind = ConnectionKind::SearchConsole;

/// What one run of the benchmark sets up.
#[derive(Debug, Clone, Copy)]
pub struct Plan {
    pub connections: usize,
    pub latency: Duration,
    pub instances: usize,
    /// `PAYBACK_SYNC_CONCURRENCY` of each instance; `None` keeps the default.
    pub concurrency: Option<usize>,
}

pub async fn run(backend: BackendChoice, plan: Plan) -> anyhow::Result<()> {
    let dir = tempfile::tempdir()?;
    let (database_url, postgres_database) = target::database_url(backend, &dir).await?;
    let vendor = Vendor::start(plan.latency).await?;
    let mut config = Config {
        database_url: database_url.into(),
        // No job loop: the passes below are the only runs.
        jobs_every_secs: 0,
        ..Config::default()
    };
    configure(&mut config, plan);
    let mut instances = Vec::with_capacity(plan.instances);
    for _ in 0..plan.instances.max(1) {
        let mut state = payback_server::build_state(config.clone(), Arc::new(SystemClock)).await?;
        let opener = LoopbackOpener {
            url: vendor.url.clone(),
        };
        state.sources.register(KIND, Arc::new(opener));
        instances.push(state);
    }
    println!(
        "syncs benchmark: backend {backend:?}, {} due {KIND} connections, the vendor on loopback \
         answering after {} ms, {} instance(s){}",
        plan.connections,
        plan.latency.as_millis(),
        instances.len(),
        describe(&config),
    );
    seed(&instances[0], plan.connections).await?;

    let started = Instant::now();
    let drivers: Vec<_> = instances
        .iter()
        .cloned()
        .map(|state| tokio::spawn(drive(state)))
        .collect();
    let mut passes = Vec::new();
    let mut runs = Vec::new();
    for driver in drivers {
        let (instance_passes, instance_runs) = driver.await??;
        passes.push(instance_passes);
        runs.push(instance_runs);
    }
    let took = started.elapsed();
    let store = &instances[0].store;
    let failed = count(store, "last_error IS NOT NULL").await?;
    let ran: usize = runs.iter().sum();
    println!(
        "all {} ran once in {:.1} s: {:.1} runs/s; passes per instance {passes:?}, runs per instance \
         {runs:?} ({ran} in all), vendor requests {}, failed runs {failed}",
        plan.connections,
        took.as_secs_f64(),
        plan.connections as f64 / took.as_secs_f64(),
        vendor.served.load(Ordering::Relaxed),
    );
    println!(
        "| {backend:?} | {} | {} | {:.1} s | {:.1} | {} |",
        instances.len(),
        plan.connections,
        took.as_secs_f64(),
        plan.connections as f64 / took.as_secs_f64(),
        passes.iter().max().copied().unwrap_or(0),
    );
    for state in &instances {
        state.store.close().await;
    }
    if let Some(name) = &postgres_database {
        target::drop_postgres_database(name).await?;
    }
    Ok(())
}

/// The instances' configuration beyond the database.
fn configure(config: &mut Config, plan: Plan) {
    if let Some(concurrency) = plan.concurrency {
        config.sync_concurrency = concurrency;
    }
}

fn describe(config: &Config) -> String {
    format!(", {} runs at once per instance", config.sync_concurrency)
}

/// One account with `connections` products, each with an active connection of [`KIND`], all
/// due now.
async fn seed(state: &AppState, connections: usize) -> anyhow::Result<()> {
    let signup =
        payback_server::services::signup::agent_signup(state, "bench@payback.test", Some("Bench"))
            .await?;
    let scope = AccountScope::trusted(signup.account_id);
    let now = state.clock.now();
    let mut seeded = 0;
    while seeded < connections {
        let mut tx = state.store.begin().await?;
        for n in seeded..connections.min(seeded + 100) {
            let slug = format!("tenant-{n}");
            let product = NewProduct {
                slug: &slug,
                name: &slug,
                currency: "USD",
                domain: None,
            };
            let product = products::insert(&mut tx, &scope, product, now).await?;
            let connection = NewConnection {
                product_id: &product.id,
                kind: KIND.as_str(),
                status: "active",
                config: "{}",
                credential_id: None,
                event_maps: None,
            };
            connections::upsert(&mut tx, &scope, connection, now).await?;
        }
        tx.commit().await?;
        seeded = connections.min(seeded + 100);
    }
    Ok(())
}

/// Passes back to back on one instance until every connection has run once; answers the
/// passes and the runs this instance started.
async fn drive(state: AppState) -> anyhow::Result<(usize, usize)> {
    let (mut passes, mut runs) = (0, 0);
    loop {
        let said = sync::run_due(&state, state.clock.now()).await?;
        passes += 1;
        // "N sync runs", and what is still running after the pass.
        let started: usize = said
            .split_whitespace()
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap_or(0);
        runs += started;
        if count(&state.store, "last_sync_at IS NULL AND last_error IS NULL").await? == 0 {
            return Ok((passes, runs));
        }
        if started == 0 {
            // The other instance holds what is left.
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

/// Connections matching `filter`.
async fn count(store: &Db, filter: &str) -> anyhow::Result<i64> {
    let sql = format!("SELECT COUNT(*) FROM connections WHERE {filter}");
    let query = sqlx::AssertSqlSafe(sql);
    Ok(match store {
        Db::Sqlite(pool) => sqlx::query_scalar(query).fetch_one(pool).await?,
        Db::Postgres(pool) => sqlx::query_scalar(query).fetch_one(pool).await?,
    })
}

/// The vendor: answers every request after the latency, on keep-alive connections.
struct Vendor {
    url: String,
    served: Arc<AtomicUsize>,
}

impl Vendor {
    async fn start(latency: Duration) -> anyhow::Result<Self> {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let url = format!("http://{}/v1/clicks", listener.local_addr()?);
        let served = Arc::new(AtomicUsize::new(0));
        let counter = Arc::clone(&served);
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                tokio::spawn(answer(stream, latency, Arc::clone(&counter)));
            }
        });
        Ok(Self { url, served })
    }
}

/// Answers one connection's requests in turn (bodiless GETs), each after `latency`.
async fn answer(stream: TcpStream, latency: Duration, served: Arc<AtomicUsize>) {
    let mut stream = BufReader::new(stream);
    let mut line = String::new();
    loop {
        // The request head, up to its blank line.
        loop {
            line.clear();
            match stream.read_line(&mut line).await {
                Ok(0) | Err(_) => return,
                Ok(_) if line == "\r\n" || line == "\n" => break,
                Ok(_) => {}
            }
        }
        tokio::time::sleep(latency).await;
        let body = r#"{"clicks":3}"#;
        let response = format!(
            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
            body.len()
        );
        if stream
            .get_mut()
            .write_all(response.as_bytes())
            .await
            .is_err()
        {
            return;
        }
        served.fetch_add(1, Ordering::Relaxed);
    }
}

/// Opens every connection of [`KIND`] as a [`LoopbackSource`].
struct LoopbackOpener {
    url: String,
}

impl OpenSource for LoopbackOpener {
    fn open<'a>(
        &'a self,
        state: &'a AppState,
        _product: &'a payback_store::products::ProductRow,
        _row: &'a payback_store::connections::ConnectionRow,
    ) -> OpenFuture<'a> {
        let source = LoopbackSource {
            http: state.http.clone(),
            url: self.url.clone(),
        };
        Box::pin(async move { Ok(Box::new(source) as Box<dyn Source>) })
    }
}

/// One request to the vendor per run; its answer becomes the window's last day's clicks.
struct LoopbackSource {
    http: reqwest::Client,
    url: String,
}

impl Source for LoopbackSource {
    fn test(&self) -> SourceFuture<'_, String> {
        Box::pin(async { Ok("the loopback vendor answers".to_owned()) })
    }

    fn sync<'a>(
        &'a self,
        window: SyncWindow,
        _pages: &'a mut dyn payback_connectors::PageSink,
    ) -> SourceFuture<'a, SyncOutput> {
        Box::pin(async move {
            let unreachable = |err: reqwest::Error| {
                payback_connectors::ConnectorError::Unreachable(err.to_string())
            };
            let answer: serde_json::Value = self
                .http
                .get(&self.url)
                .send()
                .await
                .and_then(reqwest::Response::error_for_status)
                .map_err(unreachable)?
                .json()
                .await
                .map_err(unreachable)?;
            let clicks = answer["clicks"].as_f64().unwrap_or(0.0);
            Ok(SyncOutput {
                detail: "1 day read".to_owned(),
                snapshots: vec![Snapshot {
                    day: DayRange::of_window(window).last,
                    metric: SEARCH_CLICKS.to_owned(),
                    dimension: String::new(),
                    value: clicks,
                    detail: None,
                }],
                ..SyncOutput::default()
            })
        })
    }

    fn disconnect(&self) -> SourceFuture<'_, Revocation> {
        Box::pin(async { Ok(Revocation::NothingToRevoke) })
    }
}
