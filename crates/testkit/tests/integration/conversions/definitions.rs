//! Definitions are upserted by key, listed with their 30-day volume and value, deleted (leaving
//! their events), and recorded in the audit history.

use super::*;

async fn definitions_are_upserted_listed_and_deleted(app: TestApp) {
    let (token, key) = setup(&app).await;
    let first = save(
        &app,
        &token,
        json!({"key": "demo_booked", "label": "Demo booked", "tier": "secondary", "stage": "lead"}),
    )
    .await;
    assert_eq!(
        first,
        json!({
            "key": "demo_booked", "label": "Demo booked", "tier": "secondary", "stage": "lead",
            "source": null, "event_name": null, "value_mode": "none", "fixed_value_cents": null,
            "currency": null, "score_mode": "none", "target_cpa_cents": null, "grade_weights": null,
            "is_active": true, "created_at": "2026-11-21T12:00:00.000Z", "updated_at": "2026-11-21T12:00:00.000Z",
        })
    );
    app.clock.advance(60_000);
    let paid = json!({
        "key": "paid-plan", "label": "Paid plan", "tier": "primary", "stage": "payment",
        "source": "payments", "event_name": "subscription", "value_mode": "transaction",
        "currency": "usd", "score_mode": "numeric", "target_cpa_cents": 12000,
        "grade_weights": {"A": 1.0, "B": 0.5}, "is_active": false,
    });
    let second = save(&app, &key, paid).await;
    assert_eq!(second["currency"], "USD");
    assert_eq!(second["grade_weights"], json!({"A": 1.0, "B": 0.5}));
    assert_eq!(second["is_active"], false);
    assert_eq!(second["source"], "payments");

    // Upsert replaces every field; omitted optional fields fall back to their defaults, the
    // creation time stays.
    app.clock.advance(60_000);
    let replaced = save(
        &app,
        &token,
        json!({"key": "demo_booked", "label": "Demo held", "tier": "primary", "stage": "qualified",
               "value_mode": "fixed", "fixed_value_cents": 2500, "event_name": "demo"}),
    )
    .await;
    assert_eq!(replaced["label"], "Demo held");
    assert_eq!(replaced["tier"], "primary");
    assert_eq!(replaced["stage"], "qualified");
    assert_eq!(replaced["fixed_value_cents"], 2500);
    assert_eq!(replaced["event_name"], "demo");
    assert_eq!(replaced["created_at"], "2026-11-21T12:00:00.000Z");
    assert_eq!(replaced["updated_at"], "2026-11-21T12:02:00.000Z");

    let list = app.get("/products/shop/conversions", Some(&token)).await;
    let list = list.expect(200)["conversions"].as_array().unwrap().clone();
    let keys: Vec<&str> = list.iter().map(|c| c["key"].as_str().unwrap()).collect();
    assert_eq!(keys, ["demo_booked", "paid-plan"], "oldest first");
    let mut expected_first = replaced.clone();
    expected_first["volume_30d"] = json!(0);
    expected_first["value_30d_cents"] = json!(0);
    assert_eq!(list[0], expected_first);
    assert_eq!(list[1]["volume_30d"], 0);

    let deleted = app
        .post(
            "/products/shop/conversions/paid-plan/delete",
            Some(&token),
            json!({}),
        )
        .await;
    assert_eq!(deleted.expect(200), &json!({"ok": true}));
    app.post(
        "/products/shop/conversions/paid-plan/delete",
        Some(&token),
        json!({}),
    )
    .await
    .expect_error(404, "conversion");
    app.post(
        "/products/shop/conversions/nope/delete",
        Some(&token),
        json!({}),
    )
    .await
    .expect_error(404, "conversion");
    let list = app.get("/products/shop/conversions", Some(&token)).await;
    assert_eq!(list.expect(200)["conversions"].as_array().unwrap().len(), 1);

    // Audited with who and through which door, newest first.
    let events = app.history(&token, "?product=shop").await;
    let trail: Vec<(&str, &str, &str)> = events
        .iter()
        .filter(|e| e["action"].as_str().unwrap().starts_with("conversion."))
        .map(|e| {
            (
                e["action"].as_str().unwrap(),
                e["actor"].as_str().unwrap(),
                e["via"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        trail,
        [
            ("conversion.delete", "founder@example.com", "dashboard"),
            ("conversion.upsert", "founder@example.com", "dashboard"),
            ("conversion.upsert", "keeper", "api"),
            ("conversion.upsert", "founder@example.com", "dashboard"),
        ]
    );
    let upserts: Vec<&Value> = events
        .iter()
        .filter(|e| e["action"] == "conversion.upsert")
        .collect();
    assert_eq!(upserts[0]["payload"]["created"], false);
    assert_eq!(upserts[0]["payload"]["before"]["label"], "Demo booked");
    assert_eq!(upserts[0]["payload"]["after"]["label"], "Demo held");
    assert_eq!(upserts[2]["payload"]["created"], true);
    assert_eq!(events[0]["payload"]["key"], "paid-plan");
    assert_eq!(events[0]["product_slug"], "shop");
}

async fn deleting_a_definition_leaves_events(app: TestApp) {
    let (token, key) = setup(&app).await;
    app.send_events(
        &key,
        "shop",
        json!([{"dedupe_id": "l1", "stage": "lead", "user_id": "u1", "occurred_at": at(1, 9)}]),
    )
    .await;
    save(
        &app,
        &token,
        json!({"key": "leads", "label": "Leads", "tier": "secondary", "stage": "lead"}),
    )
    .await;
    app.post(
        "/products/shop/conversions/leads/delete",
        Some(&token),
        json!({}),
    )
    .await
    .expect(200);
    let again = save(
        &app,
        &token,
        json!({"key": "leads", "label": "Leads", "tier": "secondary", "stage": "lead"}),
    )
    .await;
    assert_eq!(again["key"], "leads");
    let list = app.get("/products/shop/conversions", Some(&token)).await;
    assert_eq!(list.expect(200)["conversions"][0]["volume_30d"], 1);
}

backend_tests!(
    definitions_are_upserted_listed_and_deleted,
    deleting_a_definition_leaves_events,
);
