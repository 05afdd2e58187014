//! Daily caps and network walls refuse proposals with 422, and approval re-checks them (403).

use super::*;

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

backend_tests!(
    caps_and_walls_refuse_proposals,
    approval_rechecks_caps_and_walls,
);
