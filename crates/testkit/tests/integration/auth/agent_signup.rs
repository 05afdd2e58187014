//! Agent sign-up: a working key and a claim link; taken and invalid emails refused.

use super::*;

async fn agent_signup_returns_working_key_and_claim_link(app: TestApp) {
    let now = app.clock.now();
    let reply = app
        .post(
            "/auth/agent-signup",
            None,
            json!({ "email": "Founder@Example.com", "name": "Founder Co" }),
        )
        .await;
    let body = reply.expect(200).clone();
    let mut keys: Vec<&String> = body.as_object().unwrap().keys().collect();
    keys.sort();
    assert_eq!(
        keys,
        vec!["account_id", "api_key", "claim_expires_at", "claim_url"]
    );
    let account_id = body["account_id"].as_str().unwrap();
    let api_key = body["api_key"].as_str().unwrap();
    let claim_url = body["claim_url"].as_str().unwrap();
    assert!(api_key.starts_with("svc_live_"), "{api_key}");
    assert!(
        claim_url.starts_with(&format!("{}/#/claim/", app.base_url)),
        "{claim_url}"
    );
    assert!(claim_token(&app, claim_url).len() >= 32);
    assert_eq!(
        body["claim_expires_at"],
        now.plus_millis(7 * DAY_MS).to_rfc3339()
    );

    // The key works at once, before anyone verifies anything.
    let me = app.get("/auth/me", Some(api_key)).await;
    let account = me.expect(200);
    assert_eq!(account["id"], account_id);
    assert_eq!(account["email"], "founder@example.com");
    assert_eq!(account["account_name"], "Founder Co");
    assert_eq!(account["verified"], false);
    assert_eq!(account["name"], "Founder Co");
    assert_eq!(
        app.get("/portfolio", Some(api_key)).await.expect(200),
        &json!([])
    );
    let product = app.create_product(api_key, "agent-made").await;
    assert_eq!(product["slug"], "agent-made");
    // The agent's key is listed like any other, by prefix only.
    let listed = app.get("/auth/keys", Some(api_key)).await;
    assert!(!listed.text.contains(api_key));
    let items = listed.expect(200).as_array().unwrap().clone();
    assert_eq!(items.len(), 1);
    assert_eq!(items[0]["prefix"], &api_key[.."svc_live_".len() + 4]);
    assert_eq!(items[0]["name"], "agent");

    // The human gets the claim link by mail.
    let mails = mails_to(&app, "founder@example.com");
    assert_eq!(mails.len(), 1);
    assert_eq!(
        mails[0]
            .link_starting_with(&format!("{}/#/claim/", app.base_url))
            .as_deref(),
        Some(claim_url)
    );

    // No password yet: nobody can log in as the owner.
    login_with(&app, "founder@example.com", TEST_PASSWORD)
        .await
        .expect_error(401, "wrong");
    // A plain sign-up for the address cannot take the account over: same body, and its
    // password does nothing until the verification link, mailed only to the address, is opened
    // (then the mailbox owner has claimed their account: tests/team/takeover.rs).
    let hijack = signup(&app, "founder@example.com", TEST_PASSWORD).await;
    assert_eq!(hijack.expect(200), &signup_ok());
    assert_eq!(verify_links(&app, "founder@example.com").len(), 1);
    login_with(&app, "founder@example.com", TEST_PASSWORD)
        .await
        .expect_error(401, "wrong");

    // History records the agent's writes as keeper via api. The sign-up is an account event:
    // the key (no owner) reads the products' history only and is refused the account's.
    let products = app.history(api_key, "?days=30").await;
    assert_eq!(products.len(), 1, "{products:?}");
    assert_eq!(products[0]["action"], "product.create");
    assert_eq!(products[0]["product_slug"], "agent-made");
    assert_eq!(products[0]["actor"], "keeper");
    app.get("/history?include=account", Some(api_key))
        .await
        .expect_error(403, "Not an owner");
    let history = app.history(&app.operator_token, "?days=30").await;
    let signup_event = history
        .iter()
        .find(|e| {
            e["action"] == "account.agent_signup" && e["payload"]["email"] == "founder@example.com"
        })
        .unwrap();
    assert_eq!(signup_event["actor"], "keeper");
    assert_eq!(signup_event["via"], "api");
}

async fn agent_signup_rejects_taken_and_invalid_emails(app: TestApp) {
    let first = app
        .post(
            "/auth/agent-signup",
            None,
            json!({ "email": "agent@example.com" }),
        )
        .await;
    assert_eq!(first.status, 200, "{}", first.text);
    // Without a name the workspace is named after the address.
    let me = app
        .get("/auth/me", Some(first.body["api_key"].as_str().unwrap()))
        .await;
    assert_eq!(me.expect(200)["account_name"], "agent");
    assert_eq!(me.body["name"], Value::Null);

    let again = app
        .post(
            "/auth/agent-signup",
            None,
            json!({ "email": "AGENT@example.com" }),
        )
        .await;
    again.expect_error(409, "cannot be created");

    app.signup_verified("ann@example.com").await;
    let taken = app
        .post(
            "/auth/agent-signup",
            None,
            json!({ "email": "ann@example.com" }),
        )
        .await;
    taken.expect_error(409, "cannot be created");
    assert_eq!(
        again.body, taken.body,
        "the conflict wording is generic and does not reveal which case applies"
    );

    app.post(
        "/auth/agent-signup",
        None,
        json!({ "email": "not-an-email" }),
    )
    .await
    .expect_error(400, "email");
    app.post("/auth/agent-signup", None, json!({}))
        .await
        .expect_error(400, "email");
    app.post(
        "/auth/agent-signup",
        None,
        json!({ "email": "long@example.com", "name": "n".repeat(81) }),
    )
    .await
    .expect_error(400, "name");
    assert_eq!(
        mails_to(&app, "agent@example.com").len(),
        1,
        "only the first agent sign-up mailed a claim link"
    );
}

backend_tests!(
    agent_signup_returns_working_key_and_claim_link,
    agent_signup_rejects_taken_and_invalid_emails,
);
