//! The portfolio ceiling and its currency on proposals and approvals, racing approvals included.

use super::*;

async fn portfolio_ceiling_and_currency(app: TestApp) {
    let (owner, key) = founder(&app).await;
    app.create_product(&owner.token, "side").await;
    app.post(
        "/products",
        Some(&owner.token),
        json!({ "name": "Euro", "slug": "euro", "currency": "EUR" }),
    )
    .await
    .expect(200);
    app.post(
        "/policy",
        Some(&owner.token),
        json!({ "portfolio_ceiling_cents": 10_000 }),
    )
    .await
    .expect(200);

    // 6000 approved on shop/google.
    let first = accepted(&propose(&app, &key, "shop", spend_change("google", 6_000)).await);
    approve(&app, &owner, &first).await.expect(200);
    // Another product: 6000 + 5000 is over 10000; 6000 + 4000 is exactly the ceiling.
    refused(
        &propose(&app, &key, "side", spend_change("google", 5_000)).await,
        422,
        "portfolio_ceiling_exceeded",
    );
    refused(
        &propose(&app, &key, "side", spend_change("google", 4_001)).await,
        422,
        "portfolio_ceiling_exceeded",
    );
    let side = accepted(&propose(&app, &key, "side", spend_change("google", 4_000)).await);
    // Another network of the same product counts the 6000 too.
    refused(
        &propose(&app, &key, "shop", spend_change("meta", 4_001)).await,
        422,
        "portfolio_ceiling_exceeded",
    );
    let shop_meta = accepted(&propose(&app, &key, "shop", spend_change("meta", 4_000)).await);
    // Replacing shop/google's own budget does not count the 6000 twice.
    let replace = accepted(&propose(&app, &key, "shop", spend_change("google", 10_000)).await);
    refused(
        &propose(&app, &key, "shop", spend_change("google", 10_001)).await,
        422,
        "portfolio_ceiling_exceeded",
    );
    // A EUR product cannot be summed with a USD ceiling, whatever the amount.
    refused(
        &propose(&app, &key, "euro", spend_change("google", 1)).await,
        422,
        "portfolio_currency_mismatch",
    );
    let blocks = actions(&app, &owner.token, "proposal.policy_block").await;
    let codes: Vec<&str> = blocks
        .iter()
        .map(|e| e["payload"]["policy_code"].as_str().unwrap())
        .collect();
    assert_eq!(
        codes,
        vec![
            "portfolio_ceiling_exceeded",
            "portfolio_ceiling_exceeded",
            "portfolio_ceiling_exceeded",
            "portfolio_ceiling_exceeded",
            "portfolio_currency_mismatch",
        ]
    );
    assert!(blocks.iter().all(|e| e["actor"] == "policy"));
    assert_eq!(blocks[4]["product_slug"], "euro");

    // Approving side's 4000 fills the ceiling; shop/meta's 4000, which fitted when raised, is
    // refused at approval and waits.
    approve(&app, &owner, &side).await.expect(200);
    refused(
        &approve(&app, &owner, &shop_meta).await,
        403,
        "portfolio_ceiling_exceeded",
    );
    assert!(queue_ids(&app, &owner.token).await.contains(&shop_meta));
    // Replacing shop/google's 6000 with 10000 would make 14000: refused too.
    refused(
        &approve(&app, &owner, &replace).await,
        403,
        "portfolio_ceiling_exceeded",
    );
    let refusals = actions(&app, &owner.token, "card.approve_refused").await;
    assert_eq!(refusals.len(), 2);
    assert_eq!(refusals[0]["subject_ref"], shop_meta.as_str());
    assert_eq!(refusals[0]["actor"], "policy");
    assert_eq!(refusals[0]["payload"]["attempted_by"], OWNER);
    assert_eq!(
        refusals[0]["payload"]["policy_code"],
        "portfolio_ceiling_exceeded"
    );

    let policy = app.get("/policy", Some(&key)).await.expect(200).clone();
    assert_eq!(policy["portfolio_ceiling_cents"], 10_000);
    assert_eq!(policy["committed_daily_cents"], 6_000 + 4_000);
    let budgets: Vec<(Value, Value, Value, Value, Value)> = policy["budgets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            (
                b["product_slug"].clone(),
                b["network"].clone(),
                b["currency"].clone(),
                b["daily_cents"].clone(),
                b["card_id"].clone(),
            )
        })
        .collect();
    assert_eq!(
        budgets,
        vec![
            (
                json!("shop"),
                json!("google"),
                json!("USD"),
                json!(6_000),
                json!(first)
            ),
            (
                json!("side"),
                json!("google"),
                json!("USD"),
                json!(4_000),
                json!(side)
            ),
        ]
    );

    // A ceiling in EUR: the euro product may propose within it; USD products may not.
    app.post(
        "/policy",
        Some(&owner.token),
        json!({ "currency": "EUR", "portfolio_ceiling_cents": 300 }),
    )
    .await
    .expect(200);
    accepted(&propose(&app, &key, "euro", spend_change("google", 300)).await);
    refused(
        &propose(&app, &key, "euro", spend_change("google", 301)).await,
        422,
        "portfolio_ceiling_exceeded",
    );
    refused(
        &propose(&app, &key, "shop", spend_change("google", 1)).await,
        422,
        "portfolio_currency_mismatch",
    );
    // No ceiling: no limit from the engine.
    app.post(
        "/policy",
        Some(&owner.token),
        json!({ "portfolio_ceiling_cents": null }),
    )
    .await
    .expect(200);
    accepted(&propose(&app, &key, "shop", spend_change("google", 100_000_000_000)).await);
}

/// Two approvals racing under one ceiling: the account's policy lock serialises them, so one is
/// approved and the other refused with 403, and the committed budgets never pass the ceiling.
async fn racing_approvals_cannot_both_fit_under_the_ceiling(app: TestApp) {
    let (owner, key) = founder(&app).await;
    app.create_product(&owner.token, "side").await;
    app.post(
        "/policy",
        Some(&owner.token),
        json!({ "portfolio_ceiling_cents": 10_000 }),
    )
    .await
    .expect(200);
    let mut committed = 0;
    for (round, network) in ["google", "meta"].into_iter().enumerate() {
        // Each 6000 fits alone, two do not: under 10000 with nothing committed, then under
        // 16000 with the first round's 6000 committed.
        if round == 1 {
            app.post(
                "/policy",
                Some(&owner.token),
                json!({ "portfolio_ceiling_cents": 16_000 }),
            )
            .await
            .expect(200);
        }
        let a = accepted(&propose(&app, &key, "shop", spend_change(network, 6_000)).await);
        let b = accepted(&propose(&app, &key, "side", spend_change(network, 6_000)).await);
        let (first, second) = tokio::join!(approve(&app, &owner, &a), approve(&app, &owner, &b));
        let mut statuses = vec![first.status, second.status];
        statuses.sort_unstable();
        assert_eq!(
            statuses,
            vec![200, 403],
            "round {round}: {} / {}",
            first.text,
            second.text
        );
        let loser = if first.status == 403 { &first } else { &second };
        refused(loser, 403, "portfolio_ceiling_exceeded");
        committed += 6_000;
        let policy = app.get("/policy", Some(&key)).await.expect(200).clone();
        assert_eq!(policy["committed_daily_cents"], committed);
        assert_eq!(policy["budgets"].as_array().unwrap().len(), round + 1);
    }
}

backend_tests!(
    portfolio_ceiling_and_currency,
    racing_approvals_cannot_both_fit_under_the_ceiling,
);
