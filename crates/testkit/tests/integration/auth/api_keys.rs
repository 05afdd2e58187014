//! API keys: create, list, use and revoke; names; creators (a person, or none for agents' keys);
//! other accounts' keys answer 404.

use super::*;

async fn api_keys_create_list_use_revoke(app: TestApp) {
    let ann = app.signup_verified("ann@example.com").await;
    assert_eq!(
        app.get("/auth/keys", Some(&ann.token)).await.expect(200),
        &json!([])
    );
    let created = app
        .post("/auth/keys", Some(&ann.token), json!({ "name": "ci" }))
        .await;
    let body = created.expect(200).clone();
    let id = body["id"].as_str().unwrap().to_owned();
    let key = body["key"].as_str().unwrap().to_owned();
    assert_eq!(body["name"], "ci");
    assert!(key.starts_with("svc_live_"), "{key}");
    assert_eq!(key.len(), "svc_live_".len() + 43);
    assert_eq!(
        body.as_object().unwrap().len(),
        3,
        "creation result is {{id, name, key}}: {body}"
    );

    let list = app.get("/auth/keys", Some(&ann.token)).await;
    assert!(!list.text.contains(&key), "the full key is never listed");
    let items = list.expect(200).as_array().unwrap().clone();
    assert_eq!(items.len(), 1);
    assert_eq!(
        items[0],
        json!({
            "id": id,
            "name": "ci",
            "prefix": key[.."svc_live_".len() + 4],
            "created_at": app.clock.now().to_rfc3339(),
            "last_used_at": null,
            "created_by": { "id": ann.user_id, "email": "ann@example.com" },
        })
    );

    // The key is a bearer credential for the account.
    app.create_product(&ann.token, "alpha").await;
    let portfolio = app.get("/portfolio", Some(&key)).await;
    let rows = portfolio.expect(200).as_array().unwrap().clone();
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["slug"], "alpha");
    let used = app.get("/auth/keys", Some(&key)).await;
    assert_eq!(
        used.expect(200)[0]["last_used_at"],
        app.clock.now().to_rfc3339()
    );

    let revoked = app
        .post(
            &format!("/auth/keys/{id}/revoke"),
            Some(&ann.token),
            json!({}),
        )
        .await;
    assert_eq!(revoked.expect(200), &json!({ "ok": true }));
    let after = app.get("/portfolio", Some(&key)).await;
    assert_unauthorized_json(&after);
    after.expect_error(401, "revoked");
    assert_eq!(
        app.get("/auth/keys", Some(&ann.token)).await.expect(200),
        &json!([])
    );
    app.request(
        Method::POST,
        &format!("/auth/keys/{id}/revoke"),
        Some(&ann.token),
    )
    .await
    .expect_error(404, "not found");

    // A key can revoke itself; it stops working at once.
    let self_key = app.api_key(&ann).await;
    let self_id = app.get("/auth/keys", Some(&self_key)).await.expect(200)[0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(
        app.request(
            Method::POST,
            &format!("/auth/keys/{self_id}/revoke"),
            Some(&self_key)
        )
        .await
        .expect(200),
        &json!({ "ok": true })
    );
    assert_unauthorized_json(&app.get("/auth/keys", Some(&self_key)).await);
}

