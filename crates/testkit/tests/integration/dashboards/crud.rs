//! Every endpoint's success: a full spec builds exactly, a prompt composes one, neither starts
//! blank; the list is oldest first; edits change what they name; deletion removes the row;
//! history records the three actions; a product holds at most 200 dashboards.

use payback_testkit::TEST_START;

use super::*;

async fn a_full_spec_round_trips(app: TestApp) {
    let (token, _) = setup(&app).await;
    // A prompt next to a spec is ignored, even one that would be refused on its own.
    let created = create(
        &app,
        &token,
        json!({"name": "  Weekly review ", "description": "Monday numbers", "spec": full_spec(), "prompt": "ab"}),
    )
    .await;
    assert_eq!(created["spec"], full_spec());
    assert_eq!(created["name"], "Weekly review");
    assert_eq!(created["description"], "Monday numbers");
    assert_eq!(created["product_slug"], "shop");
    assert_eq!(created["created_by"], "founder@example.com");
    assert_eq!(created["updated_by"], Value::Null);
    assert_eq!(created["created_at"], TEST_START.to_rfc3339());
    assert_eq!(created["updated_at"], TEST_START.to_rfc3339());
    let id = created["id"].as_str().unwrap();
    assert_eq!(uuid::Uuid::parse_str(id).unwrap().get_version_num(), 7);

    let listed = app.get("/products/shop/dashboards", Some(&token)).await;
    assert_eq!(listed.expect(200), &json!([created]));
}

async fn a_prompt_composes_one_and_neither_starts_blank(app: TestApp) {
    let (token, key) = setup(&app).await;
    let prompt = "CAC and ads over the last 90 days";
    let composed = app
        .post(
            "/products/shop/dashboards/generate",
            Some(&token),
            json!({ "prompt": prompt }),
        )
        .await
        .expect(200)
        .clone();
    let from_prompt = create(&app, &key, json!({"name": "Acquisition", "prompt": prompt})).await;
    assert_eq!(from_prompt["spec"], composed["spec"]);
    assert_eq!(from_prompt["created_by"], "keeper");
    assert_eq!(
        from_prompt["description"],
        Value::Null,
        "no description given"
    );

    app.clock.advance(60_000);
    let blank = create(&app, &token, json!({"name": "Empty"})).await;
    assert_eq!(blank["spec"], json!({"widgets": []}));
    app.clock.advance(60_000);
    let nulls = create(
        &app,
        &token,
        json!({"name": "Nulls", "description": null, "spec": null, "prompt": null}),
    )
    .await;
    assert_eq!(nulls["spec"], json!({"widgets": []}));

    let listed = app.get("/products/shop/dashboards", Some(&key)).await;
    let names: Vec<&str> = listed
        .expect(200)
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Acquisition", "Empty", "Nulls"], "oldest first");
}

async fn edits_change_only_what_they_name(app: TestApp) {
    let (token, key) = setup(&app).await;
    let created = create(
        &app,
        &token,
        json!({"name": "Board", "description": "first", "spec": full_spec()}),
    )
    .await;
    let path = format!("/dashboards/{}", created["id"].as_str().unwrap());

    app.clock.advance(5_000);
    let renamed = app
        .post(&path, Some(&token), json!({"name": "  Renamed  "}))
        .await
        .expect(200)
        .clone();
    assert_eq!(renamed["name"], "Renamed");
    assert_eq!(renamed["description"], "first");
    assert_eq!(renamed["spec"], full_spec());
    assert_eq!(renamed["updated_by"], "founder@example.com");
    assert_eq!(renamed["created_at"], created["created_at"]);
    assert_eq!(
        renamed["updated_at"],
        TEST_START.plus_millis(5_000).to_rfc3339()
    );

    let cleared = app
        .post(&path, Some(&key), json!({"description": null}))
        .await
        .expect(200)
        .clone();
    assert_eq!(cleared["description"], Value::Null);
    assert_eq!(cleared["name"], "Renamed");
    assert_eq!(cleared["updated_by"], "keeper");

    let rearranged = json!({"widgets": [
        {"id": "queue", "type": "queue", "layout": {"x": 6, "y": 0, "w": 6, "h": 4}},
        {"id": "spend", "type": "metric", "metric": "spend_30d", "layout": {"x": 0, "y": 0, "w": 6, "h": 4}}
    ]});
    let edited = app
        .post(
            &path,
            Some(&token),
            json!({"spec": rearranged, "description": "second"}),
        )
        .await
        .expect(200)
        .clone();
    assert_eq!(edited["spec"], rearranged);
    assert_eq!(edited["description"], "second");
    let listed = app.get("/products/shop/dashboards", Some(&token)).await;
    assert_eq!(listed.expect(200), &json!([edited]));
}

