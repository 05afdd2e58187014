#![allow(clippy::unwrap_used)]
//! The policy engine at the boundary: GET/POST /products/{slug}/policy and /policy (owners'
//! sessions only, audited), proposals refused with 422 and a `policy_code` (no card, a
//! `proposal.policy_block` event), approvals refused with 403 (the card waits), for caps, walls,
//! the portfolio ceiling and its currency.

use payback_testkit::{Reply, Session, TestApp, backend_tests};
use serde_json::{Value, json};

const OWNER: &str = "owner@example.com";

async fn founder(app: &TestApp) -> (Session, String) {
    let owner = app.signup_verified(OWNER).await;
    app.create_product(&owner.token, "shop").await;
    let key = app.api_key(&owner).await;
    (owner, key)
}

fn spend_change(network: &str, to_cents: i64) -> Value {
    json!({ "network": network, "to_cents": to_cents, "rationale": "Room to grow on this network." })
}

async fn propose(app: &TestApp, token: &str, slug: &str, body: Value) -> Reply {
    app.post(&format!("/products/{slug}/proposals"), Some(token), body)
        .await
}

#[track_caller]
fn refused(reply: &Reply, status: u16, code: &str) {
    reply.expect_error(status, "");
    assert_eq!(reply.body["policy_code"], code, "{}", reply.text);
}

async fn product_policy_is_read_by_all_and_set_by_owners(app: TestApp) {
    let (owner, key) = founder(&app).await;
    let member = app.add_member(&owner, "member@example.com", "member").await;
    let defaults = app
        .get("/products/shop/policy", Some(&key))
        .await
        .expect(200)
        .clone();
    assert_eq!(
        defaults,
        json!({
            "product_slug": "shop", "currency": "USD", "daily_caps": { "google": null, "meta": null },
            "adult_adjacent": false, "blocked_networks": [], "walled_networks": [],
        })
    );
    let change = json!({ "daily_caps": { "google": 5_000 }, "adult_adjacent": true, "blocked_networks": ["google"] });
    app.post("/products/shop/policy", Some(&key), change.clone())
        .await
        .expect_error(403, "Not an owner");
    app.post("/products/shop/policy", Some(&member.token), change.clone())
        .await
        .expect_error(403, "Not an owner");
    app.post("/products/shop/policy", None, change.clone())
        .await
        .expect_error(401, "bearer");
    let set = app
        .post("/products/shop/policy", Some(&owner.token), change)
        .await
        .expect(200)
        .clone();
    assert_eq!(set["daily_caps"], json!({ "google": 5_000, "meta": null }));
    assert_eq!(set["walled_networks"], json!(["meta", "google"]));
    // Absent keeps, null removes.
    let cleared = json!({ "daily_caps": { "google": null, "meta": 700 }, "blocked_networks": [] });
    let after = app
        .post("/products/shop/policy", Some(&owner.token), cleared)
        .await
        .expect(200)
        .clone();
    assert_eq!(after["daily_caps"], json!({ "google": null, "meta": 700 }));
    assert_eq!(after["adult_adjacent"], true);
    assert_eq!(
        app.get("/products/shop/policy", Some(&member.token))
            .await
            .expect(200)
            .clone(),
        after
    );

    let updates: Vec<Value> = app
        .history(&owner.token, "?product=shop")
        .await
        .into_iter()
        .filter(|e| e["action"] == "policy.update")
        .collect();
    assert_eq!(updates.len(), 2);
    assert_eq!(updates[0]["actor"], OWNER);
    assert_eq!(updates[0]["via"], "dashboard");
    assert_eq!(
        updates[0]["payload"]["before"]["daily_caps"]["google"],
        5_000
    );
    assert_eq!(updates[0]["payload"]["after"]["daily_caps"]["meta"], 700);

    let invalid = [
        (json!({}), "nothing to update"),
        (
            json!({ "daily_caps": { "google": 0 } }),
            "daily_caps.google",
        ),
        (json!({ "daily_caps": { "meta": -5 } }), "daily_caps.meta"),
        (json!({ "daily_caps": { "google": "lots" } }), "google"),
        (json!({ "daily_caps": { "tiktok": 5 } }), "tiktok"),
        (
            json!({ "blocked_networks": ["tiktok"] }),
            "blocked_networks",
        ),
        (json!({ "adult_adjacent": "yes" }), "adult_adjacent"),
    ];
    for (body, needle) in invalid {
        app.post("/products/shop/policy", Some(&owner.token), body)
            .await
            .expect_error(400, needle);
    }
    let stranger = app.signup_verified("stranger@example.com").await;
    app.get("/products/shop/policy", Some(&stranger.token))
        .await
        .expect_error(404, "product");
    app.post(
        "/products/shop/policy",
        Some(&stranger.token),
        json!({ "adult_adjacent": true }),
    )
    .await
    .expect_error(404, "product");
}

