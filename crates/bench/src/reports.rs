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
        check_daily_tables(&target.state.store, &target.product_id).await?;
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
        "reports benchmark: {} events, {} identities, {} revenue rows, {} days of spend",
        shape.events, shape.identities, shape.revenue_rows, shape.spend_days
    );
    let loading = Instant::now();
    let mut mix = EventMix::new(42, shape.identities, now, shape.spend_days * DAY_MS);
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

/// The daily report tables recomputed from the rows they sum, against what the triggers (and
/// the migration's backfill) left: rows in one and not the other, per table.
async fn check_daily_tables(store: &Db, product_id: &str) -> anyhow::Result<()> {
    const PLAIN: &str = "SELECT product_id, stage, day, identity, COUNT(*) AS plain_events, \
         CAST(COALESCE(SUM(value_cents), 0) AS BIGINT) AS plain_value FROM (SELECT e.product_id, e.stage, e.day, e.value_cents, \
         CASE substr(e.identity, 1, 2) \
           WHEN 'a:' THEN COALESCE((SELECT 'u:' || l.user_id FROM identity_links l \
               WHERE l.product_id = e.product_id AND l.anonymous_id = substr(e.identity, 3)), e.identity) \
           WHEN 'e:' THEN COALESCE((SELECT COALESCE((SELECT 'u:' || l.user_id FROM identity_links l \
               WHERE l.product_id = o.product_id AND substr(o.identity, 1, 2) = 'a:' \
               AND l.anonymous_id = substr(o.identity, 3)), o.identity) FROM email_identities o \
               WHERE o.product_id = e.product_id AND o.email = substr(e.identity, 3)), e.identity) \
           ELSE e.identity END AS identity \
         FROM events e WHERE e.product_id = $1 AND e.identity IS NOT NULL AND e.channel IS NULL) AS plain \
         GROUP BY product_id, stage, day, identity";
    let at = "COALESCE(last_seen_at, first_seen_at)";
    let seen_day = match store {
        Db::Sqlite(_) => {
            format!("date(({at} - (({at} % 86400000) + 86400000) % 86400000) / 1000, 'unixepoch')")
        }
        Db::Postgres(_) => format!("payback_day({at})"),
    };
    let checks: [(&str, String, String); 5] = [
        (
            "stage_identity_days.plain_*",
            PLAIN.to_owned(),
            "SELECT product_id, stage, day, identity, plain_events, plain_value FROM stage_identity_days \
             WHERE product_id = $1 AND (plain_events <> 0 OR plain_value <> 0)"
                .to_owned(),
        ),
        (
            "stage_channel_days",
            "SELECT s.day, s.stage, COALESCE(p.first_channel, ''), SUM(s.events), COUNT(*), \
             SUM(CASE WHEN s.day = s.latest THEN 1 ELSE 0 END), SUM(s.plain_events), SUM(s.plain_value) \
             FROM (SELECT product_id, day, stage, identity, events, plain_events, plain_value, \
                   MAX(day) OVER (PARTITION BY identity, stage) AS latest \
                   FROM stage_identity_days WHERE product_id = $1) AS s \
             LEFT JOIN identity_profiles p ON p.product_id = s.product_id AND p.identity = s.identity \
             GROUP BY s.day, s.stage, COALESCE(p.first_channel, '')"
                .to_owned(),
            "SELECT day, stage, channel, events, identities, lasts, plain_events, plain_value \
             FROM stage_channel_days WHERE product_id = $1 AND (events <> 0 OR identities <> 0 \
             OR lasts <> 0 OR plain_events <> 0 OR plain_value <> 0)"
                .to_owned(),
        ),
        (
            "identity_days",
            format!(
                "SELECT day, channel, SUM(seen), SUM(acquired), SUM(acquired_revenue) FROM ( \
                 SELECT {seen_day} AS day, COALESCE(first_channel, '') AS channel, 1 AS seen, \
                        0 AS acquired, 0 AS acquired_revenue FROM identity_profiles WHERE product_id = $1 \
                 UNION ALL SELECT acquired_day, COALESCE(first_channel, ''), 0, 1, revenue_cents \
                 FROM identity_profiles WHERE product_id = $1 AND acquired_at IS NOT NULL) AS c \
                 GROUP BY day, channel"
            ),
            "SELECT day, channel, seen, acquired, acquired_revenue FROM identity_days \
             WHERE product_id = $1 AND (seen <> 0 OR acquired <> 0 OR acquired_revenue <> 0)"
                .to_owned(),
        ),
        (
            "customer_totals",
            "SELECT COUNT(*), COALESCE(SUM(revenue_cents), 0) FROM identity_profiles \
             WHERE product_id = $1 AND acquired_at IS NOT NULL"
                .to_owned(),
            "SELECT customers, revenue FROM customer_totals WHERE product_id = $1".to_owned(),
        ),
        (
            "revenue_days",
            "SELECT t.day, COALESCE(p.first_channel, ''), COALESCE(t.last_channel, p.first_channel, ''), \
             CASE WHEN t.identity IS NULL THEN 0 ELSE 1 END, COUNT(*), SUM(t.amount_cents) \
             FROM transactions t LEFT JOIN identity_profiles p ON p.product_id = t.product_id AND p.identity = t.identity \
             WHERE t.product_id = $1 GROUP BY 1, 2, 3, 4"
                .to_owned(),
            "SELECT day, first_channel, last_channel, CASE WHEN identified THEN 1 ELSE 0 END, rows, cents \
             FROM revenue_days WHERE product_id = $1 AND (rows <> 0 OR cents <> 0)"
                .to_owned(),
        ),
    ];
    for (name, recomputed, stored) in checks {
        let mut differ = 0;
        for (a, b) in [(&recomputed, &stored), (&stored, &recomputed)] {
            let sql = format!("SELECT COUNT(*) FROM (({a}) EXCEPT ({b})) AS d");
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
            differ += count;
        }
        println!("check {name}: {differ} rows differ from a recomputation");
    }
    Ok(())
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
