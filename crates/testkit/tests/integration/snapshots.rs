//! Snapshots through the real sync pipeline: fake search-console, AI-visibility and two social
//! sources, registered like real connectors, answer dated metric values (two days, two
//! dimensions, details no total is made of); the real sync run and batch writer store them per
//! kind, and `GET /products/{slug}/timeseries` reads their columns. Every state is compared
//! with an independent model (an upserting map and the columns' rules written out in plain
//! loops). A re-read restates one value (replaced, nothing stored twice); a batch naming one
//! value twice is refused and writes nothing; another product shows nothing, and another
//! account's caller gets 404.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use payback_connectors::{DayRange, Snapshot, SyncOutput};
use payback_domain::connection::ConnectionKind;
use payback_domain::{Clock, DAY_MS, MINUTE_MS};
use payback_server::services::sync;
use payback_testkit::{Backend, FakeSource, TestApp, per_backend};
use serde_json::Value;

/// `(day, metric, dimension) -> value`: what one source reports now.
type Reported = BTreeMap<(String, String, String), f64>;

/// `(kind, day, metric, dimension) -> value`: what the product should have stored.
type Model = BTreeMap<(String, String, String, String), f64>;

const KINDS: [ConnectionKind; 4] = [
    ConnectionKind::SearchConsole,
    ConnectionKind::GeoA,
    ConnectionKind::SocialA,
    ConnectionKind::SocialB,
];

fn reported(values: &[(&str, &str, &str, f64)]) -> Reported {
    values
        .iter()
        .map(|(day, metric, dimension, value)| {
            (
                (
                    (*day).to_owned(),
                    (*metric).to_owned(),
                    (*dimension).to_owned(),
                ),
                *value,
            )
        })
        .collect()
}

/// What each vendor reports at the start: two days, per query (search), the whole property
/// and a detail (AI visibility per engine, one post's impressions).
fn vendors() -> BTreeMap<ConnectionKind, Reported> {
    BTreeMap::from([
        (
            ConnectionKind::SearchConsole,
            reported(&[
                ("2026-11-19", "search_clicks", "running shoes", 12.0),
                ("2026-11-19", "search_clicks", "trail shoes", 5.0),
                ("2026-11-19", "search_impressions", "running shoes", 300.0),
                ("2026-11-19", "search_impressions", "trail shoes", 90.0),
                ("2026-11-20", "search_clicks", "running shoes", 9.0),
                ("2026-11-20", "search_clicks", "trail shoes", 7.0),
                ("2026-11-20", "search_impressions", "running shoes", 250.0),
                ("2026-11-20", "search_impressions", "trail shoes", 110.0),
            ]),
        ),
        (
            ConnectionKind::GeoA,
            reported(&[
                ("2026-11-19", "ai_visibility", "", 0.42),
                ("2026-11-19", "ai_visibility", "engine-a", 0.9),
                ("2026-11-20", "ai_visibility", "", 0.47),
            ]),
        ),
        (
            ConnectionKind::SocialA,
            reported(&[
                ("2026-11-19", "social_followers", "", 1_200.0),
                ("2026-11-19", "social_impressions", "", 5_000.0),
                ("2026-11-19", "social_impressions", "post-1", 3_000.0),
                ("2026-11-19", "social_engagement", "", 140.0),
                ("2026-11-20", "social_followers", "", 1_210.0),
                ("2026-11-20", "social_impressions", "", 4_100.0),
                ("2026-11-20", "social_engagement", "", 95.0),
            ]),
        ),
        (
            ConnectionKind::SocialB,
            reported(&[
                ("2026-11-19", "social_followers", "", 300.0),
                ("2026-11-19", "social_impressions", "", 800.0),
                ("2026-11-19", "social_engagement", "", 20.0),
                ("2026-11-20", "social_followers", "", 305.0),
                ("2026-11-20", "social_impressions", "", 650.0),
                ("2026-11-20", "social_engagement", "", 31.0),
            ]),
        ),
    ])
}

type Vendors = Arc<Mutex<BTreeMap<ConnectionKind, Reported>>>;

/// A fake of `kind` answering what its vendor reports now for the days of each window.
fn fake(kind: ConnectionKind, vendors: &Vendors) -> FakeSource {
    let fake = FakeSource::new(kind);
    let vendors = Arc::clone(vendors);
    fake.answer(move |window| {
        let days = DayRange::of_window(window);
        let now = vendors.lock().unwrap();
        SyncOutput {
            snapshots: now[&kind]
                .iter()
                .filter(|((day, ..), _)| days.contains(day))
                .map(|((day, metric, dimension), value)| Snapshot {
                    day: day.clone(),
                    metric: metric.clone(),
                    dimension: dimension.clone(),
                    value: *value,
                    detail: None,
                })
                .collect(),
            ..SyncOutput::default()
        }
    });
    fake
}

