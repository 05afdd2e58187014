#![allow(clippy::unwrap_used)]
//! The policy settings and the policy engine at the HTTP boundary: GET/POST
//! /products/{slug}/policy and GET/POST /policy (defaults, owners' sessions only: API keys and
//! members 403, no bearer 401; absent keeps, null removes; every change a `policy.update` or
//! `policy.portfolio_update` history event with before and after; 400s naming the field; other
//! accounts' products 404), then the proposal path: caps (inclusive), walls (adult-adjacent,
//! blocked), the portfolio ceiling and its currency refuse with 422 `{error, policy_code}`, no
//! card and a `proposal.policy_block` event by `policy`; approval re-checks the policy (403 with
//! `policy_code`, the card waits, `card.approve_refused`); proposal input rules answer 400
//! naming the field.

use payback_testkit::{Reply, Session, TestApp, backend_tests};
use serde_json::{Value, json};

const OWNER: &str = "owner@example.com";
const RATIONALE: &str = "Search CAC is under target; room to grow.";

async fn founder(app: &TestApp) -> (Session, String) {
    let owner = app.signup_verified(OWNER).await;
    app.create_product(&owner.token, "shop").await;
    let key = app.api_key(&owner).await;
    (owner, key)
}

fn spend_change(network: &str, to_cents: i64) -> Value {
    json!({ "network": network, "to_cents": to_cents, "rationale": RATIONALE })
}

async fn propose(app: &TestApp, token: &str, slug: &str, body: Value) -> Reply {
    app.post(&format!("/products/{slug}/proposals"), Some(token), body)
        .await
}

/// A 202 with exactly `{proposal_id, status: "pending_human", expires_in_hours: 72}`; the id.
#[track_caller]
fn accepted(reply: &Reply) -> String {
    let body = reply.expect(202);
    let id = body["proposal_id"].as_str().unwrap().to_owned();
    assert_eq!(
        body,
        &json!({ "proposal_id": id, "status": "pending_human", "expires_in_hours": 72 })
    );
    id
}

/// A policy refusal: `status`, exactly `{error, policy_code}`, and the code.
#[track_caller]
fn refused(reply: &Reply, status: u16, code: &str) {
    reply.expect_error(status, "");
    assert_eq!(reply.body["policy_code"], code, "{}", reply.text);
    let keys: Vec<&String> = reply.body.as_object().unwrap().keys().collect();
    assert_eq!(keys, vec!["error", "policy_code"], "{}", reply.text);
}

async fn approve(app: &TestApp, owner: &Session, id: &str) -> Reply {
    app.post(
        &format!("/queue/{id}/approve"),
        Some(&owner.token),
        json!({}),
    )
    .await
}

async fn queue_ids(app: &TestApp, token: &str) -> Vec<String> {
    app.queue(token)
        .await
        .iter()
        .map(|c| c["id"].as_str().unwrap().to_owned())
        .collect()
}

/// History events with `action`, oldest first.
async fn actions(app: &TestApp, token: &str, action: &str) -> Vec<Value> {
    app.history_where(token, |e| e["action"] == action).await
}

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

