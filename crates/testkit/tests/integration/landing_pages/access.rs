//! Another account's pages, filters and product answer 404 on every route; no bearer is 401.

use payback_testkit::{Backend, TestApp, per_backend};
use reqwest::Method;
use serde_json::{Value, json};

use super::{add_page, create_product, founder_with_product, id_of, spawn};

/// Every route of the area, with a body where it takes one.
fn routes(slug: &str, page: &str, filter: &str) -> Vec<(Method, String, Option<Value>)> {
    let base = format!("/products/{slug}/landing-pages");
    vec![
        (Method::GET, base.clone(), None),
        (
            Method::POST,
            base.clone(),
            Some(json!({"url": "https://shop.test/x"})),
        ),
        (Method::GET, format!("{base}/filters"), None),
        (
            Method::POST,
            format!("{base}/filters"),
            Some(json!({"pattern": "/x"})),
        ),
        (
            Method::POST,
            format!("{base}/filters/{filter}"),
            Some(json!({"enabled": false})),
        ),
        (Method::DELETE, format!("{base}/filters/{filter}"), None),
        (Method::GET, format!("{base}/{page}"), None),
        (Method::DELETE, format!("{base}/{page}"), None),
        (
            Method::POST,
            format!("{base}/{page}/analyze"),
            Some(json!({})),
        ),
    ]
}

async fn send(
    app: &TestApp,
    method: Method,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> payback_testkit::Reply {
    let mut request = app.client.request(method, app.url(path));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    if let Some(body) = body {
        request = request.json(&body);
    }
    payback_testkit::Reply::read(request.send().await.expect("request")).await
}

async fn strangers_get_404_everywhere(backend: Backend) {
    let app = spawn(backend).await;
    let founder = founder_with_product(&app, "shop", None).await;
    let page = add_page(&app, &founder.token, "shop", "https://shop.test/pricing").await;
    let filter = app
        .post(
            "/products/shop/landing-pages/filters",
            Some(&founder.token),
            json!({"pattern": "/blog"}),
        )
        .await
        .expect(200)
        .clone();
    let (page_id, filter_id) = (id_of(&page), id_of(&filter));

    let stranger = app.signup_verified("stranger@example.com").await;
    let stranger_key = app.api_key(&stranger).await;
    // Their own product of the same slug does not open the founder's ids either.
    create_product(&app, &stranger.token, "mine", None).await;
    for token in [stranger.token.as_str(), stranger_key.as_str()] {
        for (method, path, body) in routes("shop", &page_id, &filter_id) {
            send(&app, method.clone(), &path, Some(token), body)
                .await
                .expect_error(404, "not found");
        }
        for (method, path, body) in routes("mine", &page_id, &filter_id).into_iter().skip(4) {
            send(&app, method.clone(), &path, Some(token), body)
                .await
                .expect_error(404, "not found");
        }
    }
    for (method, path, body) in routes("shop", &page_id, &filter_id) {
        assert_eq!(
            send(&app, method, &path, None, body).await.status,
            401,
            "{path}"
        );
    }
    // Nothing of the founder's changed.
    let detail = app
        .get(
            &format!("/products/shop/landing-pages/{page_id}"),
            Some(&founder.token),
        )
        .await
        .expect(200)
        .clone();
    assert_eq!(detail["id"], page.get("id").cloned().unwrap_or_default());
    let filters = app
        .get("/products/shop/landing-pages/filters", Some(&founder.token))
        .await
        .expect(200)
        .clone();
    assert_eq!(filters["filters"], json!([filter]));
}

per_backend!(strangers_get_404_everywhere);
