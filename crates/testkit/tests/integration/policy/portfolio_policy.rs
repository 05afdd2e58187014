//! GET/POST /policy: the portfolio defaults, owners' edits, access and 400s, per account.

use super::*;

async fn portfolio_policy_defaults_edits_and_errors(app: TestApp) {
    let (owner, key) = founder(&app).await;
    let member = app.add_member(&owner, "member@example.com", "member").await;
    let defaults = json!({
        "portfolio_ceiling_cents": null, "currency": "USD", "committed_daily_cents": 0, "budgets": [],
    });
    for token in [&owner.token, &member.token, &key] {
        assert_eq!(app.get("/policy", Some(token)).await.expect(200), &defaults);
    }

    let set = json!({ "portfolio_ceiling_cents": 10_000 });
    app.post("/policy", Some(&key), set.clone())
        .await
        .expect_error(403, "Not an owner");
    app.post("/policy", Some(&member.token), set.clone())
        .await
        .expect_error(403, "Not an owner");
    app.post("/policy", None, set.clone())
        .await
        .expect_error(401, "bearer");
    app.get("/policy", None).await.expect_error(401, "bearer");

    for (body, needle) in [
        (json!({}), "nothing to update"),
        (
            json!({ "portfolio_ceiling_cents": 0 }),
            "portfolio_ceiling_cents",
        ),
        (
            json!({ "portfolio_ceiling_cents": -10 }),
            "portfolio_ceiling_cents",
        ),
        (
            json!({ "portfolio_ceiling_cents": 100_000_000_001_i64 }),
            "portfolio_ceiling_cents",
        ),
        (
            json!({ "portfolio_ceiling_cents": "many" }),
            "portfolio_ceiling_cents",
        ),
        (json!({ "currency": "US" }), "currency"),
        (json!({ "currency": "USDX" }), "currency"),
        (json!({ "currency": "U$D" }), "currency"),
        (json!({ "currency": 840 }), "currency"),
        (
            json!({ "portfolio_ceiling_cents": 5_000, "currency": "US" }),
            "currency",
        ),
    ] {
        let reply = app.post("/policy", Some(&owner.token), body.clone()).await;
        assert_eq!(reply.status, 400, "{body} -> {}", reply.text);
        reply.expect_error(400, needle);
    }
    assert_eq!(app.get("/policy", Some(&key)).await.expect(200), &defaults);
    assert!(
        actions(&app, &owner.token, "policy.portfolio_update")
            .await
            .is_empty()
    );

    let steps = [
        (
            json!({ "portfolio_ceiling_cents": 10_000 }),
            json!({ "portfolio_ceiling_cents": 10_000, "currency": "USD" }),
        ),
        // Lower-case codes are stored upper-case; absent keeps the ceiling.
        (
            json!({ "currency": "eur" }),
            json!({ "portfolio_ceiling_cents": 10_000, "currency": "EUR" }),
        ),
        (
            json!({ "portfolio_ceiling_cents": null }),
            json!({ "portfolio_ceiling_cents": null, "currency": "EUR" }),
        ),
        (
            json!({ "portfolio_ceiling_cents": 2_500, "currency": "USD" }),
            json!({ "portfolio_ceiling_cents": 2_500, "currency": "USD" }),
        ),
    ];
    let mut before = json!({ "portfolio_ceiling_cents": null, "currency": "USD" });
    for (index, (body, after)) in steps.iter().enumerate() {
        let answer = app
            .post("/policy", Some(&owner.token), body.clone())
            .await
            .expect(200)
            .clone();
        assert_eq!(
            answer["portfolio_ceiling_cents"],
            after["portfolio_ceiling_cents"]
        );
        assert_eq!(answer["currency"], after["currency"]);
        assert_eq!(answer["committed_daily_cents"], 0);
        assert_eq!(answer["budgets"], json!([]));
        assert_eq!(
            app.get("/policy", Some(&member.token)).await.expect(200),
            &answer
        );
        let updates = actions(&app, &owner.token, "policy.portfolio_update").await;
        assert_eq!(updates.len(), index + 1);
        let update = updates.last().unwrap();
        assert_eq!(update["actor"], OWNER);
        assert_eq!(update["via"], "dashboard");
        assert_eq!(update["product_slug"], Value::Null);
        assert_eq!(
            update["payload"],
            json!({ "before": before, "after": after })
        );
        before = after.clone();
    }

    // Another account's ceiling is its own: the stranger reads defaults, and its change does
    // not touch ours.
    let stranger = app.signup_verified("stranger@example.com").await;
    assert_eq!(
        app.get("/policy", Some(&stranger.token)).await.expect(200),
        &defaults
    );
    app.post(
        "/policy",
        Some(&stranger.token),
        json!({ "portfolio_ceiling_cents": 1 }),
    )
    .await
    .expect(200);
    assert_eq!(
        app.get("/policy", Some(&key)).await.expect(200)["portfolio_ceiling_cents"],
        2_500
    );
    assert_eq!(
        actions(&app, &owner.token, "policy.portfolio_update")
            .await
            .len(),
        steps.len()
    );
}

backend_tests!(portfolio_policy_defaults_edits_and_errors);
