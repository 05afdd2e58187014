//! The plan gates: product CSV exports need Growth (402 `{error, required_plan}` after the
//! product's 404, their content intact when allowed), and the backfill ladder stops at the
//! plan's history (then the recent days), climbing on after an upgrade.

use std::collections::BTreeMap;

use payback_connectors::SyncWindow;
use payback_domain::connection::ConnectionKind;
use payback_domain::{Clock, DAY_MS, HOUR_MS};
use payback_server::services::sync;
use payback_testkit::{Backend, FakeSource, TestApp, per_backend};
use serde_json::{Value, json};

use super::support::{billed, billed_reading, subscribe, summary};

/// The CSV's rows as column -> value.
fn rows(text: &str) -> Vec<BTreeMap<String, String>> {
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header: Vec<String> = reader
        .headers()
        .unwrap()
        .iter()
        .map(str::to_owned)
        .collect();
    reader
        .records()
        .map(|record| {
            header
                .iter()
                .cloned()
                .zip(record.unwrap().iter().map(str::to_owned))
                .collect()
        })
        .collect()
}

fn column(rows: &[BTreeMap<String, String>], name: &str) -> Vec<String> {
    rows.iter().map(|row| row[name].clone()).collect()
}

async fn exports_need_growth_and_keep_their_content(backend: Backend) {
    let billed = billed(backend).await;
    let app = &billed.app;
    let owner = app.signup_verified("founder@example.com").await;
    app.create_product(&owner.token, "shop").await;
    let events = json!([
        {"dedupe_id": "v1", "stage": "visit", "anonymous_id": "a1", "occurred_at": "2026-11-20T10:00:00.000Z"},
        {"dedupe_id": "p1", "stage": "payment", "user_id": "u1", "value": 4900, "currency": "USD",
         "occurred_at": "2026-11-20T11:00:00.000Z"},
        {"dedupe_id": "r1", "stage": "payment", "user_id": "u1", "value": -1900, "currency": "USD",
         "occurred_at": "2026-11-20T12:00:00.000Z"},
    ]);
    app.send_events(&owner.token, "shop", events).await;

    // Trialing: Growth's exports, every event a row, every revenue row a row.
    let csv = app
        .get("/products/shop/export/events.csv", Some(&owner.token))
        .await;
    assert_eq!(csv.status, 200, "{}", csv.text);
    let events = rows(&csv.text);
    assert_eq!(column(&events, "dedupe_id"), vec!["v1", "p1", "r1"]);
    assert_eq!(
        column(&events, "stage"),
        vec!["visit", "payment", "payment"]
    );
    assert_eq!(column(&events, "user_id"), vec!["", "u1", "u1"]);
    assert_eq!(column(&events, "value_cents"), vec!["", "4900", "-1900"]);
    assert_eq!(
        column(&events, "occurred_at"),
        vec![
            "2026-11-20T10:00:00.000Z",
            "2026-11-20T11:00:00.000Z",
            "2026-11-20T12:00:00.000Z"
        ]
    );
    let csv = app
        .get("/products/shop/export/transactions.csv", Some(&owner.token))
        .await;
    assert_eq!(csv.status, 200, "{}", csv.text);
    let transactions = rows(&csv.text);
    assert_eq!(column(&transactions, "amount_cents"), vec!["4900", "-1900"]);
    assert_eq!(column(&transactions, "currency"), vec!["USD", "USD"]);
    assert_eq!(
        column(&transactions, "occurred_at"),
        vec!["2026-11-20T11:00:00.000Z", "2026-11-20T12:00:00.000Z"]
    );

    // On Indie: 402 naming Growth, after the 404 of a product that is not the caller's.
    subscribe(&billed, &owner, "indie").await;
    assert_eq!(summary(app, &owner.token).await["plan"], "indie");
    for path in [
        "/products/shop/export/events.csv",
        "/products/shop/export/transactions.csv",
    ] {
        let refused = app.get(path, Some(&owner.token)).await;
        assert_eq!(refused.status, 402, "{}", refused.text);
        assert_eq!(refused.body["required_plan"], "growth");
        assert!(
            refused.body["error"].as_str().unwrap().contains("exports"),
            "{}",
            refused.text
        );
    }
    let missing = app
        .get("/products/nope/export/events.csv", Some(&owner.token))
        .await;
    assert_eq!(missing.status, 404);
    let other = app.signup_verified("other@example.com").await;
    app.create_product(&other.token, "theirs").await;
    let theirs = app
        .get("/products/theirs/export/events.csv", Some(&owner.token))
        .await;
    assert_eq!(theirs.status, 404);

    // A trial that ended without a subscription: free, 402 too.
    app.clock.advance(31 * DAY_MS);
    // Sessions end after 7 idle days: sign in again after the jump.
    let other = app.login(&other.email).await;
    let free = app
        .get("/products/theirs/export/events.csv", Some(&other.token))
        .await;
    assert_eq!(free.status, 402, "{}", free.text);
    assert_eq!(free.body["required_plan"], "growth");
    // Upgrading to Growth opens them again.
    subscribe(&billed, &other, "growth").await;
    let open = app
        .get("/products/theirs/export/events.csv", Some(&other.token))
        .await;
    assert_eq!(open.status, 200, "{}", open.text);
}

