//! Report latency on a large product: bulk-load through the same batch writer ingestion uses
//! (so every rollup is maintained exactly as in production), then time each report at each
//! window.
//!
//! Every read route of a report is timed: the windowed ones (attribution, its sales list, the
//! ads report at each level, the timeseries, the funnel, its series and the conversions report)
//! at each of `--windows`, the others (the funnel definition, payback, the product row, the
//! portfolio) once, at the windows they are defined with. Each response's body is reduced to a
//! digest, so two runs on the same database (`--keep`, then `--reuse`) show whether a change
//! kept every number.

use std::time::{Duration, Instant};

use payback_domain::{Clock, DAY_MS, SystemClock};
use payback_store::Db;
use serde_json::json;

use crate::dataset::{self, EventMix, Shape};
use crate::stats::{millis, percentile};
use crate::{BackendChoice, target};

const LOAD_BATCH: usize = 5_000;

/// What one reports run does besides the data set's shape.
#[derive(Debug, Clone)]
pub struct Plan {
    /// Timed requests per endpoint.
    pub runs: usize,
    /// The windows (days) of the windowed reports.
    pub windows: Vec<i64>,
    /// Leave the loaded database in place and print its URL.
    pub keep: bool,
    /// Time the reports on a database an earlier run kept, without loading.
    pub reuse: Option<String>,
    /// Write each endpoint's last response body into this directory.
    pub bodies: Option<std::path::PathBuf>,
    /// Before timing, recompute the daily report tables (migration 0020) from the rows they
    /// sum and count the rows that differ.
    pub check: bool,
}

/// One timed read: a report and the window it is read at (`None`: the report's own).
struct Endpoint {
    report: String,
    window: Option<i64>,
    path: String,
}

/// The read routes of the reports, at each window where they take one.
fn endpoints(slug: &str, windows: &[i64]) -> Vec<Endpoint> {
    let mut windowed: Vec<(String, String)> = vec![
        ("attribution".into(), "attribution?days={w}".into()),
        (
            "attribution/sales".into(),
            "attribution/sales?days={w}&limit=100".into(),
        ),
    ];
    for level in ["campaign", "ad_group", "keyword", "ad"] {
        windowed.push((
            format!("attribution/ads ({level})"),
            format!("attribution/ads?days={{w}}&level={level}"),
        ));
    }
    windowed.extend([
        ("timeseries".into(), "timeseries?days={w}".into()),
        ("funnel".into(), "funnel?days={w}".into()),
        ("funnel/series".into(), "funnel/series?days={w}".into()),
        (
            "conversions/report".into(),
            "conversions/report?days={w}".into(),
        ),
    ]);
    let mut out = Vec::new();
    for (report, template) in windowed {
        for window in windows {
            out.push(Endpoint {
                report: report.clone(),
                window: Some(*window),
                path: format!(
                    "/products/{slug}/{}",
                    template.replace("{w}", &window.to_string())
                ),
            });
        }
    }
    for (report, path) in [
        (
            "funnel/definition (30 days)",
            format!("/products/{slug}/funnel/definition"),
        ),
        (
            "payback (26 weeks, CAC 90 days)",
            format!("/products/{slug}/payback"),
        ),
        ("product row (7 and 30 days)", format!("/products/{slug}")),
        ("portfolio (7 and 30 days)", "/portfolio".to_owned()),
    ] {
        out.push(Endpoint {
            report: report.to_owned(),
            window: None,
            path,
        });
    }
    out
}

/// The latencies and the last body's digest of one endpoint.
struct Timing {
    p50: Duration,
    p95: Duration,
    max: Duration,
    digest: u64,
}

