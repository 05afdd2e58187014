//! GET/POST /products/{slug}/policy: defaults, owners' edits, access, 400s and 404s; unknown
//! fields refused on both policy settings.

use super::*;

async fn product_policy(app: &TestApp, token: &str, slug: &str) -> Value {
    app.get(&format!("/products/{slug}/policy"), Some(token))
        .await
        .expect(200)
        .clone()
}

fn view(
    slug: &str,
    google: Value,
    meta: Value,
    adult: bool,
    blocked: Value,
    walled: Value,
) -> Value {
    json!({
        "product_slug": slug, "currency": "USD",
        "daily_caps": { "google": google, "meta": meta },
        "adult_adjacent": adult, "blocked_networks": blocked, "walled_networks": walled,
    })
}

async fn product_policy_defaults_and_owner_edits(app: TestApp) {
    let (owner, key) = founder(&app).await;
    let member = app.add_member(&owner, "member@example.com", "member").await;
    let co_owner = app.add_member(&owner, "co@example.com", "owner").await;
    let product_id = app.get("/products/shop", Some(&key)).await.expect(200)["product_id"]
        .as_str()
        .unwrap()
        .to_owned();

    // Defaults: no caps, no walls; every bearer of the account may read.
    let defaults = view(
        "shop",
        Value::Null,
        Value::Null,
        false,
        json!([]),
        json!([]),
    );
    for token in [&owner.token, &member.token, &key] {
        assert_eq!(product_policy(&app, token, "shop").await, defaults);
    }

    // Each edit: the body, what the policy is after it.
    let edits = [
        (
            json!({ "daily_caps": { "google": 5_000 } }),
            view(
                "shop",
                json!(5_000),
                Value::Null,
                false,
                json!([]),
                json!([]),
            ),
        ),
        // Absent keeps the google cap.
        (
            json!({ "daily_caps": { "meta": 700 } }),
            view(
                "shop",
                json!(5_000),
                json!(700),
                false,
                json!([]),
                json!([]),
            ),
        ),
        (
            json!({ "adult_adjacent": true }),
            view(
                "shop",
                json!(5_000),
                json!(700),
                true,
                json!([]),
                json!(["meta"]),
            ),
        ),
        // The blocked list is replaced, sorted and deduplicated; walls list both networks.
        (
            json!({ "blocked_networks": ["meta", "google", "meta"] }),
            view(
                "shop",
                json!(5_000),
                json!(700),
                true,
                json!(["google", "meta"]),
                json!(["meta", "google"]),
            ),
        ),
        // Null removes a cap; the other stays; several fields at once.
        (
            json!({ "daily_caps": { "google": null }, "adult_adjacent": false, "blocked_networks": ["google"] }),
            view(
                "shop",
                Value::Null,
                json!(700),
                false,
                json!(["google"]),
                json!(["google"]),
            ),
        ),
        (
            json!({ "daily_caps": { "google": 100_000_000_000_i64, "meta": 1 }, "blocked_networks": [] }),
            view(
                "shop",
                json!(100_000_000_000_i64),
                json!(1),
                false,
                json!([]),
                json!([]),
            ),
        ),
    ];
    let mut before = defaults;
    for (index, (body, after)) in edits.iter().enumerate() {
        // The co-owner makes the last edit: any owner's session may.
        let by = if index == edits.len() - 1 {
            &co_owner
        } else {
            &owner
        };
        let answer = app
            .post("/products/shop/policy", Some(&by.token), body.clone())
            .await
            .expect(200)
            .clone();
        assert_eq!(&answer, after, "after {body}");
        assert_eq!(&product_policy(&app, &member.token, "shop").await, after);
        let updates = actions(&app, &owner.token, "policy.update").await;
        assert_eq!(updates.len(), index + 1);
        let update = updates.last().unwrap();
        assert_eq!(update["actor"], by.email.as_str());
        assert_eq!(update["via"], "dashboard");
        assert_eq!(update["product_slug"], "shop");
        assert_eq!(update["subject_ref"], product_id.as_str());
        assert_eq!(
            update["payload"],
            json!({ "before": before, "after": after })
        );
        before = after.clone();
    }
    // History filtered by product shows them too.
    let for_shop = app.history(&owner.token, "?product=shop&limit=1000").await;
    assert_eq!(
        for_shop
            .iter()
            .filter(|e| e["action"] == "policy.update")
            .count(),
        edits.len()
    );
}

