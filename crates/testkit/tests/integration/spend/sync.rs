//! Spend through the real sync pipeline: a fake `social_ads_a` source, registered like a real
//! connector, answers the network's current numbers for the days each run reads; the real sync
//! run, batch writer and store write them, and the reports read them. The ladder's runs re-read
//! the same numbers (nothing stored twice), then a steady-state run reads a week in which one
//! day was restated and one campaign removed; every state is compared with an independent
//! ledger, and CAC and ROAS of the attribution report follow it. Spend in another currency is
//! refused by name in the run's detail. Disconnecting revokes the grant through the source.

use std::sync::{Arc, Mutex};

use payback_connectors::{
    DayRange, RevenueRow, Snapshot, SpendRead, SpendRow, StageDay, StageDaysRead, SyncOutput,
    SyncWindow,
};
use payback_domain::connection::ConnectionKind;
use payback_domain::metrics::div_round;
use payback_domain::{Clock, DAY_MS, HOUR_MS, MINUTE_MS, Stage, Timestamp};
use payback_server::services::sync;
use payback_testkit::{Backend, FakeSource, Session, TestApp, per_backend};
use serde_json::{Value, json};

use super::ledger::{Ad, Ledger, ad};

const ACCOUNT: &str = "act_1";
/// An ad account billed in euros, for a product in dollars.
const EURO_ACCOUNT: &str = "act_eur";

/// What the network reports now.
#[derive(Default)]
struct Network {
    ads: Vec<Ad>,
    euro_ads: Vec<Ad>,
}

fn rows(ads: &[Ad], days: &DayRange, currency: &str) -> Vec<SpendRow> {
    ads.iter()
        .filter(|ad| days.contains(ad.day))
        .map(|ad| SpendRow {
            day: ad.day.to_owned(),
            network: "meta".to_owned(),
            channel: "paid_meta".to_owned(),
            campaign_id: ad.campaign.to_owned(),
            campaign_name: Some(format!("Campaign {}", ad.campaign)),
            ad_id: ad.ad.to_owned(),
            ad_name: Some(format!("Ad {}", ad.ad)),
            spend_cents: ad.cents,
            impressions: ad.cents * 3,
            clicks: ad.cents / 100,
            currency: currency.to_owned(),
            ..SpendRow::default()
        })
        .collect()
}

/// The read of `window`: both ad accounts' days, as a Marketing API report would cover them.
fn read(network: &Network, window: SyncWindow) -> SyncOutput {
    let days = DayRange::of_window(window);
    let ads = rows(&network.ads, &days, "USD");
    SyncOutput {
        detail: format!("{} ad days read", ads.len()),
        spend: vec![
            SpendRead {
                ad_account: ACCOUNT.to_owned(),
                days: days.clone(),
                rows: ads,
                keywords: Vec::new(),
            },
            SpendRead {
                ad_account: EURO_ACCOUNT.to_owned(),
                rows: rows(&network.euro_ads, &days, "EUR"),
                keywords: Vec::new(),
                days,
            },
        ],
        ..SyncOutput::default()
    }
}

async fn founder(app: &TestApp) -> (Session, String, String) {
    let session = app.signup_verified("founder@example.com").await;
    let key = app.api_key(&session).await;
    let product_id = app.create_product(&key, "shop").await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    (session, key, product_id)
}

/// Runs what is due, after moving the clock past the hourly cadence.
async fn next_run(app: &TestApp) {
    app.clock.advance(HOUR_MS + MINUTE_MS);
    assert_eq!(
        sync::run_due(&app.state, app.clock.now()).await.unwrap(),
        "1 sync runs"
    );
}

/// Records the last run's read in the ledger: each account's days replaced by what the
/// network reported for them in the product's currency.
fn record(ledger: &mut Ledger, fake: &FakeSource, network: &Network) {
    let window = *fake.windows().last().unwrap();
    let days = DayRange::of_window(window);
    let ads: Vec<Ad> = network
        .ads
        .iter()
        .filter(|ad| days.contains(ad.day))
        .cloned()
        .collect();
    ledger.replace("meta", ACCOUNT, &days.first, &days.last, &ads);
    // The euro rows are refused: their account's days hold nothing.
    ledger.replace("meta", EURO_ACCOUNT, &days.first, &days.last, &[]);
}

async fn connection(app: &TestApp, token: &str) -> Value {
    let list = app.get("/connections", Some(token)).await;
    list.expect(200).as_array().unwrap()[0].clone()
}

