//! Refusals: `days` and `tool` named in the query and the body, unknown ids, bearers, and
//! another account's product.

use super::*;

backend_tests!(inputs_are_named_and_other_accounts_are_not_found);

async fn inputs_are_named_and_other_accounts_are_not_found(app: TestApp) {
    let owner = founder(&app, "founder@example.com").await;
    product(&app, &owner, "mine").await;
    let key = Some(owner.key.as_str());
    let listed = "/products/mine/growth-actions";
    let asked = "/products/mine/growth-actions/install_tracking:events/prompt";

    for days in ["0", "3651", "-1"] {
        app.get(&format!("{listed}?days={days}"), key)
            .await
            .expect_error(400, "days: must be 1-3650");
    }
    app.get(&format!("{listed}?tool=agent_f"), key)
        .await
        .expect_error(
            400,
            "tool: must be one of agent_a, agent_b, agent_c, agent_d, agent_e",
        );
    // The range every other read takes (it was 1-365 here alone).
    for days in [365, 366, 3650] {
        let listed = app
            .get(&format!("{listed}?days={days}&tool=agent_e"), key)
            .await
            .expect(200)
            .clone();
        assert_eq!(listed["window_days"], days, "{listed}");
    }
    app.post(asked, key, json!({"tool": "claude"}))
        .await
        .expect_error(400, "tool: must be one of");
    app.post(asked, key, json!({"tool": 3}))
        .await
        .expect_error(400, "tool");
    app.post(asked, key, json!({"days": 0}))
        .await
        .expect_error(400, "days: must be 1-3650");
    app.post(asked, key, json!({"tool": "agent_a", "extra": 1}))
        .await
        .expect_error(400, "extra");
    for days in [365, 3650] {
        app.post(asked, key, json!({"tool": "agent_a", "days": days}))
            .await
            .expect(200);
    }

    // Unknown and no longer ranked ids.
    for id in [
        "nope",
        "move_budget:paid_meta->paid_google",
        "install_tracking:other",
    ] {
        prompt(&app, &owner.key, "mine", id, json!({"tool": "agent_a"}))
            .await
            .expect_error(404, "growth action not found");
    }
    // A bad tool is refused before the id is looked up.
    prompt(&app, &owner.key, "mine", "nope", json!({"tool": "agent_x"}))
        .await
        .expect_error(400, "tool");

    // Bearers.
    app.get(listed, None).await.expect(401);
    app.post(asked, None, json!({})).await.expect(401);

    // Another account: its products do not exist here.
    let other = founder(&app, "other@example.com").await;
    app.get(listed, Some(&other.key)).await.expect(404);
    app.post(asked, Some(&other.key), json!({"tool": "agent_a"}))
        .await
        .expect(404);
    app.get("/products/none/growth-actions", key)
        .await
        .expect(404);
}
