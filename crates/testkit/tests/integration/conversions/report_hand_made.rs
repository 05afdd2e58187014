//! The report over hand-made events: event names, own channels, the first-touch fallback,
//! unattributed events, source aggregates and the current against the previous window.

use super::*;

/// Hand-made events: names, own channels, first-touch fallback, unattributed, windows.
async fn names_channels_and_windows(app: TestApp) {
    let (token, key) = setup(&app).await;
    app.send_events(&key, "shop", json!([
            // u1 first came through a podcast; their later demo carries no channel of its own.
            {"dedupe_id": "v1", "stage": "visit", "user_id": "u1", "occurred_at": at(20, 9), "attribution": {"channel": "podcast"}},
            {"dedupe_id": "d1", "stage": "lead", "name": "demo", "user_id": "u1", "occurred_at": at(2, 9)},
            {"dedupe_id": "o1", "stage": "lead", "name": "ebook", "user_id": "u1", "occurred_at": at(2, 10)},
            // u2's demo carries its own channel, which wins over u2's first touch.
            {"dedupe_id": "v2", "stage": "visit", "user_id": "u2", "occurred_at": at(25, 9), "attribution": {"channel": "podcast"}},
            {"dedupe_id": "d2", "stage": "lead", "name": "demo", "user_id": "u2", "occurred_at": at(1, 9),
             "attribution": {"utm_source": "newsletter", "utm_medium": "email"}},
            // No identity and no channel; an identity that never had a channel.
            {"dedupe_id": "d3", "stage": "lead", "name": "demo", "occurred_at": at(3, 9)},
            {"dedupe_id": "d4", "stage": "lead", "name": "demo", "anonymous_id": "a4", "occurred_at": at(4, 9)},
            // The previous 7-day window: two demos.
            {"dedupe_id": "d5", "stage": "lead", "name": "demo", "user_id": "u1", "occurred_at": at(9, 9)},
            {"dedupe_id": "d6", "stage": "lead", "name": "demo", "occurred_at": at(12, 9)},
            // Outside both 7-day windows.
            {"dedupe_id": "d7", "stage": "lead", "name": "demo", "occurred_at": at(15, 9)},
            // Revenue, including a refund.
            {"dedupe_id": "p1", "stage": "payment", "user_id": "u1", "value": 4900, "occurred_at": at(2, 11)},
            {"dedupe_id": "p2", "stage": "payment", "user_id": "u2", "value": 9900, "occurred_at": at(1, 11)},
            {"dedupe_id": "p3", "stage": "payment", "user_id": "u2", "value": -9900, "occurred_at": at(0, 11)},
            {"dedupe_id": "p4", "stage": "payment", "user_id": "u1", "value": 1900, "occurred_at": at(10, 11)},
        ]),
    )
    .await;
    for body in [
        json!({"key": "demo", "label": "Demo", "tier": "secondary", "stage": "lead", "event_name": "demo",
               "value_mode": "fixed", "fixed_value_cents": 2500}),
        json!({"key": "leads", "label": "Leads", "tier": "secondary", "stage": "lead"}),
        json!({"key": "revenue", "label": "Revenue", "tier": "primary", "stage": "payment", "value_mode": "transaction"}),
        json!({"key": "paused", "label": "Paused", "tier": "secondary", "stage": "lead", "is_active": false}),
        json!({"key": "db-signups", "label": "DB signups", "tier": "secondary", "stage": "signup", "source": "sql_a"}),
        json!({"key": "signups", "label": "Signups", "tier": "secondary", "stage": "signup"}),
    ] {
        // Definitions list oldest first; same-millisecond ties would fall back to the key.
        app.clock.advance(1_000);
        save(&app, &token, body).await;
    }
    // A database source's daily aggregate rows: only a definition naming the source reads them.
    let product = app.get("/products/shop", Some(&token)).await;
    let product_id = product.body["product_id"].as_str().unwrap().to_owned();
    for (day, source, volume) in [
        ("2026-11-20", "sql_a", 5_i64),
        ("2026-11-10", "sql_a", 2),
        ("2026-11-20", "sql_b", 7),
    ] {
        app.insert_aggregate_stage_day(&product_id, day, "signup", source, volume)
            .await;
    }

    let report = app
        .get("/products/shop/conversions/report?days=7", Some(&token))
        .await;
    let report = report.expect(200).clone();
    assert_eq!(report["window_days"], 7);
    let entries = report["conversions"].as_array().unwrap();
    let keys: Vec<&str> = entries.iter().map(|e| e["key"].as_str().unwrap()).collect();
    assert_eq!(
        keys,
        ["demo", "leads", "revenue", "db-signups", "signups"],
        "active definitions only, oldest first"
    );
    assert_eq!(
        entries[0],
        json!({
            "key": "demo", "label": "Demo", "tier": "secondary", "stage": "lead",
            "current": {"count": 4, "value_cents": 10000},
            "previous": {"count": 2, "value_cents": 5000},
            "change_pct": 100.0,
            "channels": [
                {"channel": "unattributed", "count": 2, "value_cents": 5000},
                {"channel": "email", "count": 1, "value_cents": 2500},
                {"channel": "podcast", "count": 1, "value_cents": 2500},
            ],
        })
    );
    assert_eq!(entries[1]["current"], json!({"count": 5, "value_cents": 0}));
    assert_eq!(
        entries[1]["channels"],
        json!([
            {"channel": "podcast", "count": 2, "value_cents": 0},
            {"channel": "unattributed", "count": 2, "value_cents": 0},
            {"channel": "email", "count": 1, "value_cents": 0},
        ])
    );
    assert_eq!(entries[1]["change_pct"], 150.0);
    assert_eq!(
        entries[2]["current"],
        json!({"count": 3, "value_cents": 4900})
    );
    assert_eq!(
        entries[2]["previous"],
        json!({"count": 1, "value_cents": 1900})
    );
    assert_eq!(
        entries[2]["channels"],
        json!([{"channel": "podcast", "count": 3, "value_cents": 4900}])
    );
    assert_eq!(entries[2]["change_pct"], 200.0);
    assert_eq!(entries[3]["current"], json!({"count": 5, "value_cents": 0}));
    assert_eq!(
        entries[3]["previous"],
        json!({"count": 2, "value_cents": 0})
    );
    assert_eq!(
        entries[3]["channels"],
        json!([{"channel": "unattributed", "count": 5, "value_cents": 0}])
    );
    assert_eq!(entries[4]["current"], json!({"count": 0, "value_cents": 0}));
    assert_eq!(entries[4]["change_pct"], Value::Null, "no previous count");
    assert_eq!(entries[4]["channels"], json!([]));

    // The list: 30 days, every definition (the paused one too).
    let list = app.get("/products/shop/conversions", Some(&token)).await;
    let list = list.expect(200)["conversions"].as_array().unwrap().clone();
    let volumes: Vec<(&str, i64, i64)> = list
        .iter()
        .map(|c| {
            (
                c["key"].as_str().unwrap(),
                c["volume_30d"].as_i64().unwrap(),
                c["value_30d_cents"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        volumes,
        [
            ("demo", 7, 17500),
            ("leads", 8, 0),
            ("revenue", 4, 6800),
            ("paused", 8, 0),
            ("db-signups", 7, 0),
            ("signups", 0, 0),
        ]
    );
}

backend_tests!(names_channels_and_windows);
