//! The metric columns of product rows (GET /portfolio, GET /products/{slug}) against an
//! independent oracle computed from the synthetic dataset, plus hand-built edge cases, on both
//! backends.

use std::collections::{BTreeSet, HashMap};

use payback_domain::{Clock, DAY_MS, Stage, Timestamp};
use payback_store::spend::SpendRow;
use payback_testkit::spec::PRODUCT_METRIC_FIELDS;
use payback_testkit::synthetic::{Dataset, SynthConfig, generate};
use payback_testkit::{TestApp, backend_tests};
use serde_json::{Value, json};

/// `[start, end)` of the `days` UTC days ending with today, and the span before it.
fn window(now: Timestamp, days: i64) -> (i64, i64) {
    let end = now.millis() - now.millis().rem_euclid(DAY_MS) + DAY_MS;
    (end - days * DAY_MS, end)
}

fn day(at: i64) -> String {
    Timestamp::from_millis(at).day()
}

/// Nearest integer, halves away from zero.
fn round_div(n: i64, d: i64) -> i64 {
    let (q, r) = (n / d, n % d);
    if 2 * r.abs() >= d { q + n.signum() } else { q }
}

fn expected(data: &Dataset) -> Value {
    // Identities: an anonymous id seen with a user id is that user (first link wins).
    let mut links: HashMap<&str, &str> = HashMap::new();
    for e in &data.events {
        if let (Some(a), Some(u)) = (&e.anonymous_id, &e.user_id) {
            links.entry(a.as_str()).or_insert(u.as_str());
        }
    }
    let identity = |e: &payback_testkit::synthetic::SynthEvent| match (&e.user_id, &e.anonymous_id)
    {
        (Some(u), _) => Some(format!("u:{u}")),
        (None, Some(a)) => Some(
            links
                .get(a.as_str())
                .map_or(format!("a:{a}"), |u| format!("u:{u}")),
        ),
        (None, None) => None,
    };
    let now = data.now;
    let (w7, _) = window(now, 7);
    let (w30, end) = window(now, 30);
    let prev = w30 - 30 * DAY_MS;
    let in_days =
        |row: &SpendRow, from: i64, to: i64| row.day >= day(from) && row.day <= day(to - 1);
    let spend = |from: i64| -> i64 {
        data.spend
            .iter()
            .filter(|s| in_days(s, from, end))
            .map(|s| s.spend_cents)
            .sum()
    };
    let spend_prev: i64 = data
        .spend
        .iter()
        .filter(|s| in_days(s, prev, w30))
        .map(|s| s.spend_cents)
        .sum();

    let volume = |stage: Stage| -> usize {
        let events = data
            .events
            .iter()
            .filter(|e| e.stage == stage && (w30..end).contains(&e.occurred_at.millis()));
        let mut identities = BTreeSet::new();
        let mut anonymous = 0;
        for e in events {
            match identity(e) {
                Some(id) => {
                    identities.insert(id);
                }
                None => anonymous += 1,
            }
        }
        identities.len() + anonymous
    };

    let mut acquired: HashMap<String, i64> = HashMap::new();
    let mut revenue_of: HashMap<String, i64> = HashMap::new();
    let (mut revenue, mut revenue_prev) = (0, 0);
    for e in &data.events {
        let at = e.occurred_at.millis();
        let id = identity(e);
        if let (Some(id), true) = (&id, matches!(e.stage, Stage::Converted | Stage::Payment)) {
            let first = acquired.entry(id.clone()).or_insert(at);
            *first = (*first).min(at);
        }
        if let Some(value) = e.value {
            if let Some(id) = &id {
                *revenue_of.entry(id.clone()).or_default() += value;
            }
            if (w30..end).contains(&at) {
                revenue += value;
            } else if (prev..w30).contains(&at) {
                revenue_prev += value;
            }
        }
    }
    let customers_30d = acquired
        .values()
        .filter(|at| (w30..end).contains(*at))
        .count() as i64;
    let spend_30d = spend(w30);
    let cac = (customers_30d > 0).then(|| round_div(spend_30d, customers_30d));
    let all_time: i64 = acquired
        .keys()
        .map(|id| revenue_of.get(id).copied().unwrap_or(0))
        .sum();
    let ltv = (!acquired.is_empty()).then(|| round_div(all_time, acquired.len() as i64));
    let ltv_cac = match (ltv, cac) {
        (Some(l), Some(c)) if c != 0 => json!(l as f64 / c as f64),
        _ => Value::Null,
    };
    json!({
        "spend_7d_cents": spend(w7), "spend_30d_cents": spend_30d, "spend_prev_30d_cents": spend_prev,
        "visits_30d": volume(Stage::Visit), "leads_30d": volume(Stage::Lead), "customers_30d": customers_30d,
        "revenue_30d_cents": revenue, "revenue_prev_30d_cents": revenue_prev,
        "cac_cents": cac, "ltv_cents": ltv, "ltv_cac": ltv_cac, "pending_cards": 0,
    })
}