async fn caps_and_walls_refuse_proposals(app: TestApp) {
    let (owner, key) = founder(&app).await;
    app.post(
        "/products/shop/policy",
        Some(&owner.token),
        json!({ "daily_caps": { "google": 5_000 } }),
    )
    .await
    .expect(200);

    // One cent over the cap: 422, no card, a block event by `policy`.
    let over = propose(&app, &key, "shop", spend_change("google", 5_001)).await;
    refused(&over, 422, "daily_cap_exceeded");
    assert!(queue_ids(&app, &owner.token).await.is_empty());
    let blocks = actions(&app, &owner.token, "proposal.policy_block").await;
    assert_eq!(blocks.len(), 1);
    let block = &blocks[0];
    assert_eq!(block["actor"], "policy");
    assert_eq!(block["via"], "api");
    assert_eq!(block["product_slug"], "shop");
    assert_eq!(block["card_type"], "policy_block");
    assert_eq!(block["payload"]["policy_code"], "daily_cap_exceeded");
    assert_eq!(block["payload"]["proposed_by"], "keeper");
    assert_eq!(block["payload"]["network"], "google");
    assert_eq!(block["payload"]["to_cents"], 5_001);
    assert_eq!(block["payload"]["rationale"], RATIONALE);
    assert_eq!(block["payload"]["reason"], over.body["error"]);
    assert!(
        actions(&app, &owner.token, "proposal.create")
            .await
            .is_empty()
    );

    // Equal to the cap passes; a card waits; the google cap does not limit meta.
    let at_cap = accepted(&propose(&app, &key, "shop", spend_change("google", 5_000)).await);
    let meta = accepted(&propose(&app, &key, "shop", spend_change("meta", 900_000)).await);
    let queue = app.queue(&owner.token).await;
    assert_eq!(queue.len(), 2);
    let card = queue.iter().find(|c| c["id"] == at_cap.as_str()).unwrap();
    assert_eq!(card["status"], "pending");
    assert_eq!(card["product_slug"], "shop");
    assert_eq!(card["action_spec"]["to_cents"], 5_000);
    assert_eq!(card["action_spec"]["network"], "google");
    assert!(queue.iter().any(|c| c["id"] == meta.as_str()));

    // Adult-adjacent walls meta, ahead of any cap; google still fits its cap.
    app.post(
        "/products/shop/policy",
        Some(&owner.token),
        json!({ "adult_adjacent": true, "daily_caps": { "meta": 1 } }),
    )
    .await
    .expect(200);
    refused(
        &propose(&app, &owner.token, "shop", spend_change("meta", 100)).await,
        422,
        "network_wall",
    );
    accepted(&propose(&app, &key, "shop", spend_change("google", 10)).await);
    // A blocked network is walled too, even under its cap; the wall comes before the cap.
    app.post(
        "/products/shop/policy",
        Some(&owner.token),
        json!({ "adult_adjacent": false, "blocked_networks": ["google"] }),
    )
    .await
    .expect(200);
    refused(
        &propose(&app, &key, "shop", spend_change("google", 10)).await,
        422,
        "network_wall",
    );
    refused(
        &propose(&app, &key, "shop", spend_change("google", 999_999)).await,
        422,
        "network_wall",
    );
    // Meta is open again but capped at 1 cent.
    refused(
        &propose(&app, &key, "shop", spend_change("meta", 2)).await,
        422,
        "daily_cap_exceeded",
    );
    accepted(&propose(&app, &key, "shop", spend_change("meta", 1)).await);

    assert_eq!(queue_ids(&app, &owner.token).await.len(), 4);
    let codes: Vec<(String, Value)> = actions(&app, &owner.token, "proposal.policy_block")
        .await
        .iter()
        .map(|e| {
            (
                e["payload"]["policy_code"].as_str().unwrap().to_owned(),
                e["payload"]["proposed_by"].clone(),
            )
        })
        .collect();
    assert_eq!(
        codes,
        vec![
            ("daily_cap_exceeded".to_owned(), json!("keeper")),
            ("network_wall".to_owned(), json!(OWNER)),
            ("network_wall".to_owned(), json!("keeper")),
            ("network_wall".to_owned(), json!("keeper")),
            ("daily_cap_exceeded".to_owned(), json!("keeper")),
        ]
    );
    // The session's block is recorded via the dashboard.
    let by_session = &actions(&app, &owner.token, "proposal.policy_block").await[1];
    assert_eq!(by_session["actor"], "policy");
    assert_eq!(by_session["via"], "dashboard");
    assert_eq!(
        actions(&app, &owner.token, "proposal.create").await.len(),
        4
    );
}

