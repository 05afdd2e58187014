//! Workspaces: listing and creating them, switching a session between them.

use super::*;

async fn workspaces_list_and_create(app: TestApp) {
    let ann = app.signup_verified("ann@example.com").await;
    let key = app.api_key(&ann).await;
    let first =
        json!({ "id": ann.account_id, "name": "ann", "role": "customer", "member_role": "owner" });
    assert_eq!(
        app.get("/auth/accounts", Some(&ann.token))
            .await
            .expect(200),
        &json!([first.clone()])
    );

    // Creating needs a session.
    app.post("/auth/accounts", Some(&key), json!({ "name": "Side" }))
        .await
        .expect_error(400, "session");
    app.post(
        "/auth/accounts",
        Some(&app.operator_token),
        json!({ "name": "Side" }),
    )
    .await
    .expect_error(400, "session");
    for bad in [
        json!({ "name": "" }),
        json!({ "name": "   " }),
        json!({ "name": "w".repeat(81) }),
    ] {
        app.post("/auth/accounts", Some(&ann.token), bad)
            .await
            .expect_error(400, "name");
    }
    app.post("/auth/accounts", Some(&ann.token), json!({}))
        .await
        .expect_error(400, "name");
    assert_eq!(
        app.get("/auth/accounts", Some(&ann.token))
            .await
            .expect(200)
            .as_array()
            .unwrap()
            .len(),
        1,
        "rejected creations create nothing"
    );

    let created = app
        .post(
            "/auth/accounts",
            Some(&ann.token),
            json!({ "name": "  Side Project  " }),
        )
        .await;
    let body = created.expect(200).clone();
    let new_id = body["account"]["id"].as_str().unwrap().to_owned();
    assert_ne!(new_id, ann.account_id);
    assert_eq!(body["account"]["account_name"], "Side Project");
    assert_eq!(body["account"]["member_role"], "owner");
    assert_eq!(body["account"]["email"], "ann@example.com");
    assert_eq!(body["account"]["role"], "customer");
    let second =
        json!({ "id": new_id, "name": "Side Project", "role": "customer", "member_role": "owner" });
    assert_eq!(body["accounts"], json!([first.clone(), second.clone()]));

    // The session now acts in the new workspace.
    assert_eq!(
        app.get("/auth/me", Some(&ann.token)).await.expect(200)["id"],
        new_id.as_str()
    );
    assert_eq!(
        app.get("/auth/accounts", Some(&ann.token))
            .await
            .expect(200),
        &json!([first.clone(), second])
    );
    // A key created now belongs to the new workspace, not the first.
    let side_key = app
        .post("/auth/keys", Some(&ann.token), json!({ "name": "side" }))
        .await
        .expect(200)["key"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(
        app.get("/auth/me", Some(&side_key)).await.expect(200)["id"],
        new_id.as_str()
    );
    let side_history = app.history(&ann.token, "?days=30&include=account").await;
    let create = side_history
        .iter()
        .find(|e| e["action"] == "workspace.create")
        .unwrap();
    assert_eq!(create["actor"], "ann@example.com");
    assert_eq!(create["via"], "dashboard");

    // The first workspace's key still sees only its own account.
    assert_eq!(
        app.get("/auth/accounts", Some(&key)).await.expect(200),
        &json!([{ "id": ann.account_id, "name": "ann", "role": "customer", "member_role": "member" }])
    );
    // A fresh login lands in a workspace the person belongs to and lists both.
    let again = app.login("ann@example.com").await;
    let list = app.get("/auth/accounts", Some(&again.token)).await;
    assert_eq!(list.expect(200).as_array().unwrap().len(), 2);
}

async fn switch_account_repoints_the_session(app: TestApp) {
    let ann = app.signup_verified("ann@example.com").await;
    let bob = app.signup_verified("bob@example.com").await;
    let created = app
        .post(
            "/auth/accounts",
            Some(&ann.token),
            json!({ "name": "Second" }),
        )
        .await;
    let second_id = created.expect(200)["account"]["id"]
        .as_str()
        .unwrap()
        .to_owned();

    let back = app
        .post(
            "/auth/switch-account",
            Some(&ann.token),
            json!({ "account_id": ann.account_id }),
        )
        .await;
    let body = back.expect(200);
    assert_eq!(body["account"]["id"], ann.account_id.as_str());
    assert_eq!(body["account"]["account_name"], "ann");
    assert_eq!(body["account"]["member_role"], "owner");
    let ids: Vec<&str> = body["accounts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, vec![ann.account_id.as_str(), second_id.as_str()]);
    // Every holder of the token (other tabs) follows.
    assert_eq!(
        app.get("/auth/me", Some(&ann.token)).await.expect(200)["id"],
        ann.account_id.as_str()
    );

    let there = app
        .post(
            "/auth/switch-account",
            Some(&ann.token),
            json!({ "account_id": second_id }),
        )
        .await;
    assert_eq!(there.expect(200)["account"]["id"], second_id.as_str());

    // Someone else's account, or none at all: 404, and the session stays where it was.
    app.post(
        "/auth/switch-account",
        Some(&ann.token),
        json!({ "account_id": bob.account_id }),
    )
    .await
    .expect_error(404, "not found");
    app.post(
        "/auth/switch-account",
        Some(&ann.token),
        json!({ "account_id": "0190d6a0-0000-7000-8000-000000000000" }),
    )
    .await
    .expect_error(404, "not found");
    assert_eq!(
        app.get("/auth/me", Some(&ann.token)).await.expect(200)["id"],
        second_id.as_str()
    );
    app.post("/auth/switch-account", Some(&ann.token), json!({}))
        .await
        .expect_error(400, "account_id");

    // Not through an API key.
    let key = app.api_key(&bob).await;
    app.post(
        "/auth/switch-account",
        Some(&key),
        json!({ "account_id": bob.account_id }),
    )
    .await
    .expect_error(400, "session");
    assert_unauthorized_json(
        &app.post(
            "/auth/switch-account",
            None,
            json!({ "account_id": bob.account_id }),
        )
        .await,
    );
}

/// A person's workspace list is bounded: with 501 workspaces, the 500 oldest are listed (the
/// first one, theirs from sign-up, among them), and so are they in a login's `accounts`.
async fn workspace_list_shows_the_oldest_500(app: TestApp) {
    let ann = app.signup_verified("ann@example.com").await;
    for n in 1..=500 {
        app.clock.advance(1);
        app.post(
            "/auth/accounts",
            Some(&ann.token),
            json!({ "name": format!("Shop {n}") }),
        )
        .await
        .expect(200);
    }
    let listed = app.get("/auth/accounts", Some(&ann.token)).await;
    let listed = listed.expect(200).as_array().unwrap().clone();
    assert_eq!(listed.len(), 500);
    assert_eq!(listed[0]["id"], ann.account_id.as_str());
    assert_eq!(listed[499]["name"], "Shop 499");
    let login = login_with(&app, "ann@example.com", TEST_PASSWORD).await;
    assert_eq!(login.expect(200)["accounts"].as_array().unwrap().len(), 500);
}

backend_tests!(
    workspaces_list_and_create,
    switch_account_repoints_the_session,
    workspace_list_shows_the_oldest_500,
);
