//! GET /products/{slug}/timeseries: every row checked against an independent computation from
//! the synthetic dataset on both backends, plus zero-filling, net revenue, aggregates and
//! access rules.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use payback_domain::span::Span;
use payback_domain::{Clock, Stage, Timestamp};
use payback_testkit::synthetic::{Dataset, SynthConfig, SynthEvent, generate};
use payback_testkit::{TestApp, backend_tests};
use serde_json::{Value, json};

const SEEDS: &[u64] = &[7, 11, 2026];
const WINDOWS: &[i64] = &[1, 7, 30, 60];

const ROW_FIELDS: &[&str] = &[
    "day",
    "spend_cents",
    "revenue_cents",
    "visits",
    "leads",
    "customers",
    "search_clicks",
    "search_impressions",
    "ai_visibility",
    "social_impressions",
    "social_engagement",
    "social_followers",
];

/// The oracle: one row per day of the window from plain loops over the dataset.
fn oracle_rows(dataset: &Dataset, days: i64) -> Vec<Value> {
    // An anonymous id seen together with a user id belongs to that user; the first link wins.
    let mut links: HashMap<&str, &str> = HashMap::new();
    for event in &dataset.events {
        if let (Some(anonymous), Some(user)) = (&event.anonymous_id, &event.user_id) {
            links.entry(anonymous.as_str()).or_insert(user.as_str());
        }
    }
    let identity_of = |event: &SynthEvent| match (&event.user_id, &event.anonymous_id) {
        (Some(user), _) => Some(format!("u:{user}")),
        (None, Some(anonymous)) => Some(match links.get(anonymous.as_str()) {
            Some(user) => format!("u:{user}"),
            None => format!("a:{anonymous}"),
        }),
        (None, None) => None,
    };

    let mut spend: HashMap<String, i64> = HashMap::new();
    for row in &dataset.spend {
        *spend.entry(row.day.clone()).or_default() += row.spend_cents;
    }
    let mut revenue: HashMap<String, i64> = HashMap::new();
    // (day, stage) -> (distinct identities, identity-less events)
    let mut volume: HashMap<(String, Stage), (BTreeSet<String>, i64)> = HashMap::new();
    let mut acquired: HashMap<String, Timestamp> = HashMap::new();
    for event in &dataset.events {
        let day = event.occurred_at.day();
        if let Some(value) = event.value {
            *revenue.entry(day.clone()).or_default() += value;
        }
        let identity = identity_of(event);
        let cell = volume.entry((day, event.stage)).or_default();
        match &identity {
            Some(identity) => {
                cell.0.insert(identity.clone());
            }
            None => cell.1 += 1,
        }
        if let Some(identity) = identity
            && matches!(event.stage, Stage::Converted | Stage::Payment)
        {
            let at = acquired.entry(identity).or_insert(event.occurred_at);
            *at = (*at).min(event.occurred_at);
        }
    }
    let mut customers: BTreeMap<String, i64> = BTreeMap::new();
    for at in acquired.values() {
        *customers.entry(at.day()).or_default() += 1;
    }
    let stage_volume = |day: &str, stage: Stage| {
        volume
            .get(&(day.to_owned(), stage))
            .map_or(0, |(ids, anonymous)| ids.len() as i64 + anonymous)
    };
    Span::days_ending(dataset.now, days)
        .each_day()
        .map(|day| {
            json!({
                "day": day,
                "spend_cents": spend.get(&day).copied().unwrap_or(0),
                "revenue_cents": revenue.get(&day).copied().unwrap_or(0),
                "visits": stage_volume(&day, Stage::Visit),
                "leads": stage_volume(&day, Stage::Lead),
                "customers": customers.get(&day).copied().unwrap_or(0),
                "search_clicks": 0,
                "search_impressions": 0,
                "ai_visibility": null,
                "social_impressions": 0,
                "social_engagement": 0,
                "social_followers": 0,
            })
        })
        .collect()
}