async fn portfolio_ceiling_and_currency(app: TestApp) {
    let (owner, key) = founder(&app).await;
    app.create_product(&owner.token, "side").await;
    app.post(
        "/products",
        Some(&owner.token),
        json!({ "name": "Euro", "slug": "euro", "currency": "EUR" }),
    )
    .await
    .expect(200);
    app.post(
        "/policy",
        Some(&owner.token),
        json!({ "portfolio_ceiling_cents": 10_000 }),
    )
    .await
    .expect(200);

    // 6000 approved on shop/google.
    let first = accepted(&propose(&app, &key, "shop", spend_change("google", 6_000)).await);
    approve(&app, &owner, &first).await.expect(200);
    // Another product: 6000 + 5000 is over 10000; 6000 + 4000 is exactly the ceiling.
    refused(
        &propose(&app, &key, "side", spend_change("google", 5_000)).await,
        422,
        "portfolio_ceiling_exceeded",
    );
    refused(
        &propose(&app, &key, "side", spend_change("google", 4_001)).await,
        422,
        "portfolio_ceiling_exceeded",
    );
    let side = accepted(&propose(&app, &key, "side", spend_change("google", 4_000)).await);
    // Another network of the same product counts the 6000 too.
    refused(
        &propose(&app, &key, "shop", spend_change("meta", 4_001)).await,
        422,
        "portfolio_ceiling_exceeded",
    );
    let shop_meta = accepted(&propose(&app, &key, "shop", spend_change("meta", 4_000)).await);
    // Replacing shop/google's own budget does not count the 6000 twice.
    let replace = accepted(&propose(&app, &key, "shop", spend_change("google", 10_000)).await);
    refused(
        &propose(&app, &key, "shop", spend_change("google", 10_001)).await,
        422,
        "portfolio_ceiling_exceeded",
    );
    // A EUR product cannot be summed with a USD ceiling, whatever the amount.
    refused(
        &propose(&app, &key, "euro", spend_change("google", 1)).await,
        422,
        "portfolio_currency_mismatch",
    );
    let blocks = actions(&app, &owner.token, "proposal.policy_block").await;
    let codes: Vec<&str> = blocks
        .iter()
        .map(|e| e["payload"]["policy_code"].as_str().unwrap())
        .collect();
    assert_eq!(
        codes,
        vec![
            "portfolio_ceiling_exceeded",
            "portfolio_ceiling_exceeded",
            "portfolio_ceiling_exceeded",
            "portfolio_ceiling_exceeded",
            "portfolio_currency_mismatch",
        ]
    );
    assert!(blocks.iter().all(|e| e["actor"] == "policy"));
    assert_eq!(blocks[4]["product_slug"], "euro");

    // Approving side's 4000 fills the ceiling; shop/meta's 4000, which fitted when raised, is
    // refused at approval and waits.
    approve(&app, &owner, &side).await.expect(200);
    refused(
        &approve(&app, &owner, &shop_meta).await,
        403,
        "portfolio_ceiling_exceeded",
    );
    assert!(queue_ids(&app, &owner.token).await.contains(&shop_meta));
    // Replacing shop/google's 6000 with 10000 would make 14000: refused too.
    refused(
        &approve(&app, &owner, &replace).await,
        403,
        "portfolio_ceiling_exceeded",
    );
    let refusals = actions(&app, &owner.token, "card.approve_refused").await;
    assert_eq!(refusals.len(), 2);
    assert_eq!(refusals[0]["subject_ref"], shop_meta.as_str());
    assert_eq!(refusals[0]["actor"], "policy");
    assert_eq!(refusals[0]["payload"]["attempted_by"], OWNER);
    assert_eq!(
        refusals[0]["payload"]["policy_code"],
        "portfolio_ceiling_exceeded"
    );

    let policy = app.get("/policy", Some(&key)).await.expect(200).clone();
    assert_eq!(policy["portfolio_ceiling_cents"], 10_000);
    assert_eq!(policy["committed_daily_cents"], 6_000 + 4_000);
    let budgets: Vec<(Value, Value, Value, Value, Value)> = policy["budgets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            (
                b["product_slug"].clone(),
                b["network"].clone(),
                b["currency"].clone(),
                b["daily_cents"].clone(),
                b["card_id"].clone(),
            )
        })
        .collect();
    assert_eq!(
        budgets,
        vec![
            (
                json!("shop"),
                json!("google"),
                json!("USD"),
                json!(6_000),
                json!(first)
            ),
            (
                json!("side"),
                json!("google"),
                json!("USD"),
                json!(4_000),
                json!(side)
            ),
        ]
    );

    // A ceiling in EUR: the euro product may propose within it; USD products may not.
    app.post(
        "/policy",
        Some(&owner.token),
        json!({ "currency": "EUR", "portfolio_ceiling_cents": 300 }),
    )
    .await
    .expect(200);
    accepted(&propose(&app, &key, "euro", spend_change("google", 300)).await);
    refused(
        &propose(&app, &key, "euro", spend_change("google", 301)).await,
        422,
        "portfolio_ceiling_exceeded",
    );
    refused(
        &propose(&app, &key, "shop", spend_change("google", 1)).await,
        422,
        "portfolio_currency_mismatch",
    );
    // No ceiling: no limit from the engine.
    app.post(
        "/policy",
        Some(&owner.token),
        json!({ "portfolio_ceiling_cents": null }),
    )
    .await
    .expect(200);
    accepted(&propose(&app, &key, "shop", spend_change("google", 100_000_000_000)).await);
}

