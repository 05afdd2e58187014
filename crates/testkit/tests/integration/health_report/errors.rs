//! `days` out of bounds is refused by name; no bearer is a 401; another account's product and
//! an unknown one are 404.

use super::*;

async fn errors_name_what_is_wrong(app: TestApp) {
    let owner = founder(&app, "founder@example.com").await;
    product(&app, &owner, "shop").await;
    let stranger = founder(&app, "stranger@example.com").await;
    product(&app, &stranger, "theirs").await;
    let path = "/products/shop/health-report";
    for query in ["days=0", "days=3651", "days=-3", "days=abc"] {
        app.get(&format!("{path}?{query}"), Some(&owner.key))
            .await
            .expect_error(400, "days");
    }
    app.get(&format!("{path}?days=3651"), Some(&owner.key))
        .await
        .expect_error(400, "days: must be 1-3650, got 3651");
    for days in [1, 365, 3650] {
        let report = app
            .get(&format!("{path}?days={days}"), Some(&owner.key))
            .await
            .expect(200)
            .clone();
        assert_eq!(report["window_days"], days);
        assert_consistent(&report);
        assert_eq!(
            evidence(&report, "tracking.payments"),
            format!(
                "Not connected, and no revenue recorded in {}",
                if days == 1 {
                    "1 day".to_owned()
                } else {
                    format!("{days} days")
                }
            )
        );
    }
    app.get(path, None).await.expect_error(401, "bearer");
    // Another account's product is not there, for keys and sessions alike.
    app.get("/products/theirs/health-report", Some(&owner.key))
        .await
        .expect_error(404, "product");
    app.get(path, Some(&stranger.session.token))
        .await
        .expect_error(404, "product");
    app.get("/products/nope/health-report", Some(&owner.key))
        .await
        .expect_error(404, "product");
    // A session reads it as a key does.
    let by_session = report(&app, &owner.session.token, "shop").await;
    assert_eq!(by_session["product_slug"], "shop");
}

backend_tests!(errors_name_what_is_wrong);
