//! The sync scheduler (issue 21, part 8): a pass runs due connections in parallel, at most
//! `PAYBACK_SYNC_CONCURRENCY` at once per instance, so a slow or failing source never holds up
//! a healthy one; instances sharing a database split the work and never run a connection twice
//! (each claims before it runs); failing connections back off as before, and wait behind
//! healthy ones. Fake sources stand in for the vendors: one that sleeps, one that fails, one
//! that answers, each counting its reads.

use std::sync::Arc;
use std::time::Duration;

use payback_connectors::{DayRange, Snapshot, SyncOutput};
use payback_domain::connection::{ConnectionKind, FIRST_BACKOFF_MS};
use payback_domain::snapshot_metric::SEARCH_CLICKS;
use payback_domain::{Clock, MINUTE_MS};
use payback_server::AppState;
use payback_server::services::sync;
use payback_testkit::{Backend, FakeSource, Session, TestApp, per_backend};

/// A run of each of these kinds reads through the fake registered for it.
const KINDS: [ConnectionKind; 3] = [
    ConnectionKind::SearchConsole,
    ConnectionKind::GeoA,
    ConnectionKind::SocialA,
];

/// The service with `concurrency` runs at once, each `(kind, fake)` reading its kind.
async fn spawn(
    backend: Backend,
    concurrency: usize,
    fakes: Vec<(ConnectionKind, FakeSource)>,
) -> TestApp {
    TestApp::spawn_custom(
        backend,
        |config| config.sync_concurrency = concurrency,
        move |state| register(state, &fakes),
    )
    .await
}

fn register(state: &mut AppState, fakes: &[(ConnectionKind, FakeSource)]) {
    for (kind, fake) in fakes {
        state.sources.register(*kind, Arc::new(fake.clone()));
    }
}

/// `fake` reading every kind of [`KINDS`].
fn everywhere(fake: &FakeSource) -> Vec<(ConnectionKind, FakeSource)> {
    KINDS.iter().map(|kind| (*kind, fake.clone())).collect()
}

/// A founder with `products` products; answers the founder and the products' ids.
async fn tenant(app: &TestApp, products: usize) -> (Session, Vec<String>) {
    let owner = app.signup_verified("founder@example.com").await;
    let mut ids = Vec::new();
    for n in 0..products {
        let product = app.create_product(&owner.token, &format!("shop-{n}")).await;
        ids.push(product["id"].as_str().unwrap().to_owned());
    }
    (owner, ids)
}

/// One active connection of each of [`KINDS`] per product, all due now; answers their ids.
async fn connect_all(app: &TestApp, owner: &Session, products: &[String]) -> Vec<String> {
    let config = serde_json::json!({});
    let mut ids = Vec::new();
    for product in products {
        for kind in KINDS {
            let id = app
                .insert_connection(&owner.account_id, product, kind, &config, false)
                .await;
            ids.push(id);
        }
    }
    ids
}

async fn run_due(state: &AppState, app: &TestApp) -> usize {
    let said = sync::run_due(state, app.clock.now()).await.unwrap();
    started(&said)
}

/// The runs a pass started, from its "N sync runs".
fn started(said: &str) -> usize {
    assert!(said.ends_with(" sync runs"), "a run still going: {said}");
    said.split_whitespace().next().unwrap().parse().unwrap()
}

/// A connection's booking: status, failures in a row, last success, error, next due time.
type Booking = (String, i64, Option<i64>, Option<String>, Option<i64>);

async fn booking(app: &TestApp, id: &str) -> Booking {
    let rows: Vec<Booking> = app
        .sql_rows(
            "SELECT status, consecutive_failures, last_sync_at, last_error, next_sync_at \
             FROM connections WHERE id = $1",
            &[id.into()],
        )
        .await;
    rows.into_iter().next().expect("the connection")
}

/// Connections that ran successfully at `at`.
async fn ran_at(app: &TestApp, at: i64) -> i64 {
    app.sql_value(
        "SELECT COUNT(*) FROM connections WHERE last_sync_at = $1",
        &[at.into()],
    )
    .await
}