async fn approval_rechecks_caps_and_walls(app: TestApp) {
    let (owner, key) = founder(&app).await;
    let id = accepted(&propose(&app, &key, "shop", spend_change("google", 5_000)).await);
    app.post(
        "/products/shop/policy",
        Some(&owner.token),
        json!({ "daily_caps": { "google": 4_000 } }),
    )
    .await
    .expect(200);
    refused(&approve(&app, &owner, &id).await, 403, "daily_cap_exceeded");
    let queue = app.queue(&owner.token).await;
    assert_eq!(queue.len(), 1);
    assert_eq!(queue[0]["id"], id.as_str());
    assert_eq!(queue[0]["status"], "pending");
    let refusals = actions(&app, &owner.token, "card.approve_refused").await;
    assert_eq!(refusals.len(), 1);
    assert_eq!(refusals[0]["actor"], "policy");
    assert_eq!(refusals[0]["via"], "dashboard");
    assert_eq!(refusals[0]["subject_ref"], id.as_str());
    assert_eq!(refusals[0]["payload"]["attempted_by"], OWNER);
    assert_eq!(refusals[0]["payload"]["policy_code"], "daily_cap_exceeded");
    assert!(actions(&app, &owner.token, "card.approve").await.is_empty());
    assert_eq!(
        app.get("/policy", Some(&key)).await.expect(200)["budgets"],
        json!([])
    );

    // Blocked while it waits: the wall refuses the approval too.
    app.post(
        "/products/shop/policy",
        Some(&owner.token),
        json!({ "daily_caps": { "google": null }, "blocked_networks": ["google"] }),
    )
    .await
    .expect(200);
    refused(&approve(&app, &owner, &id).await, 403, "network_wall");
    assert_eq!(queue_ids(&app, &owner.token).await, vec![id.clone()]);

    // With the wall gone and a cap equal to the proposal, the same card is approved.
    app.post(
        "/products/shop/policy",
        Some(&owner.token),
        json!({ "daily_caps": { "google": 5_000 }, "blocked_networks": [] }),
    )
    .await
    .expect(200);
    approve(&app, &owner, &id).await.expect(200);
    assert!(queue_ids(&app, &owner.token).await.is_empty());
    assert_eq!(actions(&app, &owner.token, "card.approve").await.len(), 1);
    assert_eq!(
        actions(&app, &owner.token, "card.approve_refused")
            .await
            .len(),
        2
    );
    let policy = app.get("/policy", Some(&key)).await.expect(200).clone();
    assert_eq!(policy["committed_daily_cents"], 5_000);
    assert_eq!(policy["budgets"][0]["card_id"], id.as_str());
}

async fn proposal_input_errors(app: TestApp) {
    let (owner, key) = founder(&app).await;
    let with = |field: &str, value: Value| {
        let mut body = spend_change("google", 1_000);
        body[field] = value;
        body
    };
    let invalid = [
        (with("rationale", json!("x".repeat(9))), "rationale"),
        (with("rationale", json!("x".repeat(2001))), "rationale"),
        (json!({ "network": "google", "to_cents": 10 }), "rationale"),
        (with("to_cents", json!(0)), "to_cents"),
        (with("to_cents", json!(-100)), "to_cents"),
        (with("to_cents", json!(100_000_000_001_i64)), "to_cents"),
        (with("to_cents", json!("ten")), "to_cents"),
        (
            json!({ "network": "google", "rationale": RATIONALE }),
            "to_cents",
        ),
        (with("network", json!("tiktok")), "network"),
        (json!({ "to_cents": 10, "rationale": RATIONALE }), "network"),
        (with("headline", json!("h".repeat(91))), "headline"),
        (with("headline", json!("")), "headline"),
        (with("rollback_if", json!([1])), "rollback_if"),
        (with("rollback_if", json!("cac > 40")), "rollback_if"),
        (with("from_cents", json!(-1)), "from_cents"),
        (with("campaign_id", json!("")), "campaign_id"),
        (with("campaign_id", json!("c".repeat(201))), "campaign_id"),
    ];
    for (body, field) in invalid {
        let reply = propose(&app, &key, "shop", body.clone()).await;
        assert_eq!(reply.status, 400, "{body} -> {}", reply.text);
        reply.expect_error(400, field);
        assert!(reply.body.get("policy_code").is_none(), "{}", reply.text);
    }
    propose(&app, &key, "shop", json!({}))
        .await
        .expect_error(400, "missing field");
    // The limits themselves pass.
    let at_limits = json!({
        "network": "meta", "to_cents": 1, "from_cents": 0, "rationale": "x".repeat(10),
        "headline": "h".repeat(90), "campaign_id": "c".repeat(200),
        "rollback_if": { "cac_ceiling_cents": 4_000 },
    });
    let id = accepted(&propose(&app, &key, "shop", at_limits).await);
    let long = json!({ "network": "google", "to_cents": 100_000_000_000_i64, "rationale": "x".repeat(2000) });
    let long_id = accepted(&propose(&app, &key, "shop", long).await);

    propose(&app, &key, "nope", spend_change("google", 10))
        .await
        .expect_error(404, "product");
    app.post("/products/shop/proposals", None, spend_change("google", 10))
        .await
        .expect_error(401, "bearer");
    let stranger = app.signup_verified("stranger@example.com").await;
    let stranger_key = app.api_key(&stranger).await;
    app.create_product(&stranger.token, "theirs").await;
    for token in [&stranger.token, &stranger_key] {
        propose(&app, token, "shop", spend_change("google", 10))
            .await
            .expect_error(404, "product");
    }
    propose(&app, &key, "theirs", spend_change("google", 10))
        .await
        .expect_error(404, "product");

    // Only the two valid proposals were written; the stranger's queue is empty.
    let mut waiting = queue_ids(&app, &owner.token).await;
    waiting.sort();
    let mut expected = vec![id, long_id];
    expected.sort();
    assert_eq!(waiting, expected);
    assert!(queue_ids(&app, &stranger.token).await.is_empty());
    assert_eq!(
        actions(&app, &owner.token, "proposal.create").await.len(),
        2
    );
    assert!(
        actions(&app, &owner.token, "proposal.policy_block")
            .await
            .is_empty()
    );
}

