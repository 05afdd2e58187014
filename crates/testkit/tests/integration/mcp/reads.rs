//! Every read tool answers what the HTTP API answers for the same request, refuses what the API
//! refuses in the API's words, and cannot see another account's products.

use payback_domain::Clock;
use payback_domain::connection::ConnectionKind;
use payback_testkit::synthetic::{SynthConfig, generate};

use super::*;

backend_tests!(
    reads_answer_the_api_json,
    refused_inputs_name_the_field,
    other_accounts_products_are_not_found
);

/// `shop` with synthetic traffic, revenue and spend, a pending proposal, a distribution entry
/// and a connection, so every read has something to say.
async fn busy_shop(app: &TestApp) -> (Session, String) {
    let (owner, key) = founder(app).await;
    let config = SynthConfig {
        seed: 11,
        identities: 60,
        days: 40,
    };
    generate(config, app.clock.now())
        .load(app, &key, "shop")
        .await;
    let mut body = proposal(5_000);
    body.as_object_mut().unwrap().remove("slug");
    app.post("/products/shop/proposals", Some(&key), body)
        .await
        .expect(202);
    app.post(
        "/distribution",
        Some(&key),
        json!({ "productSlug": "shop", "channel": "reddit", "kind": "post", "utmCampaign": "launch" }),
    )
    .await
    .expect(200);
    let product = app.get("/products/shop", Some(&key)).await;
    let product_id = product.expect(200)["product_id"]
        .as_str()
        .unwrap()
        .to_owned();
    app.insert_connection(
        &owner.account_id,
        &product_id,
        ConnectionKind::SearchAds,
        &json!({ "customer_id": "1234567890" }),
        false,
    )
    .await;
    (owner, key)
}

async fn reads_answer_the_api_json(app: TestApp) {
    let (_, key) = busy_shop(&app).await;
    let agent = connect(&app, &key).await;
    let cases = [
        ("list_products", json!({}), "/portfolio"),
        ("list_products", json!({ "limit": 1 }), "/portfolio?limit=1"),
        ("get_product", json!({ "slug": "shop" }), "/products/shop"),
        (
            "get_attribution",
            json!({ "slug": "shop" }),
            "/products/shop/attribution",
        ),
        (
            "get_attribution",
            json!({ "slug": "shop", "days": 7 }),
            "/products/shop/attribution?days=7",
        ),
        (
            "list_sales",
            json!({ "slug": "shop", "days": 60, "limit": 5 }),
            "/products/shop/attribution/sales?days=60&limit=5",
        ),
        (
            "list_sales",
            json!({ "slug": "shop", "channel": "unattributed" }),
            "/products/shop/attribution/sales?channel=unattributed",
        ),
        (
            "get_ads_report",
            json!({ "slug": "shop", "level": "campaign", "days": 60 }),
            "/products/shop/attribution/ads?level=campaign&days=60",
        ),
        (
            "get_timeseries",
            json!({ "slug": "shop", "days": 14 }),
            "/products/shop/timeseries?days=14",
        ),
        (
            "get_funnel",
            json!({ "slug": "shop" }),
            "/products/shop/funnel",
        ),
        (
            "get_payback",
            json!({ "slug": "shop" }),
            "/products/shop/payback",
        ),
        (
            "get_conversions_report",
            json!({ "slug": "shop" }),
            "/products/shop/conversions/report",
        ),
        (
            "get_spend",
            json!({ "slug": "shop", "days": 7 }),
            "/products/shop/spend?days=7",
        ),
        ("list_queue", json!({}), "/queue"),
        (
            "list_queue",
            json!({ "status": "expired", "limit": 3 }),
            "/queue?status=expired&limit=3",
        ),
        ("list_history", json!({}), "/history"),
        (
            "list_history",
            json!({ "product": "shop", "days": 2 }),
            "/history?product=shop&days=2",
        ),
        ("list_connections", json!({}), "/connections"),
        ("get_health", json!({}), "/health"),
        (
            "get_health_report",
            json!({ "slug": "shop", "days": 14 }),
            "/products/shop/health-report?days=14",
        ),
        (
            "list_growth_actions",
            json!({ "slug": "shop", "days": 60, "tool": "agent_b" }),
            "/products/shop/growth-actions?days=60&tool=agent_b",
        ),
        (
            "list_distribution",
            json!({ "slug": "shop" }),
            "/products/shop/distribution",
        ),
    ];
    for (tool, arguments, path) in cases {
        let through_mcp = answer(&call(&agent, tool, arguments.clone()).await);
        let over_http = app.get(path, Some(&key)).await.expect(200).clone();
        assert_eq!(
            through_mcp, over_http,
            "{tool} {arguments} against GET {path}"
        );
    }

    // The answers compared above hold the data set up, not empty lists that agree by chance.
    let read = |tool: &'static str, arguments: Value| {
        let agent = &agent;
        async move { answer(&call(agent, tool, arguments).await) }
    };
    let attribution = read("get_attribution", json!({ "slug": "shop" })).await;
    assert!(attribution["channels"].as_array().unwrap().len() > 1);
    assert!(attribution["totals"]["spend_cents"].as_i64().unwrap() > 0);
    let sales = read(
        "list_sales",
        json!({ "slug": "shop", "days": 60, "limit": 5 }),
    )
    .await;
    assert_eq!(sales["sales"].as_array().unwrap().len(), 5);
    let queue = read("list_queue", json!({})).await;
    assert_eq!(queue.as_array().unwrap().len(), 1);
    assert_eq!(queue[0]["product_slug"], "shop");
    let connections = read("list_connections", json!({})).await;
    assert_eq!(connections[0]["kind"], "search_ads");
    let distribution = read("list_distribution", json!({ "slug": "shop" })).await;
    assert_eq!(distribution["entries"][0]["utm_campaign"], "launch");
    let history = read("list_history", json!({ "product": "shop" })).await;
    assert!(
        history
            .as_array()
            .unwrap()
            .iter()
            .any(|event| event["action"] == "proposal.create" && event["via"] == "api")
    );
    agent.cancel().await.unwrap();
}