async fn api_key_name_defaults_and_limits(app: TestApp) {
    let ann = app.signup_verified("ann@example.com").await;

    // No body at all.
    let bare = app
        .request(Method::POST, "/auth/keys", Some(&ann.token))
        .await;
    assert_eq!(bare.expect(200)["name"], "default");
    // An empty JSON-typed body, `{}` and an explicit null all mean the default.
    let empty = app
        .post_raw("/auth/keys", Some(&ann.token), "application/json", "")
        .await;
    assert_eq!(empty.expect(200)["name"], "default");
    let braces = app.post("/auth/keys", Some(&ann.token), json!({})).await;
    assert_eq!(braces.expect(200)["name"], "default");
    let null = app
        .post("/auth/keys", Some(&ann.token), json!({ "name": null }))
        .await;
    assert_eq!(null.expect(200)["name"], "default");

    let longest = "k".repeat(80);
    let at_limit = app
        .post("/auth/keys", Some(&ann.token), json!({ "name": longest }))
        .await;
    assert_eq!(at_limit.expect(200)["name"], longest.as_str());
    app.post(
        "/auth/keys",
        Some(&ann.token),
        json!({ "name": "k".repeat(81) }),
    )
    .await
    .expect_error(400, "name");
    app.post("/auth/keys", Some(&ann.token), json!({ "name": "" }))
        .await
        .expect_error(400, "name");
    app.post("/auth/keys", Some(&ann.token), json!({ "name": "   " }))
        .await
        .expect_error(400, "name");
    app.post("/auth/keys", Some(&ann.token), json!({ "name": 7 }))
        .await
        .expect_error(400, "name");
    app.post_raw("/auth/keys", Some(&ann.token), "text/plain", "name=x")
        .await
        .expect_error(415, "json");

    let names: Vec<String> = app
        .get("/auth/keys", Some(&ann.token))
        .await
        .expect(200)
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["name"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(
        names,
        vec!["default", "default", "default", "default", longest.as_str()]
    );
}

async fn other_accounts_keys_answer_404(app: TestApp) {
    let ann = app.signup_verified("ann@example.com").await;
    let bob = app.signup_verified("bob@example.com").await;
    let ann_key = app
        .post("/auth/keys", Some(&ann.token), json!({ "name": "ann-key" }))
        .await
        .expect(200)
        .clone();
    let ann_key_id = ann_key["id"].as_str().unwrap();
    let bob_key = app.api_key(&bob).await;

    let path = format!("/auth/keys/{ann_key_id}/revoke");
    app.post(&path, Some(&bob.token), json!({}))
        .await
        .expect_error(404, "not found");
    app.post(&path, Some(&bob_key), json!({}))
        .await
        .expect_error(404, "not found");
    app.post(
        "/auth/keys/0190d6a0-0000-7000-8000-000000000000/revoke",
        Some(&bob.token),
        json!({}),
    )
    .await
    .expect_error(404, "not found");

    // Ann's key is untouched, and neither side sees the other's keys.
    let still = app
        .get("/auth/me", Some(ann_key["key"].as_str().unwrap()))
        .await;
    assert_eq!(still.expect(200)["id"], ann.account_id.as_str());
    let bob_list = app.get("/auth/keys", Some(&bob.token)).await;
    let bob_names: Vec<&str> = bob_list
        .expect(200)
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["name"].as_str().unwrap())
        .collect();
    assert_eq!(bob_names, vec!["test"]);
    let ann_list = app.get("/auth/keys", Some(&ann.token)).await;
    assert_eq!(ann_list.expect(200).as_array().unwrap().len(), 1);
    assert_eq!(ann_list.body[0]["id"], ann_key_id);
}

/// A key minted through a key answers to the same person as the key that minted it.
async fn keys_minted_by_keys_keep_their_creator(app: TestApp) {
    let ann = app.signup_verified("ann@example.com").await;
    let first = app
        .post("/auth/keys", Some(&ann.token), json!({ "name": "first" }))
        .await
        .expect(200)["key"]
        .as_str()
        .unwrap()
        .to_owned();
    let second = app
        .post("/auth/keys", Some(&first), json!({ "name": "second" }))
        .await
        .expect(200)["key"]
        .as_str()
        .unwrap()
        .to_owned();
    app.post("/auth/keys", Some(&second), json!({ "name": "third" }))
        .await
        .expect(200);
    let ann_ref = json!({ "id": ann.user_id, "email": "ann@example.com" });
    assert_eq!(
        app.key_creators(&second).await,
        vec![
            ("first".to_owned(), ann_ref.clone()),
            ("second".to_owned(), ann_ref.clone()),
            ("third".to_owned(), ann_ref),
        ]
    );
}

/// An agent's sign-up key has no creator, and neither has a key it mints: no person stands
/// behind them until someone claims the account.
async fn agent_keys_have_no_creator(app: TestApp) {
    let body = agent_signup(&app, "founder@example.com").await;
    let agent_key = body["api_key"].as_str().unwrap();
    let minted = app
        .post("/auth/keys", Some(agent_key), json!({ "name": "minted" }))
        .await
        .expect(200)["key"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(
        app.key_creators(agent_key).await,
        vec![
            ("agent".to_owned(), Value::Null),
            ("minted".to_owned(), Value::Null),
        ]
    );
    // Both still work: no membership stands behind them to be disabled.
    app.get("/auth/me", Some(&minted)).await.expect(200);
}

backend_tests!(
    api_keys_create_list_use_revoke,
    api_key_name_defaults_and_limits,
    other_accounts_keys_answer_404,
    keys_minted_by_keys_keep_their_creator,
    agent_keys_have_no_creator,
);
