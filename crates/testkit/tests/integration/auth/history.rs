//! History hides logins and records key writes (account events, read with `include=account`).

use super::*;

fn actions(events: &[Value]) -> Vec<&str> {
    events
        .iter()
        .map(|e| e["action"].as_str().unwrap())
        .collect()
}

async fn history_hides_logins_and_records_key_writes(app: TestApp) {
    let ann = app.signup_verified("ann@example.com").await;
    app.login("ann@example.com").await;
    login_with(&app, "ann@example.com", "not the password")
        .await
        .expect(401);

    let by_session = app
        .post("/auth/keys", Some(&ann.token), json!({ "name": "laptop" }))
        .await
        .expect(200)
        .clone();
    let key = by_session["key"].as_str().unwrap();
    let by_key = app
        .post("/auth/keys", Some(key), json!({ "name": "agent-made" }))
        .await
        .expect(200)
        .clone();
    app.post(
        &format!("/auth/keys/{}/revoke", by_key["id"].as_str().unwrap()),
        Some(&ann.token),
        json!({}),
    )
    .await
    .expect(200);

    // Key writes are account events: an owner reads them with `include=account`.
    let history = app.history(&ann.token, "?days=30&include=account").await;
    let seen = actions(&history);
    assert!(
        !seen.contains(&"auth.login"),
        "tenants never see logins: {seen:?}"
    );
    assert!(
        seen.iter().all(|a| !a.starts_with("auth.")),
        "no sign-in events at all: {seen:?}"
    );

    let creates: Vec<&Value> = history
        .iter()
        .filter(|e| e["action"] == "api_key.create")
        .collect();
    assert_eq!(creates.len(), 2, "{history:?}");
    // Newest first: the key's own write, then the person's.
    assert_eq!(creates[0]["actor"], "keeper");
    assert_eq!(creates[0]["via"], "api");
    assert_eq!(creates[0]["subject_ref"], by_key["id"]);
    assert_eq!(creates[0]["payload"]["name"], "agent-made");
    assert_eq!(creates[1]["actor"], "ann@example.com");
    assert_eq!(creates[1]["via"], "dashboard");
    assert_eq!(creates[1]["subject_ref"], by_session["id"]);
    assert_eq!(creates[1]["payload"]["name"], "laptop");
    assert!(creates[1]["occurred_at"].is_string());

    let revoke = history
        .iter()
        .find(|e| e["action"] == "api_key.revoke")
        .unwrap();
    assert_eq!(revoke["actor"], "ann@example.com");
    assert_eq!(revoke["via"], "dashboard");
    assert_eq!(revoke["subject_ref"], by_key["id"]);
    assert_eq!(history[0]["action"], "api_key.revoke", "newest first");
    assert!(
        !serde_json::to_string(&history).unwrap().contains(key),
        "history never carries a full key"
    );
    // A key is no owner: its history is the products' (none here), the account's refused.
    assert_eq!(app.history(key, "?days=30").await, Vec::<Value>::new());
    app.get("/history?include=account", Some(key))
        .await
        .expect_error(403, "Not an owner");
    assert_eq!(
        app.history(&ann.token, "?days=30").await,
        Vec::<Value>::new(),
        "no product, no default history"
    );

    // Sign-ins are still audited: the operator, who sees every account, finds them.
    let operator_view = app
        .history(&app.operator_token, "?days=30&limit=1000")
        .await;
    let logins = operator_view
        .iter()
        .filter(|e| e["action"] == "auth.login" && e["actor"] == "ann@example.com")
        .count();
    assert_eq!(
        logins, 2,
        "two successful logins, the failed one is not one"
    );

    // Another tenant sees none of it.
    let bob = app.signup_verified("bob@example.com").await;
    let bob_history = app.history(&bob.token, "?days=30&include=account").await;
    assert!(
        bob_history
            .iter()
            .all(|e| e["actor"] != "ann@example.com" && e["action"] != "api_key.create"),
        "{bob_history:?}"
    );
}

backend_tests!(history_hides_logins_and_records_key_writes);