pub async fn run(backend: BackendChoice, shape: Shape, plan: Plan) -> anyhow::Result<()> {
    let target = match &plan.reuse {
        Some(url) => {
            println!("reports benchmark: backend {backend:?}, reusing {url}");
            target::reuse(url).await?
        }
        None => {
            let target = target::start(backend).await?;
            load(&target, shape).await?;
            define_conversions(&target).await?;
            target
        }
    };
    analyze_like_autovacuum(&target.state.store).await?;
    let counts = table_counts(&target.state.store, &target.product_id).await?;
    println!("tables: {counts}");
    if plan.check {
        let differences = payback_store::reports::report_days::differences(
            &target.state.store,
            &target.product_id,
        )
        .await?;
        for (table, rows) in differences {
            println!("check {table}: {rows} rows differ from a recomputation");
        }
    }

    let endpoints = endpoints(&target.slug, &plan.windows);
    let mut timings: Vec<(Endpoint, Timing)> = Vec::with_capacity(endpoints.len());
    for endpoint in endpoints {
        let timing = time(&target, &endpoint, plan.runs, plan.bodies.as_deref()).await?;
        eprintln!(
            "{} {:?}: p50 {:.1} ms, p95 {:.1} ms, max {:.1} ms",
            endpoint.report,
            endpoint.window,
            millis(timing.p50),
            millis(timing.p95),
            millis(timing.max)
        );
        timings.push((endpoint, timing));
    }
    print_tables(&plan.windows, &timings);

    if plan.keep {
        let url = target.keep().await;
        println!("kept the database: --reuse '{url}'");
        Ok(())
    } else if plan.reuse.is_some() {
        target.state.store.close().await;
        Ok(())
    } else {
        target.finish().await
    }
}

/// Loads the data set through the batch writer, `LOAD_BATCH` events a transaction, and the
/// spend rows.
async fn load(target: &target::Target, shape: Shape) -> anyhow::Result<()> {
    let now = SystemClock.now();
    println!(
        "reports benchmark: {} events ({:?} order), {} identities, {} revenue rows, {} days of spend",
        shape.events, shape.order, shape.identities, shape.revenue_rows, shape.spend_days
    );
    let loading = Instant::now();
    let mut mix = EventMix::new(42, shape.identities, now, shape.spend_days * DAY_MS)
        .in_order(shape.order, shape.events);
    let revenue_every = shape.events.checked_div(shape.revenue_rows).unwrap_or(0);
    let mut loaded = 0;
    let mut reported = 0;
    while loaded < shape.events {
        let count = LOAD_BATCH.min(shape.events - loaded);
        let records = mix.records(count, loaded, revenue_every, "api:bench");
        let mut tx = target.state.store.begin().await?;
        payback_store::ingest::write_batch(&mut tx, &target.product_id, &records, now).await?;
        tx.commit().await?;
        loaded += count;
        if loaded - reported >= 1_000_000 && loaded < shape.events {
            reported = loaded;
            eprintln!(
                "loaded {loaded} events in {:.1} s",
                loading.elapsed().as_secs_f64()
            );
        }
    }
    let mut tx = target.state.store.begin().await?;
    payback_store::spend::upsert(
        &mut tx,
        &target.product_id,
        "bench",
        &dataset::spend(now, shape.spend_days, 7),
        now,
    )
    .await?;
    tx.commit().await?;
    println!(
        "loaded in {:.1} s ({:.0} events/s through the batch writer)",
        loading.elapsed().as_secs_f64(),
        shape.events as f64 / loading.elapsed().as_secs_f64()
    );
    Ok(())
}

/// One untimed request (caches warm as a dashboard's first paint would leave them), then
/// `runs` timed ones; every answer must be 200.
async fn time(
    target: &target::Target,
    endpoint: &Endpoint,
    runs: usize,
    bodies: Option<&std::path::Path>,
) -> anyhow::Result<Timing> {
    let url = format!("{}{}", target.base_url, endpoint.path);
    let get = || async {
        let response = target
            .client
            .get(&url)
            .bearer_auth(&target.api_key)
            .send()
            .await?;
        let status = response.status();
        let body = response.bytes().await?;
        anyhow::ensure!(
            status.is_success(),
            "GET {} answered {status}: {}",
            endpoint.path,
            String::from_utf8_lossy(&body)
        );
        Ok::<_, anyhow::Error>(body)
    };
    get().await?;
    let mut samples: Vec<Duration> = Vec::with_capacity(runs);
    let mut last = None;
    for _ in 0..runs {
        let started = Instant::now();
        last = Some(get().await?);
        samples.push(started.elapsed());
    }
    let last = last.unwrap_or_default();
    if let Some(dir) = bodies {
        std::fs::create_dir_all(dir)?;
        let name: String = endpoint
            .path
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        std::fs::write(dir.join(format!("{name}.json")), &last)?;
    }
    Ok(Timing {
        p50: percentile(&mut samples, 50.0),
        p95: percentile(&mut samples, 95.0),
        max: percentile(&mut samples, 100.0),
        digest: fnv1a(&last),
    })
}