/// The model after a read of every kind: each value upserted under its kind.
fn record(model: &mut Model, vendors: &Vendors) {
    for (kind, values) in vendors.lock().unwrap().iter() {
        for ((day, metric, dimension), value) in values {
            model.insert(
                (
                    kind.as_str().to_owned(),
                    day.clone(),
                    metric.clone(),
                    dimension.clone(),
                ),
                *value,
            );
        }
    }
}

/// The timeseries' snapshot columns of `day` by their rules, written out: search sums every
/// query of every source; social sums each source's whole-page value; AI visibility is the
/// whole property's value (their mean if several), null without one.
fn expected(model: &Model, day: &str) -> [Value; 6] {
    let mut sums: BTreeMap<&str, f64> = BTreeMap::new();
    let mut visibility = Vec::new();
    for ((_, at, metric, dimension), value) in model {
        if at != day {
            continue;
        }
        let whole = dimension.is_empty();
        match metric.as_str() {
            "search_clicks" | "search_impressions" => *sums.entry(metric).or_default() += value,
            "social_impressions" | "social_engagement" | "social_followers" if whole => {
                *sums.entry(metric).or_default() += value
            }
            "ai_visibility" if whole => visibility.push(*value),
            _ => {}
        }
    }
    let count = |metric: &str| Value::from(sums.get(metric).copied().unwrap_or(0.0).round() as i64);
    let ai = if visibility.is_empty() {
        Value::Null
    } else {
        Value::from(visibility.iter().sum::<f64>() / visibility.len() as f64)
    };
    [
        count("search_clicks"),
        count("search_impressions"),
        ai,
        count("social_impressions"),
        count("social_engagement"),
        count("social_followers"),
    ]
}

const COLUMNS: [&str; 6] = [
    "search_clicks",
    "search_impressions",
    "ai_visibility",
    "social_impressions",
    "social_engagement",
    "social_followers",
];

fn columns(row: &Value) -> [Value; 6] {
    COLUMNS.map(|column| row[column].clone())
}

/// Every row of the 7-day timeseries against the model; answers the rows.
async fn assert_timeseries(app: &TestApp, key: &str, slug: &str, model: &Model) -> Vec<Value> {
    let rows = app
        .get(&format!("/products/{slug}/timeseries?days=7"), Some(key))
        .await
        .expect(200)
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(rows.len(), 7);
    for row in &rows {
        let day = row["day"].as_str().unwrap();
        let (got, want) = (columns(row), expected(model, day));
        // AI visibility is a mean of doubles: compared within rounding, the counts exactly.
        assert_eq!(
            got[2].is_null(),
            want[2].is_null(),
            "{day}: {got:?} vs {want:?}"
        );
        if let (Some(got), Some(want)) = (got[2].as_f64(), want[2].as_f64()) {
            assert!((got - want).abs() < 1e-9, "{day}: {got} vs {want}");
        }
        for at in [0, 1, 3, 4, 5] {
            assert_eq!(got[at], want[at], "{day} {}: {row}", COLUMNS[at]);
        }
    }
    rows
}

async fn stored(app: &TestApp, product_id: &str) -> Vec<(String, String, String, String, f64)> {
    app.sql_rows(
        "SELECT kind, day, metric, dimension, value FROM snapshots WHERE product_id = $1 \
         ORDER BY kind, day, metric, dimension",
        &[product_id.into()],
    )
    .await
}

fn as_rows(model: &Model) -> Vec<(String, String, String, String, f64)> {
    model
        .iter()
        .map(|((kind, day, metric, dimension), value)| {
            (
                kind.clone(),
                day.clone(),
                metric.clone(),
                dimension.clone(),
                *value,
            )
        })
        .collect()
}

async fn run_all(app: &TestApp, runs: usize) {
    assert_eq!(
        sync::run_due(&app.state, app.clock.now()).await.unwrap(),
        format!("{runs} sync runs")
    );
}

async fn detail_of(app: &TestApp, token: &str, kind: &str) -> Value {
    let list = app.get("/connections", Some(token)).await;
    list.expect(200)
        .as_array()
        .unwrap()
        .iter()
        .find(|row| row["kind"] == kind)
        .unwrap()
        .clone()
}

