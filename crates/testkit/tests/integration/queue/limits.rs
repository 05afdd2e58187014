//! Bounded reads and bounded free-form input (issue 19): `GET /queue` answers at most `limit`
//! cards (default 100, at most 500), every other list read refuses a `limit` beyond its maximum
//! by name, and a `rollback_if` or database `credentials` over 4096 bytes is refused by name
//! with nothing written.

use payback_testkit::{TestApp, backend_tests};
use serde_json::{Value, json};

use super::{founder, proposal, propose};

async fn ids(app: &TestApp, token: &str, query: &str) -> Vec<String> {
    let reply = app.get(&format!("/queue{query}"), Some(token)).await;
    let cards = reply.expect(200).as_array().unwrap().clone();
    cards
        .iter()
        .map(|card| card["id"].as_str().unwrap().to_owned())
        .collect()
}

async fn the_queue_answers_its_default_and_refuses_beyond_its_max(app: TestApp) {
    let (owner, key) = founder(&app).await;
    let mut raised = Vec::new();
    for cents in 0..101 {
        raised.push(propose(&app, &key, proposal(3_000 + cents)).await);
    }
    let page = ids(&app, &owner.token, "").await;
    assert_eq!(page.len(), 100, "the default limit");
    let all = ids(&app, &owner.token, "?limit=500").await;
    assert_eq!(all.len(), 101);
    // Newest first: the default page is the newest 100, and the oldest card is left out.
    assert_eq!(page[..], all[..100]);
    assert!(!page.contains(&raised[0]));
    assert_eq!(ids(&app, &owner.token, "?limit=3").await[..], all[..3]);
    assert!(
        ids(&app, &owner.token, "?status=snoozed&limit=500")
            .await
            .is_empty()
    );

    for query in ["?limit=501", "?limit=0", "?status=expired&limit=1000"] {
        app.get(&format!("/queue{query}"), Some(&owner.token))
            .await
            .expect_error(400, "limit: must be between 1 and 500");
    }
}

async fn every_list_refuses_a_limit_beyond_its_max(app: TestApp) {
    let (owner, key) = founder(&app).await;
    let lists = [
        ("/portfolio", 500),
        ("/team", 500),
        ("/auth/keys", 500),
        ("/connections", 500),
        ("/products/shop/conversions", 500),
        ("/history", 1000),
        ("/products/shop/distribution", 1000),
        ("/products/shop/attribution/sales", 1000),
        ("/products/shop/attribution/ads", 1000),
    ];
    for (path, max) in lists {
        let reply = app
            .get(&format!("{path}?limit={}", max + 1), Some(&owner.token))
            .await;
        reply.expect_error(400, &format!("limit: must be between 1 and {max}"));
        let reply = app
            .get(&format!("{path}?limit={max}"), Some(&owner.token))
            .await;
        assert_eq!(reply.status, 200, "{path}: {}", reply.text);
    }
    // `limit` cuts what lists answer: two products, keys and members, one of each asked.
    app.create_product(&owner.token, "other").await;
    app.api_key(&owner).await;
    app.add_member(&owner, "mia@example.com", "member").await;
    let one = |path: &'static str| {
        let app = &app;
        let token = owner.token.clone();
        async move {
            let reply = app.get(&format!("{path}?limit=1"), Some(&token)).await;
            reply.expect(200).as_array().unwrap().len()
        }
    };
    assert_eq!(one("/portfolio").await, 1);
    assert_eq!(one("/auth/keys").await, 1);
    assert_eq!(one("/team").await, 1);
    let portfolio = app.get("/portfolio", Some(&key)).await;
    assert_eq!(portfolio.expect(200).as_array().unwrap().len(), 2);
}

/// `rollback_if` of `total` bytes serialized.
fn rollback_if_of(total: usize) -> Value {
    let empty = json!({ "cac_ceiling_cents": 4_000, "note": "" })
        .to_string()
        .len();
    json!({ "cac_ceiling_cents": 4_000, "note": "x".repeat(total - empty) })
}

async fn an_oversized_rollback_if_is_refused_and_writes_nothing(app: TestApp) {
    let (owner, key) = founder(&app).await;
    let history_before = app
        .history(&owner.token, "?limit=1000&include=account")
        .await
        .len();

    let mut body = proposal(3_000);
    body["rollback_if"] = rollback_if_of(4097);
    let reply = app.post("/products/shop/proposals", Some(&key), body).await;
    reply.expect_error(
        400,
        "rollback_if: must be at most 4096 bytes serialized, got 4097",
    );
    assert!(app.queue(&owner.token).await.is_empty(), "no card raised");
    assert_eq!(
        app.history(&owner.token, "?limit=1000&include=account")
            .await
            .len(),
        history_before,
        "no history event"
    );

    // At the cap it is taken, and kept whole on the card.
    let mut body = proposal(3_000);
    body["rollback_if"] = rollback_if_of(4096);
    propose(&app, &key, body).await;
    let cards = app.queue(&owner.token).await;
    assert_eq!(cards.len(), 1);
    let kept = &cards[0]["action_spec"]["rollback_if"];
    assert_eq!(kept.to_string().len(), 4096);
}

/// Database credentials are capped like `rollback_if`: refused by name before anything is
/// looked up or stored.
async fn oversized_database_credentials_are_refused(app: TestApp) {
    let (owner, _) = founder(&app).await;
    let credentials = json!({
        "host": "db.example.com", "user": "app", "database": "shop",
        "password": "x".repeat(4096),
    });
    let reply = app
        .post(
            "/products/shop/connections/sql-b",
            Some(&owner.token),
            json!({ "credentials": credentials }),
        )
        .await;
    reply.expect_error(400, "credentials: must be at most 4096 bytes serialized");
    let connections = app.get("/connections", Some(&owner.token)).await;
    assert!(connections.expect(200).as_array().unwrap().is_empty());
}

backend_tests!(
    the_queue_answers_its_default_and_refuses_beyond_its_max,
    every_list_refuses_a_limit_beyond_its_max,
    an_oversized_rollback_if_is_refused_and_writes_nothing,
    oversized_database_credentials_are_refused,
);