/// FNV-1a, 64 bits: stable across runs and builds, enough to see that two bodies differ.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(*byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// One table: a row per report, p50 / p95 (ms) per window; then the digests.
fn print_tables(windows: &[i64], timings: &[(Endpoint, Timing)]) {
    let mut reports: Vec<&str> = Vec::new();
    for (endpoint, _) in timings {
        if !reports.contains(&endpoint.report.as_str()) {
            reports.push(&endpoint.report);
        }
    }
    let header: Vec<String> = windows
        .iter()
        .map(|w| format!("{w} days p50 / p95"))
        .collect();
    println!();
    println!("| report | {} |", header.join(" | "));
    println!("|---|{}", "---|".repeat(windows.len()));
    let cell = |t: &Timing| format!("{:.1} / **{:.1}**", millis(t.p50), millis(t.p95));
    for report in &reports {
        let of_report: Vec<&(Endpoint, Timing)> = timings
            .iter()
            .filter(|(e, _)| e.report == *report)
            .collect();
        let cells: Vec<String> = if of_report.iter().any(|(e, _)| e.window.is_none()) {
            // A report at its own windows: one figure, in the first column.
            let mut cells = vec![String::new(); windows.len()];
            if let (Some(first), Some((_, t))) = (cells.first_mut(), of_report.first()) {
                *first = cell(t);
            }
            cells
        } else {
            windows
                .iter()
                .map(|w| {
                    of_report
                        .iter()
                        .find(|(e, _)| e.window == Some(*w))
                        .map_or_else(String::new, |(_, t)| cell(t))
                })
                .collect()
        };
        println!("| {report} | {} |", cells.join(" | "));
    }
    println!();
    println!("response digests (FNV-1a of the last body; equal digests, equal answers):");
    for (endpoint, timing) in timings {
        println!(
            "  {:016x}  max {:>8.1} ms  {}",
            timing.digest,
            millis(timing.max),
            endpoint.path
        );
    }
}

/// Rows of the tables reports read, for the record.
async fn table_counts(store: &Db, product_id: &str) -> anyhow::Result<String> {
    let mut parts = Vec::new();
    for table in [
        "events",
        "identity_profiles",
        "stage_identity_days",
        "event_days",
        "identity_touches",
        "transactions",
        "paid_touch_days",
        "cohort_revenue_days",
        "spend_rows",
    ] {
        let sql = format!("SELECT COUNT(*) FROM {table} WHERE product_id = $1");
        let count: i64 = match store {
            Db::Sqlite(pool) => {
                sqlx::query_scalar(sqlx::AssertSqlSafe(sql))
                    .bind(product_id)
                    .fetch_one(pool)
                    .await?
            }
            Db::Postgres(pool) => {
                sqlx::query_scalar(sqlx::AssertSqlSafe(sql))
                    .bind(product_id)
                    .fetch_one(pool)
                    .await?
            }
        };
        parts.push(format!("{table} {count}"));
    }
    Ok(parts.join(", "))
}

/// PostgreSQL's autovacuum analyzes a table within a minute or so of this many changes (and
/// vacuums it, which sets the visibility map index-only scans rely on); a report timed
/// straight after the load would be planned on an empty table's statistics, which no product
/// of this size runs with for long. SQLite keeps no statistics unless asked, in production as
/// here, so it is left as it is.
async fn analyze_like_autovacuum(store: &Db) -> anyhow::Result<()> {
    if let Db::Postgres(pool) = store {
        sqlx::query("VACUUM ANALYZE").execute(pool).await?;
    }
    Ok(())
}

/// A money conversion and a milestone, as a founder would define them, so the conversions
/// report tallies real events (each resolved to the identity it counts under now).
async fn define_conversions(target: &target::Target) -> anyhow::Result<()> {
    let definitions = [
        json!({ "key": "purchase", "label": "Purchase", "tier": "primary", "stage": "payment",
                "value_mode": "transaction" }),
        json!({ "key": "signup", "label": "Signup", "tier": "secondary", "stage": "signup" }),
    ];
    for definition in definitions {
        target
            .client
            .post(format!(
                "{}/products/{}/conversions",
                target.base_url, target.slug
            ))
            .bearer_auth(&target.api_key)
            .json(&definition)
            .send()
            .await?
            .error_for_status()?;
    }
    Ok(())
}
