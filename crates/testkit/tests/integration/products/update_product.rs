//! POST /products/{slug}: edits, bad input, unknown and foreign products, the fixed slug.

use super::*;

async fn update_edits_name_currency_and_domain(app: TestApp) {
    let ann = app.signup_verified("ann@example.com").await;
    let created = app.create_product(&ann.token, "editable").await;
    let id = created["id"].as_str().unwrap();

    let reply = app
        .post(
            "/products/editable",
            Some(&ann.token),
            json!({ "name": "Renamed", "currency": "eur", "domain": "https://Shop.Example.com/landing?x=1" }),
        )
        .await;
    let body = reply.expect(200);
    assert_eq!(
        keys(body),
        set(&[
            "id",
            "slug",
            "name",
            "currency",
            "domain",
            "stage",
            "gate_due_date",
            "gate_result"
        ]),
        "{body}"
    );
    assert_eq!(body["stage"], "validation");
    assert_eq!(body["id"], id);
    assert_eq!(body["slug"], "editable");
    assert_eq!(body["name"], "Renamed");
    assert_eq!(body["currency"], "EUR");
    assert_eq!(body["domain"], "shop.example.com");

    let row = app.get("/products/editable", Some(&ann.token)).await;
    let row = row.expect(200);
    assert_eq!(row["name"], "Renamed");
    assert_eq!(row["currency"], "EUR");
    assert_eq!(row["domain"], "shop.example.com");

    // A partial edit leaves the other fields alone.
    let reply = app
        .post(
            "/products/editable",
            Some(&ann.token),
            json!({ "name": "Only name" }),
        )
        .await;
    let body = reply.expect(200);
    assert_eq!(body["name"], "Only name");
    assert_eq!(body["currency"], "EUR");
    assert_eq!(body["domain"], "shop.example.com");

    // null clears the domain.
    let reply = app
        .post(
            "/products/editable",
            Some(&ann.token),
            json!({ "domain": null }),
        )
        .await;
    let body = reply.expect(200);
    assert_eq!(body["domain"], Value::Null);
    assert_eq!(body["name"], "Only name");
    let row = app.get("/products/editable", Some(&ann.token)).await;
    assert_eq!(row.expect(200)["domain"], Value::Null);

    // The edits are audited with before and after.
    let events = app.history(&ann.token, "?product=editable").await;
    let actions: Vec<&str> = events
        .iter()
        .map(|e| e["action"].as_str().unwrap())
        .collect();
    assert_eq!(
        actions,
        [
            "product.update",
            "product.update",
            "product.update",
            "product.create"
        ]
    );
    assert_eq!(events[2]["payload"]["before"]["name"], "Product editable");
    assert_eq!(events[2]["payload"]["after"]["name"], "Renamed");
    assert_eq!(events[0]["payload"]["after"]["domain"], Value::Null);
}

/// Revenue rows are amounts in the product's currency: once one exists, the currency is fixed.
async fn currency_is_fixed_once_revenue_exists(app: TestApp) {
    let ann = app.signup_verified("ann@example.com").await;
    app.create_product(&ann.token, "shop").await;
    let path = "/products/shop";
    let visit =
        json!({ "events": [{ "dedupe_id": "v1", "stage": "visit", "anonymous_id": "a1" }] });
    app.post("/products/shop/events", Some(&ann.token), visit)
        .await
        .expect(200);
    let reply = app
        .post(path, Some(&ann.token), json!({ "currency": "EUR" }))
        .await;
    assert_eq!(
        reply.expect(200)["currency"],
        "EUR",
        "no revenue yet: free to change"
    );

    let sale = json!({ "events": [{ "dedupe_id": "p1", "stage": "payment", "user_id": "u1", "value": 1200 }] });
    app.post("/products/shop/events", Some(&ann.token), sale)
        .await
        .expect(200);
    let reply = app
        .post(path, Some(&ann.token), json!({ "currency": "USD" }))
        .await;
    reply.expect_error(409, "currency: revenue is already recorded in EUR");
    let reply = app
        .post(
            path,
            Some(&ann.token),
            json!({ "currency": "usd", "name": "Renamed" }),
        )
        .await;
    reply.expect_error(409, "currency");
    let row = app.get(path, Some(&ann.token)).await;
    assert_eq!(row.expect(200)["currency"], "EUR");
    assert_eq!(
        row.body["name"], "Product shop",
        "nothing of a refused edit is written"
    );
    let same = app
        .post(
            path,
            Some(&ann.token),
            json!({ "currency": "eur", "name": "Renamed" }),
        )
        .await;
    assert_eq!(
        same.expect(200)["name"],
        "Renamed",
        "the same currency is no change"
    );
}

