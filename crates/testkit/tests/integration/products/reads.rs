//! GET /products/{slug} (every field of the row, private to its account) and GET /portfolio
//! (the caller's account only; operators see every account).

use payback_testkit::spec::product_row_fields;

use super::*;

async fn product_row_has_every_field(app: TestApp) {
    let ann = app.signup_verified("ann@example.com").await;
    let created = app.create_product(&ann.token, "row").await;
    let reply = app.get("/products/row", Some(&ann.token)).await;
    let row = reply.expect(200);
    let present = keys(row);
    for field in &product_row_fields() {
        assert!(present.contains(*field), "missing {field} in {row}");
    }
    assert_eq!(row["product_id"], created["id"]);
    assert_eq!(row["slug"], "row");
    assert_eq!(row["name"], "Product row");
    assert_eq!(row["stage"], "validation");
    assert_eq!(row["currency"], "USD");
    assert_eq!(row["domain"], Value::Null);
    assert_eq!(row["gate_result"], Value::Null);
    assert_eq!(row["gate_due_date"], Value::Null);
    for zero in [
        "spend_7d_cents",
        "spend_30d_cents",
        "spend_prev_30d_cents",
        "visits_30d",
        "leads_30d",
        "customers_30d",
        "revenue_30d_cents",
        "revenue_prev_30d_cents",
        "pending_cards",
    ] {
        assert_eq!(row[zero], json!(0), "{zero} in {row}");
        assert!(row[zero].is_i64(), "{zero} is an integer");
    }
    // No customers: CAC is null, never 0; LTV and the ratio follow.
    assert_eq!(row["cac_cents"], Value::Null);
    assert_eq!(row["ltv_cents"], Value::Null);
    assert_eq!(row["ltv_cac"], Value::Null);
}

async fn product_row_is_private_to_its_account(app: TestApp) {
    let ann = app.signup_verified("ann@example.com").await;
    let bob = app.signup_verified("bob@example.com").await;
    app.create_product(&ann.token, "anns").await;
    let reply = app.get("/products/anns", Some(&bob.token)).await;
    reply.expect_error(404, "not found");
    let reply = app.get("/products/absent", Some(&ann.token)).await;
    reply.expect_error(404, "not found");
    let reply = app.get("/products/anns", None).await;
    reply.expect_error(401, "bearer");
    // Through an API key of the owning account it is visible; of another account it is not.
    let ann_key = app.api_key(&ann).await;
    let bob_key = app.api_key(&bob).await;
    let reply = app.get("/products/anns", Some(&ann_key)).await;
    assert_eq!(reply.expect(200)["slug"], "anns");
    let reply = app.get("/products/anns", Some(&bob_key)).await;
    reply.expect_error(404, "not found");
}

async fn portfolio_shows_the_callers_account_only(app: TestApp) {
    let ann = app.signup_verified("ann@example.com").await;
    let bob = app.signup_verified("bob@example.com").await;
    assert_eq!(portfolio(&app, &ann.token).await, json!([]));

    app.create_product(&ann.token, "alpha").await;
    app.create_product(&ann.token, "beta").await;
    app.create_product(&bob.token, "gamma").await;

    let rows = portfolio(&app, &ann.token).await;
    assert_eq!(slugs(&rows), set(&["alpha", "beta"]));
    assert_eq!(rows.as_array().unwrap().len(), 2);
    let rows = portfolio(&app, &bob.token).await;
    assert_eq!(slugs(&rows), set(&["gamma"]));
    let key = app.api_key(&bob).await;
    assert_eq!(slugs(&portfolio(&app, &key).await), set(&["gamma"]));

    // Each row is the full Product row, the same as GET /products/{slug}.
    let rows = portfolio(&app, &ann.token).await;
    for row in rows.as_array().unwrap() {
        for field in &product_row_fields() {
            assert!(row.get(*field).is_some(), "missing {field} in {row}");
        }
        let slug = row["slug"].as_str().unwrap();
        let single = app
            .get(&format!("/products/{slug}"), Some(&ann.token))
            .await;
        assert_eq!(single.expect(200), row);
    }

    let reply = app.get("/portfolio", None).await;
    reply.expect_error(401, "bearer");
}

async fn operators_see_every_account(app: TestApp) {
    let ann = app.signup_verified("ann@example.com").await;
    let bob = app.signup_verified("bob@example.com").await;
    let ops = app.signup_verified("carol@example.com").await;
    app.create_product(&ann.token, "alpha").await;
    app.create_product(&bob.token, "gamma").await;
    app.create_product(&ops.token, "own").await;

    // Before the grant, carol is an ordinary tenant.
    assert_eq!(slugs(&portfolio(&app, &ops.token).await), set(&["own"]));

    let changed = payback_server::operator::grant(&app.state, "carol@example.com")
        .await
        .unwrap();
    assert_eq!(changed, vec![ops.account_id.clone()]);

    let everything = set(&["alpha", "gamma", "own"]);
    // The existing session follows the account's new role.
    assert_eq!(slugs(&portfolio(&app, &ops.token).await), everything);
    let again = app.login("carol@example.com").await;
    assert_eq!(slugs(&portfolio(&app, &again.token).await), everything);
    // The operator token sees all too.
    let all = portfolio(&app, &app.operator_token).await;
    assert_eq!(slugs(&all), everything);
    assert_eq!(all.as_array().unwrap().len(), 3);
    // Tenants are unaffected.
    assert_eq!(slugs(&portfolio(&app, &ann.token).await), set(&["alpha"]));
    assert_eq!(slugs(&portfolio(&app, &bob.token).await), set(&["gamma"]));
}

async fn operator_token_sees_same_slug_in_two_accounts(app: TestApp) {
    let ann = app.signup_verified("ann@example.com").await;
    let bob = app.signup_verified("bob@example.com").await;
    let a = app.create_product(&ann.token, "same").await;
    let b = app.create_product(&bob.token, "same").await;
    let all = portfolio(&app, &app.operator_token).await;
    let ids: BTreeSet<String> = all
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row["product_id"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(
        ids,
        set(&[a["id"].as_str().unwrap(), b["id"].as_str().unwrap()])
    );
}

backend_tests!(
    product_row_has_every_field,
    product_row_is_private_to_its_account,
    portfolio_shows_the_callers_account_only,
    operators_see_every_account,
    operator_token_sees_same_slug_in_two_accounts,
);
