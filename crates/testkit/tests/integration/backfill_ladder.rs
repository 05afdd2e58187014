//! A new connection climbs its backfill ladder on consecutive sync passes (issue 35): 30 days,
//! then 365, then everything, one rung a pass, with the clock moving only the job loop's
//! interval between passes; then it settles into its kind's cadence. Before, each rung waited a
//! whole cadence (an hourly Google Ads account showed its year an hour later, a daily kind took
//! days). `GET /connections` says how deep each has read after every pass.

use std::sync::Arc;

use payback_connectors::SyncWindow;
use payback_domain::connection::{BACKFILL_LADDER, ConnectionKind};
use payback_domain::{Clock, DAY_MS, HOUR_MS};
use payback_server::services::sync;
use payback_testkit::{Backend, FakeSource, TestApp, per_backend};
use serde_json::{Value, json};

/// The job loop's default interval, the only time that passes between passes.
const PASS_MS: i64 = 30_000;

/// The days each window read spans.
fn days(windows: &[SyncWindow]) -> Vec<i64> {
    windows
        .iter()
        .map(|window| (window.to.millis() - window.from.millis()) / DAY_MS)
        .collect()
}

/// Each connection's `backfill_days`, by kind.
async fn depths(app: &TestApp, token: &str) -> (i64, i64) {
    let list = app.get("/connections", Some(token)).await;
    let list = list.expect(200).as_array().unwrap().clone();
    let depth = |kind: &str| {
        list.iter()
            .find(|row| row["kind"] == kind)
            .map(|row| row["backfill_days"].as_i64().unwrap())
            .unwrap()
    };
    (depth("search_ads"), depth("search_b"))
}

async fn pass(app: &TestApp) -> String {
    sync::run_due(&app.state, app.clock.now()).await.unwrap()
}

async fn the_ladder_is_climbed_on_consecutive_passes(backend: Backend) {
    // Google Ads syncs hourly; the second search engine daily.
    let hourly = FakeSource::new(ConnectionKind::SearchAds);
    let daily = FakeSource::new(ConnectionKind::SearchB);
    assert_eq!(ConnectionKind::SearchAds.cadence_ms(), HOUR_MS);
    assert_eq!(ConnectionKind::SearchB.cadence_ms(), DAY_MS);
    let fakes = vec![hourly.clone(), daily.clone()];
    let app = TestApp::spawn_custom(
        backend,
        |_| {},
        move |state| {
            for fake in fakes {
                state.sources.register(fake.kind(), Arc::new(fake));
            }
        },
    )
    .await;
    let owner = app.signup_verified("founder@example.com").await;
    let product = app.create_product(&owner.token, "shop").await;
    let product_id = product["id"].as_str().unwrap();
    for kind in [ConnectionKind::SearchAds, ConnectionKind::SearchB] {
        app.insert_connection(&owner.account_id, product_id, kind, &json!({}), false)
            .await;
    }
    assert_eq!(depths(&app, &owner.token).await, (0, 0));

    // One rung per pass, both kinds alike, the clock moving 30 s between passes.
    for (n, rung) in BACKFILL_LADDER.into_iter().enumerate() {
        if n > 0 {
            app.clock.advance(PASS_MS);
        }
        assert_eq!(pass(&app).await, "2 sync runs");
        assert_eq!(depths(&app, &owner.token).await, (rung, rung), "pass {n}");
    }
    assert_eq!(days(&hourly.windows()), vec![30, 365, 3650]);
    assert_eq!(days(&daily.windows()), vec![30, 365, 3650]);
    let complete_at = app.clock.now();
    let list = app.get("/connections", Some(&owner.token)).await;
    for row in list.expect(200).as_array().unwrap() {
        assert_eq!(row["syncing"], false);
        let cadence = if row["kind"] == "search_ads" {
            HOUR_MS
        } else {
            DAY_MS
        };
        assert_eq!(
            row["next_sync_at"],
            Value::from(complete_at.plus_millis(cadence).to_rfc3339())
        );
    }

    // Complete: no longer due at every pass, but at the kind's cadence.
    for _ in 0..3 {
        app.clock.advance(PASS_MS);
        assert_eq!(pass(&app).await, "0 sync runs");
    }
    app.clock.set(complete_at.plus_millis(HOUR_MS));
    assert_eq!(pass(&app).await, "1 sync runs");
    assert_eq!(days(&hourly.windows()), vec![30, 365, 3650, 7]);
    assert_eq!(daily.windows().len(), 3);
    app.clock.set(complete_at.plus_millis(DAY_MS));
    assert_eq!(pass(&app).await, "2 sync runs");
    assert_eq!(days(&daily.windows()), vec![30, 365, 3650, 7]);
    assert_eq!(depths(&app, &owner.token).await, (3650, 3650));
}

per_backend!(the_ladder_is_climbed_on_consecutive_passes);
