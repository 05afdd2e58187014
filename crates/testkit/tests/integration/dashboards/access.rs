//! Another account's dashboard answers 404 on every route, through a session or an API key,
//! even where that account has a product of the same slug; no bearer answers 401.

use super::*;

async fn another_accounts_dashboard_answers_404_everywhere(app: TestApp) {
    let (token, _) = setup(&app).await;
    let mine = create(&app, &token, json!({"name": "Mine", "spec": full_spec()})).await;
    let id = mine["id"].as_str().unwrap();

    // A stranger with no product, and one with a `shop` of their own.
    let stranger = app.signup_verified("stranger@example.com").await;
    let stranger_key = app.api_key(&stranger).await;
    let neighbour = app.signup_verified("neighbour@example.com").await;
    app.create_product(&neighbour.token, "shop").await;
    let neighbour_key = app.api_key(&neighbour).await;

    for credential in [
        stranger.token.as_str(),
        stranger_key.as_str(),
        neighbour.token.as_str(),
        neighbour_key.as_str(),
    ] {
        let has_shop = credential == neighbour.token || credential == neighbour_key;
        let list = app.get("/products/shop/dashboards", Some(credential)).await;
        let generated = app
            .post(
                "/products/shop/dashboards/generate",
                Some(credential),
                json!({"prompt": "cac"}),
            )
            .await;
        if has_shop {
            // Their own `shop`, which holds none of the founder's dashboards.
            assert_eq!(list.expect(200), &json!([]));
            generated.expect(200);
        } else {
            list.expect_error(404, "product not found");
            generated.expect_error(404, "product not found");
            app.post(
                "/products/shop/dashboards",
                Some(credential),
                json!({"name": "Theirs"}),
            )
            .await
            .expect_error(404, "product not found");
        }
        app.post(
            &format!("/dashboards/{id}"),
            Some(credential),
            json!({"name": "Taken over"}),
        )
        .await
        .expect_error(404, "dashboard not found");
        app.post(
            &format!("/dashboards/{id}/delete"),
            Some(credential),
            json!({}),
        )
        .await
        .expect_error(404, "dashboard not found");
    }
    // Unknown ids answer the same.
    for id in ["0190b6e5-0000-7000-8000-000000000000", "not-an-id"] {
        app.post(
            &format!("/dashboards/{id}"),
            Some(&token),
            json!({"name": "X"}),
        )
        .await
        .expect_error(404, "dashboard not found");
        app.post(&format!("/dashboards/{id}/delete"), Some(&token), json!({}))
            .await
            .expect_error(404, "dashboard not found");
    }
    let listed = app.get("/products/shop/dashboards", Some(&token)).await;
    assert_eq!(listed.expect(200), &json!([mine]), "untouched");
    let stranger_events = app
        .history_where(&neighbour.token, |e| {
            e["action"].as_str().unwrap_or("").starts_with("dashboard.")
        })
        .await;
    assert!(stranger_events.is_empty(), "{stranger_events:?}");
}

async fn every_route_needs_a_bearer(app: TestApp) {
    let (token, _) = setup(&app).await;
    let mine = create(&app, &token, json!({"name": "Mine"})).await;
    let id = mine["id"].as_str().unwrap();
    app.get("/products/shop/dashboards", None)
        .await
        .expect_error(401, "bearer");
    for (path, body) in [
        ("/products/shop/dashboards".to_owned(), json!({"name": "X"})),
        (
            "/products/shop/dashboards/generate".to_owned(),
            json!({"prompt": "cac"}),
        ),
        (format!("/dashboards/{id}"), json!({"name": "X"})),
        (format!("/dashboards/{id}/delete"), json!({})),
    ] {
        app.post(&path, None, body)
            .await
            .expect_error(401, "bearer");
    }
    let listed = app.get("/products/shop/dashboards", Some(&token)).await;
    assert_eq!(listed.expect(200), &json!([mine]));
}

backend_tests!(
    another_accounts_dashboard_answers_404_everywhere,
    every_route_needs_a_bearer,
);
