//! A well-tracked product passes tracking and funnel, then goes stale; a funnel with an empty
//! step, a stage fed by two sources and a primary conversion that counts nothing.

use super::*;

async fn save_steps(app: &TestApp, key: &str, slug: &str, steps: Value) {
    app.post(
        &format!("/products/{slug}/funnel/definition"),
        Some(key),
        json!({ "steps": steps }),
    )
    .await
    .expect(200);
}

async fn define_primary(app: &TestApp, key: &str, slug: &str, conversion: Value) {
    app.post(
        &format!("/products/{slug}/conversions"),
        Some(key),
        conversion,
    )
    .await
    .expect(200);
}

async fn a_well_tracked_product_passes_then_goes_stale(app: TestApp) {
    let owner = founder(&app, "founder@example.com").await;
    product(&app, &owner, "healthy").await;
    let mut events = Vec::new();
    for user in 0..10 {
        let user_id = format!("u{user}");
        events.push(json!({"dedupe_id": format!("v{user}"), "stage": "visit", "user_id": user_id,
            "occurred_at": hours_ago(&app, 6), "attribution": {"referrer": "https://news.example.org/post"}}));
        events.push(
            json!({"dedupe_id": format!("s{user}"), "stage": "signup", "user_id": user_id,
            "occurred_at": hours_ago(&app, 5)}),
        );
        events.push(
            json!({"dedupe_id": format!("p{user}"), "stage": "payment", "user_id": user_id,
            "value": 1_000, "occurred_at": hours_ago(&app, 4)}),
        );
    }
    app.send_events(&owner.key, "healthy", json!(events)).await;
    save_steps(
        &app,
        &owner.key,
        "healthy",
        json!([{"stage": "visit", "label": "Visits"}, {"stage": "signup", "label": "Signups"},
               {"stage": "payment", "label": "Paid"}]),
    )
    .await;
    define_primary(
        &app,
        &owner.key,
        "healthy",
        json!({"key": "purchase", "label": "Purchase", "tier": "primary", "stage": "payment",
               "value_mode": "transaction"}),
    )
    .await;

    let healthy = report(&app, &owner.key, "healthy").await;
    let passing = [
        ("tracking.events", "pass"),
        // Revenue arrives through events; payments are not connected.
        ("tracking.payments", "warn"),
        ("tracking.identity_stitching", "pass"),
        ("tracking.unattributed", "pass"),
        ("funnel.definition", "pass"),
        ("funnel.empty_steps", "pass"),
        ("funnel.primary_conversion", "pass"),
        ("funnel.single_source", "pass"),
    ];
    assert_eq!(statuses(&healthy), expect(&nothing_yet(&app), &passing));
    assert_eq!(
        evidence(&healthy, "tracking.events"),
        "Last event 4 h ago; 30 events in 30 days from api"
    );
    assert_eq!(
        evidence(&healthy, "funnel.definition"),
        "3 steps saved: Visits > Signups > Paid"
    );
    assert_eq!(
        evidence(&healthy, "funnel.empty_steps"),
        "All 3 steps have volume in 30 days (smallest: Paid, 10)"
    );
    assert_eq!(
        evidence(&healthy, "funnel.primary_conversion"),
        "\"Purchase\" (stage payment) counted 10 times, worth 100.00 USD, in 30 days"
    );
    assert_eq!(
        evidence(&healthy, "funnel.single_source"),
        "3 stage(s) in 30 days, each written by one source"
    );
    assert_eq!(
        evidence(&healthy, "tracking.identity_stitching"),
        "10 of 10 revenue rows (100.0%) in 30 days carry a user id, visitor id or email"
    );
    let tracking = &healthy["categories"][0];
    assert_eq!(tracking["key"], "tracking");
    // pass, warn, skip, pass, pass: (100 + 50 + 100 + 100) / 4.
    assert_eq!(tracking["score"], 88);
    assert_eq!(healthy["categories"][1]["score"], 100);

    // Three days without an event: tracking is stale (after 48 hours).
    app.clock.advance(3 * 24 * 3_600_000);
    let stale = report(&app, &owner.key, "healthy").await;
    assert_eq!(check(&stale, "tracking.events")["status"], "warn");
    assert_eq!(
        evidence(&stale, "tracking.events"),
        "No event for 3 d (stale after 48 h); 30 events in 30 days from api"
    );
}

async fn an_empty_step_and_a_stage_fed_twice_fail(app: TestApp) {
    let owner = founder(&app, "founder@example.com").await;
    product(&app, &owner, "gaps").await;
    app.send_events(&owner.key,
        "gaps",
        json!([
            {"dedupe_id": "v1", "stage": "visit", "user_id": "u1", "occurred_at": hours_ago(&app, 6),
             "attribution": {"referrer": "https://news.example.org/post"}},
            {"dedupe_id": "s1", "stage": "signup", "user_id": "u1", "occurred_at": hours_ago(&app, 5)},
            {"dedupe_id": "p1", "stage": "payment", "user_id": "u1", "value": 2_000,
             "occurred_at": hours_ago(&app, 4)},
        ]),
    )
    .await;
    // The same sign-up stage from the browser too.
    let write_key = app
        .get("/products/gaps/tracking-key", Some(&owner.key))
        .await
        .expect(200)["key"]
        .as_str()
        .unwrap()
        .to_owned();
    app.post(
        "/t/events",
        None,
        json!({"key": write_key, "events": [
            {"dedupe_id": "w1", "stage": "signup", "anonymous_id": "a1", "occurred_at": hours_ago(&app, 3)}
        ]}),
    )
    .await
    .expect(200);
    save_steps(
        &app,
        &owner.key,
        "gaps",
        json!([{"stage": "visit", "label": "Visits"}, {"stage": "lead", "label": "Leads"},
               {"stage": "payment", "label": "Paid"}]),
    )
    .await;
    define_primary(
        &app,
        &owner.key,
        "gaps",
        json!({"key": "pro", "label": "Pro plan", "tier": "primary", "stage": "payment",
               "event_name": "pro", "value_mode": "transaction"}),
    )
    .await;

    let gaps = report(&app, &owner.key, "gaps").await;
    let changed = [
        ("tracking.events", "pass"),
        ("tracking.payments", "warn"),
        ("tracking.identity_stitching", "pass"),
        ("tracking.unattributed", "pass"),
        ("funnel.definition", "pass"),
        ("funnel.empty_steps", "fail"),
        ("funnel.primary_conversion", "warn"),
        ("funnel.single_source", "fail"),
    ];
    assert_eq!(statuses(&gaps), expect(&nothing_yet(&app), &changed));
    assert_eq!(
        evidence(&gaps, "funnel.empty_steps"),
        "1 of 3 steps had no volume in 30 days: Leads (lead)"
    );
    assert_eq!(
        evidence(&gaps, "funnel.single_source"),
        "1 stage(s) written by more than one source in 30 days: signup by api and web"
    );
    assert_eq!(
        evidence(&gaps, "funnel.primary_conversion"),
        "\"Pro plan\" (stage payment, event pro) counted 0 times in 30 days"
    );
    assert!(
        evidence(&gaps, "tracking.events").ends_with("4 events in 30 days from api and web"),
        "{}",
        evidence(&gaps, "tracking.events")
    );
}

backend_tests!(
    a_well_tracked_product_passes_then_goes_stale,
    an_empty_step_and_a_stage_fed_twice_fail
);