async fn update_rejects_bad_input(app: TestApp) {
    let ann = app.signup_verified("ann@example.com").await;
    app.create_product(&ann.token, "fixed").await;
    let path = "/products/fixed";

    let reply = app.post(path, Some(&ann.token), json!({})).await;
    reply.expect_error(400, "nothing to update");
    let reply = app
        .post(path, Some(&ann.token), json!({ "currency": "EURO" }))
        .await;
    reply.expect_error(400, "currency");
    let reply = app
        .post(path, Some(&ann.token), json!({ "currency": "E1" }))
        .await;
    reply.expect_error(400, "currency");
    let reply = app
        .post(path, Some(&ann.token), json!({ "name": "" }))
        .await;
    reply.expect_error(400, "name");
    let reply = app
        .post(path, Some(&ann.token), json!({ "name": "n".repeat(121) }))
        .await;
    reply.expect_error(400, "name");
    let reply = app.post(path, Some(&ann.token), json!({ "name": 5 })).await;
    reply.expect_error(400, "name");
    let reply = app
        .post(path, Some(&ann.token), json!({ "name": "   " }))
        .await;
    reply.expect_error(400, "name");
    let reply = app
        .post(path, Some(&app.operator_token), json!({ "name": "Ops" }))
        .await;
    reply.expect_error(400, "operator token");
    let reply = app
        .post(path, Some(&ann.token), json!({ "domain": "d".repeat(256) }))
        .await;
    reply.expect_error(400, "domain");

    // Nothing changed, and no update was audited.
    let row = app.get(path, Some(&ann.token)).await;
    let row = row.expect(200);
    assert_eq!(row["name"], "Product fixed");
    assert_eq!(row["currency"], "USD");
    let events = app.history(&ann.token, "?product=fixed").await;
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(events[0]["action"], "product.create");
}

async fn update_answers_404_for_unknown_and_foreign_products(app: TestApp) {
    let ann = app.signup_verified("ann@example.com").await;
    let bob = app.signup_verified("bob@example.com").await;
    app.create_product(&bob.token, "bobs").await;

    let reply = app
        .post("/products/nope", Some(&ann.token), json!({ "name": "X" }))
        .await;
    reply.expect_error(404, "not found");
    let reply = app
        .post(
            "/products/bobs",
            Some(&ann.token),
            json!({ "name": "Mine now" }),
        )
        .await;
    reply.expect_error(404, "not found");
    let row = app.get("/products/bobs", Some(&bob.token)).await;
    assert_eq!(row.expect(200)["name"], "Product bobs");
}

async fn slug_cannot_change(app: TestApp) {
    let ann = app.signup_verified("ann@example.com").await;
    let created = app.create_product(&ann.token, "stable").await;

    // A slug in the body is not an editable field: it is ignored.
    let reply = app
        .post(
            "/products/stable",
            Some(&ann.token),
            json!({ "slug": "moved", "name": "Still stable" }),
        )
        .await;
    let body = reply.expect(200);
    assert_eq!(body["slug"], "stable");
    assert_eq!(body["id"], created["id"]);
    // A slug alone is nothing to update.
    let reply = app
        .post(
            "/products/stable",
            Some(&ann.token),
            json!({ "slug": "moved" }),
        )
        .await;
    reply.expect_error(400, "nothing to update");

    let moved = app.get("/products/moved", Some(&ann.token)).await;
    moved.expect_error(404, "not found");
    let row = app.get("/products/stable", Some(&ann.token)).await;
    assert_eq!(row.expect(200)["name"], "Still stable");
    assert_eq!(slugs(&portfolio(&app, &ann.token).await), set(&["stable"]));
}

backend_tests!(
    update_edits_name_currency_and_domain,
    currency_is_fixed_once_revenue_exists,
    update_rejects_bad_input,
    update_answers_404_for_unknown_and_foreign_products,
    slug_cannot_change,
);