async fn snapshots_reach_the_timeseries_of_their_product_only(backend: Backend) {
    let vendors: Vendors = Arc::new(Mutex::new(vendors()));
    let fakes: Vec<FakeSource> = KINDS.iter().map(|kind| fake(*kind, &vendors)).collect();
    let app = TestApp::spawn_with_sources(backend, fakes.clone()).await;
    let session = app.signup_verified("founder@example.com").await;
    let key = app.api_key(&session).await;
    let product_id = app.create_product(&key, "shop").await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    app.create_product(&key, "blog").await;
    for kind in KINDS {
        app.insert_connection(
            &session.account_id,
            &product_id,
            kind,
            &serde_json::json!({}),
            false,
        )
        .await;
    }

    // Before any read the columns are empty: 0, and null AI visibility.
    let empty = Model::new();
    assert_timeseries(&app, &key, "shop", &empty).await;

    let mut model = Model::new();
    run_all(&app, 4).await;
    record(&mut model, &vendors);
    assert_eq!(stored(&app, &product_id).await, as_rows(&model));
    let rows = assert_timeseries(&app, &key, "shop", &model).await;
    // The model's rules, spelled out once for the 19th: two queries summed, the engine's
    // detail and the post's impressions left out, two networks' pages summed.
    let the_19th = rows.iter().find(|row| row["day"] == "2026-11-19").unwrap();
    assert_eq!(
        columns(the_19th),
        [
            Value::from(17),
            Value::from(390),
            Value::from(0.42),
            Value::from(5_800),
            Value::from(160),
            Value::from(1_500),
        ]
    );
    let search = detail_of(&app, &session.token, "search_console").await;
    assert_eq!(search["status"], "active", "{search}");
    assert_eq!(search["last_detail"], "8 snapshot values");

    // A day later every source re-reads: search restates one query's clicks on the 20th, the
    // social page its followers; the rest is read again unchanged and stored once.
    app.clock.advance(DAY_MS + MINUTE_MS);
    {
        let mut now = vendors.lock().unwrap();
        let clicks = (
            "2026-11-20".to_owned(),
            "search_clicks".to_owned(),
            "running shoes".to_owned(),
        );
        now.get_mut(&ConnectionKind::SearchConsole)
            .unwrap()
            .insert(clicks, 11.0);
        let followers = (
            "2026-11-20".to_owned(),
            "social_followers".to_owned(),
            String::new(),
        );
        now.get_mut(&ConnectionKind::SocialA)
            .unwrap()
            .insert(followers, 1_215.0);
    }
    run_all(&app, 4).await;
    record(&mut model, &vendors);
    assert_eq!(stored(&app, &product_id).await, as_rows(&model));
    assert_eq!(model.len(), 24, "nothing stored twice");
    let rows = assert_timeseries(&app, &key, "shop", &model).await;
    let the_20th = rows.iter().find(|row| row["day"] == "2026-11-20").unwrap();
    assert_eq!(the_20th["search_clicks"], 18);
    assert_eq!(the_20th["social_followers"], 1_520);

    // A batch naming one value twice is refused by name, and nothing of it is written.
    app.clock.advance(DAY_MS + MINUTE_MS);
    let social_b = &fakes[3];
    assert_eq!(social_b.kind(), ConnectionKind::SocialB);
    social_b.answer(|_| {
        let followers = |value| Snapshot {
            day: "2026-11-20".to_owned(),
            metric: "social_followers".to_owned(),
            dimension: String::new(),
            value,
            detail: None,
        };
        SyncOutput {
            snapshots: vec![followers(999.0), followers(998.0)],
            ..SyncOutput::default()
        }
    });
    run_all(&app, 4).await;
    let failed = detail_of(&app, &session.token, "social_b").await;
    assert_eq!(failed["status"], "error", "{failed}");
    let error = failed["last_error"].as_str().unwrap();
    assert!(
        error.contains("snapshot 2026-11-20 social_followers ``: read twice"),
        "{error}"
    );
    assert_eq!(stored(&app, &product_id).await, as_rows(&model));

    // The account's other product, and another account's product, show nothing of them; the
    // other account cannot read this product at all.
    assert_timeseries(&app, &key, "blog", &empty).await;
    let other = app.signup_verified("other@example.com").await;
    let other_key = app.api_key(&other).await;
    app.create_product(&other_key, "elsewhere").await;
    assert_timeseries(&app, &other_key, "elsewhere", &empty).await;
    app.get("/products/shop/timeseries?days=7", Some(&other_key))
        .await
        .expect_error(404, "");
}

per_backend!(snapshots_reach_the_timeseries_of_their_product_only);
