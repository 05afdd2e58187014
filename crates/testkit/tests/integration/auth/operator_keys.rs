//! An API key of an operator account acts for its own account only (issue 19): only the operator
//! token and the sessions of an operator account's members see every tenant.

use super::*;

/// A tenant's product slug, distinctive enough to search whole response bodies for.
const TENANT_SLUG: &str = "tenant-secret";

fn proposal() -> Value {
    json!({
        "network": "google",
        "from_cents": 2_000,
        "to_cents": 5_000,
        "campaign_id": "cmp-1",
        "rationale": "CAC on search is well under target; room to grow.",
        "rollback_if": { "cac_ceiling_cents": 4_000, "window_days": 7 },
    })
}

fn slugs(rows: &Value) -> Vec<&str> {
    let mut slugs: Vec<&str> = rows
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row["slug"].as_str().unwrap())
        .collect();
    slugs.sort_unstable();
    slugs
}

/// The `*_env` connect: reading the API host's environment is for operators only.
async fn env_connect(app: &TestApp, token: &str) -> Reply {
    app.post(
        "/products/ops-own/connections/sql-a",
        Some(token),
        json!({ "host_env": "NOPE_HOST", "user_env": "NOPE_USER", "database_env": "NOPE_DB",
                "status": "pending" }),
    )
    .await
}

async fn operator_accounts_keys_act_for_their_account_only(app: TestApp) {
    // A tenant with a product, a pending card and history.
    let ann = app.signup_verified("ann@example.com").await;
    app.create_product(&ann.token, TENANT_SLUG).await;
    let ann_key = app.api_key(&ann).await;
    let card = app
        .post(
            &format!("/products/{TENANT_SLUG}/proposals"),
            Some(&ann_key),
            proposal(),
        )
        .await
        .expect(202)["proposal_id"]
        .as_str()
        .unwrap()
        .to_owned();

    // An operator account with a product of its own and a key.
    let carol = app.signup_verified("carol@example.com").await;
    app.create_product(&carol.token, "ops-own").await;
    payback_server::operator::grant(&app.state, "carol@example.com")
        .await
        .unwrap();
    let key = app.api_key(&carol).await;

    // The key sees its own account only.
    assert_eq!(
        slugs(app.get("/portfolio", Some(&key)).await.expect(200)),
        vec!["ops-own"]
    );
    assert!(app.queue(&key).await.is_empty());
    let history = app.history(&key, "?limit=1000").await;
    assert!(!history.is_empty());
    assert!(
        history.iter().all(|e| e["product_slug"] != TENANT_SLUG
            && e["actor"] != "ann@example.com"
            && e["action"] != "auth.login"),
        "{history:?}"
    );
    for path in ["/connections", "/health"] {
        let reply = app.get(path, Some(&key)).await;
        assert!(
            !reply.expect(200).to_string().contains(TENANT_SLUG),
            "{path}: {}",
            reply.text
        );
    }
    // Another account's product answers 404, as for any tenant.
    app.get(&format!("/products/{TENANT_SLUG}"), Some(&key))
        .await
        .expect(404);
    // Operator-only paths answer as for a non-operator.
    env_connect(&app, &key)
        .await
        .expect_error(403, "operators only");

    // The same member's session still sees everything and passes operator-only paths.
    assert_eq!(
        slugs(app.get("/portfolio", Some(&carol.token)).await.expect(200)),
        vec!["ops-own", TENANT_SLUG]
    );
    let queue = app.queue(&carol.token).await;
    assert!(queue.iter().any(|c| c["id"] == card.as_str()), "{queue:?}");
    let history = app.history(&carol.token, "?limit=1000").await;
    assert!(
        history.iter().any(|e| e["product_slug"] == TENANT_SLUG),
        "{history:?}"
    );
    let health = app.get("/health", Some(&carol.token)).await;
    assert!(health.expect(200).to_string().contains(TENANT_SLUG));
    env_connect(&app, &carol.token).await.expect(200);
    // The operator token too.
    assert_eq!(
        slugs(
            app.get("/portfolio", Some(&app.operator_token))
                .await
                .expect(200)
        ),
        vec!["ops-own", TENANT_SLUG]
    );
}

backend_tests!(operator_accounts_keys_act_for_their_account_only);