/// Paid-meta customers (and one organic) who paid in the last weeks.
fn events() -> Value {
    json!([
        {"dedupe_id": "v1", "stage": "visit", "user_id": "m1", "occurred_at": "2026-11-10T08:00:00Z",
         "attribution": {"channel": "paid_meta"}},
        {"dedupe_id": "p1", "stage": "payment", "user_id": "m1", "value": 3_000, "occurred_at": "2026-11-10T09:00:00Z"},
        {"dedupe_id": "v2", "stage": "visit", "user_id": "m2", "occurred_at": "2026-11-18T08:00:00Z",
         "attribution": {"channel": "paid_meta"}},
        {"dedupe_id": "p2", "stage": "payment", "user_id": "m2", "value": 2_000, "occurred_at": "2026-11-18T09:00:00Z"},
        {"dedupe_id": "v3", "stage": "visit", "user_id": "o1", "occurred_at": "2026-11-19T08:00:00Z",
         "attribution": {"channel": "organic_search"}},
        {"dedupe_id": "p3", "stage": "payment", "user_id": "o1", "value": 900, "occurred_at": "2026-11-19T09:00:00Z"},
    ])
}

/// The attribution report's paid-meta row follows the ledger: spend, CAC over the two paid-meta
/// customers, ROAS of their 5,000 of first-touch revenue.
async fn assert_meta_row(app: &TestApp, key: &str, ledger: &Ledger) {
    let now = app.clock.now();
    let first = now.minus_millis(29 * DAY_MS).day();
    let report = app
        .get("/products/shop/attribution?days=30", Some(key))
        .await
        .expect(200)
        .clone();
    let row = report["channels"]
        .as_array()
        .unwrap()
        .iter()
        .find(|row| row["channel"] == "paid_meta")
        .unwrap()
        .clone();
    let spend = ledger.sum(Some("meta"), &first, &now.day());
    assert_eq!(row["spend_cents"], spend);
    assert_eq!(row["customers_first"], 2);
    assert_eq!(row["revenue_first_cents"], 5_000);
    assert_eq!(row["cac_cents"], div_round(spend, 2));
    let roas = row["roas"].as_f64().unwrap();
    assert!((roas - 5_000.0 / spend as f64).abs() < 1e-12, "{roas}");
    assert_eq!(report["totals"]["spend_cents"], spend);
}

