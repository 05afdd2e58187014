//! Detect integrations end to end against a local website on loopback: a page loading GA4, Tag
//! Manager, the Meta Pixel, Clarity, Stripe and Payback's own snippet on WordPress is read to
//! exactly those (with their ids), each `connected` as the product's connections and write key
//! say; a plain page that only talks about vendors shows none; redirects are followed; the
//! product's oldest landing page is the default without a domain; refusals name `url` (invalid,
//! no page to default to, not 2xx, a private address refused by default with nothing sent);
//! `/tools/detect-integrations` connects nothing; another account's product is 404; the
//! account's fetches a minute are limited.

use std::sync::{Arc, Mutex};

use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use payback_domain::connection::ConnectionKind;
use payback_testkit::{Backend, TestApp, per_backend};
use serde_json::{Value, json};

/// Paths the site was asked for.
pub(crate) type Seen = Arc<Mutex<Vec<String>>>;

/// The rich page; `{KEY}` is the product's write key.
const RICH: &str = r#"<!doctype html><html lang="en"><head>
<meta name="generator" content="WordPress 6.6.1">
<link rel="stylesheet" href="/wp-content/themes/shop/style.css">
<script async src="https://www.googletagmanager.com/gtag/js?id=G-SHOP1234"></script>
<script>window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments);}
gtag('js', new Date()); gtag('config', 'G-SHOP1234');</script>
<script>(function(w,d,s,l,i){w[l]=w[l]||[];w[l].push({'gtm.start':new Date().getTime(),event:'gtm.js'});
var f=d.getElementsByTagName(s)[0],j=d.createElement(s),dl=l!='dataLayer'?'&l='+l:'';j.async=true;
j.src='https://www.googletagmanager.com/gtm.js?id='+i+dl;f.parentNode.insertBefore(j,f);
})(window,document,'script','dataLayer','GTM-SHOP77');</script>
<script>!function(f,b,e,v,n,t,s){if(f.fbq)return;n=f.fbq=function(){};t=b.createElement(e);t.async=!0;
t.src=v;s=b.getElementsByTagName(e)[0];s.parentNode.insertBefore(t,s)}(window, document,'script',
'https://connect.facebook.net/en_US/fbevents.js'); fbq('init', '555000111222'); fbq('track', 'PageView');</script>
<script type="text/javascript">(function(c,l,a,r,i,t,y){c[a]=c[a]||function(){(c[a].q=c[a].q||[]).push(arguments)};
t=l.createElement(r);t.async=1;t.src="https://www.clarity.ms/tag/"+i;y=l.getElementsByTagName(r)[0];
y.parentNode.insertBefore(t,y);})(window, document, "clarity", "script", "shopclar42");</script>
<script src="https://js.stripe.com/v3/"></script>
<script src="http://payback.example/svc.js" data-key="{KEY}" async></script>
</head><body><h1>Shop</h1><p>Buy things.</p>
<noscript><iframe src="https://www.googletagmanager.com/ns.html?id=GTM-SHOP77" height="0" width="0"></iframe></noscript>
</body></html>"#;

/// A page that names vendors in prose and shows a snippet as text, loading none.
const PLAIN: &str = r#"<!doctype html><html><head><title>Stack</title></head><body>
<p>We measure with Google Analytics (G-NOTLOADED), GTM-NOTLOADED, the Meta Pixel and Hotjar;
payments by Stripe, CRM by HubSpot, recordings with Microsoft Clarity, on WordPress.</p>
<pre>&lt;script src="https://js.stripe.com/v3/"&gt;&lt;/script&gt;</pre></body></html>"#;

async fn site(State((seen, key)): State<(Seen, Arc<Mutex<String>>)>, uri: Uri) -> Response {
    seen.lock().unwrap().push(uri.path().to_owned());
    let html = |body: String| ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], body);
    match uri.path() {
        "/" => html(RICH.replace("{KEY}", &key.lock().unwrap())).into_response(),
        "/plain" => html(PLAIN.to_owned()).into_response(),
        "/moved" => (StatusCode::FOUND, [(header::LOCATION, "/")]).into_response(),
        _ => (StatusCode::NOT_FOUND, "no such page").into_response(),
    }
}

/// The website on loopback: its origin, what it was asked, and the key it embeds.
pub(crate) async fn spawn_site() -> (String, Seen, Arc<Mutex<String>>) {
    let seen: Seen = Arc::default();
    let key = Arc::new(Mutex::new("svc_pub_none".to_owned()));
    let router = Router::new()
        .fallback(site)
        .with_state((seen.clone(), key.clone()));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let origin = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move {
        let _ = axum::serve(listener, router).await;
    });
    (origin, seen, key)
}

async fn spawn(backend: Backend, allow_private: bool, fetches: u32) -> TestApp {
    TestApp::spawn_with(backend, move |config| {
        config.allow_private_fetch_hosts = allow_private;
        config.fetch_per_minute = fetches;
    })
    .await
}

fn keys(detection: &Value) -> Vec<(String, Value, bool)> {
    detection["integrations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|found| {
            (
                found["key"].as_str().unwrap().to_owned(),
                found["ids"].clone(),
                found["connected"].as_bool().unwrap(),
            )
        })
        .collect()
}

