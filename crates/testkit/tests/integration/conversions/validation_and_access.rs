//! Every validation rule answers 400 naming the field; strangers get 404, missing bearers 401,
//! and bad report windows 400.

use super::*;

async fn every_rule_answers_400_naming_the_field(app: TestApp) {
    let (token, _) = setup(&app).await;
    let base = json!({"key": "k", "label": "L", "tier": "primary", "stage": "lead"});
    let with = |field: &str, value: Value| {
        let mut body = base.clone();
        body[field] = value;
        body
    };
    let without = |field: &str| {
        let mut body = base.clone();
        body.as_object_mut().unwrap().remove(field);
        body
    };
    let cases = [
        (without("key"), "key"),
        (without("label"), "label"),
        (without("tier"), "tier"),
        (without("stage"), "stage"),
        (with("key", json!("")), "key"),
        (with("key", json!("Has Caps")), "key"),
        (with("key", json!("k".repeat(61))), "key"),
        (with("key", json!("dots.no")), "key"),
        (with("label", json!("   ")), "label"),
        (with("label", json!("l".repeat(81))), "label"),
        (with("tier", json!("tertiary")), "tier"),
        (with("stage", json!("purchase")), "stage"),
        (with("source", json!("stripe")), "source"),
        (with("event_name", json!("")), "event_name"),
        (with("event_name", json!("n".repeat(121))), "event_name"),
        (with("value_mode", json!("sum")), "value_mode"),
        (with("value_mode", json!("fixed")), "fixed_value_cents"),
        (
            json!({"key": "k", "label": "L", "tier": "primary", "stage": "lead", "value_mode": "fixed", "fixed_value_cents": -1}),
            "fixed_value_cents",
        ),
        (with("fixed_value_cents", json!(100)), "fixed_value_cents"),
        (with("fixed_value_cents", json!(1.5)), "fixed_value_cents"),
        (with("currency", json!("EUR")), "currency"),
        (with("currency", json!("dollars")), "currency"),
        (with("score_mode", json!("letters")), "score_mode"),
        (with("target_cpa_cents", json!(-5)), "target_cpa_cents"),
        (with("grade_weights", json!([1, 2])), "grade_weights"),
        (
            with("grade_weights", json!({"x": "y".repeat(5000)})),
            "grade_weights",
        ),
        (with("is_active", json!("yes")), "is_active"),
        (with("value_mod", json!("fixed")), "value_mod"),
    ];
    for (body, field) in cases {
        let reply = app
            .post("/products/shop/conversions", Some(&token), body.clone())
            .await;
        reply.expect_error(400, field);
    }
    let list = app.get("/products/shop/conversions", Some(&token)).await;
    assert_eq!(list.expect(200)["conversions"], json!([]), "nothing stored");
    // Null is "not set" for every optional field.
    let nulls = json!({"key": "k", "label": "L", "tier": "primary", "stage": "lead", "source": null,
        "event_name": null, "value_mode": null, "fixed_value_cents": null, "currency": null,
        "score_mode": null, "target_cpa_cents": null, "grade_weights": null, "is_active": null});
    let saved = save(&app, &token, nulls).await;
    assert_eq!(saved["value_mode"], "none");
    assert_eq!(saved["is_active"], true);
}

async fn doors_are_guarded(app: TestApp) {
    let (token, _) = setup(&app).await;
    save(
        &app,
        &token,
        json!({"key": "leads", "label": "Leads", "tier": "secondary", "stage": "lead"}),
    )
    .await;
    let body = json!({"key": "x", "label": "X", "tier": "primary", "stage": "lead"});
    let stranger = app.signup_verified("stranger@example.com").await;
    let stranger_key = app.api_key(&stranger).await;
    for credential in [Some(stranger.token.as_str()), Some(stranger_key.as_str())] {
        app.get("/products/shop/conversions", credential)
            .await
            .expect_error(404, "product");
        app.post("/products/shop/conversions", credential, body.clone())
            .await
            .expect_error(404, "product");
        app.post(
            "/products/shop/conversions/leads/delete",
            credential,
            json!({}),
        )
        .await
        .expect_error(404, "product");
        app.get("/products/shop/conversions/report", credential)
            .await
            .expect_error(404, "product");
    }
    app.get("/products/shop/conversions", None)
        .await
        .expect_error(401, "bearer");
    app.post("/products/shop/conversions", None, body)
        .await
        .expect_error(401, "bearer");
    app.post("/products/shop/conversions/leads/delete", None, json!({}))
        .await
        .expect_error(401, "bearer");
    app.get("/products/shop/conversions/report", None)
        .await
        .expect_error(401, "bearer");
    for bad in ["0", "3651", "-1", "week"] {
        app.get(
            &format!("/products/shop/conversions/report?days={bad}"),
            Some(&token),
        )
        .await
        .expect_error(400, "days");
    }
    let list = app.get("/products/shop/conversions", Some(&token)).await;
    assert_eq!(
        list.expect(200)["conversions"].as_array().unwrap().len(),
        1,
        "the stranger changed nothing"
    );
}

backend_tests!(every_rule_answers_400_naming_the_field, doors_are_guarded);