async fn setup(app: &TestApp) -> (String, String) {
    let session = app.signup_verified("founder@example.com").await;
    let key = app.api_key(&session).await;
    app.create_product(&key, "shop").await;
    (session.token, key)
}

fn rows(reply: &payback_testkit::Reply) -> Vec<Value> {
    reply.expect(200).as_array().unwrap().clone()
}

async fn timeseries_matches_the_oracle(app: TestApp) {
    let (_, key) = setup(&app).await;
    for seed in SEEDS {
        let slug = format!("seed-{seed}");
        app.create_product(&key, &slug).await;
        let config = SynthConfig {
            seed: *seed,
            ..SynthConfig::default()
        };
        let dataset = generate(config, app.clock.now());
        dataset.load(&app, &key, &slug).await;
        for days in WINDOWS {
            let answer = rows(
                &app.get(
                    &format!("/products/{slug}/timeseries?days={days}"),
                    Some(&key),
                )
                .await,
            );
            let expected = oracle_rows(&dataset, *days);
            assert_eq!(answer.len(), expected.len(), "seed {seed}, days {days}");
            for (got, want) in answer.iter().zip(&expected) {
                assert_eq!(got, want, "seed {seed}, days {days}");
            }
        }
        // Something happened in the window: the comparison above is not all zeros.
        let month = oracle_rows(&dataset, 30);
        for field in [
            "spend_cents",
            "revenue_cents",
            "visits",
            "leads",
            "customers",
        ] {
            assert!(
                month.iter().any(|row| row[field].as_i64().unwrap() != 0),
                "seed {seed}: {field} is never set"
            );
        }
    }
}

backend_tests!(timeseries_matches_the_oracle);

async fn rows_are_zero_filled_oldest_first(app: TestApp) {
    let (_, key) = setup(&app).await;
    let month = rows(&app.get("/products/shop/timeseries", Some(&key)).await);
    assert_eq!(month.len(), 30, "the default window is 30 days");
    assert_eq!(month[0]["day"], "2026-10-23");
    assert_eq!(month[29]["day"], "2026-11-21");
    for row in &month {
        let fields: BTreeSet<&str> = row
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(fields, ROW_FIELDS.iter().copied().collect());
        for field in ROW_FIELDS
            .iter()
            .filter(|f| !["day", "ai_visibility"].contains(f))
        {
            assert_eq!(row[field], 0, "{field}");
        }
        assert_eq!(row["ai_visibility"], Value::Null);
    }
    let today = rows(
        &app.get("/products/shop/timeseries?days=1", Some(&key))
            .await,
    );
    assert_eq!(today.len(), 1);
    assert_eq!(today[0]["day"], "2026-11-21");
    let decade = rows(
        &app.get("/products/shop/timeseries?days=3650", Some(&key))
            .await,
    );
    assert_eq!(decade.len(), 3650);
    assert!(
        decade
            .windows(2)
            .all(|w| w[0]["day"].as_str() < w[1]["day"].as_str())
    );
}

