#![allow(clippy::unwrap_used)]
//! Products and portfolio: POST /products, POST /products/{slug}, GET /products/{slug},
//! GET /portfolio and POST /products/{slug}/onboarding-complete, on both backends.

use std::collections::BTreeSet;

use payback_testkit::{Reply, TestApp, backend_tests};
use serde_json::{Value, json};

/// Every field of the spec's Product row.
const PRODUCT_ROW_FIELDS: &[&str] = &[
    "product_id",
    "slug",
    "name",
    "stage",
    "currency",
    "domain",
    "gate_result",
    "gate_due_date",
    "spend_7d_cents",
    "spend_30d_cents",
    "spend_prev_30d_cents",
    "visits_30d",
    "leads_30d",
    "customers_30d",
    "revenue_30d_cents",
    "revenue_prev_30d_cents",
    "cac_cents",
    "ltv_cents",
    "ltv_cac",
    "pending_cards",
];

async fn create(app: &TestApp, token: &str, body: Value) -> Reply {
    app.post("/products", Some(token), body).await
}

fn keys(value: &Value) -> BTreeSet<String> {
    value
        .as_object()
        .unwrap_or_else(|| panic!("not an object: {value}"))
        .keys()
        .cloned()
        .collect()
}

fn slugs(rows: &Value) -> BTreeSet<String> {
    rows.as_array()
        .unwrap_or_else(|| panic!("not an array: {rows}"))
        .iter()
        .map(|row| row["slug"].as_str().unwrap().to_owned())
        .collect()
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| (*s).to_owned()).collect()
}

async fn portfolio(app: &TestApp, token: &str) -> Value {
    app.get("/portfolio", Some(token)).await.expect(200).clone()
}

// ---------------------------------------------------------------------------------------------
// POST /products

async fn create_returns_the_product_in_validation(app: TestApp) {
    let ann = app.signup_verified("ann@example.com").await;
    let reply = create(
        &app,
        &ann.token,
        json!({ "name": "Widget Shop", "slug": "widget-shop", "currency": "EUR" }),
    )
    .await;
    let body = reply.expect(200);
    assert_eq!(
        keys(body),
        set(&["id", "slug", "name", "currency", "stage"]),
        "{body}"
    );
    let id = body["id"].as_str().unwrap();
    assert!(uuid::Uuid::parse_str(id).is_ok(), "id is a uuid: {id}");
    assert_eq!(body["slug"], "widget-shop");
    assert_eq!(body["name"], "Widget Shop");
    assert_eq!(body["currency"], "EUR");
    assert_eq!(body["stage"], "validation");

    let row = app.get("/products/widget-shop", Some(&ann.token)).await;
    let row = row.expect(200);
    assert_eq!(row["product_id"], id);
    assert_eq!(row["currency"], "EUR");
    assert_eq!(row["domain"], Value::Null);
}

async fn create_defaults_and_normalizes_currency_and_domain(app: TestApp) {
    let ann = app.signup_verified("ann@example.com").await;
    let default = create(
        &app,
        &ann.token,
        json!({ "name": "Plain", "slug": "plain" }),
    )
    .await;
    assert_eq!(default.expect(200)["currency"], "USD");

    let nulls = create(
        &app,
        &ann.token,
        json!({ "name": "Nulls", "slug": "nulls", "currency": null, "domain": null }),
    )
    .await;
    assert_eq!(nulls.expect(200)["currency"], "USD");

    let lower = create(
        &app,
        &ann.token,
        json!({ "name": "Lower", "slug": "lower", "currency": "gbp" }),
    )
    .await;
    assert_eq!(lower.expect(200)["currency"], "GBP");

    let with_domain = create(
        &app,
        &ann.token,
        json!({ "name": "Site", "slug": "site", "domain": "https://WWW.Example.com/x" }),
    )
    .await;
    with_domain.expect(200);
    let row = app.get("/products/site", Some(&ann.token)).await;
    assert_eq!(row.expect(200)["domain"], "www.example.com");

    let bare = create(
        &app,
        &ann.token,
        json!({ "name": "Bare", "slug": "bare", "domain": "shop.example.org" }),
    )
    .await;
    bare.expect(200);
    let row = app.get("/products/bare", Some(&ann.token)).await;
    assert_eq!(row.expect(200)["domain"], "shop.example.org");

    // Limits are inclusive and count characters: 120 two-byte characters, a 60-char slug, a
    // 2-char slug, a 255-character domain.
    let long_name = "é".repeat(120);
    let long_slug = "a".repeat(60);
    let reply = create(
        &app,
        &ann.token,
        json!({ "name": long_name, "slug": long_slug, "domain": format!("{}.com", "d".repeat(251)) }),
    )
    .await;
    let body = reply.expect(200);
    assert_eq!(body["name"], long_name.as_str());
    assert_eq!(body["slug"], long_slug.as_str());
    let reply = create(&app, &ann.token, json!({ "name": "X", "slug": "x1" })).await;
    assert_eq!(reply.expect(200)["slug"], "x1");
}

