//! Who may resolve a card: API keys never, members as themselves (their `actor` ignored), other
//! accounts' cards answer 404; the operator sees every account's queue and names the `actor`.

use super::*;

async fn api_keys_never_resolve(app: TestApp) {
    let (owner, key) = founder(&app).await;
    let id = propose(&app, &key, proposal(5_000)).await;
    // Even a snoozed card cannot be restored by a key.
    let snoozed = propose(&app, &key, proposal(4_000)).await;
    resolve(&app, &owner.token, &snoozed, "snooze", json!({}))
        .await
        .expect(200);
    for resolution in RESOLUTIONS {
        for card in [&id, &snoozed] {
            let reply = resolve(
                &app,
                &key,
                card,
                resolution,
                json!({ "actor": "someone@example.com" }),
            )
            .await;
            reply.expect_error(403, "a human must resolve cards");
        }
    }
    assert_eq!(queue_ids(&app, &owner.token).await, vec![id]);
    let resolutions = app
        .history(&owner.token, "?limit=1000")
        .await
        .into_iter()
        .filter(|e| {
            ["card.approve", "card.reject", "card.restore"].contains(&e["action"].as_str().unwrap())
        })
        .count();
    assert_eq!(resolutions, 0);
}

async fn members_resolve_and_actor_is_their_own_email(app: TestApp) {
    let (owner, key) = founder(&app).await;
    let member = app.add_member(&owner, "member@example.com", "member").await;
    let id = propose(&app, &key, proposal(5_000)).await;
    // A non-operator's `actor` is ignored: they are recorded as themselves.
    resolve(
        &app,
        &member.token,
        &id,
        "reject",
        json!({ "actor": "ceo@example.com" }),
    )
    .await
    .expect(200);
    let events = card_history(&app, &owner.token, &id).await;
    let reject = events
        .iter()
        .find(|e| e["action"] == "card.reject")
        .unwrap();
    assert_eq!(reject["actor"], "member@example.com");
}

async fn other_accounts_cards_answer_404_and_operators_see_all(app: TestApp) {
    let (owner, key) = founder(&app).await;
    let id = propose(&app, &key, proposal(5_000)).await;
    let stranger = app.signup_verified("stranger@example.com").await;
    let stranger_key = app.api_key(&stranger).await;
    assert!(app.queue(&stranger.token).await.is_empty());
    assert!(app.queue(&stranger_key).await.is_empty());
    for resolution in RESOLUTIONS {
        resolve(&app, &stranger.token, &id, resolution, json!({}))
            .await
            .expect_error(404, "no such pending card");
    }
    resolve(
        &app,
        &owner.token,
        "0196a1d2-0000-7000-8000-000000000000",
        "approve",
        json!({}),
    )
    .await
    .expect_error(404, "no such pending card");
    app.get("/queue", None).await.expect_error(401, "bearer");
    app.post(&format!("/queue/{id}/approve"), None, json!({}))
        .await
        .expect_error(401, "bearer");
    app.post_raw(
        &format!("/queue/{id}/approve"),
        Some(&owner.token),
        "application/json",
        "{oops",
    )
    .await
    .expect_error(400, "");

    // The operator token sees every account's queue and may name the resolver.
    let operator = app.operator_token.clone();
    assert_eq!(queue_ids(&app, &operator).await, vec![id.clone()]);
    resolve(
        &app,
        &operator,
        &id,
        "approve",
        json!({ "actor": "ops-lead@payback.test" }),
    )
    .await
    .expect(200);
    let events = card_history(&app, &owner.token, &id).await;
    let approve = events
        .iter()
        .find(|e| e["action"] == "card.approve")
        .unwrap();
    assert_eq!(approve["actor"], "ops-lead@payback.test");
    assert_eq!(approve["via"], "api");
}

backend_tests!(
    api_keys_never_resolve,
    members_resolve_and_actor_is_their_own_email,
    other_accounts_cards_answer_404_and_operators_see_all,
);
