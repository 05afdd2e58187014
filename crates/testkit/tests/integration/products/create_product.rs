//! POST /products: the created row, defaults and normalisation, validation, slugs, bearers.

use super::*;

use payback_testkit::Reply;

async fn create(app: &TestApp, token: &str, body: Value) -> Reply {
    app.post("/products", Some(token), body).await
}

async fn create_returns_the_product_in_validation(app: TestApp) {
    let ann = app.signup_verified("ann@example.com").await;
    let reply = create(
        &app,
        &ann.token,
        json!({ "name": "Widget Shop", "slug": "widget-shop", "currency": "EUR" }),
    )
    .await;
    let body = reply.expect(200);
    assert_eq!(
        keys(body),
        set(&["id", "slug", "name", "currency", "stage"]),
        "{body}"
    );
    let id = body["id"].as_str().unwrap();
    assert!(uuid::Uuid::parse_str(id).is_ok(), "id is a uuid: {id}");
    assert_eq!(body["slug"], "widget-shop");
    assert_eq!(body["name"], "Widget Shop");
    assert_eq!(body["currency"], "EUR");
    assert_eq!(body["stage"], "validation");

    let row = app.get("/products/widget-shop", Some(&ann.token)).await;
    let row = row.expect(200);
    assert_eq!(row["product_id"], id);
    assert_eq!(row["currency"], "EUR");
    assert_eq!(row["domain"], Value::Null);
}

async fn create_defaults_and_normalizes_currency_and_domain(app: TestApp) {
    let ann = app.signup_verified("ann@example.com").await;
    let default = create(
        &app,
        &ann.token,
        json!({ "name": "Plain", "slug": "plain" }),
    )
    .await;
    assert_eq!(default.expect(200)["currency"], "USD");

    let nulls = create(
        &app,
        &ann.token,
        json!({ "name": "Nulls", "slug": "nulls", "currency": null, "domain": null }),
    )
    .await;
    assert_eq!(nulls.expect(200)["currency"], "USD");

    let lower = create(
        &app,
        &ann.token,
        json!({ "name": "Lower", "slug": "lower", "currency": "gbp" }),
    )
    .await;
    assert_eq!(lower.expect(200)["currency"], "GBP");

    let with_domain = create(
        &app,
        &ann.token,
        json!({ "name": "Site", "slug": "site", "domain": "https://WWW.Example.com/x" }),
    )
    .await;
    with_domain.expect(200);
    let row = app.get("/products/site", Some(&ann.token)).await;
    assert_eq!(row.expect(200)["domain"], "www.example.com");

    let bare = create(
        &app,
        &ann.token,
        json!({ "name": "Bare", "slug": "bare", "domain": "shop.example.org" }),
    )
    .await;
    bare.expect(200);
    let row = app.get("/products/bare", Some(&ann.token)).await;
    assert_eq!(row.expect(200)["domain"], "shop.example.org");

    // Limits are inclusive and count characters: 120 two-byte characters, a 60-char slug, a
    // 2-char slug, a 255-character domain.
    let long_name = "é".repeat(120);
    let long_slug = "a".repeat(60);
    let reply = create(
        &app,
        &ann.token,
        json!({ "name": long_name, "slug": long_slug, "domain": format!("{}.com", "d".repeat(251)) }),
    )
    .await;
    let body = reply.expect(200);
    assert_eq!(body["name"], long_name.as_str());
    assert_eq!(body["slug"], long_slug.as_str());
    let reply = create(&app, &ann.token, json!({ "name": "X", "slug": "x1" })).await;
    assert_eq!(reply.expect(200)["slug"], "x1");
}

async fn create_rejects_invalid_input_naming_the_field(app: TestApp) {
    let ann = app.signup_verified("ann@example.com").await;
    let cases: Vec<(Value, &str)> = vec![
        (json!({ "name": "", "slug": "ok-slug" }), "name"),
        (
            json!({ "name": "n".repeat(121), "slug": "ok-slug" }),
            "name",
        ),
        (json!({ "name": "Ok", "slug": "a" }), "slug"),
        (json!({ "name": "Ok", "slug": "a".repeat(61) }), "slug"),
        (json!({ "name": "Ok", "slug": "Upper" }), "slug"),
        (json!({ "name": "Ok", "slug": "-leading" }), "slug"),
        (json!({ "name": "Ok", "slug": "trailing-" }), "slug"),
        (json!({ "name": "Ok", "slug": "under_score" }), "slug"),
        (json!({ "name": "Ok", "slug": "has space" }), "slug"),
        (
            json!({ "name": "Ok", "slug": "ok-slug", "currency": "EURO" }),
            "currency",
        ),
        (
            json!({ "name": "Ok", "slug": "ok-slug", "currency": "E1" }),
            "currency",
        ),
        (
            json!({ "name": "Ok", "slug": "ok-slug", "currency": "" }),
            "currency",
        ),
        (
            json!({ "name": "Ok", "slug": "ok-slug", "domain": "d".repeat(256) }),
            "domain",
        ),
        (json!({ "slug": "ok-slug" }), "name"),
        (json!({ "name": "Ok" }), "slug"),
        (json!({ "name": 5, "slug": "ok-slug" }), "name"),
        (json!({ "name": "Ok", "slug": 7 }), "slug"),
        (
            json!({ "name": "Ok", "slug": "ok-slug", "currency": 840 }),
            "currency",
        ),
    ];
    for (body, field) in cases {
        let reply = create(&app, &ann.token, body.clone()).await;
        assert_eq!(reply.status, 400, "{body} -> {}", reply.text);
        reply.expect_error(400, field);
    }
    // None of them created anything.
    assert_eq!(portfolio(&app, &ann.token).await, json!([]));
}