async fn create_rejects_invalid_input_naming_the_field(app: TestApp) {
    let ann = app.signup_verified("ann@example.com").await;
    let cases: Vec<(Value, &str)> = vec![
        (json!({ "name": "", "slug": "ok-slug" }), "name"),
        (
            json!({ "name": "n".repeat(121), "slug": "ok-slug" }),
            "name",
        ),
        (json!({ "name": "Ok", "slug": "a" }), "slug"),
        (json!({ "name": "Ok", "slug": "a".repeat(61) }), "slug"),
        (json!({ "name": "Ok", "slug": "Upper" }), "slug"),
        (json!({ "name": "Ok", "slug": "-leading" }), "slug"),
        (json!({ "name": "Ok", "slug": "trailing-" }), "slug"),
        (json!({ "name": "Ok", "slug": "under_score" }), "slug"),
        (json!({ "name": "Ok", "slug": "has space" }), "slug"),
        (
            json!({ "name": "Ok", "slug": "ok-slug", "currency": "EURO" }),
            "currency",
        ),
        (
            json!({ "name": "Ok", "slug": "ok-slug", "currency": "E1" }),
            "currency",
        ),
        (
            json!({ "name": "Ok", "slug": "ok-slug", "currency": "" }),
            "currency",
        ),
        (
            json!({ "name": "Ok", "slug": "ok-slug", "domain": "d".repeat(256) }),
            "domain",
        ),
        (json!({ "slug": "ok-slug" }), "name"),
        (json!({ "name": "Ok" }), "slug"),
        (json!({ "name": 5, "slug": "ok-slug" }), "name"),
        (json!({ "name": "Ok", "slug": 7 }), "slug"),
        (
            json!({ "name": "Ok", "slug": "ok-slug", "currency": 840 }),
            "currency",
        ),
    ];
    for (body, field) in cases {
        let reply = create(&app, &ann.token, body.clone()).await;
        assert_eq!(reply.status, 400, "{body} -> {}", reply.text);
        reply.expect_error(400, field);
    }
    // None of them created anything.
    assert_eq!(portfolio(&app, &ann.token).await, json!([]));
}

async fn create_rejects_a_blank_name(app: TestApp) {
    let ann = app.signup_verified("ann@example.com").await;
    // A name of only spaces is empty once trimmed; storing "" would break the 1-120 rule.
    let reply = create(&app, &ann.token, json!({ "name": "   ", "slug": "blank" })).await;
    reply.expect_error(400, "name");
    assert_eq!(portfolio(&app, &ann.token).await, json!([]));
}

async fn slug_taken_in_the_same_account_only(app: TestApp) {
    let ann = app.signup_verified("ann@example.com").await;
    let bob = app.signup_verified("bob@example.com").await;
    app.create_product(&ann.token, "shared").await;
    let again = create(
        &app,
        &ann.token,
        json!({ "name": "Again", "slug": "shared" }),
    )
    .await;
    again.expect_error(409, "slug taken");

    let other = create(
        &app,
        &bob.token,
        json!({ "name": "Bob's", "slug": "shared" }),
    )
    .await;
    let body = other.expect(200);
    assert_eq!(body["slug"], "shared");
    assert_eq!(body["name"], "Bob's");

    // Each account still reads its own product under the shared slug.
    let ann_row = app.get("/products/shared", Some(&ann.token)).await;
    assert_eq!(ann_row.expect(200)["name"], "Product shared");
    let bob_row = app.get("/products/shared", Some(&bob.token)).await;
    assert_eq!(bob_row.expect(200)["name"], "Bob's");
}

async fn concurrent_duplicate_slugs_conflict(app: TestApp) {
    let ann = app.signup_verified("ann@example.com").await;
    let body = json!({ "name": "Race", "slug": "race" });
    let (a, b) = tokio::join!(
        create(&app, &ann.token, body.clone()),
        create(&app, &ann.token, body.clone())
    );
    let mut statuses = [a.status, b.status];
    statuses.sort_unstable();
    assert_eq!(statuses, [200, 409], "{} / {}", a.text, b.text);
    let loser = if a.status == 409 { a } else { b };
    loser.expect_error(409, "slug taken");
    assert_eq!(
        portfolio(&app, &ann.token).await.as_array().unwrap().len(),
        1
    );
    let events = app.history(&ann.token, "?product=race").await;
    assert_eq!(events.len(), 1, "{events:?}");
}