async fn proposals_over_a_cap_or_behind_a_wall_are_refused(app: TestApp) {
    let (owner, key) = founder(&app).await;
    let caps = json!({ "daily_caps": { "google": 5_000 }, "adult_adjacent": true });
    app.post("/products/shop/policy", Some(&owner.token), caps)
        .await
        .expect(200);

    refused(
        &propose(&app, &key, "shop", spend_change("google", 5_001)).await,
        422,
        "daily_cap_exceeded",
    );
    refused(
        &propose(&app, &key, "shop", spend_change("meta", 100)).await,
        422,
        "network_wall",
    );
    assert!(app.queue(&owner.token).await.is_empty());
    let blocks: Vec<Value> = app
        .history(&owner.token, "?product=shop")
        .await
        .into_iter()
        .filter(|e| e["action"] == "proposal.policy_block")
        .collect();
    assert_eq!(blocks.len(), 2);
    assert!(
        blocks.iter().all(|e| e["actor"] == "policy"
            && e["via"] == "api"
            && e["card_type"] == "policy_block")
    );
    let codes: Vec<&str> = blocks
        .iter()
        .map(|e| e["payload"]["policy_code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, vec!["network_wall", "daily_cap_exceeded"]);
    assert_eq!(blocks[1]["payload"]["proposed_by"], "keeper");
    assert_eq!(blocks[1]["payload"]["to_cents"], 5_001);

    // A cap equal to the proposal passes.
    propose(&app, &key, "shop", spend_change("google", 5_000))
        .await
        .expect(202);
    assert_eq!(app.queue(&owner.token).await.len(), 1);

    // Input rules answer 400 naming the field, before any policy is consulted.
    let invalid = [
        (
            json!({ "network": "google", "to_cents": 100, "rationale": "too short" }),
            "rationale",
        ),
        (
            json!({ "network": "google", "to_cents": 0, "rationale": "Room to grow on this network." }),
            "to_cents",
        ),
        (
            json!({ "network": "tiktok", "to_cents": 10, "rationale": "Room to grow on this network." }),
            "network",
        ),
        (
            json!({ "network": "google", "to_cents": 10, "from_cents": -1, "rationale": "Room to grow on this network." }),
            "from_cents",
        ),
        (
            json!({ "network": "google", "to_cents": 10, "rationale": "Room to grow on this network.", "headline": "h".repeat(91) }),
            "headline",
        ),
        (
            json!({ "network": "google", "to_cents": 10, "rationale": "Room to grow on this network.", "rollback_if": [1] }),
            "rollback_if",
        ),
        (
            json!({ "network": "google", "rationale": "Room to grow on this network." }),
            "to_cents",
        ),
    ];
    for (body, field) in invalid {
        propose(&app, &key, "shop", body)
            .await
            .expect_error(400, field);
    }
    propose(&app, &key, "nope", spend_change("google", 10))
        .await
        .expect_error(404, "product");
    let stranger = app.signup_verified("stranger@example.com").await;
    propose(&app, &stranger.token, "shop", spend_change("google", 10))
        .await
        .expect_error(404, "product");
    propose(&app, "svc_live_nothing", "shop", spend_change("google", 10))
        .await
        .expect_error(401, "API key");
    assert_eq!(app.queue(&owner.token).await.len(), 1);
}

async fn approval_rechecks_the_policy(app: TestApp) {
    let (owner, key) = founder(&app).await;
    let reply = propose(&app, &key, "shop", spend_change("google", 5_000)).await;
    let id = reply.expect(202)["proposal_id"]
        .as_str()
        .unwrap()
        .to_owned();
    // The owners tighten the cap while the card waits.
    let caps = json!({ "daily_caps": { "google": 4_000 } });
    app.post("/products/shop/policy", Some(&owner.token), caps)
        .await
        .expect(200);
    let approve = app
        .post(
            &format!("/queue/{id}/approve"),
            Some(&owner.token),
            json!({}),
        )
        .await;
    refused(&approve, 403, "daily_cap_exceeded");
    let waiting = app.queue(&owner.token).await;
    assert_eq!(waiting.len(), 1);
    assert_eq!(waiting[0]["id"], id.as_str());
    let refusal = app
        .history(&owner.token, "?product=shop")
        .await
        .into_iter()
        .find(|e| e["action"] == "card.approve_refused")
        .unwrap();
    assert_eq!(refusal["actor"], "policy");
    assert_eq!(refusal["payload"]["attempted_by"], OWNER);
    assert_eq!(refusal["subject_ref"], id.as_str());
    // Loosened again, the same card is approved.
    let caps = json!({ "daily_caps": { "google": 6_000 } });
    app.post("/products/shop/policy", Some(&owner.token), caps)
        .await
        .expect(200);
    app.post(
        &format!("/queue/{id}/approve"),
        Some(&owner.token),
        json!({}),
    )
    .await
    .expect(200);
}

async fn the_portfolio_ceiling_sums_approved_budgets(app: TestApp) {
    let (owner, key) = founder(&app).await;
    app.create_product(&owner.token, "side").await;
    let euro = json!({ "name": "Euro", "slug": "euro", "currency": "EUR" });
    app.post("/products", Some(&owner.token), euro)
        .await
        .expect(200);
    let defaults = app.get("/policy", Some(&key)).await.expect(200).clone();
    assert_eq!(
        defaults,
        json!({ "portfolio_ceiling_cents": null, "currency": "USD", "committed_daily_cents": 0, "budgets": [] })
    );
    app.post(
        "/policy",
        Some(&key),
        json!({ "portfolio_ceiling_cents": 10_000 }),
    )
    .await
    .expect_error(403, "Not an owner");
    let set = app
        .post(
            "/policy",
            Some(&owner.token),
            json!({ "portfolio_ceiling_cents": 10_000 }),
        )
        .await
        .expect(200)
        .clone();
    assert_eq!(set["portfolio_ceiling_cents"], 10_000);

    let reply = propose(&app, &key, "shop", spend_change("google", 6_000)).await;
    let id = reply.expect(202)["proposal_id"]
        .as_str()
        .unwrap()
        .to_owned();
    app.post(
        &format!("/queue/{id}/approve"),
        Some(&owner.token),
        json!({}),
    )
    .await
    .expect(200);
    refused(
        &propose(&app, &key, "side", spend_change("google", 4_001)).await,
        422,
        "portfolio_ceiling_exceeded",
    );
    propose(&app, &key, "side", spend_change("google", 4_000))
        .await
        .expect(202);
    // Replacing a product's own budget does not count it twice.
    propose(&app, &key, "shop", spend_change("google", 10_000))
        .await
        .expect(202);
    refused(
        &propose(&app, &key, "euro", spend_change("google", 1)).await,
        422,
        "portfolio_currency_mismatch",
    );

    let policy = app.get("/policy", Some(&key)).await.expect(200).clone();
    assert_eq!(policy["committed_daily_cents"], 6_000);
    assert_eq!(policy["budgets"][0]["product_slug"], "shop");
    let update = app
        .history(&owner.token, "?limit=100")
        .await
        .into_iter()
        .find(|e| e["action"] == "policy.portfolio_update")
        .unwrap();
    assert_eq!(
        update["payload"]["after"]["portfolio_ceiling_cents"],
        10_000
    );
    for (body, needle) in [
        (json!({}), "nothing to update"),
        (
            json!({ "portfolio_ceiling_cents": 0 }),
            "portfolio_ceiling_cents",
        ),
        (json!({ "currency": "US" }), "currency"),
    ] {
        app.post("/policy", Some(&owner.token), body)
            .await
            .expect_error(400, needle);
    }
    // Removing the ceiling lets the euro product propose.
    app.post(
        "/policy",
        Some(&owner.token),
        json!({ "portfolio_ceiling_cents": null }),
    )
    .await
    .expect(200);
    propose(&app, &key, "euro", spend_change("google", 1))
        .await
        .expect(202);
}

backend_tests!(
    product_policy_is_read_by_all_and_set_by_owners,
    proposals_over_a_cap_or_behind_a_wall_are_refused,
    approval_rechecks_the_policy,
    the_portfolio_ceiling_sums_approved_budgets,
);