async fn a_site_is_read_for_what_it_loads(backend: Backend) {
    let (origin, seen, embedded) = spawn_site().await;
    let app = spawn(backend, true, 30).await;
    let owner = app.signup_verified("founder@example.com").await;
    let created = app.create_product(&owner.token, "shop").await;
    let product_id = created["id"].as_str().unwrap().to_owned();
    let account_id = owner.account_id.clone();
    let key = app
        .post("/products/shop/tracking-key", Some(&owner.token), json!({}))
        .await
        .expect(200)["key"]
        .as_str()
        .unwrap()
        .to_owned();
    *embedded.lock().unwrap() = key.clone();
    // The product reads GA4 and Stripe; Tag Manager, Meta and Clarity it does not.
    for kind in [ConnectionKind::AnalyticsA, ConnectionKind::Payments] {
        app.insert_connection(&account_id, &product_id, kind, &json!({}), false)
            .await;
    }

    let found = app
        .post(
            "/products/shop/detect-integrations",
            Some(&owner.token),
            json!({ "url": format!("{origin}/moved") }),
        )
        .await
        .expect(200)
        .clone();
    assert_eq!(found["url"], format!("{origin}/moved"));
    assert_eq!(found["final_url"], format!("{origin}/"));
    assert_eq!(found["domain"], "127.0.0.1");
    assert_eq!(
        keys(&found),
        vec![
            ("ga4".to_owned(), json!(["G-SHOP1234"]), true),
            ("gtm".to_owned(), json!(["GTM-SHOP77"]), false),
            ("meta_pixel".to_owned(), json!(["555000111222"]), false),
            ("clarity".to_owned(), json!(["shopclar42"]), false),
            ("first_party".to_owned(), json!([key]), true),
            ("stripe".to_owned(), json!([]), true),
        ]
    );
    assert_eq!(found["detected_count"], 6);
    assert_eq!(
        found["integrations"][0],
        json!({"key": "ga4", "name": "Google Analytics 4", "category": "analytics",
               "ids": ["G-SHOP1234"], "connected": true})
    );
    assert_eq!(
        found["platform"],
        json!({"key": "wordpress", "name": "WordPress"})
    );
    assert_eq!(
        found["summary"],
        "6 integrations on 127.0.0.1: Google Analytics 4 (connected), Google Tag Manager \
         (not connected), Meta Pixel (not connected), Microsoft Clarity (not connected), \
         Payback snippet (connected), Stripe (connected); built on WordPress."
    );
    assert_eq!(*seen.lock().unwrap(), ["/moved", "/"]);

    // Prose is not a loader.
    let plain = app
        .post(
            "/products/shop/detect-integrations",
            Some(&owner.token),
            json!({ "url": format!("{origin}/plain") }),
        )
        .await
        .expect(200)
        .clone();
    assert_eq!(plain["integrations"], json!([]));
    assert_eq!(plain["detected_count"], 0);
    assert_eq!(plain["platform"], Value::Null);

    // Without a domain, the oldest landing page; with none, 400 naming url.
    app.post(
        "/products/shop/detect-integrations",
        Some(&owner.token),
        json!({}),
    )
    .await
    .expect_error(400, "url: the product has no domain and no landing page");
    app.post(
        "/products/shop/landing-pages",
        Some(&owner.token),
        json!({ "url": format!("{origin}/") }),
    )
    .await
    .expect(200);
    let by_default = app
        .post(
            "/products/shop/detect-integrations",
            Some(&owner.token),
            json!({}),
        )
        .await
        .expect(200)
        .clone();
    assert_eq!(by_default["url"], format!("{origin}/"));
    assert_eq!(by_default["detected_count"], 6);

    // The tools route: the same page, nothing connected.
    let tool = app
        .post(
            "/tools/detect-integrations",
            Some(&owner.token),
            json!({ "url": format!("{origin}/") }),
        )
        .await
        .expect(200)
        .clone();
    assert_eq!(tool["detected_count"], 6);
    assert!(
        keys(&tool).iter().all(|(_, _, connected)| !connected),
        "{tool}"
    );

    // Refusals name the field.
    for (body, words) in [
        (
            json!({ "url": "ftp://example.com/" }),
            "url: must be an http or https URL",
        ),
        (
            json!({ "url": "not a url" }),
            "url: must be an http or https URL",
        ),
        (
            json!({ "url": "http://" }),
            "url: must be an absolute http or https URL",
        ),
        (
            json!({ "url": format!("{origin}/missing") }),
            "answered 404",
        ),
        (json!({ "url": "" }), "url"),
    ] {
        app.post(
            "/products/shop/detect-integrations",
            Some(&owner.token),
            body,
        )
        .await
        .expect_error(400, words);
    }
    app.post("/tools/detect-integrations", Some(&owner.token), json!({}))
        .await
        .expect_error(400, "url");

    // Another account's product.
    let rival = app.signup_verified("rival@elsewhere.example").await;
    app.post(
        "/products/shop/detect-integrations",
        Some(&rival.token),
        json!({ "url": format!("{origin}/") }),
    )
    .await
    .expect_error(404, "product");
}

per_backend!(a_site_is_read_for_what_it_loads);

async fn private_addresses_are_refused_by_default_and_fetches_limited(backend: Backend) {
    let (origin, seen, _) = spawn_site().await;
    let app = spawn(backend, false, 2).await;
    let owner = app.signup_verified("founder@example.com").await;
    app.create_product(&owner.token, "shop").await;
    for path in [
        "/products/shop/detect-integrations",
        "/tools/detect-integrations",
    ] {
        app.post(
            path,
            Some(&owner.token),
            json!({ "url": format!("{origin}/") }),
        )
        .await
        .expect_error(400, "url: ");
    }
    assert!(
        seen.lock().unwrap().is_empty(),
        "nothing was sent to a private address"
    );
    // Two fetches a minute were allowed, and spent above.
    let over = app
        .post(
            "/tools/detect-integrations",
            Some(&owner.token),
            json!({ "url": "https://example.com/" }),
        )
        .await;
    over.expect_error(429, "page fetches for this account");
}

per_backend!(private_addresses_are_refused_by_default_and_fetches_limited);