async fn create_needs_a_bearer(app: TestApp) {
    let reply = app
        .post("/products", None, json!({ "name": "X", "slug": "xx" }))
        .await;
    reply.expect_error(401, "bearer");
    let reply = app
        .post(
            "/products",
            Some("svc_sess_nonsense"),
            json!({ "name": "X", "slug": "xx" }),
        )
        .await;
    assert_eq!(reply.status, 401, "{}", reply.text);
    assert!(reply.body["error"].is_string(), "{}", reply.text);
    let reply = app
        .post(
            "/products",
            Some("svc_live_nonsense"),
            json!({ "name": "X", "slug": "xx" }),
        )
        .await;
    assert_eq!(reply.status, 401, "{}", reply.text);
}

async fn create_through_an_api_key_is_recorded_as_keeper(app: TestApp) {
    let ann = app.signup_verified("ann@example.com").await;
    let key = app.api_key(&ann).await;
    let reply = create(
        &app,
        &key,
        json!({ "name": "By Agent", "slug": "by-agent" }),
    )
    .await;
    let body = reply.expect(200);
    let id = body["id"].as_str().unwrap().to_owned();
    assert_eq!(body["stage"], "validation");

    // The key's account owns it: the session sees it too.
    let row = app.get("/products/by-agent", Some(&ann.token)).await;
    assert_eq!(row.expect(200)["product_id"], id.as_str());

    let events = app.history(&ann.token, "?product=by-agent").await;
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(events[0]["action"], "product.create");
    assert_eq!(events[0]["actor"], "keeper");
    assert_eq!(events[0]["via"], "api");
    assert_eq!(events[0]["product_slug"], "by-agent");
    assert_eq!(events[0]["subject_ref"], id.as_str());

    // A human's creation is recorded under their email, through the dashboard.
    app.create_product(&ann.token, "by-human").await;
    let events = app.history(&ann.token, "?product=by-human").await;
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(events[0]["actor"], "ann@example.com");
    assert_eq!(events[0]["via"], "dashboard");
}

async fn operator_token_cannot_create(app: TestApp) {
    let reply = create(
        &app,
        &app.operator_token,
        json!({ "name": "Ops", "slug": "ops" }),
    )
    .await;
    reply.expect_error(400, "operator token");
    let all = portfolio(&app, &app.operator_token).await;
    assert_eq!(all, json!([]));
}

// ---------------------------------------------------------------------------------------------
// POST /products/{slug}

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

// ---------------------------------------------------------------------------------------------
// GET /products/{slug}

