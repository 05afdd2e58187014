//! Report latency on a large product: bulk-load through the same batch writer ingestion uses
//! (so every rollup is maintained exactly as in production), then time each report.

use std::time::{Duration, Instant};

use payback_domain::{Clock, DAY_MS, SystemClock};
use payback_store::Db;
use serde_json::json;

use crate::dataset::{self, EventMix, Shape};
use crate::stats::{millis, percentile};
use crate::{BackendChoice, target};

const LOAD_BATCH: usize = 5_000;

pub async fn run(backend: BackendChoice, shape: Shape, runs: usize) -> anyhow::Result<()> {
    let target = target::start(backend).await?;
    let now = SystemClock.now();
    println!(
        "reports benchmark: backend {backend:?}, {} events, {} identities, {} revenue rows, {} days of spend",
        shape.events, shape.identities, shape.revenue_rows, shape.spend_days
    );
    let loading = Instant::now();
    let mut mix = EventMix::new(42, shape.identities, now, shape.spend_days * DAY_MS);
    let revenue_every = shape.events.checked_div(shape.revenue_rows).unwrap_or(0);
    let mut loaded = 0;
    while loaded < shape.events {
        let count = LOAD_BATCH.min(shape.events - loaded);
        let records = mix.records(count, loaded, revenue_every, "api:bench");
        let mut tx = target.state.store.begin().await?;
        payback_store::ingest::write_batch(&mut tx, &target.product_id, &records, now).await?;
        tx.commit().await?;
        loaded += count;
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

    define_conversions(&target).await?;
    analyze_like_autovacuum(&target.state.store).await?;

    let slug = &target.slug;
    let endpoints = [
        format!("/products/{slug}/attribution?days=30"),
        format!("/products/{slug}/attribution?days=365"),
        format!("/products/{slug}/attribution/sales?days=30&limit=100"),
        format!("/products/{slug}/attribution/ads?days=30&level=campaign"),
        format!("/products/{slug}/timeseries?days=90"),
        format!("/products/{slug}/funnel?days=30"),
        format!("/products/{slug}/funnel/series?days=30"),
        format!("/products/{slug}/funnel/definition"),
        format!("/products/{slug}/conversions/report?days=30"),
        format!("/products/{slug}/payback"),
        format!("/products/{slug}"),
        "/portfolio".to_owned(),
    ];
    println!("| endpoint | status | p50 ms | p95 ms | max ms |");
    println!("|---|---|---|---|---|");
    for path in endpoints {
        let url = format!("{}{path}", target.base_url);
        let mut samples: Vec<Duration> = Vec::with_capacity(runs);
        let mut status = 0;
        // One untimed request warms caches the way a dashboard's first paint would.
        target
            .client
            .get(&url)
            .bearer_auth(&target.api_key)
            .send()
            .await?
            .bytes()
            .await?;
        for _ in 0..runs {
            let started = Instant::now();
            let response = target
                .client
                .get(&url)
                .bearer_auth(&target.api_key)
                .send()
                .await?;
            status = response.status().as_u16();
            response.bytes().await?;
            samples.push(started.elapsed());
        }
        println!(
            "| `GET {path}` | {status} | {:.1} | {:.1} | {:.1} |",
            millis(percentile(&mut samples, 50.0)),
            millis(percentile(&mut samples, 95.0)),
            millis(percentile(&mut samples, 100.0)),
        );
    }
    target.finish().await
}

/// PostgreSQL's autovacuum analyzes a table within a minute or so of this many changes; a
/// report timed straight after the load would be planned on an empty table's statistics, which
/// no product of this size runs with for long. SQLite keeps no statistics unless asked, in
/// production as here, so it is left as it is.
async fn analyze_like_autovacuum(store: &Db) -> anyhow::Result<()> {
    if let Db::Postgres(pool) = store {
        sqlx::query("ANALYZE").execute(pool).await?;
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