async fn product_policy_access_and_errors(app: TestApp) {
    let (owner, key) = founder(&app).await;
    let member = app.add_member(&owner, "member@example.com", "member").await;
    let change = json!({ "daily_caps": { "google": 5_000 } });

    app.post("/products/shop/policy", Some(&key), change.clone())
        .await
        .expect_error(403, "Not an owner");
    app.post("/products/shop/policy", Some(&member.token), change.clone())
        .await
        .expect_error(403, "Not an owner");
    app.post("/products/shop/policy", None, change.clone())
        .await
        .expect_error(401, "bearer");
    app.get("/products/shop/policy", None)
        .await
        .expect_error(401, "bearer");
    app.get("/products/shop/policy", Some("svc_sess_nothing"))
        .await
        .expect_error(401, "session");

    let invalid = [
        (json!({}), "nothing to update"),
        (json!({ "daily_caps": {} }), "nothing to update"),
        (
            json!({ "daily_caps": { "google": 0 } }),
            "daily_caps.google",
        ),
        (
            json!({ "daily_caps": { "google": -1 } }),
            "daily_caps.google",
        ),
        (json!({ "daily_caps": { "meta": -5 } }), "daily_caps.meta"),
        (
            json!({ "daily_caps": { "google": 100_000_000_001_i64 } }),
            "daily_caps.google",
        ),
        // A valid meta cap does not save an invalid google one.
        (
            json!({ "daily_caps": { "meta": 10, "google": 0 } }),
            "daily_caps.google",
        ),
        (
            json!({ "daily_caps": { "google": "lots" } }),
            "daily_caps.google",
        ),
        (
            json!({ "daily_caps": { "google": 12.5 } }),
            "daily_caps.google",
        ),
        (json!({ "daily_caps": { "tiktok": 5 } }), "tiktok"),
        (json!({ "daily_caps": 5 }), "daily_caps"),
        (
            json!({ "blocked_networks": ["tiktok"] }),
            "blocked_networks",
        ),
        (json!({ "blocked_networks": "google" }), "blocked_networks"),
        (json!({ "adult_adjacent": "yes" }), "adult_adjacent"),
    ];
    for (body, needle) in invalid {
        let reply = app
            .post("/products/shop/policy", Some(&owner.token), body.clone())
            .await;
        assert_eq!(reply.status, 400, "{body} -> {}", reply.text);
        reply.expect_error(400, needle);
    }
    app.post_raw(
        "/products/shop/policy",
        Some(&owner.token),
        "application/json",
        "{\"daily_caps\": {",
    )
    .await
    .expect_error(400, "invalid JSON");

    // Unknown and other accounts' products answer 404, both ways.
    app.get("/products/nope/policy", Some(&key))
        .await
        .expect_error(404, "product");
    app.post("/products/nope/policy", Some(&owner.token), change.clone())
        .await
        .expect_error(404, "product");
    let stranger = app.signup_verified("stranger@example.com").await;
    let stranger_key = app.api_key(&stranger).await;
    app.create_product(&stranger.token, "theirs").await;
    for token in [&stranger.token, &stranger_key] {
        app.get("/products/shop/policy", Some(token))
            .await
            .expect_error(404, "product");
    }
    app.post(
        "/products/shop/policy",
        Some(&stranger.token),
        change.clone(),
    )
    .await
    .expect_error(404, "product");
    app.post(
        "/products/theirs/policy",
        Some(&owner.token),
        change.clone(),
    )
    .await
    .expect_error(404, "product");
    app.get("/products/theirs/policy", Some(&key))
        .await
        .expect_error(404, "product");

    // Nothing refused was written.
    assert_eq!(
        product_policy(&app, &key, "shop").await,
        view(
            "shop",
            Value::Null,
            Value::Null,
            false,
            json!([]),
            json!([])
        )
    );
    assert!(
        actions(&app, &owner.token, "policy.update")
            .await
            .is_empty()
    );
    assert!(
        actions(&app, &stranger.token, "policy.update")
            .await
            .is_empty()
    );
}

/// A misspelt policy field would otherwise be a silent no-op on a spending cap; it is refused
/// by name and the policy stays as it was.
async fn unknown_policy_fields_are_refused(app: TestApp) {
    let (owner, _key) = founder(&app).await;
    let before = product_policy(&app, &owner.token, "shop").await;
    app.post(
        "/products/shop/policy",
        Some(&owner.token),
        json!({ "daily_cap": { "google": 1 } }),
    )
    .await
    .expect_error(400, "daily_cap");
    assert_eq!(product_policy(&app, &owner.token, "shop").await, before);
    app.post(
        "/policy",
        Some(&owner.token),
        json!({ "portfolio_ceiling": 5_000 }),
    )
    .await
    .expect_error(400, "portfolio_ceiling");
}

backend_tests!(
    product_policy_defaults_and_owner_edits,
    product_policy_access_and_errors,
    unknown_policy_fields_are_refused,
);