async fn revenue_nets_and_volumes_follow_the_definitions(app: TestApp) {
    let (_, key) = setup(&app).await;
    let events = json!([
        // u-1: two visits and two leads on one day count once each; acquired by its first
        // conversion on 11-20, so a later payment is revenue but not another customer.
        {"dedupe_id": "v1", "stage": "visit", "user_id": "u-1", "occurred_at": "2026-11-20T08:00:00Z"},
        {"dedupe_id": "v2", "stage": "visit", "user_id": "u-1", "occurred_at": "2026-11-20T09:00:00Z"},
        {"dedupe_id": "l1", "stage": "lead", "user_id": "u-1", "occurred_at": "2026-11-20T09:10:00Z"},
        {"dedupe_id": "l2", "stage": "lead", "user_id": "u-1", "occurred_at": "2026-11-20T09:20:00Z"},
        {"dedupe_id": "c1", "stage": "converted", "user_id": "u-1", "value": 4900, "occurred_at": "2026-11-20T10:00:00Z"},
        {"dedupe_id": "p1", "stage": "payment", "user_id": "u-1", "value": 4900, "occurred_at": "2026-11-21T10:00:00Z"},
        {"dedupe_id": "r1", "stage": "payment", "user_id": "u-1", "value": -1900, "occurred_at": "2026-11-21T11:00:00Z"},
        // Identity-less: each event counts; its revenue counts; it is nobody's acquisition.
        {"dedupe_id": "v3", "stage": "visit", "occurred_at": "2026-11-21T08:00:00Z"},
        {"dedupe_id": "v4", "stage": "visit", "occurred_at": "2026-11-21T08:30:00Z"},
        {"dedupe_id": "p2", "stage": "payment", "value": 2500, "occurred_at": "2026-11-21T09:00:00Z"},
        // u-2 converts with no value: a customer with no revenue row.
        {"dedupe_id": "c2", "stage": "converted", "user_id": "u-2", "occurred_at": "2026-11-21T09:30:00Z"},
    ]);
    app.post(
        "/products/shop/events",
        Some(&key),
        json!({ "events": events }),
    )
    .await
    .expect(200);
    let product = app.get("/products/shop", Some(&key)).await;
    let product_id = product.expect(200)["product_id"]
        .as_str()
        .unwrap()
        .to_owned();
    app.insert_aggregate_stage_day(&product_id, "2026-11-21", "visit", "analytics_a", 30)
        .await;
    let mut tx = app.state.store.begin().await.unwrap();
    let spend = payback_store::spend::SpendRow {
        day: "2026-11-21".into(),
        network: "google".into(),
        channel: "paid_google".into(),
        campaign_id: "1".into(),
        spend_cents: 1234,
        ..Default::default()
    };
    payback_store::spend::upsert(&mut tx, &product_id, "test", &[spend], app.clock.now())
        .await
        .unwrap();
    tx.commit().await.unwrap();

    let week = rows(
        &app.get("/products/shop/timeseries?days=2", Some(&key))
            .await,
    );
    let pick = |row: &Value| {
        (
            row["day"].as_str().unwrap().to_owned(),
            row["spend_cents"].as_i64().unwrap(),
            row["revenue_cents"].as_i64().unwrap(),
            row["visits"].as_i64().unwrap(),
            row["leads"].as_i64().unwrap(),
            row["customers"].as_i64().unwrap(),
        )
    };
    // Web analytics owns visits once it wrote any: its 30 are the day's visits, and the
    // snippet's visits (one on the 20th, two on the 21st) no longer add.
    assert_eq!(
        week.iter().map(pick).collect::<Vec<_>>(),
        vec![
            ("2026-11-20".to_owned(), 0, 4900, 0, 1, 1),
            ("2026-11-21".to_owned(), 1234, 4900 - 1900 + 2500, 30, 0, 1),
        ]
    );
}

async fn access_rules_hold(app: TestApp) {
    let (_, key) = setup(&app).await;
    let stranger = app.signup_verified("stranger@example.com").await;
    app.get("/products/shop/timeseries", Some(&stranger.token))
        .await
        .expect_error(404, "product");
    app.get("/products/shop/timeseries", None)
        .await
        .expect_error(401, "bearer");
    for (query, needle) in [
        ("?days=0", "days: must be 1-3650"),
        ("?days=3651", "days: must be 1-3650"),
        ("?days=abc", "days"),
    ] {
        app.get(&format!("/products/shop/timeseries{query}"), Some(&key))
            .await
            .expect_error(400, needle);
    }
    let doc = app.get("/openapi.json", None).await.expect(200).clone();
    let operation = &doc["paths"]["/products/{slug}/timeseries"]["get"];
    for status in ["200", "400", "401", "404"] {
        assert!(operation["responses"][status].is_object(), "{operation}");
    }
}

backend_tests!(
    rows_are_zero_filled_oldest_first,
    revenue_nets_and_volumes_follow_the_definitions,
    access_rules_hold
);