/// The days each window read spans.
fn days(windows: &[SyncWindow]) -> Vec<i64> {
    windows
        .iter()
        .map(|window| (window.to.millis() - window.from.millis()) / DAY_MS)
        .collect()
}

async fn pass(app: &TestApp) -> String {
    sync::run_due(&app.state, app.clock.now()).await.unwrap()
}

async fn depth(app: &TestApp, token: &str) -> Value {
    let list = app.get("/connections", Some(token)).await;
    list.expect(200)[0]["backfill_days"].clone()
}

async fn the_backfill_ladder_stops_at_the_plans_history_and_climbs_after_an_upgrade(
    backend: Backend,
) {
    let hourly = FakeSource::new(ConnectionKind::SearchAds);
    let billed = billed_reading(backend, vec![hourly.clone()]).await;
    let app = &billed.app;
    let owner = app.signup_verified("founder@example.com").await;
    let product = app.create_product(&owner.token, "shop").await;
    // The trial is over: the free plan reads 30 days.
    app.clock.advance(31 * DAY_MS);
    // Sessions end after 7 idle days: sign in again after the jump.
    let owner = app.login(&owner.email).await;
    assert_eq!(
        summary(app, &owner.token).await["limits"]["history_days"],
        30
    );
    app.insert_connection(
        &owner.account_id,
        product["id"].as_str().unwrap(),
        ConnectionKind::SearchAds,
        &json!({}),
        false,
    )
    .await;
    assert_eq!(pass(app).await, "1 sync runs");
    assert_eq!(depth(app, &owner.token).await, 30);
    // The ladder stopped: not due at the next pass, then the recent days at the cadence.
    app.clock.advance(30_000);
    assert_eq!(pass(app).await, "0 sync runs");
    app.clock.advance(HOUR_MS);
    assert_eq!(pass(app).await, "1 sync runs");
    assert_eq!(days(&hourly.windows()), vec![30, 7]);

    // Growth: the next run climbs on, one rung a pass.
    subscribe(&billed, &owner, "growth").await;
    app.clock.advance(HOUR_MS);
    assert_eq!(pass(app).await, "1 sync runs");
    app.clock.advance(30_000);
    assert_eq!(pass(app).await, "1 sync runs");
    assert_eq!(days(&hourly.windows()), vec![30, 7, 365, 3650]);
    assert_eq!(depth(app, &owner.token).await, 3650);
}

per_backend!(
    exports_need_growth_and_keep_their_content,
    the_backfill_ladder_stops_at_the_plans_history_and_climbs_after_an_upgrade
);
