//! The daily report tables (`stage_channel_days`, `identity_days`, `customer_totals`,
//! `revenue_days`) stay equal to a recomputation from the rows they sum, however the events
//! arrive: the whole synthetic product (links, email claims, charges before and after their
//! email is known, conflicting claims) in one fold, in many small folds, and in reverse arrival
//! order (first touches arriving after later ones move every day of an identity to another
//! channel, and latest days arrive before earlier ones).

use payback_testkit::synthetic::{Dataset, SynthConfig, generate_with_emails};

use super::*;

/// Sends `events` in requests of 100 while the fold is held, so one fold takes them all.
async fn load_in_one_fold(app: &TestApp, key: &str, slug: &str, data: &Dataset) {
    app.state.ingest.pause_folding().await;
    for chunk in data.events.chunks(100) {
        let events: Vec<Value> = chunk.iter().map(|event| event.to_json()).collect();
        app.send_events(key, slug, Value::from(events)).await;
    }
    app.state.ingest.resume_folding().await;
}

async fn report(app: &TestApp, key: &str, slug: &str, path: &str) -> Value {
    let reply = app
        .get(&format!("/products/{slug}/{path}"), Some(key))
        .await;
    let mut body = reply.expect(200).clone();
    // The same data under another slug answers the same, but for the slug.
    if let Some(object) = body.as_object_mut() {
        object.remove("product_slug");
    }
    body
}

/// `many-folds`' revenue without an identity, as `revenue_days` holds it.
async fn unidentified_revenue(app: &TestApp) -> i64 {
    app.sql_value(
        "SELECT CAST(COALESCE(SUM(r.cents), 0) AS BIGINT) FROM revenue_days r \
         JOIN products p ON p.id = r.product_id WHERE p.slug = 'many-folds' AND NOT r.identified",
        &[],
    )
    .await
}

async fn daily_tables_follow_every_arrival_order(app: TestApp) {
    let session = app.signup_verified("founder@example.com").await;
    let key = app.api_key(&session).await;
    let config = SynthConfig {
        seed: 17,
        identities: 150,
        days: 120,
    };
    // Without spend: only the events' loaders differ between the products compared.
    let data = Dataset {
        spend: Vec::new(),
        ..generate_with_emails(config, app.clock.now())
    };
    let reversed = Dataset {
        now: data.now,
        events: data.events.iter().rev().cloned().collect(),
        spend: Vec::new(),
    };
    for slug in ["one-fold", "many-folds", "reversed"] {
        app.create_product(&key, slug).await;
    }

    load_in_one_fold(&app, &key, "one-fold", &data).await;
    app.assert_report_days_exact().await;
    data.load_in_folds(&app, &key, "many-folds", 13).await;
    app.assert_report_days_exact().await;
    reversed.load_in_folds(&app, &key, "reversed", 31).await;
    app.assert_report_days_exact().await;

    // One fold or many, the same arrivals make the same reports.
    for path in [
        "attribution?days=90",
        "funnel?days=30",
        "funnel?days=120",
        "timeseries?days=120",
    ] {
        let one = report(&app, &key, "one-fold", path).await;
        let many = report(&app, &key, "many-folds", path).await;
        assert_eq!(one, many, "{path}");
    }

    // Charges nobody can be identified by: revenue rows without an identity.
    let before = unidentified_revenue(&app).await;
    let anonymous_charges = json!([
        {"dedupe_id": "walk-in-1", "stage": "payment", "value": 1200, "occurred_at": "2026-11-20T10:00:00Z"},
        {"dedupe_id": "walk-in-2", "stage": "payment", "value": 800, "occurred_at": "2026-11-20T11:00:00Z"},
        {"dedupe_id": "walk-in-3", "stage": "payment", "value": -300, "occurred_at": "2026-11-21T11:00:00Z"},
    ]);
    app.send_events(&key, "many-folds", anonymous_charges).await;
    app.assert_report_days_exact().await;
    assert_eq!(unidentified_revenue(&app).await - before, 1700);
}

backend_tests!(daily_tables_follow_every_arrival_order);
