//! Proposal input rules: 400 naming the field, 401 and 404, nothing written when refused.

use super::*;

async fn proposal_input_errors(app: TestApp) {
    let (owner, key) = founder(&app).await;
    let with = |field: &str, value: Value| {
        let mut body = spend_change("google", 1_000);
        body[field] = value;
        body
    };
    let invalid = [
        (with("rationale", json!("x".repeat(9))), "rationale"),
        (with("rationale", json!("x".repeat(2001))), "rationale"),
        (json!({ "network": "google", "to_cents": 10 }), "rationale"),
        (with("to_cents", json!(0)), "to_cents"),
        (with("to_cents", json!(-100)), "to_cents"),
        (with("to_cents", json!(100_000_000_001_i64)), "to_cents"),
        (with("to_cents", json!("ten")), "to_cents"),
        (
            json!({ "network": "google", "rationale": RATIONALE }),
            "to_cents",
        ),
        (with("network", json!("tiktok")), "network"),
        (json!({ "to_cents": 10, "rationale": RATIONALE }), "network"),
        (with("headline", json!("h".repeat(91))), "headline"),
        (with("headline", json!("")), "headline"),
        (with("rollback_if", json!([1])), "rollback_if"),
        (with("rollback_if", json!("cac > 40")), "rollback_if"),
        (with("from_cents", json!(-1)), "from_cents"),
        (with("campaign_id", json!("")), "campaign_id"),
        (with("campaign_id", json!("c".repeat(201))), "campaign_id"),
    ];
    for (body, field) in invalid {
        let reply = propose(&app, &key, "shop", body.clone()).await;
        assert_eq!(reply.status, 400, "{body} -> {}", reply.text);
        reply.expect_error(400, field);
        assert!(reply.body.get("policy_code").is_none(), "{}", reply.text);
    }
    propose(&app, &key, "shop", json!({}))
        .await
        .expect_error(400, "missing field");
    // The limits themselves pass.
    let at_limits = json!({
        "network": "meta", "to_cents": 1, "from_cents": 0, "rationale": "x".repeat(10),
        "headline": "h".repeat(90), "campaign_id": "c".repeat(200),
        "rollback_if": { "cac_ceiling_cents": 4_000 },
    });
    let id = accepted(&propose(&app, &key, "shop", at_limits).await);
    let long = json!({ "network": "google", "to_cents": 100_000_000_000_i64, "rationale": "x".repeat(2000) });
    let long_id = accepted(&propose(&app, &key, "shop", long).await);

    propose(&app, &key, "nope", spend_change("google", 10))
        .await
        .expect_error(404, "product");
    app.post("/products/shop/proposals", None, spend_change("google", 10))
        .await
        .expect_error(401, "bearer");
    let stranger = app.signup_verified("stranger@example.com").await;
    let stranger_key = app.api_key(&stranger).await;
    app.create_product(&stranger.token, "theirs").await;
    for token in [&stranger.token, &stranger_key] {
        propose(&app, token, "shop", spend_change("google", 10))
            .await
            .expect_error(404, "product");
    }
    propose(&app, &key, "theirs", spend_change("google", 10))
        .await
        .expect_error(404, "product");

    // Only the two valid proposals were written; the stranger's queue is empty.
    let mut waiting = queue_ids(&app, &owner.token).await;
    waiting.sort();
    let mut expected = vec![id, long_id];
    expected.sort();
    assert_eq!(waiting, expected);
    assert!(queue_ids(&app, &stranger.token).await.is_empty());
    assert_eq!(
        actions(&app, &owner.token, "proposal.create").await.len(),
        2
    );
    assert!(
        actions(&app, &owner.token, "proposal.policy_block")
            .await
            .is_empty()
    );
}

/// A headline or rationale of whitespace alone is refused like an empty one, naming the field,
/// and leaves neither a card nor a block event behind.
async fn blank_headline_or_rationale_is_refused(app: TestApp) {
    let (owner, key) = founder(&app).await;
    let mut blank_headline = spend_change("google", 1_000);
    blank_headline["headline"] = json!("   ");
    propose(&app, &key, "shop", blank_headline)
        .await
        .expect_error(400, "headline");
    let mut blank_rationale = spend_change("google", 1_000);
    blank_rationale["rationale"] = json!(" ".repeat(20));
    propose(&app, &key, "shop", blank_rationale)
        .await
        .expect_error(400, "rationale");
    assert!(queue_ids(&app, &owner.token).await.is_empty());
    assert!(
        actions(&app, &owner.token, "proposal.policy_block")
            .await
            .is_empty()
    );
}

backend_tests!(
    proposal_input_errors,
    blank_headline_or_rationale_is_refused,
);