async fn a_spend_sync_replaces_the_days_it_read(backend: Backend) {
    let fake = FakeSource::new(ConnectionKind::SocialAdsA);
    let network = Arc::new(Mutex::new(Network {
        ads: vec![
            // Older than the first rung (30 days): read from the second run on.
            ad("2026-10-01", "c1", "a1", 5_555),
            ad("2026-11-10", "c1", "a1", 1_000),
            ad("2026-11-10", "c2", "a2", 700),
            ad("2026-11-16", "c1", "a1", 1_200),
            ad("2026-11-16", "c2", "a2", 500),
            ad("2026-11-20", "c1", "a1", 800),
            ad("2026-11-20", "c2", "a2", 300),
        ],
        euro_ads: vec![ad("2026-11-19", "e1", "ae1", 4_000)],
    }));
    let reported = Arc::clone(&network);
    fake.answer(move |window| read(&reported.lock().unwrap(), window));
    let app = TestApp::spawn_with_source(backend, fake.clone()).await;
    let (session, key, product_id) = founder(&app).await;
    app.post(
        "/products/shop/events",
        Some(&key),
        json!({ "events": events() }),
    )
    .await
    .expect(200);
    // The fake source stands in for the kind's connector: the connection is stored directly.
    let id = app
        .insert_connection(
            &session.account_id,
            &product_id,
            ConnectionKind::SocialAdsA,
            &json!({ "ad_account_id": ACCOUNT }),
            true,
        )
        .await;

    // The first run reads the first rung, 30 days.
    let mut ledger = Ledger::default();
    assert_eq!(
        sync::run_due(&app.state, app.clock.now()).await.unwrap(),
        "1 sync runs"
    );
    record(&mut ledger, &fake, &network.lock().unwrap());
    ledger.assert_stored(&app, &product_id).await;
    assert_eq!(ledger.sum(None, "2026-01-01", "2026-12-31"), 4_500);
    let shown = connection(&app, &session.token).await;
    assert_eq!(shown["id"], id.as_str());
    assert_eq!(shown["status"], "active", "{shown}");
    assert_eq!(shown["backfill_days"], 30);
    let detail = shown["last_detail"].as_str().unwrap();
    assert!(detail.starts_with("6 ad days read; "), "{detail}");
    assert!(
        detail.contains("spend of ad account act_1 2026-10-22..2026-11-21: 6 rows, 4500 cents"),
        "{detail}"
    );
    assert!(
        detail.contains(
            "refused 1 spend rows of ad account act_eur in EUR: the product's currency is USD"
        ),
        "{detail}"
    );
    assert_meta_row(&app, &key, &ledger).await;

    // The spend report shows the rows summed by campaign day, with their names.
    let spend = app
        .get("/products/shop/spend?days=30", Some(&key))
        .await
        .expect(200)
        .clone();
    let c1 = spend["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|row| row["day"] == "2026-11-16" && row["campaign_id"] == "c1")
        .unwrap()
        .clone();
    assert_eq!(
        (
            c1["spend_cents"].clone(),
            c1["impressions"].clone(),
            c1["clicks"].clone()
        ),
        (json!(1_200), json!(3_600), json!(12))
    );
    assert_eq!(c1["campaign_name"], "Campaign c1");
    assert_eq!(c1["channel"], "paid_meta");

    // The ladder's next rungs re-read the same numbers: the older day joins, nothing doubles.
    for _ in 0..2 {
        next_run(&app).await;
        record(&mut ledger, &fake, &network.lock().unwrap());
        ledger.assert_stored(&app, &product_id).await;
    }
    assert_eq!(ledger.sum(None, "2026-01-01", "2026-12-31"), 10_055);

    // The network restates a day and removes campaign c2; the steady-state run reads 7 days,
    // so c2's day before them stays, and its days inside them are gone.
    {
        let mut now = network.lock().unwrap();
        now.ads.retain(|ad| ad.campaign != "c2");
        for ad in &mut now.ads {
            if ad.day == "2026-11-16" {
                ad.cents = 1_500;
            }
        }
    }
    next_run(&app).await;
    record(&mut ledger, &fake, &network.lock().unwrap());
    ledger.assert_stored(&app, &product_id).await;
    assert_eq!(ledger.sum(None, "2026-11-10", "2026-11-10"), 1_700);
    assert_eq!(ledger.sum(None, "2026-11-14", "2026-11-21"), 2_300);
    assert_meta_row(&app, &key, &ledger).await;
    let read_days: Vec<i64> = fake
        .windows()
        .iter()
        .map(|w| (w.to.millis() - w.from.millis()) / DAY_MS)
        .collect();
    assert_eq!(read_days, [30, 365, 3650, 7]);
    assert_eq!(
        connection(&app, &session.token).await["backfill_days"],
        3650
    );

    // Disconnecting the grant revokes it through the source; the spend stays.
    let gone = app
        .post(
            "/products/shop/connections/social-ads-a/disconnect",
            Some(&key),
            json!({}),
        )
        .await
        .expect(200)
        .clone();
    assert_eq!(
        gone,
        json!({"ok": true, "credential_deleted": true, "revoked_upstream": true})
    );
    assert_eq!(fake.disconnects(), 1);
    ledger.assert_stored(&app, &product_id).await;
}

/// `(day, stage, volume)` of the product's daily stage volumes.
async fn stage_volumes(app: &TestApp, product_id: &str) -> Vec<(String, String, i64)> {
    app.sql_rows(
        "SELECT day, stage, volume FROM aggregate_stage_days WHERE product_id = $1 AND source = 'analytics_a' \
         ORDER BY day, stage",
        &[product_id.into()],
    )
    .await
}

async fn revenue(app: &TestApp, key: &str) -> i64 {
    let report = app
        .get("/products/shop/attribution?days=30", Some(key))
        .await;
    report.expect(200)["totals"]["revenue_cents"]
        .as_i64()
        .unwrap()
}

fn volumes(window: SyncWindow, counts: &[(&str, Stage, i64)]) -> Option<StageDaysRead> {
    Some(StageDaysRead {
        days: DayRange::of_window(window),
        rows: counts
            .iter()
            .map(|(day, stage, volume)| StageDay {
                day: (*day).to_owned(),
                stage: *stage,
                channel: String::new(),
                volume: *volume,
            })
            .collect(),
    })
}

fn money(id: &str, at: &str, cents: i64) -> RevenueRow {
    RevenueRow {
        id: id.to_owned(),
        occurred_at: Timestamp::parse_rfc3339(at).unwrap(),
        stage: Stage::Payment,
        amount_cents: cents,
        currency: "USD".to_owned(),
        user_id: Some("u1".to_owned()),
        email: None,
        name: None,
    }
}

/// Every part of a batch lands where it belongs: events and revenue rows through ingestion
/// (re-reads store them once), daily stage volumes replacing the days read; a batch with a
/// snapshot of a metric no report reads is refused by name, and nothing of it is written.
async fn a_batch_lands_every_part_and_refuses_what_has_no_store(backend: Backend) {
    let fake = FakeSource::new(ConnectionKind::AnalyticsA);
    let app = TestApp::spawn_with_source(backend, fake.clone()).await;
    let (session, key, product_id) = founder(&app).await;
    app.insert_connection(
        &session.account_id,
        &product_id,
        ConnectionKind::AnalyticsA,
        &json!({}),
        false,
    )
    .await;
    let visit = json!({"dedupe_id": "s-1", "stage": "visit", "user_id": "u1",
                       "occurred_at": "2026-11-19T08:00:00Z", "attribution": {"channel": "paid_google"}});
    let visit: payback_domain::event::IncomingEvent = serde_json::from_value(visit).unwrap();
    fake.answer(move |window| SyncOutput {
        events: vec![visit.clone()],
        stage_days: volumes(
            window,
            &[
                ("2026-11-19", Stage::Visit, 40),
                ("2026-11-19", Stage::Engaged, 12),
                ("2026-11-20", Stage::Visit, 55),
            ],
        ),
        revenue: vec![
            money("ch_1", "2026-11-19T09:00:00Z", 2_500),
            money("re_1", "2026-11-20T09:00:00Z", -500),
        ],
        ..SyncOutput::default()
    });
    for _ in 0..2 {
        sync::run_due(&app.state, app.clock.now()).await.unwrap();
        app.clock.advance(DAY_MS + MINUTE_MS);
    }
    assert_eq!(revenue(&app, &key).await, 2_000);
    let shown = connection(&app, &session.token).await;
    let detail = shown["last_detail"].as_str().unwrap();
    assert!(
        detail.starts_with("2 revenue rows; stage volumes "),
        "{detail}"
    );
    assert!(detail.ends_with(": 3 rows"), "{detail}");
    let day = |d: &str, s: &str, v: i64| (d.to_owned(), s.to_owned(), v);
    assert_eq!(
        stage_volumes(&app, &product_id).await,
        [
            day("2026-11-19", "engaged", 12),
            day("2026-11-19", "visit", 40),
            day("2026-11-20", "visit", 55)
        ]
    );
    // The paid-google first touch carries the revenue: the report counts the revenue rows as
    // that customer's.
    let report = app
        .get("/products/shop/attribution?days=30", Some(&key))
        .await
        .expect(200)
        .clone();
    let google = report["channels"]
        .as_array()
        .unwrap()
        .iter()
        .find(|row| row["channel"] == "paid_google")
        .unwrap()
        .clone();
    assert_eq!(google["revenue_first_cents"], 2_000);

    // A recount: the 19th's visits restated, its engaged sessions gone.
    fake.answer(move |window| SyncOutput {
        stage_days: volumes(
            window,
            &[
                ("2026-11-19", Stage::Visit, 42),
                ("2026-11-20", Stage::Visit, 55),
            ],
        ),
        ..SyncOutput::default()
    });
    sync::run_due(&app.state, app.clock.now()).await.unwrap();
    assert_eq!(
        stage_volumes(&app, &product_id).await,
        [
            day("2026-11-19", "visit", 42),
            day("2026-11-20", "visit", 55)
        ]
    );

    // A snapshot of a metric no report reads: the run fails naming it, and writes none of its
    // batch.
    app.clock.advance(DAY_MS + MINUTE_MS);
    fake.answer(move |window| SyncOutput {
        revenue: vec![money("ch_2", "2026-11-21T09:00:00Z", 7_000)],
        stage_days: volumes(window, &[]),
        snapshots: vec![Snapshot {
            day: "2026-11-21".to_owned(),
            metric: "sessions".to_owned(),
            dimension: String::new(),
            value: 3.0,
            detail: None,
        }],
        ..SyncOutput::default()
    });
    sync::run_due(&app.state, app.clock.now()).await.unwrap();
    let failed = connection(&app, &session.token).await;
    assert_eq!(failed["status"], "error");
    let error = failed["last_error"].as_str().unwrap();
    assert!(
        error.contains("snapshot 2026-11-21 sessions ``: unknown metric"),
        "{error}"
    );
    assert_eq!(revenue(&app, &key).await, 2_000);
    assert_eq!(stage_volumes(&app, &product_id).await.len(), 2);
}

per_backend!(
    a_spend_sync_replaces_the_days_it_read,
    a_batch_lands_every_part_and_refuses_what_has_no_store,
);
