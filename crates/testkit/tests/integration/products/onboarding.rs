//! POST /products/{slug}/onboarding-complete: the operator is notified once, per product, privately.

use super::*;

async fn onboarding_complete_notifies_the_operator_once(app: TestApp) {
    let ann = app.signup_verified("ann@example.com").await;
    app.create_product(&ann.token, "onboard").await;
    let ops_mails = |app: &TestApp| {
        app.mails()
            .into_iter()
            .filter(|m| m.to == "ops@payback.test")
            .collect::<Vec<_>>()
    };
    assert!(ops_mails(&app).is_empty());

    let reply = app
        .post(
            "/products/onboard/onboarding-complete",
            Some(&ann.token),
            json!({}),
        )
        .await;
    assert_eq!(
        reply.expect(200),
        &json!({ "ok": true, "first_time": true })
    );
    let mails = ops_mails(&app);
    assert_eq!(mails.len(), 1, "one operator mail");
    assert!(
        mails[0].subject.contains("Product onboard"),
        "{}",
        mails[0].subject
    );
    assert!(mails[0].body.contains("onboard"), "{}", mails[0].body);

    // Replays answer first_time false and notify nobody; an empty body works as well.
    let reply = app
        .post_raw(
            "/products/onboard/onboarding-complete",
            Some(&ann.token),
            "application/json",
            "",
        )
        .await;
    assert_eq!(
        reply.expect(200),
        &json!({ "ok": true, "first_time": false })
    );
    let key = app.api_key(&ann).await;
    let reply = app
        .post(
            "/products/onboard/onboarding-complete",
            Some(&key),
            json!({}),
        )
        .await;
    assert_eq!(
        reply.expect(200),
        &json!({ "ok": true, "first_time": false })
    );
    assert_eq!(ops_mails(&app).len(), 1, "no second operator mail");

    let events = app.history(&ann.token, "?product=onboard").await;
    let onboarded: Vec<&Value> = events
        .iter()
        .filter(|e| e["action"] == "product.onboarding_complete")
        .collect();
    assert_eq!(onboarded.len(), 1, "{events:?}");
    assert_eq!(onboarded[0]["actor"], "ann@example.com");
    assert_eq!(onboarded[0]["product_slug"], "onboard");
}

async fn concurrent_onboarding_complete_is_first_once(app: TestApp) {
    let ann = app.signup_verified("ann@example.com").await;
    app.create_product(&ann.token, "race").await;
    let path = "/products/race/onboarding-complete";
    let (a, b, c) = tokio::join!(
        app.post(path, Some(&ann.token), json!({})),
        app.post(path, Some(&ann.token), json!({})),
        app.post(path, Some(&ann.token), json!({})),
    );
    let firsts: Vec<bool> = [&a, &b, &c]
        .iter()
        .map(|reply| reply.expect(200)["first_time"].as_bool().unwrap())
        .collect();
    assert_eq!(firsts.iter().filter(|f| **f).count(), 1, "{firsts:?}");
    let ops = app
        .mails()
        .into_iter()
        .filter(|m| m.to == "ops@payback.test")
        .count();
    assert_eq!(ops, 1);
    let events = app.history(&ann.token, "?product=race").await;
    assert_eq!(
        events
            .iter()
            .filter(|e| e["action"] == "product.onboarding_complete")
            .count(),
        1
    );
}

async fn onboarding_complete_is_per_product_and_private(app: TestApp) {
    let ann = app.signup_verified("ann@example.com").await;
    let bob = app.signup_verified("bob@example.com").await;
    app.create_product(&ann.token, "first").await;
    app.create_product(&ann.token, "second").await;
    app.create_product(&bob.token, "bobs").await;

    let reply = app
        .post(
            "/products/bobs/onboarding-complete",
            Some(&ann.token),
            json!({}),
        )
        .await;
    reply.expect_error(404, "not found");
    let reply = app
        .post(
            "/products/nope/onboarding-complete",
            Some(&ann.token),
            json!({}),
        )
        .await;
    reply.expect_error(404, "not found");
    let reply = app
        .post("/products/first/onboarding-complete", None, json!({}))
        .await;
    reply.expect_error(401, "bearer");
    assert!(
        app.mails().iter().all(|m| m.to != "ops@payback.test"),
        "refused calls notify nobody"
    );

    // Bob's own call is still the first for his product.
    let reply = app
        .post(
            "/products/bobs/onboarding-complete",
            Some(&bob.token),
            json!({}),
        )
        .await;
    assert_eq!(reply.expect(200)["first_time"], true);
    for slug in ["first", "second"] {
        let reply = app
            .post(
                &format!("/products/{slug}/onboarding-complete"),
                Some(&ann.token),
                json!({}),
            )
            .await;
        assert_eq!(reply.expect(200)["first_time"], true, "{slug}");
    }
    let ops = app
        .mails()
        .into_iter()
        .filter(|m| m.to == "ops@payback.test")
        .count();
    assert_eq!(ops, 3);
    // Bob's history holds nothing from Ann's products.
    let events = app.history(&bob.token, "").await;
    assert!(
        events
            .iter()
            .all(|e| e["product_slug"].is_null() || e["product_slug"] == "bobs"),
        "{events:?}"
    );
    assert!(
        events
            .iter()
            .any(|e| e["action"] == "product.onboarding_complete"),
        "{events:?}"
    );
}

backend_tests!(
    onboarding_complete_notifies_the_operator_once,
    onboarding_complete_is_per_product_and_private,
    concurrent_onboarding_complete_is_first_once,
);
