//! The funnel definition: defaults, saving and reading back, validation naming the field; and
//! the access rules and OpenAPI documentation of the funnel endpoints.

use super::*;

fn ladder() -> Value {
    json!([
        {"stage": "visit", "label": "Visits"},
        {"stage": "lead", "label": "Leads"},
        {"stage": "signup", "label": "Signups"},
        {"stage": "activated", "label": "Activated"},
        {"stage": "converted", "label": "Customers"},
    ])
}

async fn definition_defaults_saves_and_reads_back(app: TestApp) {
    let (token, key) = setup(&app).await;
    let empty = app
        .get("/products/shop/funnel/definition", Some(&token))
        .await;
    let body = empty.expect(200).clone();
    assert_eq!(body["steps"], ladder());
    assert_eq!(body["is_default"], true);
    let stages: Vec<&str> = body["available"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["stage"].as_str().unwrap())
        .collect();
    assert_eq!(
        stages,
        Stage::ALL.iter().map(|s| s.as_str()).collect::<Vec<_>>()
    );
    for entry in body["available"].as_array().unwrap() {
        assert_eq!(entry["volume_30d"], 0);
        assert_eq!(entry["events_30d"], 0);
        assert_eq!(entry["sources"], json!([]));
    }

    let steps = json!([
        {"stage": "visit", "label": "  Visitors  "},
        {"stage": "signup", "label": "Trials"},
        {"stage": "payment", "label": "a".repeat(40)},
    ]);
    let saved = app
        .post(
            "/products/shop/funnel/definition",
            Some(&token),
            json!({ "steps": steps }),
        )
        .await;
    let expected_steps = json!([
        {"stage": "visit", "label": "Visitors"},
        {"stage": "signup", "label": "Trials"},
        {"stage": "payment", "label": "a".repeat(40)},
    ]);
    assert_eq!(
        saved.expect(200),
        &json!({"ok": true, "steps": expected_steps})
    );
    let read = app
        .get("/products/shop/funnel/definition", Some(&key))
        .await;
    assert_eq!(read.expect(200)["steps"], expected_steps);
    assert_eq!(read.body["is_default"], false);

    // The ladder itself can be saved; it is then a saved definition, not the default.
    app.clock.advance(1_000);
    app.post(
        "/products/shop/funnel/definition",
        Some(&key),
        json!({ "steps": ladder() }),
    )
    .await
    .expect(200);
    let read = app
        .get("/products/shop/funnel/definition", Some(&key))
        .await;
    assert_eq!(read.expect(200)["steps"], ladder());
    assert_eq!(read.body["is_default"], false);

    // Both saves are in the product's history, newest first, with who and through which door.
    let history = app.history(&token, "?product=shop").await;
    let saves: Vec<&Value> = history
        .iter()
        .filter(|e| e["action"] == "funnel.definition")
        .collect();
    assert_eq!(saves.len(), 2, "{history:?}");
    assert_eq!(saves[0]["actor"], "keeper");
    assert_eq!(saves[0]["via"], "api");
    assert_eq!(saves[0]["product_slug"], "shop");
    assert_eq!(saves[0]["payload"]["before"], expected_steps);
    assert_eq!(saves[0]["payload"]["before_is_default"], false);
    assert_eq!(saves[0]["payload"]["after"], ladder());
    assert_eq!(saves[1]["actor"], "founder@example.com");
    assert_eq!(saves[1]["via"], "dashboard");
    assert_eq!(saves[1]["payload"]["before"], ladder());
    assert_eq!(saves[1]["payload"]["before_is_default"], true);
    assert_eq!(saves[1]["payload"]["after"], expected_steps);
}

