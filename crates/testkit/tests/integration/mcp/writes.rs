//! The writes an agent may make through MCP: a spend proposal, which only queues a card (or is
//! refused by the policy engine with its `policy_code`), and a distribution entry. History
//! records each `via: mcp`, as `keeper` for an API key and as the person for a session.

use super::*;

backend_tests!(
    a_proposal_only_queues_a_card,
    a_policy_refusal_is_a_tool_error_with_its_code,
    distribution_is_recorded_via_mcp
);

/// The approved budgets `GET /products/shop/spend` shows, per network.
async fn approved_budgets(app: &TestApp, token: &str) -> Vec<Value> {
    let spend = app.get("/products/shop/spend", Some(token)).await;
    spend.expect(200)["caps"]["networks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|cap| cap["approved_budget_cents"].clone())
        .collect()
}

async fn a_proposal_only_queues_a_card(app: TestApp) {
    let (owner, key) = founder(&app).await;
    let by_key = connect(&app, &key).await;
    let by_session = connect(&app, &owner.token).await;

    let accepted = answer(&call(&by_key, "propose_spend_change", proposal(5_000)).await);
    assert_eq!(accepted["status"], "pending_human");
    assert_eq!(accepted["expires_in_hours"], 72);
    let from_key = accepted["proposal_id"].as_str().unwrap().to_owned();
    let accepted = answer(&call(&by_session, "propose_spend_change", proposal(6_000)).await);
    let from_session = accepted["proposal_id"].as_str().unwrap().to_owned();

    // Two pending cards wait for a human; nothing was approved or applied.
    let queued = app.queue(&owner.token).await;
    let ids: Vec<&str> = queued
        .iter()
        .map(|card| card["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [from_session.as_str(), from_key.as_str()]);
    assert!(queued.iter().all(|card| card["status"] == "pending"));
    assert!(
        approved_budgets(&app, &owner.token)
            .await
            .iter()
            .all(Value::is_null)
    );
    let approved = app.get("/queue?status=approved", Some(&owner.token)).await;
    assert_eq!(approved.expect(200), &json!([]));

    // History names the door and who came through it.
    let created = |actor: &str| {
        vec![(
            "proposal.create".to_owned(),
            actor.to_owned(),
            "mcp".to_owned(),
        )]
    };
    assert_eq!(
        card_history(&app, &owner.token, &from_key).await,
        created("keeper")
    );
    assert_eq!(
        card_history(&app, &owner.token, &from_session).await,
        created(OWNER)
    );
    // The agent reads the same through its own history tool.
    let history = answer(&call(&by_key, "list_history", json!({ "product": "shop" })).await);
    let event = history
        .as_array()
        .unwrap()
        .iter()
        .find(|event| event["subject_ref"] == from_key.as_str())
        .unwrap();
    assert_eq!(
        (event["actor"].as_str(), event["via"].as_str()),
        (Some("keeper"), Some("mcp"))
    );

    // A human approves in Payback; the agent sees it as approved.
    app.post(
        &format!("/queue/{from_key}/approve"),
        Some(&owner.token),
        json!({}),
    )
    .await
    .expect(200);
    let approved = answer(&call(&by_key, "list_queue", json!({ "status": "approved" })).await);
    assert_eq!(approved[0]["id"], from_key.as_str());
    by_key.cancel().await.unwrap();
    by_session.cancel().await.unwrap();
}

async fn a_policy_refusal_is_a_tool_error_with_its_code(app: TestApp) {
    let (owner, key) = founder(&app).await;
    app.post(
        "/products/shop/policy",
        Some(&owner.token),
        json!({ "daily_caps": { "google": 1_000 } }),
    )
    .await
    .expect(200);
    let agent = connect(&app, &key).await;

    let refused = tool_error(&call(&agent, "propose_spend_change", proposal(5_000)).await);
    assert_eq!(refused["status"], 422);
    assert_eq!(refused["policy_code"], "daily_cap_exceeded");
    // The API's refusal of the same proposal, word for word.
    let mut body = proposal(5_000);
    body.as_object_mut().unwrap().remove("slug");
    let http = app.post("/products/shop/proposals", Some(&key), body).await;
    assert_eq!(http.status, 422);
    assert_eq!(refused["error"], http.body["error"]);
    assert_eq!(refused["policy_code"], http.body["policy_code"]);

    // No card; the block is in history, raised through MCP the first time.
    assert!(app.queue(&owner.token).await.is_empty());
    let blocks = app
        .history_where(&owner.token, |event| {
            event["action"] == "proposal.policy_block"
        })
        .await;
    let doors: Vec<&str> = blocks
        .iter()
        .map(|event| event["via"].as_str().unwrap())
        .collect();
    assert_eq!(doors, ["mcp", "api"]);
    assert_eq!(blocks[0]["payload"]["policy_code"], "daily_cap_exceeded");
    assert_eq!(blocks[0]["payload"]["proposed_by"], "keeper");

    // Under the cap the same tool queues a card.
    let accepted = answer(&call(&agent, "propose_spend_change", proposal(1_000)).await);
    assert_eq!(accepted["status"], "pending_human");
    agent.cancel().await.unwrap();
}

async fn distribution_is_recorded_via_mcp(app: TestApp) {
    let (owner, key) = founder(&app).await;
    let agent = connect(&app, &key).await;
    let recorded = answer(
        &call(
            &agent,
            "record_distribution",
            json!({
                "productSlug": "shop",
                "channel": "hacker_news",
                "kind": "post",
                "url": "https://news.ycombinator.com/item?id=1",
                "utmCampaign": "show-hn",
                "note": "Show HN",
            }),
        )
        .await,
    );
    assert_eq!(recorded["ok"], true);
    let id = recorded["id"].as_str().unwrap();

    let listed = app
        .get("/products/shop/distribution", Some(&owner.token))
        .await;
    let entries = listed.expect(200)["entries"].as_array().unwrap().clone();
    assert_eq!(entries.len(), 1);
    assert_eq!(entries[0]["id"], id);
    assert_eq!(entries[0]["utm_campaign"], "show-hn");
    assert_eq!(entries[0]["created_by"], "keeper");
    let events = app
        .history_where(&owner.token, |event| {
            event["action"] == "distribution.create"
        })
        .await;
    assert_eq!(events.len(), 1);
    assert_eq!(
        (events[0]["actor"].as_str(), events[0]["via"].as_str()),
        (Some("keeper"), Some("mcp"))
    );
    agent.cancel().await.unwrap();
}