async fn a_slow_and_a_failing_source_never_hold_up_a_healthy_one(backend: Backend) {
    let slow = FakeSource::new(ConnectionKind::GeoA);
    slow.delay_reads(Duration::from_millis(1_500));
    let failing = FakeSource::new(ConnectionKind::SocialA);
    failing.fail_reads("connection refused");
    let healthy = FakeSource::new(ConnectionKind::SearchConsole);
    healthy.answer(|window| SyncOutput {
        snapshots: vec![Snapshot {
            day: DayRange::of_window(window).last,
            metric: SEARCH_CLICKS.to_owned(),
            dimension: String::new(),
            value: 42.0,
            detail: None,
        }],
        ..SyncOutput::default()
    });
    let fakes = [&slow, &failing, &healthy]
        .into_iter()
        .map(|fake| (fake.kind(), fake.clone()))
        .collect();
    let app = spawn(backend, 2, fakes).await;
    let (owner, products) = tenant(&app, 1).await;
    let product = &products[0];
    // Most overdue first: the slow source, then the failing one, then the healthy one (the
    // order in which one run after another held the healthy one up for the other two).
    let config = serde_json::json!({});
    let mut ids = Vec::new();
    for fake in [&slow, &failing, &healthy] {
        let id = app
            .insert_connection(&owner.account_id, product, fake.kind(), &config, false)
            .await;
        ids.push(id);
        app.clock.advance(1);
    }
    let now = app.clock.now().millis();

    // One pass with two slots runs all three: the healthy read starts once the failing one
    // gave its slot back, while the slow one is still reading.
    assert_eq!(run_due(&app.state, &app).await, 3);
    assert_eq!(
        (
            slow.windows().len(),
            failing.windows().len(),
            healthy.windows().len()
        ),
        (1, 1, 1)
    );
    let (healthy_started, _) = healthy.spans()[0];
    let (_, slow_ended) = slow.spans()[0];
    assert!(
        healthy_started < slow_ended,
        "the healthy read waited for the slow one"
    );
    let clicks: f64 = app
        .sql_value(
            "SELECT value FROM snapshots WHERE product_id = $1 AND metric = $2",
            &[product.into(), SEARCH_CLICKS.into()],
        )
        .await;
    assert_eq!(clicks, 42.0);
    let [slow_id, failing_id, healthy_id] = [&ids[0], &ids[1], &ids[2]];
    for id in [slow_id, healthy_id] {
        let (status, failures, last_sync_at, error, _) = booking(&app, id).await;
        assert_eq!(
            (status.as_str(), failures, last_sync_at),
            ("active", 0, Some(now))
        );
        assert_eq!(error, None);
    }
    // The failing one backs off as before: 5 minutes, then twice that.
    let (status, failures, _, error, next) = booking(&app, failing_id).await;
    assert_eq!((status.as_str(), failures), ("error", 1));
    assert!(error.unwrap().contains("connection refused"));
    assert_eq!(next, Some(now + FIRST_BACKOFF_MS));
    assert_eq!(run_due(&app.state, &app).await, 0);
    app.clock.advance(FIRST_BACKOFF_MS);
    // The failing one again, and the two others, whose backfill ladder is not climbed yet, for
    // their next rung (issue 35: a ladder is climbed on consecutive passes).
    assert_eq!(run_due(&app.state, &app).await, 3);
    let (_, failures, _, _, next) = booking(&app, failing_id).await;
    assert_eq!(failures, 2);
    assert_eq!(next, Some(app.clock.now().millis() + 2 * FIRST_BACKOFF_MS));
    assert_eq!(failing.windows().len(), 2);
    assert_eq!((slow.windows().len(), healthy.windows().len()), (2, 2));
}

async fn failing_connections_wait_behind_healthy_ones(backend: Backend) {
    let failing = FakeSource::new(ConnectionKind::SocialA);
    failing.fail_reads("the database is gone");
    let healthy = FakeSource::new(ConnectionKind::SearchConsole);
    let fakes = vec![
        (failing.kind(), failing.clone()),
        (healthy.kind(), healthy.clone()),
    ];
    let app = spawn(backend, 1, fakes).await;
    let (owner, products) = tenant(&app, 1).await;
    let config = serde_json::json!({});
    let failing_id = app
        .insert_connection(
            &owner.account_id,
            &products[0],
            failing.kind(),
            &config,
            false,
        )
        .await;
    assert_eq!(run_due(&app.state, &app).await, 1);
    // The failing connection is due again (and a minute overdue) when a new one arrives.
    app.clock.advance(FIRST_BACKOFF_MS + MINUTE_MS);
    let healthy_id = app
        .insert_connection(
            &owner.account_id,
            &products[0],
            healthy.kind(),
            &config,
            false,
        )
        .await;
    let due = payback_store::connections::due(&app.state.store, app.clock.now(), 10)
        .await
        .unwrap();
    let order: Vec<&str> = due.iter().map(|row| row.id.as_str()).collect();
    assert_eq!(order, [healthy_id.as_str(), failing_id.as_str()]);
    // With one slot, the new connection's run is over before the failing one's starts.
    assert_eq!(run_due(&app.state, &app).await, 2);
    let (_, healthy_ended) = healthy.spans()[0];
    let (failing_started, _) = failing.spans()[1];
    assert!(healthy_ended <= failing_started);
}