async fn create_rejects_a_blank_name(app: TestApp) {
    let ann = app.signup_verified("ann@example.com").await;
    // A name of only spaces is empty once trimmed; storing "" would break the 1-120 rule.
    let reply = create(&app, &ann.token, json!({ "name": "   ", "slug": "blank" })).await;
    reply.expect_error(400, "name");
    assert_eq!(portfolio(&app, &ann.token).await, json!([]));
}

async fn slug_taken_in_the_same_account_only(app: TestApp) {
    let ann = app.signup_verified("ann@example.com").await;
    let bob = app.signup_verified("bob@example.com").await;
    app.create_product(&ann.token, "shared").await;
    let again = create(
        &app,
        &ann.token,
        json!({ "name": "Again", "slug": "shared" }),
    )
    .await;
    again.expect_error(409, "slug taken");

    let other = create(
        &app,
        &bob.token,
        json!({ "name": "Bob's", "slug": "shared" }),
    )
    .await;
    let body = other.expect(200);
    assert_eq!(body["slug"], "shared");
    assert_eq!(body["name"], "Bob's");

    // Each account still reads its own product under the shared slug.
    let ann_row = app.get("/products/shared", Some(&ann.token)).await;
    assert_eq!(ann_row.expect(200)["name"], "Product shared");
    let bob_row = app.get("/products/shared", Some(&bob.token)).await;
    assert_eq!(bob_row.expect(200)["name"], "Bob's");
}

async fn concurrent_duplicate_slugs_conflict(app: TestApp) {
    let ann = app.signup_verified("ann@example.com").await;
    let body = json!({ "name": "Race", "slug": "race" });
    let (a, b) = tokio::join!(
        create(&app, &ann.token, body.clone()),
        create(&app, &ann.token, body.clone())
    );
    let mut statuses = [a.status, b.status];
    statuses.sort_unstable();
    assert_eq!(statuses, [200, 409], "{} / {}", a.text, b.text);
    let loser = if a.status == 409 { a } else { b };
    loser.expect_error(409, "slug taken");
    assert_eq!(
        portfolio(&app, &ann.token).await.as_array().unwrap().len(),
        1
    );
    let events = app.history(&ann.token, "?product=race").await;
    assert_eq!(events.len(), 1, "{events:?}");
}

async fn create_needs_a_bearer(app: TestApp) {
    let reply = app
        .post("/products", None, json!({ "name": "X", "slug": "xx" }))
        .await;
    reply.expect_error(401, "bearer");
    let reply = app
        .post(
            "/products",
            Some("svc_sess_nonsense"),
            json!({ "name": "X", "slug": "xx" }),
        )
        .await;
    assert_eq!(reply.status, 401, "{}", reply.text);
    assert!(reply.body["error"].is_string(), "{}", reply.text);
    let reply = app
        .post(
            "/products",
            Some("svc_live_nonsense"),
            json!({ "name": "X", "slug": "xx" }),
        )
        .await;
    assert_eq!(reply.status, 401, "{}", reply.text);
}

async fn create_through_an_api_key_is_recorded_as_keeper(app: TestApp) {
    let ann = app.signup_verified("ann@example.com").await;
    let key = app.api_key(&ann).await;
    let reply = create(
        &app,
        &key,
        json!({ "name": "By Agent", "slug": "by-agent" }),
    )
    .await;
    let body = reply.expect(200);
    let id = body["id"].as_str().unwrap().to_owned();
    assert_eq!(body["stage"], "validation");

    // The key's account owns it: the session sees it too.
    let row = app.get("/products/by-agent", Some(&ann.token)).await;
    assert_eq!(row.expect(200)["product_id"], id.as_str());

    let events = app.history(&ann.token, "?product=by-agent").await;
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(events[0]["action"], "product.create");
    assert_eq!(events[0]["actor"], "keeper");
    assert_eq!(events[0]["via"], "api");
    assert_eq!(events[0]["product_slug"], "by-agent");
    assert_eq!(events[0]["subject_ref"], id.as_str());

    // A human's creation is recorded under their email, through the dashboard.
    app.create_product(&ann.token, "by-human").await;
    let events = app.history(&ann.token, "?product=by-human").await;
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(events[0]["actor"], "ann@example.com");
    assert_eq!(events[0]["via"], "dashboard");
}

async fn operator_token_cannot_create(app: TestApp) {
    let reply = create(
        &app,
        &app.operator_token,
        json!({ "name": "Ops", "slug": "ops" }),
    )
    .await;
    reply.expect_error(400, "operator token");
    let all = portfolio(&app, &app.operator_token).await;
    assert_eq!(all, json!([]));
}

backend_tests!(
    create_returns_the_product_in_validation,
    create_defaults_and_normalizes_currency_and_domain,
    create_rejects_invalid_input_naming_the_field,
    create_rejects_a_blank_name,
    slug_taken_in_the_same_account_only,
    concurrent_duplicate_slugs_conflict,
    create_needs_a_bearer,
    create_through_an_api_key_is_recorded_as_keeper,
    operator_token_cannot_create,
);
