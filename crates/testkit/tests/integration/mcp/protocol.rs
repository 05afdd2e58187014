//! Initialize, the tool list, and who may speak to `/mcp` at all.

use rmcp::model::ProtocolVersion;
use rmcp::service::{ClientLifecycleMode, ClientServiceExt};

use super::*;

backend_tests!(
    initializes_and_lists_the_tool_set,
    credentials_are_checked_before_any_mcp,
    a_session_works_as_a_key_does,
    the_newest_revision_works_without_initialize
);

/// Every tool `/mcp` must offer, reads then writes.
const TOOLS: &[&str] = &[
    "list_products",
    "get_product",
    "get_attribution",
    "list_sales",
    "get_ads_report",
    "get_timeseries",
    "get_funnel",
    "get_payback",
    "get_conversions_report",
    "get_spend",
    "list_queue",
    "list_history",
    "list_connections",
    "get_health",
    "get_health_report",
    "list_growth_actions",
    "list_distribution",
    "propose_spend_change",
    "record_distribution",
];

async fn initializes_and_lists_the_tool_set(app: TestApp) {
    let (_, key) = founder(&app).await;
    let agent = connect(&app, &key).await;

    let info = agent.peer_info().expect("the server answered initialize");
    assert_eq!(info.server_info.as_ref().unwrap().name, "payback");
    assert!(info.capabilities.tools.is_some());
    let instructions = info.instructions.as_deref().unwrap_or_default();
    assert!(instructions.contains("human"), "{instructions}");

    let tools = agent.list_all_tools().await.expect("tools/list");
    let names: Vec<&str> = tools.iter().map(|tool| tool.name.as_ref()).collect();
    assert_eq!(names, TOOLS);
    for tool in &tools {
        let description = tool.description.as_deref().unwrap_or_default();
        assert!(description.len() > 40, "{}: {description}", tool.name);
        assert_eq!(tool.input_schema["type"], "object", "{}", tool.name);
        assert!(
            tool.input_schema.contains_key("properties"),
            "{}",
            tool.name
        );
        // Nothing that decides for a human.
        for word in [
            "approve", "reject", "snooze", "restore", "resolve", "policy", "key", "team",
        ] {
            assert!(!tool.name.contains(word), "{} offers to {word}", tool.name);
        }
        let read_only = tool.annotations.as_ref().and_then(|a| a.read_only_hint);
        let writes = ["propose_spend_change", "record_distribution"].contains(&tool.name.as_ref());
        assert_eq!(read_only, Some(!writes), "{}", tool.name);
    }
    let propose = tools
        .iter()
        .find(|tool| tool.name == "propose_spend_change")
        .unwrap();
    let description = propose.description.as_deref().unwrap();
    assert!(
        description.contains("a human must approve it"),
        "{description}"
    );
    let schema = &propose.input_schema;
    assert_eq!(
        schema["properties"]["network"]["enum"],
        json!(["meta", "google"])
    );
    assert_eq!(schema["properties"]["to_cents"]["minimum"], 1);
    let mut required: Vec<&str> = schema["required"]
        .as_array()
        .unwrap()
        .iter()
        .map(|name| name.as_str().unwrap())
        .collect();
    required.sort_unstable();
    assert_eq!(required, ["network", "rationale", "slug", "to_cents"]);
    let attribution = tools
        .iter()
        .find(|tool| tool.name == "get_attribution")
        .unwrap();
    assert_eq!(
        attribution.input_schema["properties"]["days"]["maximum"],
        3650
    );

    // A tool that does not exist is the protocol's error, not a call.
    let unknown = agent
        .call_tool(CallToolRequestParams::new("approve_card").with_arguments(Default::default()))
        .await
        .unwrap_err();
    assert!(unknown.to_string().contains("unknown tool"), "{unknown}");
    agent.cancel().await.unwrap();
}

/// An MCP `initialize` request, as a client's first POST.
fn initialize_body() -> Value {
    json!({
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": { "name": "curl", "version": "1" },
        },
    })
}

async fn credentials_are_checked_before_any_mcp(app: TestApp) {
    let (owner, key) = founder(&app).await;
    let post = |bearer: Option<String>| {
        let mut request = app
            .client
            .post(app.url("/mcp"))
            .header("accept", "application/json, text/event-stream")
            .json(&initialize_body());
        if let Some(value) = bearer {
            request = request.header("authorization", value);
        }
        request.send()
    };

    // No credentials, a bad one, a wrong scheme: the API's 401, before MCP reads a byte.
    for (bearer, message) in [
        (None, "missing bearer token"),
        (
            Some("Bearer svc_live_nonsense".to_owned()),
            "invalid or revoked API key",
        ),
        (Some("Bearer nonsense".to_owned()), "invalid bearer token"),
        (Some(format!("Basic {key}")), "must be `Bearer <token>`"),
    ] {
        let response = post(bearer.clone()).await.unwrap();
        assert_eq!(response.status(), 401, "{bearer:?}");
        assert_eq!(
            response.headers()["www-authenticate"].to_str().unwrap(),
            "Bearer"
        );
        let body: Value = response.json().await.unwrap();
        let error = body["error"].as_str().unwrap();
        assert!(error.contains(message), "{bearer:?}: {error}");
    }
    // The real client cannot initialize without credentials either.
    let refused = ClientConfig::default().serve(transport(&app, None)).await;
    assert!(refused.is_err());

    // The same request with the key is MCP's.
    let response = post(Some(format!("Bearer {key}"))).await.unwrap();
    assert_eq!(response.status(), 200);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["result"]["serverInfo"]["name"], "payback");

    // A revoked key is refused like any bad one.
    let keys = app.get("/auth/keys", Some(&owner.token)).await;
    let id = keys.expect(200)[0]["id"].as_str().unwrap().to_owned();
    app.post(
        &format!("/auth/keys/{id}/revoke"),
        Some(&owner.token),
        json!({}),
    )
    .await
    .expect(200);
    let response = post(Some(format!("Bearer {key}"))).await.unwrap();
    assert_eq!(response.status(), 401);
}

async fn a_session_works_as_a_key_does(app: TestApp) {
    let (owner, key) = founder(&app).await;
    let by_session = connect(&app, &owner.token).await;
    let by_key = connect(&app, &key).await;
    let read = json!({ "slug": "shop" });
    let seen = answer(&call(&by_session, "get_product", read.clone()).await);
    assert_eq!(seen["slug"], "shop");
    assert_eq!(seen, answer(&call(&by_key, "get_product", read).await));
    by_session.cancel().await.unwrap();
    by_key.cancel().await.unwrap();
}

/// Revision 2026-07-28 has no `initialize`: a client discovers the server and sends its version
/// with every request. The credentials are checked on each all the same.
async fn the_newest_revision_works_without_initialize(app: TestApp) {
    let (_, key) = founder(&app).await;
    let agent = ClientConfig::default()
        .serve_with_lifecycle(
            transport(&app, Some(&key)),
            ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            },
        )
        .await
        .expect("the client discovers the server");
    let tools = agent.list_all_tools().await.unwrap();
    assert_eq!(tools.len(), TOOLS.len());
    let product = answer(&call(&agent, "get_product", json!({ "slug": "shop" })).await);
    assert_eq!(
        product,
        app.get("/products/shop", Some(&key))
            .await
            .expect(200)
            .clone()
    );
    agent.cancel().await.unwrap();

    let refused = ClientConfig::default()
        .serve_with_lifecycle(
            transport(&app, None),
            ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            },
        )
        .await;
    assert!(refused.is_err());
}