async fn two_instances_run_each_due_connection_once(backend: Backend) {
    // Each instance reads through a fake of its own, so the reads say who ran what.
    let here = FakeSource::new(ConnectionKind::SearchConsole);
    let there = FakeSource::new(ConnectionKind::SearchConsole);
    for fake in [&here, &there] {
        fake.delay_reads(Duration::from_millis(100));
    }
    let app = spawn(backend, 3, everywhere(&here)).await;
    let mut other =
        payback_server::build_state((*app.state.config).clone(), Arc::new(app.clock.clone()))
            .await
            .unwrap();
    register(&mut other, &everywhere(&there));
    let (owner, products) = tenant(&app, 4).await;
    let ids = connect_all(&app, &owner, &products).await;
    assert_eq!(ids.len(), 12);

    let (a, b) = tokio::join!(run_due(&app.state, &app), run_due(&other, &app));
    let (reads_here, reads_there) = (here.windows().len(), there.windows().len());
    // Every connection ran once: twelve reads in all, and twelve successes booked now.
    assert_eq!((a, b), (reads_here, reads_there));
    assert_eq!(a + b, ids.len());
    assert!(a > 0 && b > 0, "one instance did all the work: {a} and {b}");
    assert_eq!(ran_at(&app, app.clock.now().millis()).await, 12);
    assert!(here.most_in_flight() <= 3 && there.most_in_flight() <= 3);
    // A pass that read the due list before these runs were booked cannot claim one again: the
    // lease is free, but the connection is no longer due.
    for id in &ids {
        let claimed = payback_store::connections::claim(
            &other.store,
            id,
            &other.instance_id,
            app.clock.now(),
        )
        .await
        .unwrap();
        assert!(!claimed, "{id} claimed after its run");
    }
    // Nothing is due any more, on either instance.
    let (a, b) = tokio::join!(run_due(&app.state, &app), run_due(&other, &app));
    assert_eq!((a, b), (0, 0));
    assert_eq!(here.windows().len() + there.windows().len(), 12);
    other.store.close().await;
}

async fn the_concurrency_bound_holds_across_passes(backend: Backend) {
    let fake = FakeSource::new(ConnectionKind::SearchConsole);
    fake.delay_reads(Duration::from_millis(200));
    let app = spawn(backend, 2, everywhere(&fake)).await;
    let (owner, products) = tenant(&app, 3).await;
    let ids = connect_all(&app, &owner, &products).await;
    assert_eq!(ids.len(), 9);
    // The job loop's pass and a second pass at once, on one instance: two slots between them.
    let started_at = std::time::Instant::now();
    let (jobs, pass) = tokio::join!(
        payback_server::jobs::run_due(&app.state, "runner-a"),
        sync::run_due(&app.state, app.clock.now())
    );
    for report in jobs.unwrap() {
        assert!(report.outcome.is_ok(), "{report:?}");
    }
    started(&pass.unwrap());
    assert_eq!(fake.windows().len(), 9);
    assert_eq!(fake.most_in_flight(), 2);
    // Nine reads of 200 ms two at a time: at least five rounds.
    assert!(started_at.elapsed() >= Duration::from_millis(1_000));
    assert_eq!(ran_at(&app, app.clock.now().millis()).await, 9);
}

per_backend!(
    a_slow_and_a_failing_source_never_hold_up_a_healthy_one,
    failing_connections_wait_behind_healthy_ones,
    two_instances_run_each_due_connection_once,
    the_concurrency_bound_holds_across_passes,
);
