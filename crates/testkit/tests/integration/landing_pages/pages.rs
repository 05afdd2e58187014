//! Pages added by URL, listed, read and deleted.

use payback_testkit::{TestApp, per_backend};
use serde_json::{Value, json};

use super::{add_page, founder_with_product, id_of, list, spawn};

async fn adds_lists_and_reads_pages(backend: payback_testkit::Backend) {
    let app = spawn(backend).await;
    let founder = founder_with_product(&app, "shop", Some("www.example.com")).await;
    let token = founder.token.as_str();
    let pricing = add_page(
        &app,
        token,
        "shop",
        "https://example.com/pricing/?utm_source=x#top",
    )
    .await;
    assert_eq!(pricing["path"], "/pricing");
    assert_eq!(
        pricing["url"],
        "https://example.com/pricing/?utm_source=x#top"
    );
    assert_eq!(pricing["source"], "manual");
    assert_eq!(
        pricing["traffic"],
        json!({"visits": 0, "previous_visits": 0, "change_pct": null})
    );
    assert_eq!(pricing["latest_analysis"], Value::Null);
    assert_eq!(pricing["friction"], Value::Null);
    assert_eq!(pricing["is_excluded"], false);
    assert_eq!(pricing["created_at"], "2026-11-21T12:00:00.000Z");
    // One page a path, whichever host or query names it.
    app.post(
        "/products/shop/landing-pages",
        Some(token),
        json!({"url": "https://blog.example.com/pricing?b=2"}),
    )
    .await
    .expect_error(409, "/pricing");
    let home = add_page(&app, token, "shop", "https://www.example.com").await;
    assert_eq!(home["path"], "/");

    let listed = list(&app, token, "shop", "").await;
    assert_eq!(listed["window_days"], 30);
    assert_eq!(listed["filters"], json!([]));
    let paths: Vec<&str> = listed["pages"]
        .as_array()
        .expect("pages")
        .iter()
        .map(|page| page["path"].as_str().expect("path"))
        .collect();
    assert_eq!(paths, ["/pricing", "/"]);
    assert_eq!(listed["pages"][0], pricing);
    assert_eq!(list(&app, token, "shop", "?days=7").await["window_days"], 7);
    app.get("/products/shop/landing-pages?days=0", Some(token))
        .await
        .expect_error(400, "days");

    let id = id_of(&pricing);
    let detail = app
        .get(
            &format!("/products/shop/landing-pages/{id}?days=7"),
            Some(token),
        )
        .await
        .expect(200)
        .clone();
    assert_eq!(detail["id"], pricing["id"]);
    assert_eq!(detail["path"], "/pricing");
    assert_eq!(detail["window_days"], 7);
    let series = detail["traffic_series"].as_array().expect("series");
    assert_eq!(series.len(), 7);
    assert_eq!(series[0], json!({"day": "2026-11-15", "visits": 0}));
    assert_eq!(series[6], json!({"day": "2026-11-21", "visits": 0}));
    assert_eq!(detail["analyses"], json!([]));
    assert_eq!(detail["recordings"], json!([]));
    assert_eq!(detail["recordings_url"], Value::Null);
    app.get("/products/shop/landing-pages/no-such-page", Some(token))
        .await
        .expect_error(404, "landing page");
    app.get(
        &format!("/products/shop/landing-pages/{id}?days=4000"),
        Some(token),
    )
    .await
    .expect_error(400, "days");
}

async fn the_url_rules_name_the_field(backend: payback_testkit::Backend) {
    let app = spawn(backend).await;
    let founder = founder_with_product(&app, "shop", Some("example.com")).await;
    let token = founder.token.as_str();
    let long = format!("https://example.com/{}", "a".repeat(2040));
    for (body, needle) in [
        (json!({}), "url"),
        (json!({"url": 5}), "url"),
        (
            json!({"url": "ftp://example.com/a"}),
            "url: must be an http or https URL",
        ),
        (json!({"url": "example.com/a"}), "url: must be an absolute"),
        (
            json!({"url": "https://notexample.com/a"}),
            "url: must be on the product's domain",
        ),
        (
            json!({"url": "https://example.com.evil.test/a"}),
            "url: must be on the product's domain",
        ),
        (json!({"url": long}), "url: must be at most 2048 characters"),
        (json!({"url": "https://example.com/a", "extra": 1}), "extra"),
    ] {
        app.post("/products/shop/landing-pages", Some(token), body)
            .await
            .expect_error(400, needle);
    }
    let stored: i64 = app
        .sql_value("SELECT CAST(COUNT(*) AS BIGINT) FROM landing_pages", &[])
        .await;
    assert_eq!(stored, 0);
    // A product without a domain takes any host.
    super::create_product(&app, token, "bare", None).await;
    let page = add_page(&app, token, "bare", "http://anything.test/a/b/").await;
    assert_eq!(page["path"], "/a/b");
}

async fn deleting_takes_analyses_and_leaves_traffic(backend: payback_testkit::Backend) {
    let app: TestApp = spawn(backend).await;
    let founder = founder_with_product(&app, "shop", None).await;
    let token = founder.token.as_str();
    app.send_events(
        token,
        "shop",
        json!([{"dedupe_id": "v1", "stage": "visit", "anonymous_id": "a1",
                "occurred_at": "2026-11-20T10:00:00.000Z",
                "attribution": {"landing_url": "https://shop.test/pricing"}}]),
    )
    .await;
    let page = add_page(&app, token, "shop", "https://shop.test/pricing").await;
    let id = id_of(&page);
    let product_id: String = app
        .sql_value("SELECT id FROM products WHERE slug = 'shop'", &[])
        .await;
    app.sql_execute(
        "INSERT INTO landing_page_analyses (id, page_id, product_id, analyzed_at, model, status, \
         overall_score, scores, summary, error) VALUES ('an-1', $1, $2, 1, 'm', 'ok', 50, '[]', NULL, NULL)",
        &[(&id).into(), (&product_id).into()],
    )
    .await;
    let reply = app
        .request(
            reqwest::Method::DELETE,
            &format!("/products/shop/landing-pages/{id}"),
            Some(token),
        )
        .await;
    assert_eq!(reply.expect(200), &json!({"ok": true}));
    let analyses: i64 = app
        .sql_value(
            "SELECT CAST(COUNT(*) AS BIGINT) FROM landing_page_analyses",
            &[],
        )
        .await;
    assert_eq!(analyses, 0);
    app.get(&format!("/products/shop/landing-pages/{id}"), Some(token))
        .await
        .expect_error(404, "landing page");
    app.request(
        reqwest::Method::DELETE,
        &format!("/products/shop/landing-pages/{id}"),
        Some(token),
    )
    .await
    .expect_error(404, "landing page");
    assert_eq!(list(&app, token, "shop", "").await["pages"], json!([]));
    // The path's traffic stayed: tracked again, the page has its visit back.
    let again = add_page(&app, token, "shop", "https://shop.test/pricing/").await;
    assert_eq!(again["traffic"]["visits"], 1);
}

per_backend!(
    adds_lists_and_reads_pages,
    the_url_rules_name_the_field,
    deleting_takes_analyses_and_leaves_traffic
);
