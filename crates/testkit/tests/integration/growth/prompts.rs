//! The prompt of each action for each of the five coding agents: the product's slug, the exact
//! change, the verification endpoint, and each agent's own shape.

use super::*;

backend_tests!(
    every_agent_gets_the_change_and_how_to_verify_it,
    identify_and_utm_prompts_carry_the_code
);

/// What marks each agent's shape (docs/health-and-growth.md "Growth actions").
fn shape(tool: &str) -> &'static str {
    match tool {
        "agent_a" => "## Verification",
        "agent_b" => "## Done when",
        "agent_c" => "alwaysApply: false",
        "agent_d" => "### Acceptance criteria",
        _ => "/ask ",
    }
}

/// Asks the prompt of `id` for every tool; checks the result's fields against the listed action
/// and that each prompt holds `needles`.
async fn each_tool(app: &TestApp, key: &str, slug: &str, id: &str, needles: &[String]) {
    let listed = list(app, key, slug, "").await;
    let listed = action(&listed, id).clone();
    for tool in TOOLS {
        let answer = prompt(app, key, slug, id, json!({ "tool": tool }))
            .await
            .expect(200)
            .clone();
        assert_eq!(answer["id"], id);
        assert_eq!(answer["tool"], tool);
        assert_eq!(answer["headline"], listed["headline"]);
        assert_eq!(
            answer["revenue_impact_cents"],
            listed["estimated_impact_cents"]
        );
        assert_eq!(answer["currency"], "USD");
        let text = answer["prompt"].as_str().unwrap();
        assert!(text.contains(shape(tool)), "{tool}: {text}");
        assert!(text.contains(&format!("`{slug}`")), "{tool}: {text}");
        assert!(text.contains(&format!("Product {slug}")), "{tool}: {text}");
        for needle in needles {
            assert!(text.contains(needle.as_str()), "{tool}: {needle} in {text}");
        }
    }
}

async fn every_agent_gets_the_change_and_how_to_verify_it(app: TestApp) {
    let owner = founder(&app, "founder@example.com").await;
    product(&app, &owner, "blank").await;
    let snippet = app
        .get("/products/blank/tracking-key", Some(&owner.key))
        .await
        .expect(200)["snippet"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(snippet.starts_with("<script"), "{snippet}");
    each_tool(
        &app,
        &owner.key,
        "blank",
        "install_tracking:events",
        &[
            snippet,
            "/products/blank/events".to_owned(),
            "GET /products/blank/funnel?days=1".to_owned(),
            "tracking.events has status pass".to_owned(),
        ],
    )
    .await;
    each_tool(
        &app,
        &owner.key,
        "blank",
        "send_converted_event:server",
        &[
            "\"stage\":\"converted\"".to_owned(),
            "\"value\":4900".to_owned(),
            "/products/blank/events".to_owned(),
            "GET /products/blank/conversions/report?days=1".to_owned(),
        ],
    )
    .await;
    each_tool(
        &app,
        &owner.key,
        "blank",
        "connect_payments:payments",
        &[
            "POST /products/blank/connections/payments".to_owned(),
            "GET /connections".to_owned(),
        ],
    )
    .await;

    // Without `tool`, the first agent's shape.
    let default = prompt(
        &app,
        &owner.key,
        "blank",
        "install_tracking:events",
        json!({}),
    )
    .await
    .expect(200)
    .clone();
    assert_eq!(default["tool"], "agent_a");
    assert!(default["prompt"].as_str().unwrap().starts_with("# Task: "));
}

async fn identify_and_utm_prompts_carry_the_code(app: TestApp) {
    let owner = founder(&app, "founder@example.com").await;
    tracked(&app, &owner, "loose", 1, 5_000).await;
    app.send_events(&owner.key,
        "loose",
        json!([{"dedupe_id": "anon", "stage": "payment", "value": 9_000, "occurred_at": hours_ago(&app, 2)}]),
    )
    .await;
    each_tool(
        &app,
        &owner.key,
        "loose",
        "stitch_identities:signup",
        &[
            "svc.identify(user.id, { email: user.email });".to_owned(),
            "GET /products/loose/attribution?days=30".to_owned(),
            "Stripe for payments".to_owned(),
        ],
    )
    .await;
    each_tool(
        &app,
        &owner.key,
        "loose",
        "tag_links:utm",
        &[
            "?utm_source=newsletter&utm_medium=email&utm_campaign=launch".to_owned(),
            "GET /products/loose/attribution/sales?channel=unattributed".to_owned(),
        ],
    )
    .await;
}