fn metrics_of(row: &Value) -> Value {
    Value::Object(
        PRODUCT_METRIC_FIELDS
            .iter()
            .map(|k| ((*k).to_owned(), row[*k].clone()))
            .collect(),
    )
}

fn assert_metrics(row: &Value, expected: &Value, what: &str) {
    let got = metrics_of(row);
    for key in PRODUCT_METRIC_FIELDS {
        match (got[*key].as_f64(), expected[*key].as_f64()) {
            (Some(a), Some(e)) if *key == "ltv_cac" => {
                assert!((a - e).abs() < 1e-9, "{what}.{key}: {a} != {e}")
            }
            _ => assert_eq!(
                got[*key], expected[*key],
                "{what}.{key}\ngot {got}\nexpected {expected}"
            ),
        }
    }
}

async fn setup(app: &TestApp, email: &str) -> String {
    let session = app.signup_verified(email).await;
    app.api_key(&session).await
}

fn row<'a>(rows: &'a Value, slug: &str) -> &'a Value {
    rows.as_array()
        .unwrap()
        .iter()
        .find(|r| r["slug"] == slug)
        .unwrap_or_else(|| panic!("no {slug} in {rows}"))
}

async fn rows_match_the_oracle(app: TestApp) {
    let key = setup(&app, "founder@example.com").await;
    let mut expectations = Vec::new();
    for seed in [5_u64, 17, 42] {
        let slug = format!("shop-{seed}");
        app.create_product(&key, &slug).await;
        let data = generate(
            SynthConfig {
                seed,
                identities: 120,
                days: 90,
            },
            app.clock.now(),
        );
        data.load(&app, &key, &slug).await;
        expectations.push((slug, expected(&data)));
    }
    app.create_product(&key, "empty").await;
    let stranger = setup(&app, "stranger@example.com").await;
    app.create_product(&stranger, "theirs").await;
    let data = generate(
        SynthConfig {
            seed: 99,
            identities: 40,
            days: 40,
        },
        app.clock.now(),
    );
    data.load(&app, &stranger, "theirs").await;
    let theirs = expected(&data);

    let portfolio = app.get("/portfolio", Some(&key)).await.expect(200).clone();
    assert_eq!(portfolio.as_array().unwrap().len(), 4);
    for (slug, want) in &expectations {
        assert_metrics(row(&portfolio, slug), want, slug);
        let single = app
            .get(&format!("/products/{slug}"), Some(&key))
            .await
            .expect(200)
            .clone();
        assert_eq!(
            metrics_of(&single),
            metrics_of(row(&portfolio, slug)),
            "{slug}: row and portfolio agree"
        );
        // The synthetic data has customers older than 30 days: LTV is all-time, not windowed.
        assert!(
            want["ltv_cents"].is_i64() && want["cac_cents"].is_i64(),
            "{slug}: {want}"
        );
    }
    let empty = json!({"spend_7d_cents": 0, "spend_30d_cents": 0, "spend_prev_30d_cents": 0, "visits_30d": 0,
        "leads_30d": 0, "customers_30d": 0, "revenue_30d_cents": 0, "revenue_prev_30d_cents": 0,
        "cac_cents": null, "ltv_cents": null, "ltv_cac": null, "pending_cards": 0});
    assert_metrics(row(&portfolio, "empty"), &empty, "empty");
    // Operators see every account, each product with its own numbers.
    let all = app
        .get("/portfolio", Some(&app.operator_token))
        .await
        .expect(200)
        .clone();
    assert_metrics(row(&all, "theirs"), &theirs, "theirs");
    assert_metrics(
        row(&all, "shop-17"),
        &expectations[1].1,
        "shop-17 for the operator",
    );
    let mine = app
        .get("/products/theirs", Some(&stranger))
        .await
        .expect(200)
        .clone();
    assert_metrics(&mine, &theirs, "theirs, single");
}

