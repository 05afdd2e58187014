//! Exclude filters: create, list, update, delete, the pattern rules, and which pages they
//! exclude (segment prefixes, globs over the whole path, only enabled filters).

use payback_testkit::{Backend, TestApp, per_backend};
use serde_json::{Value, json};

use super::{add_page, founder_with_product, id_of, list, page_of, spawn};

async fn create_filter(app: &TestApp, token: &str, body: Value) -> Value {
    app.post("/products/shop/landing-pages/filters", Some(token), body)
        .await
        .expect(200)
        .clone()
}

fn excluded(list: &Value) -> Vec<&str> {
    list["pages"]
        .as_array()
        .expect("pages")
        .iter()
        .filter(|page| page["is_excluded"] == true)
        .map(|page| page["path"].as_str().expect("path"))
        .collect()
}

async fn filters_are_kept_and_changed(backend: Backend) {
    let app = spawn(backend).await;
    let founder = founder_with_product(&app, "shop", None).await;
    let token = founder.token.as_str();
    let product_id: String = app
        .sql_value("SELECT id FROM products WHERE slug = 'shop'", &[])
        .await;
    let blog = create_filter(&app, token, json!({"pattern": "/blog"})).await;
    assert_eq!(blog["pattern"], "/blog");
    assert_eq!(blog["enabled"], true);
    assert_eq!(blog["product_id"], product_id.as_str());
    assert_eq!(blog["created_at"], "2026-11-21T12:00:00.000Z");
    assert_eq!(blog["updated_at"], blog["created_at"]);
    let pdf = create_filter(&app, token, json!({"pattern": "*.pdf", "enabled": false})).await;
    assert_eq!(pdf["enabled"], false);
    let listed = app
        .get("/products/shop/landing-pages/filters", Some(token))
        .await
        .expect(200)
        .clone();
    assert_eq!(listed, json!({"filters": [blog.clone(), pdf.clone()]}));

    let pdf_id = id_of(&pdf);
    let path = format!("/products/shop/landing-pages/filters/{pdf_id}");
    app.clock.advance(60_000);
    let on = app
        .post(&path, Some(token), json!({"enabled": true}))
        .await
        .expect(200)
        .clone();
    assert_eq!(on["enabled"], true);
    assert_eq!(on["pattern"], "*.pdf");
    assert_eq!(on["updated_at"], "2026-11-21T12:01:00.000Z");
    let renamed = app
        .post(&path, Some(token), json!({"pattern": "/docs/*.pdf"}))
        .await
        .expect(200)
        .clone();
    assert_eq!(renamed["pattern"], "/docs/*.pdf");
    assert_eq!(renamed["enabled"], true);
    app.post(&path, Some(token), json!({}))
        .await
        .expect_error(400, "nothing to update");
    app.post(&path, Some(token), json!({"pattern": "docs"}))
        .await
        .expect_error(400, "pattern");
    app.post(
        "/products/shop/landing-pages/filters/no-such-filter",
        Some(token),
        json!({"enabled": false}),
    )
    .await
    .expect_error(404, "filter");

    let deleted = app
        .request(reqwest::Method::DELETE, &path, Some(token))
        .await;
    assert_eq!(deleted.expect(200), &json!({"ok": true}));
    app.request(reqwest::Method::DELETE, &path, Some(token))
        .await
        .expect_error(404, "filter");
    let listed = app
        .get("/products/shop/landing-pages/filters", Some(token))
        .await
        .expect(200)
        .clone();
    assert_eq!(listed, json!({"filters": [blog]}));
}

async fn the_pattern_rules_name_the_field(backend: Backend) {
    let app = spawn(backend).await;
    let founder = founder_with_product(&app, "shop", None).await;
    let token = founder.token.as_str();
    for (body, needle) in [
        (json!({}), "pattern"),
        (json!({"pattern": ""}), "pattern: must start with"),
        (json!({"pattern": "blog"}), "pattern: must start with"),
        (json!({"pattern": "/a b"}), "pattern: must not contain"),
        (json!({"pattern": " /a"}), "pattern: must start with"),
        (
            json!({"pattern": format!("/{}", "a".repeat(200))}),
            "pattern: must be at most 200",
        ),
        (json!({"pattern": "/a", "enabled": "yes"}), "enabled"),
    ] {
        app.post("/products/shop/landing-pages/filters", Some(token), body)
            .await
            .expect_error(400, needle);
    }
    // 200 characters exactly is fine.
    create_filter(
        &app,
        token,
        json!({"pattern": format!("/{}", "a".repeat(199))}),
    )
    .await;
}

async fn enabled_filters_exclude_by_segment_or_glob(backend: Backend) {
    let app = spawn(backend).await;
    let founder = founder_with_product(&app, "shop", None).await;
    let token = founder.token.as_str();
    for path in [
        "/blog",
        "/blog/launch",
        "/blogger",
        "/files/guide.pdf",
        "/pricing",
    ] {
        add_page(&app, token, "shop", &format!("https://shop.test{path}")).await;
    }
    assert!(excluded(&list(&app, token, "shop", "").await).is_empty());
    let blog = create_filter(&app, token, json!({"pattern": "/blog"})).await;
    create_filter(&app, token, json!({"pattern": "*.pdf"})).await;
    let listed = list(&app, token, "shop", "").await;
    assert_eq!(
        excluded(&listed),
        ["/blog", "/blog/launch", "/files/guide.pdf"]
    );
    assert_eq!(page_of(&listed, "/blogger")["is_excluded"], false);
    assert_eq!(listed["filters"].as_array().map(Vec::len), Some(2));
    // The detail says so too.
    let id = id_of(page_of(&listed, "/blog/launch"));
    let detail = app
        .get(&format!("/products/shop/landing-pages/{id}"), Some(token))
        .await
        .expect(200)
        .clone();
    assert_eq!(detail["is_excluded"], true);
    // A disabled filter excludes nothing.
    app.post(
        &format!("/products/shop/landing-pages/filters/{}", id_of(&blog)),
        Some(token),
        json!({"enabled": false}),
    )
    .await
    .expect(200);
    assert_eq!(
        excluded(&list(&app, token, "shop", "").await),
        ["/files/guide.pdf"]
    );
}

per_backend!(
    filters_are_kept_and_changed,
    the_pattern_rules_name_the_field,
    enabled_filters_exclude_by_segment_or_glob
);