async fn deletion_is_real_and_then_404(app: TestApp) {
    let (token, _) = setup(&app).await;
    let kept = create(&app, &token, json!({"name": "Kept"})).await;
    let gone = create(&app, &token, json!({"name": "Gone", "spec": full_spec()})).await;
    let id = gone["id"].as_str().unwrap();
    let reply = app
        .post(&format!("/dashboards/{id}/delete"), Some(&token), json!({}))
        .await;
    assert_eq!(reply.expect(200), &json!({"ok": true}));
    let rows: i64 = app
        .sql_value(
            "SELECT CAST(COUNT(*) AS BIGINT) FROM dashboards WHERE id = $1",
            &[id.into()],
        )
        .await;
    assert_eq!(rows, 0, "the row is gone");
    let listed = app.get("/products/shop/dashboards", Some(&token)).await;
    assert_eq!(listed.expect(200), &json!([kept]));
    app.post(
        &format!("/dashboards/{id}"),
        Some(&token),
        json!({"name": "Back"}),
    )
    .await
    .expect_error(404, "dashboard not found");
    app.post(&format!("/dashboards/{id}/delete"), Some(&token), json!({}))
        .await
        .expect_error(404, "dashboard not found");
}

async fn history_records_the_three_actions(app: TestApp) {
    let (token, key) = setup(&app).await;
    let created = create(
        &app,
        &token,
        json!({"name": "Audited", "prompt": "signups and revenue"}),
    )
    .await;
    let id = created["id"].as_str().unwrap();
    app.post(
        &format!("/dashboards/{id}"),
        Some(&key),
        json!({"name": "Audited twice"}),
    )
    .await
    .expect(200);
    app.post(&format!("/dashboards/{id}/delete"), Some(&token), json!({}))
        .await
        .expect(200);

    let events = app
        .history_where(&token, |e| {
            e["action"].as_str().unwrap_or("").starts_with("dashboard.")
        })
        .await;
    let seen: Vec<(&str, &str, &str)> = events
        .iter()
        .map(|e| {
            (
                e["action"].as_str().unwrap(),
                e["actor"].as_str().unwrap(),
                e["via"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            ("dashboard.create", "founder@example.com", "dashboard"),
            ("dashboard.update", "keeper", "api"),
            ("dashboard.delete", "founder@example.com", "dashboard"),
        ]
    );
    for event in &events {
        assert_eq!(event["product_slug"], "shop");
        assert_eq!(event["payload"]["dashboard_id"], id);
    }
    let widgets = json!(["revenue-30d", "funnel", "revenue-daily"]);
    assert_eq!(events[0]["payload"]["source"], "prompt");
    assert_eq!(
        events[0]["payload"]["matched"],
        json!(["signups", "revenue"])
    );
    assert_eq!(events[0]["payload"]["widgets"], widgets);
    assert_eq!(events[1]["payload"]["changed"], json!(["name"]));
    assert_eq!(events[1]["payload"]["before"]["name"], "Audited");
    assert_eq!(events[1]["payload"]["after"]["name"], "Audited twice");
    assert_eq!(events[2]["payload"]["name"], "Audited twice");
    assert_eq!(events[2]["payload"]["widgets"], widgets);
}

async fn a_product_holds_at_most_200_dashboards(app: TestApp) {
    let (token, _) = setup(&app).await;
    let mut last = Value::Null;
    for n in 0..200 {
        last = create(&app, &token, json!({ "name": format!("D{n}") })).await;
    }
    app.post(
        "/products/shop/dashboards",
        Some(&token),
        json!({"name": "One too many"}),
    )
    .await
    .expect_error(409, "at most 200 dashboards");
    let listed = app.get("/products/shop/dashboards", Some(&token)).await;
    assert_eq!(listed.expect(200).as_array().unwrap().len(), 200);
    let id = last["id"].as_str().unwrap();
    app.post(&format!("/dashboards/{id}/delete"), Some(&token), json!({}))
        .await
        .expect(200);
    create(&app, &token, json!({"name": "Room again"})).await;
}

backend_tests!(
    a_full_spec_round_trips,
    a_prompt_composes_one_and_neither_starts_blank,
    edits_change_only_what_they_name,
    deletion_is_real_and_then_404,
    history_records_the_three_actions,
    a_product_holds_at_most_200_dashboards,
);