async fn refused_inputs_name_the_field(app: TestApp) {
    let (_, key) = founder(&app).await;
    let agent = connect(&app, &key).await;

    // Inputs the API refuses, in the API's own words and status.
    let cases = [
        (
            "get_attribution",
            json!({ "slug": "shop", "days": 0 }),
            "/products/shop/attribution?days=0",
        ),
        (
            "get_timeseries",
            json!({ "slug": "shop", "days": 3651 }),
            "/products/shop/timeseries?days=3651",
        ),
        (
            "list_sales",
            json!({ "slug": "shop", "limit": 1001 }),
            "/products/shop/attribution/sales?limit=1001",
        ),
        (
            "get_ads_report",
            json!({ "slug": "shop", "level": "country" }),
            "/products/shop/attribution/ads?level=country",
        ),
        ("list_queue", json!({ "limit": 0 }), "/queue?limit=0"),
        (
            "list_products",
            json!({ "limit": 501 }),
            "/portfolio?limit=501",
        ),
        ("list_history", json!({ "days": -1 }), "/history?days=-1"),
    ];
    for (tool, arguments, path) in cases {
        let refused = tool_error(&call(&agent, tool, arguments.clone()).await);
        let reply = app.get(path, Some(&key)).await;
        assert_eq!(reply.status, 400, "GET {path}");
        assert_eq!(refused["status"], 400, "{tool} {arguments}");
        assert_eq!(refused["error"], reply.body["error"], "{tool} {arguments}");
        assert!(refused.get("policy_code").is_none());
    }
    let days = tool_error(
        &call(
            &agent,
            "get_attribution",
            json!({ "slug": "shop", "days": 0 }),
        )
        .await,
    );
    assert_eq!(days["error"], "days: must be 1-3650, got 0");

    // Wrong types and missing arguments name the argument too.
    let wrong = tool_error(
        &call(
            &agent,
            "get_funnel",
            json!({ "slug": "shop", "days": "seven" }),
        )
        .await,
    );
    assert_eq!(wrong["status"], 400);
    assert!(
        wrong["error"]
            .as_str()
            .unwrap()
            .starts_with("days: invalid type"),
        "{wrong}"
    );
    let missing = tool_error(&call(&agent, "get_payback", json!({})).await);
    assert_eq!(missing["error"], "invalid arguments: missing field `slug`");
    let status = tool_error(&call(&agent, "list_queue", json!({ "status": "approve" })).await);
    assert!(
        status["error"]
            .as_str()
            .unwrap()
            .starts_with("status: unknown variant"),
        "{status}"
    );

    // The proposal tool's body rules are the route's.
    let mut short = proposal(5_000);
    short["rationale"] = json!("too short");
    let refused = tool_error(&call(&agent, "propose_spend_change", short).await);
    assert_eq!(refused["status"], 400);
    assert!(
        refused["error"]
            .as_str()
            .unwrap()
            .starts_with("rationale: "),
        "{refused}"
    );
    let mut zero = proposal(0);
    zero["network"] = json!("google");
    let refused = tool_error(&call(&agent, "propose_spend_change", zero).await);
    assert!(
        refused["error"].as_str().unwrap().starts_with("to_cents: "),
        "{refused}"
    );
    let refused = tool_error(
        &call(
            &agent,
            "record_distribution",
            json!({ "productSlug": "shop", "channel": "reddit", "kind": "post", "url": "javascript:alert(1)" }),
        )
        .await,
    );
    assert!(
        refused["error"].as_str().unwrap().starts_with("url: "),
        "{refused}"
    );
    // Nothing was written by the refusals.
    assert!(app.queue(&key).await.is_empty());
    agent.cancel().await.unwrap();
}

async fn other_accounts_products_are_not_found(app: TestApp) {
    let (_, key) = founder(&app).await;
    let rival = app.signup_verified("rival@example.com").await;
    app.create_product(&rival.token, "rival").await;
    let agent = connect(&app, &key).await;

    let http = app.get("/products/rival/attribution", Some(&key)).await;
    assert_eq!(http.status, 404);
    for (tool, arguments) in [
        ("get_product", json!({ "slug": "rival" })),
        ("get_attribution", json!({ "slug": "rival" })),
        ("get_timeseries", json!({ "slug": "rival" })),
        ("get_spend", json!({ "slug": "rival" })),
        ("list_history", json!({ "product": "rival" })),
        ("list_distribution", json!({ "slug": "rival" })),
    ] {
        let missing = tool_error(&call(&agent, tool, arguments.clone()).await);
        assert_eq!(missing["status"], 404, "{tool}");
        assert_eq!(missing["error"], http.body["error"], "{tool}");
    }
    let mut body = proposal(5_000);
    body["slug"] = json!("rival");
    let missing = tool_error(&call(&agent, "propose_spend_change", body).await);
    assert_eq!(missing["status"], 404);
    // The portfolio lists the caller's products only.
    let products = answer(&call(&agent, "list_products", json!({})).await);
    let slugs: Vec<&str> = products
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row["slug"].as_str().unwrap())
        .collect();
    assert_eq!(slugs, ["shop"]);
    assert!(app.queue(&rival.token).await.is_empty());
    agent.cancel().await.unwrap();
}