async fn product_row_has_every_field(app: TestApp) {
    let ann = app.signup_verified("ann@example.com").await;
    let created = app.create_product(&ann.token, "row").await;
    let reply = app.get("/products/row", Some(&ann.token)).await;
    let row = reply.expect(200);
    let present = keys(row);
    for field in PRODUCT_ROW_FIELDS {
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

// ---------------------------------------------------------------------------------------------
// GET /portfolio

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
        for field in PRODUCT_ROW_FIELDS {
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

// ---------------------------------------------------------------------------------------------
// POST /products/{slug}/onboarding-complete

async fn onboarding_complete_notifies_the_operator_once(app: TestApp) {
    let ann = app.signup_verified("ann@example.com").await;
    app.create_product(&ann.token, "onboard").await;
    let ops_mails = |app: &TestApp| {
        app.mails()
            .into_iter()
            .filter(|m| m.to == "ops@payback.test")
            .collect::<Vec<_>>()
    };
    assert!(ops_mails(&app).is_empty());

    let reply = app
        .post(
            "/products/onboard/onboarding-complete",
            Some(&ann.token),
            json!({}),
        )
        .await;
    assert_eq!(
        reply.expect(200),
        &json!({ "ok": true, "first_time": true })
    );
    let mails = ops_mails(&app);
    assert_eq!(mails.len(), 1, "one operator mail");
    assert!(
        mails[0].subject.contains("Product onboard"),
        "{}",
        mails[0].subject
    );
    assert!(mails[0].body.contains("onboard"), "{}", mails[0].body);

    // Replays answer first_time false and notify nobody; an empty body works as well.
    let reply = app
        .post_raw(
            "/products/onboard/onboarding-complete",
            Some(&ann.token),
            "application/json",
            "",
        )
        .await;
    assert_eq!(
        reply.expect(200),
        &json!({ "ok": true, "first_time": false })
    );
    let key = app.api_key(&ann).await;
    let reply = app
        .post(
            "/products/onboard/onboarding-complete",
            Some(&key),
            json!({}),
        )
        .await;
    assert_eq!(
        reply.expect(200),
        &json!({ "ok": true, "first_time": false })
    );
    assert_eq!(ops_mails(&app).len(), 1, "no second operator mail");

    let events = app.history(&ann.token, "?product=onboard").await;
    let onboarded: Vec<&Value> = events
        .iter()
        .filter(|e| e["action"] == "product.onboarding_complete")
        .collect();
    assert_eq!(onboarded.len(), 1, "{events:?}");
    assert_eq!(onboarded[0]["actor"], "ann@example.com");
    assert_eq!(onboarded[0]["product_slug"], "onboard");
}

async fn concurrent_onboarding_complete_is_first_once(app: TestApp) {
    let ann = app.signup_verified("ann@example.com").await;
    app.create_product(&ann.token, "race").await;
    let path = "/products/race/onboarding-complete";
    let (a, b, c) = tokio::join!(
        app.post(path, Some(&ann.token), json!({})),
        app.post(path, Some(&ann.token), json!({})),
        app.post(path, Some(&ann.token), json!({})),
    );
    let firsts: Vec<bool> = [&a, &b, &c]
        .iter()
        .map(|reply| reply.expect(200)["first_time"].as_bool().unwrap())
        .collect();
    assert_eq!(firsts.iter().filter(|f| **f).count(), 1, "{firsts:?}");
    let ops = app
        .mails()
        .into_iter()
        .filter(|m| m.to == "ops@payback.test")
        .count();
    assert_eq!(ops, 1);
    let events = app.history(&ann.token, "?product=race").await;
    assert_eq!(
        events
            .iter()
            .filter(|e| e["action"] == "product.onboarding_complete")
            .count(),
        1
    );
}

async fn onboarding_complete_is_per_product_and_private(app: TestApp) {
    let ann = app.signup_verified("ann@example.com").await;
    let bob = app.signup_verified("bob@example.com").await;
    app.create_product(&ann.token, "first").await;
    app.create_product(&ann.token, "second").await;
    app.create_product(&bob.token, "bobs").await;

    let reply = app
        .post(
            "/products/bobs/onboarding-complete",
            Some(&ann.token),
            json!({}),
        )
        .await;
    reply.expect_error(404, "not found");
    let reply = app
        .post(
            "/products/nope/onboarding-complete",
            Some(&ann.token),
            json!({}),
        )
        .await;
    reply.expect_error(404, "not found");
    let reply = app
        .post("/products/first/onboarding-complete", None, json!({}))
        .await;
    reply.expect_error(401, "bearer");
    assert!(
        app.mails().iter().all(|m| m.to != "ops@payback.test"),
        "refused calls notify nobody"
    );

    // Bob's own call is still the first for his product.
    let reply = app
        .post(
            "/products/bobs/onboarding-complete",
            Some(&bob.token),
            json!({}),
        )
        .await;
    assert_eq!(reply.expect(200)["first_time"], true);
    for slug in ["first", "second"] {
        let reply = app
            .post(
                &format!("/products/{slug}/onboarding-complete"),
                Some(&ann.token),
                json!({}),
            )
            .await;
        assert_eq!(reply.expect(200)["first_time"], true, "{slug}");
    }
    let ops = app
        .mails()
        .into_iter()
        .filter(|m| m.to == "ops@payback.test")
        .count();
    assert_eq!(ops, 3);
    // Bob's history holds nothing from Ann's products.
    let events = app.history(&bob.token, "").await;
    assert!(
        events
            .iter()
            .all(|e| e["product_slug"].is_null() || e["product_slug"] == "bobs"),
        "{events:?}"
    );
    assert!(
        events
            .iter()
            .any(|e| e["action"] == "product.onboarding_complete"),
        "{events:?}"
    );
}

backend_tests!(
    create_returns_the_product_in_validation,
    create_defaults_and_normalizes_currency_and_domain,
    create_rejects_invalid_input_naming_the_field,
    create_rejects_a_blank_name,
    slug_taken_in_the_same_account_only,
    concurrent_duplicate_slugs_conflict,
    create_needs_a_bearer,
    create_through_an_api_key_is_recorded_as_keeper,
    operator_token_cannot_create,
    update_edits_name_currency_and_domain,
    update_rejects_bad_input,
    update_answers_404_for_unknown_and_foreign_products,
    slug_cannot_change,
    product_row_has_every_field,
    product_row_is_private_to_its_account,
    portfolio_shows_the_callers_account_only,
    operators_see_every_account,
    operator_token_sees_same_slug_in_two_accounts,
    onboarding_complete_notifies_the_operator_once,
    onboarding_complete_is_per_product_and_private,
    concurrent_onboarding_complete_is_first_once,
);