async fn send(app: &TestApp, key: &str, events: Value) {
    app.post(
        "/products/hand/events",
        Some(key),
        json!({ "events": events }),
    )
    .await
    .expect(200);
}

async fn edge_cases(app: TestApp) {
    let key = setup(&app, "founder@example.com").await;
    app.create_product(&key, "hand").await;
    // Customers at zero spend: CAC 0, and LTV:CAC null (never a division by zero).
    send(&app, &key, json!([
        {"dedupe_id": "v1", "stage": "visit", "anonymous_id": "a1", "occurred_at": "2026-11-20T09:00:00Z"},
        {"dedupe_id": "v2", "stage": "visit", "anonymous_id": "a1", "occurred_at": "2026-11-21T09:00:00Z"},
        {"dedupe_id": "v3", "stage": "visit", "occurred_at": "2026-11-21T09:00:00Z"},
        {"dedupe_id": "v4", "stage": "visit", "occurred_at": "2026-11-21T09:30:00Z"},
        {"dedupe_id": "l1", "stage": "lead", "anonymous_id": "a1", "user_id": "u1", "occurred_at": "2026-11-21T10:00:00Z"},
        {"dedupe_id": "c1", "stage": "converted", "user_id": "u1", "value": 3000, "occurred_at": "2026-11-21T11:00:00Z"},
        // An old customer: counts in LTV (all-time), not in the 30-day customers.
        {"dedupe_id": "c0", "stage": "converted", "user_id": "u0", "value": 1001, "occurred_at": "2026-06-01T11:00:00Z"},
        {"dedupe_id": "p0", "stage": "payment", "user_id": "u0", "value": 1000, "occurred_at": "2026-07-01T11:00:00Z"},
        // Revenue with no identity counts in revenue, but is nobody's customer value.
        {"dedupe_id": "x", "stage": "payment", "value": 500, "occurred_at": "2026-10-10T11:00:00Z"},
    ])).await;
    let row = app
        .get("/products/hand", Some(&key))
        .await
        .expect(200)
        .clone();
    assert_metrics(
        &row,
        &json!({"spend_7d_cents": 0, "spend_30d_cents": 0, "spend_prev_30d_cents": 0,
        "visits_30d": 3, "leads_30d": 1, "customers_30d": 1, "revenue_30d_cents": 3000, "revenue_prev_30d_cents": 500,
        "cac_cents": 0, "ltv_cents": 2501, "ltv_cac": null, "pending_cards": 0}),
        "zero spend",
    );

    // Spend in each window; the 30 days before count only in the previous column.
    let product_id = row["product_id"].as_str().unwrap().to_owned();
    let spend = |day: &str, cents: i64| SpendRow {
        day: day.into(),
        network: "linkedin".into(),
        channel: "paid_linkedin".into(),
        campaign_id: format!("c-{day}"),
        spend_cents: cents,
        ..SpendRow::default()
    };
    let rows = [
        spend("2026-11-21", 100),
        spend("2026-11-15", 1000),
        spend("2026-11-14", 10_000),
        spend("2026-10-23", 5),
        spend("2026-10-22", 200_000),
        spend("2026-09-23", 7),
        spend("2026-09-22", 1_000_000),
    ];
    let mut tx = app.state.store.begin().await.unwrap();
    payback_store::spend::upsert(&mut tx, &product_id, "test", &rows, app.clock.now())
        .await
        .unwrap();
    tx.commit().await.unwrap();
    let row = app
        .get("/products/hand", Some(&key))
        .await
        .expect(200)
        .clone();
    assert_eq!(row["spend_7d_cents"], 1100);
    assert_eq!(row["spend_30d_cents"], 11_105);
    assert_eq!(row["spend_prev_30d_cents"], 200_007);
    assert_eq!(row["cac_cents"], 11_105);
    assert_eq!(row["ltv_cac"], json!(2501.0 / 11_105.0));

    // Time moves on: the customer and the revenue leave the 30-day window, the CAC turns
    // null (no customers), and LTV stays (all-time).
    app.clock.advance(40 * DAY_MS);
    let row = app.get("/portfolio", Some(&key)).await.expect(200)[0].clone();
    assert_eq!(
        (
            row["customers_30d"].clone(),
            row["cac_cents"].clone(),
            row["ltv_cents"].clone(),
            row["ltv_cac"].clone()
        ),
        (json!(0), Value::Null, json!(2501), Value::Null)
    );
    assert_eq!(row["revenue_prev_30d_cents"], 3000);
}

backend_tests!(rows_match_the_oracle, edge_cases);
