//! What POST /distribution and the list refuse: 400 naming the field, malformed JSON, 401
//! without a bearer, 404 for unknown and other accounts' products; blank text and unsafe links.

use super::*;

async fn distribution_errors(app: TestApp) {
    let (owner, key) = founder(&app).await;
    let valid = json!({ "productSlug": "shop", "channel": "x", "kind": "post" });
    let with = |field: &str, value: Value| {
        let mut body = valid.clone();
        body[field] = value;
        body
    };
    let bad = [
        (json!({ "channel": "x", "kind": "post" }), "productSlug"),
        (with("productSlug", json!("")), "productSlug"),
        (with("productSlug", json!("s".repeat(61))), "productSlug"),
        (json!({ "productSlug": "shop", "kind": "post" }), "channel"),
        (with("channel", json!("")), "channel"),
        (with("channel", json!("c".repeat(81))), "channel"),
        (json!({ "productSlug": "shop", "channel": "x" }), "kind"),
        (with("kind", json!("")), "kind"),
        (with("kind", json!("k".repeat(81))), "kind"),
        (with("url", json!("not a url")), "url"),
        (
            with("url", json!(format!("https://e.com/{}", "p".repeat(2000)))),
            "url",
        ),
        (with("utmCampaign", json!("")), "utmCampaign"),
        (with("utmCampaign", json!("c".repeat(201))), "utmCampaign"),
        (with("note", json!("n".repeat(2001))), "note"),
        (with("channel", json!(5)), "channel"),
    ];
    for (body, field) in bad {
        let reply = app.post("/distribution", Some(&key), body.clone()).await;
        reply.expect_error(400, field);
        assert!(
            reply.body["error"].as_str().unwrap().contains(field),
            "{body} -> {}",
            reply.text
        );
    }
    // The limits themselves pass.
    let at_limits = json!({
        "productSlug": "shop", "channel": "c".repeat(80), "kind": "k".repeat(80),
        "url": "https://example.com/launch", "utmCampaign": "u".repeat(200), "note": "n".repeat(2000),
    });
    let id = record(&app, &key, at_limits).await;

    app.post_raw(
        "/distribution",
        Some(&key),
        "application/json",
        "{\"productSlug\": ",
    )
    .await
    .expect_error(400, "invalid JSON");
    app.post_raw("/distribution", Some(&key), "application/json", "{nope}")
        .await
        .expect_error(400, "invalid JSON");
    app.post_raw("/distribution", Some(&key), "text/plain", valid.to_string())
        .await
        .expect_error(415, "JSON");
    app.post("/distribution", None, valid.clone())
        .await
        .expect_error(401, "bearer");
    app.post("/distribution", Some("svc_live_nothing"), valid.clone())
        .await
        .expect_error(401, "API key");
    app.get("/products/shop/distribution", None)
        .await
        .expect_error(401, "bearer");
    app.post(
        "/distribution",
        Some(&key),
        with("productSlug", json!("nope")),
    )
    .await
    .expect_error(404, "product");
    app.get("/products/nope/distribution", Some(&key))
        .await
        .expect_error(404, "product");
    for query in ["?days=0", "?days=3651"] {
        app.get(&format!("/products/shop/distribution{query}"), Some(&key))
            .await
            .expect_error(400, "days");
    }
    for query in ["?limit=0", "?limit=1001"] {
        app.get(&format!("/products/shop/distribution{query}"), Some(&key))
            .await
            .expect_error(400, "limit");
    }

    // Another account: its session and key see none of `shop`, and `shop`'s owner none of
    // theirs.
    let stranger = app.signup_verified("stranger@example.com").await;
    let stranger_key = app.api_key(&stranger).await;
    app.create_product(&stranger.token, "theirs").await;
    let theirs = record(
        &app,
        &stranger_key,
        json!({ "productSlug": "theirs", "channel": "x", "kind": "post" }),
    )
    .await;
    for token in [&stranger.token, &stranger_key] {
        app.post("/distribution", Some(token), valid.clone())
            .await
            .expect_error(404, "product");
        app.get("/products/shop/distribution", Some(token))
            .await
            .expect_error(404, "product");
    }
    for token in [&owner.token, &key] {
        app.post(
            "/distribution",
            Some(token),
            with("productSlug", json!("theirs")),
        )
        .await
        .expect_error(404, "product");
        app.get("/products/theirs/distribution", Some(token))
            .await
            .expect_error(404, "product");
    }
    assert_eq!(
        ids(&app
            .get("/products/theirs/distribution", Some(&stranger.token))
            .await
            .expect(200)
            .clone()),
        vec![theirs]
    );

    // Nothing refused was written.
    assert_eq!(ids(&list(&app, &owner.token, "").await), vec![id]);
    let created = app
        .history(&owner.token, "?product=shop")
        .await
        .into_iter()
        .filter(|e| e["action"] == "distribution.create")
        .count();
    assert_eq!(created, 1);
}

/// Whitespace-only `channel`, `kind` or `utmCampaign` is refused like empty text, and a link
/// the dashboard would open must be http(s); nothing refused is stored.
async fn blank_text_and_unsafe_links_are_refused(app: TestApp) {
    let (owner, key) = founder(&app).await;
    let refused = [
        (
            json!({ "productSlug": "shop", "channel": "   ", "kind": "post" }),
            "channel",
        ),
        (
            json!({ "productSlug": "shop", "channel": "reddit", "kind": " \t " }),
            "kind",
        ),
        (
            json!({ "productSlug": "shop", "channel": "reddit", "kind": "post", "utmCampaign": "  " }),
            "utmCampaign",
        ),
        (
            json!({ "productSlug": "shop", "channel": "reddit", "kind": "post", "url": "javascript:alert(1)" }),
            "url",
        ),
        (
            json!({ "productSlug": "shop", "channel": "reddit", "kind": "post", "url": "file:///etc/passwd" }),
            "url",
        ),
    ];
    for (body, field) in refused {
        app.post("/distribution", Some(&key), body)
            .await
            .expect_error(400, field);
    }
    assert!(ids(&list(&app, &owner.token, "").await).is_empty());
    let https = json!({ "productSlug": "shop", "channel": "reddit", "kind": "post", "url": "HTTPS://example.com/p" });
    let id = record(&app, &key, https).await;
    assert_eq!(ids(&list(&app, &owner.token, "").await), vec![id]);
}

backend_tests!(distribution_errors, blank_text_and_unsafe_links_are_refused);