/// Two approvals racing under one ceiling: the account's policy lock serialises them, so one is
/// approved and the other refused with 403, and the committed budgets never pass the ceiling.
async fn racing_approvals_cannot_both_fit_under_the_ceiling(app: TestApp) {
    let (owner, key) = founder(&app).await;
    app.create_product(&owner.token, "side").await;
    app.post(
        "/policy",
        Some(&owner.token),
        json!({ "portfolio_ceiling_cents": 10_000 }),
    )
    .await
    .expect(200);
    let mut committed = 0;
    for (round, network) in ["google", "meta"].into_iter().enumerate() {
        // Each 6000 fits alone, two do not: under 10000 with nothing committed, then under
        // 16000 with the first round's 6000 committed.
        if round == 1 {
            app.post(
                "/policy",
                Some(&owner.token),
                json!({ "portfolio_ceiling_cents": 16_000 }),
            )
            .await
            .expect(200);
        }
        let a = accepted(&propose(&app, &key, "shop", spend_change(network, 6_000)).await);
        let b = accepted(&propose(&app, &key, "side", spend_change(network, 6_000)).await);
        let (first, second) = tokio::join!(approve(&app, &owner, &a), approve(&app, &owner, &b));
        let mut statuses = vec![first.status, second.status];
        statuses.sort_unstable();
        assert_eq!(
            statuses,
            vec![200, 403],
            "round {round}: {} / {}",
            first.text,
            second.text
        );
        let loser = if first.status == 403 { &first } else { &second };
        refused(loser, 403, "portfolio_ceiling_exceeded");
        committed += 6_000;
        let policy = app.get("/policy", Some(&key)).await.expect(200).clone();
        assert_eq!(policy["committed_daily_cents"], committed);
        assert_eq!(policy["budgets"].as_array().unwrap().len(), round + 1);
    }
}

/// A headline or rationale of whitespace alone is refused like an empty one, naming the field,
/// and leaves neither a card nor a block event behind.
async fn blank_headline_or_rationale_is_refused(app: TestApp) {
    let (owner, key) = founder(&app).await;
    let mut blank_headline = spend_change("google", 1_000);
    blank_headline["headline"] = json!("   ");
    propose(&app, &key, "shop", blank_headline)
        .await
        .expect_error(400, "headline");
    let mut blank_rationale = spend_change("google", 1_000);
    blank_rationale["rationale"] = json!(" ".repeat(20));
    propose(&app, &key, "shop", blank_rationale)
        .await
        .expect_error(400, "rationale");
    assert!(queue_ids(&app, &owner.token).await.is_empty());
    assert!(
        actions(&app, &owner.token, "proposal.policy_block")
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
    portfolio_policy_defaults_edits_and_errors,
    caps_and_walls_refuse_proposals,
    portfolio_ceiling_and_currency,
    approval_rechecks_caps_and_walls,
    proposal_input_errors,
    racing_approvals_cannot_both_fit_under_the_ceiling,
    blank_headline_or_rationale_is_refused,
    unknown_policy_fields_are_refused,
);
