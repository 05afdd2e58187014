//! An empty product reads zero everywhere; bad parameters, bearers and products answer errors
//! naming what is wrong.

use super::*;

fn zero_channel(channel: &str) -> Value {
    json!({"channel": channel, "spend_cents": 0, "revenue_first_cents": 0, "revenue_last_cents": 0,
        "transactions_first": 0, "customers_first": 0, "cac_cents": null, "roas": null})
}

fn zero_ad(id: &str) -> Value {
    json!({"id": id, "name": null, "channel": null, "spend_cents": 0, "impressions": 0, "clicks": 0,
        "revenue_cents": 0, "transactions": 0, "customers": 0, "cac_cents": null, "roas": null})
}

async fn an_empty_product_reads_zero(app: TestApp) {
    let key = setup(&app, "founder@example.com").await;
    app.create_product(&key, "empty").await;
    let report = get(&app, &key, "/products/empty/attribution").await;
    assert_eq!(
        report,
        json!({"window_days": 30, "channels": [zero_channel(UN)],
            "totals": {"revenue_cents": 0, "spend_cents": 0, "attributed_first_cents": 0, "unattributed_cents": 0},
            "primary_goal": null,
            "coverage": {"identities_total": 0, "identities_with_channel": 0, "events_total": 0,
                "events_with_channel": 0, "transactions_total": 0, "transactions_with_identity": 0,
                "email_conflicts": 0}})
    );
    let sales = get(&app, &key, "/products/empty/attribution/sales?days=7").await;
    assert_eq!(sales, json!({"window_days": 7, "total": 0, "sales": []}));
    for level in ["campaign", "ad_group", "keyword", "ad"] {
        let ads = get(
            &app,
            &key,
            &format!("/products/empty/attribution/ads?level={level}"),
        )
        .await;
        assert_eq!(
            ads,
            json!({"window_days": 30, "level": level, "rows": [zero_ad("no_dimension"), zero_ad(UN)],
                "totals": {"spend_cents": 0, "revenue_cents": 0, "attributed_cents": 0, "unattributed_cents": 0},
                "coverage": {"transactions_total": 0, "transactions_with_paid_touch": 0}})
        );
    }
}

async fn errors_name_the_parameter(app: TestApp) {
    let key = setup(&app, "founder@example.com").await;
    app.create_product(&key, "shop").await;
    let stranger = setup(&app, "stranger@example.com").await;
    for path in [
        "/products/shop/attribution",
        "/products/shop/attribution/sales",
        "/products/shop/attribution/ads",
    ] {
        for query in ["days=0", "days=3651", "days=abc"] {
            app.get(&format!("{path}?{query}"), Some(&key))
                .await
                .expect_error(400, "days");
        }
        app.get(path, None).await.expect_error(401, "bearer");
        app.get(path, Some(&stranger))
            .await
            .expect_error(404, "product");
        app.get(&path.replace("shop", "nope"), Some(&key))
            .await
            .expect_error(404, "product");
    }
    for path in [
        "/products/shop/attribution/sales",
        "/products/shop/attribution/ads",
    ] {
        for query in ["limit=0", "limit=1001", "limit=x"] {
            app.get(&format!("{path}?{query}"), Some(&key))
                .await
                .expect_error(400, "limit");
        }
        app.get(&format!("{path}?limit=1000"), Some(&key))
            .await
            .expect(200);
    }
    app.get("/products/shop/attribution/ads?level=bogus", Some(&key))
        .await
        .expect_error(400, "level: must be one of");
    app.get("/products/shop/attribution/ads?level=ad_group", Some(&key))
        .await
        .expect(200);
}

backend_tests!(an_empty_product_reads_zero, errors_name_the_parameter);