async fn definition_validation_names_the_field(app: TestApp) {
    let (token, _) = setup(&app).await;
    let step = |stage: &str, label: &str| json!({"stage": stage, "label": label});
    let eleven: Vec<Value> = Stage::ALL
        .iter()
        .map(|s| step(s.as_str(), "x"))
        .chain([step("visit", "again")])
        .collect();
    let cases = [
        (json!({}), "steps: required"),
        (json!({"steps": []}), "steps: must have 2-10 steps"),
        (
            json!({"steps": [step("visit", "V")]}),
            "steps: must have 2-10 steps",
        ),
        (json!({"steps": eleven}), "steps: must have 2-10 steps"),
        (
            json!({"steps": [step("visit", "V"), step("purchase", "P")]}),
            "steps[1].stage: unknown stage",
        ),
        (
            json!({"steps": [step("visit", "V"), step("lead", "L"), step("visit", "Again")]}),
            "steps[2].stage: visit is already steps[0]",
        ),
        (
            json!({"steps": [step("visit", "V"), step("lead", "L"), step("signup", "   ")]}),
            "steps[2].label: must be 1-40 characters",
        ),
        (
            json!({"steps": [step("visit", &"x".repeat(41)), step("lead", "L")]}),
            "steps[0].label: must be 1-40 characters",
        ),
        (
            json!({"steps": [step("visit", "V"), {"stage": "lead", "label": 5}]}),
            "steps[1].label",
        ),
        (
            json!({"steps": [step("visit", "V"), {"stage": "lead"}]}),
            "steps[1]: missing field `label`",
        ),
        (json!({"steps": "visit,lead"}), "steps:"),
    ];
    for (body, needle) in cases {
        app.post(
            "/products/shop/funnel/definition",
            Some(&token),
            body.clone(),
        )
        .await
        .expect_error(400, needle);
    }
    let read = app
        .get("/products/shop/funnel/definition", Some(&token))
        .await;
    assert_eq!(read.expect(200)["is_default"], true, "nothing was saved");
    let history = app.history(&token, "?product=shop").await;
    assert!(history.iter().all(|e| e["action"] != "funnel.definition"));
    // Ten distinct stages is the most there can be, and it is allowed.
    let ten: Vec<Value> = Stage::ALL
        .iter()
        .map(|s| step(s.as_str(), s.as_str()))
        .collect();
    app.post(
        "/products/shop/funnel/definition",
        Some(&token),
        json!({ "steps": ten }),
    )
    .await
    .expect(200);
}

async fn access_rules_hold(app: TestApp) {
    let (_, key) = setup(&app).await;
    let stranger = app.signup_verified("stranger@example.com").await;
    let reads = [
        "/products/shop/funnel",
        "/products/shop/funnel/series",
        "/products/shop/funnel/definition",
    ];
    for path in reads {
        app.get(path, Some(&stranger.token))
            .await
            .expect_error(404, "product");
        app.get(path, None).await.expect_error(401, "bearer");
        app.get(path, Some(&key)).await.expect(200);
    }
    let body = json!({ "steps": ladder() });
    app.post(
        "/products/shop/funnel/definition",
        Some(&stranger.token),
        body.clone(),
    )
    .await
    .expect_error(404, "product");
    app.post("/products/shop/funnel/definition", None, body)
        .await
        .expect_error(401, "bearer");
    app.get("/products/nope/funnel", Some(&key))
        .await
        .expect_error(404, "product");
    for path in ["/products/shop/funnel", "/products/shop/funnel/series"] {
        for (query, needle) in [
            ("?days=0", "days: must be 1-3650"),
            ("?days=3651", "days: must be 1-3650"),
            ("?days=-3", "days: must be 1-3650"),
            ("?days=week", "days"),
        ] {
            app.get(&format!("{path}{query}"), Some(&key))
                .await
                .expect_error(400, needle);
        }
        app.get(&format!("{path}?days=3650"), Some(&key))
            .await
            .expect(200);
    }
}

async fn endpoints_are_documented(app: TestApp) {
    let doc = app.get("/openapi.json", None).await.expect(200).clone();
    for (method, path, statuses) in [
        (
            "get",
            "/products/{slug}/funnel",
            &["200", "400", "401", "404"][..],
        ),
        (
            "get",
            "/products/{slug}/funnel/series",
            &["200", "400", "401", "404"],
        ),
        (
            "get",
            "/products/{slug}/funnel/definition",
            &["200", "401", "404"],
        ),
        (
            "post",
            "/products/{slug}/funnel/definition",
            &["200", "400", "401", "404"],
        ),
    ] {
        let operation = &doc["paths"][path][method];
        for status in statuses {
            assert!(
                operation["responses"][status].is_object(),
                "{method} {path} documents {status}: {operation}"
            );
        }
    }
    let request = &doc["components"]["schemas"]["SaveDefinitionRequest"];
    assert_eq!(request["required"], json!(["steps"]), "{request}");
}

backend_tests!(
    endpoints_are_documented,
    definition_defaults_saves_and_reads_back,
    definition_validation_names_the_field,
    access_rules_hold
);
