//! The browser tracking snippet: `GET /svc.js` as served (size budget, caching), and a real
//! headless Chromium run against a page that loads it, checked in the `events` table. Also
//! `POST /t/events` from a site's own script: JSON through `fetch` is preflighted (`OPTIONS`),
//! in Chromium and at the HTTP level.

use std::io::Write as _;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use payback_domain::Timestamp;
use payback_store::Db;
use payback_testkit::browser::repo_root;
use payback_testkit::{Backend, Reply, TestApp, per_backend};
use serde_json::{Value, json};
use sqlx::Row as _;

const SNIPPET: &str = include_str!("../../../server/assets/svc.js");

/// The snippet ships on every customer page: its gzipped size is a budget, not a guess.
#[test]
fn snippet_fits_in_two_kilobytes_gzipped() {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(SNIPPET.as_bytes()).unwrap();
    let size = gz.finish().unwrap().len();
    assert!(
        size <= 2048,
        "svc.js is {size} bytes gzipped; the budget is 2048"
    );
}

#[tokio::test]
async fn svc_js_is_served_cacheable_with_an_etag() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let reply = app.get("/svc.js", None).await;
    assert_eq!(reply.status, 200, "{}", reply.text);
    assert_eq!(
        reply.header("content-type"),
        Some("application/javascript; charset=utf-8")
    );
    assert_eq!(reply.header("cache-control"), Some("public, max-age=3600"));
    assert_eq!(reply.text, SNIPPET, "served as written");
    // Weak: one validator covers the gzipped and the plain representation.
    let etag = reply.header("etag").unwrap().to_owned();
    assert!(etag.starts_with("W/\"") && etag.ends_with('"'), "{etag}");

    let conditional = |tag: String| {
        app.client
            .get(app.url("/svc.js"))
            .header("if-none-match", tag)
            .send()
    };
    let unchanged = conditional(etag.clone()).await.unwrap();
    assert_eq!(unchanged.status(), 304);
    assert_eq!(unchanged.headers()["etag"], etag.as_str());
    assert!(unchanged.bytes().await.unwrap().is_empty());
    // The strong form of the same tag matches too (If-None-Match compares weakly).
    let strong = conditional(etag.trim_start_matches("W/").to_owned())
        .await
        .unwrap();
    assert_eq!(strong.status(), 304);
    let stale = conditional("\"stale\"".to_owned()).await.unwrap();
    assert_eq!(stale.status(), 200);
    assert_eq!(stale.text().await.unwrap(), SNIPPET);

    // Clients that accept gzip get it gzipped, with the same validator.
    let gzipped = app
        .client
        .get(app.url("/svc.js"))
        .header("accept-encoding", "gzip")
        .send()
        .await
        .unwrap();
    assert_eq!(gzipped.headers()["content-encoding"], "gzip");
    assert_eq!(gzipped.headers()["etag"], etag.as_str());
    let compressed = gzipped.bytes().await.unwrap();
    assert!(
        compressed.len() <= 2048,
        "{} bytes on the wire",
        compressed.len()
    );
    let mut plain = String::new();
    std::io::Read::read_to_string(
        &mut flate2::read::GzDecoder::new(&compressed[..]),
        &mut plain,
    )
    .unwrap();
    assert_eq!(plain, SNIPPET);

    // Public, and documented as such.
    let doc = app.get("/openapi.json", None).await;
    let operation = &doc.expect(200)["paths"]["/svc.js"]["get"];
    assert!(operation.is_object(), "GET /svc.js is not documented");
    assert!(operation.get("security").is_none_or(|s| s == &json!([])));
}

/// The repository root, where `e2e/` lives.
/// Serves `html` at every path on a loopback port, so the page and a reload of an in-app route
/// both load; the page's origin differs from the service's, as on a customer's site.
async fn serve_page(html: String) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let page = axum::Router::new().fallback(move || {
        let html = html.clone();
        async move { axum::response::Html(html) }
    });
    tokio::spawn(async move {
        let _ = axum::serve(listener, page).await;
    });
    format!("http://{addr}")
}

#[derive(Debug)]
struct EventRow {
    stage: String,
    name: Option<String>,
    anonymous_id: Option<String>,
    user_id: Option<String>,
    email: Option<String>,
    value_cents: Option<i64>,
    currency: Option<String>,
    attribution: Value,
    channel: Option<String>,
}

async fn stored_events(store: &Db) -> Vec<EventRow> {
    let Db::Sqlite(pool) = store else {
        panic!("the browser test runs on SQLite")
    };
    let rows = sqlx::query(
        "SELECT stage, name, anonymous_id, user_id, email, value_cents, currency, attribution, channel \
         FROM events ORDER BY id",
    )
    .fetch_all(pool)
    .await
    .unwrap();
    rows.iter()
        .map(|row| EventRow {
            stage: row.get("stage"),
            name: row.get("name"),
            anonymous_id: row.get("anonymous_id"),
            user_id: row.get("user_id"),
            email: row.get("email"),
            value_cents: row.get("value_cents"),
            currency: row.get("currency"),
            attribution: row
                .get::<Option<String>, _>("attribution")
                .map(|text| serde_json::from_str(&text).unwrap())
                .unwrap_or(Value::Null),
            channel: row.get("channel"),
        })
        .collect()
}

#[tokio::test]
async fn snippet_in_chromium_records_visits_identity_and_conversions() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    // The browser stamps events with the wall clock; the service refuses events from its
    // future, so its clock must not lag behind the browser's.
    let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap();
    app.clock.set(Timestamp::from_millis(
        i64::try_from(now.as_millis()).unwrap(),
    ));

    let owner = app.signup_verified("owner@example.com").await;
    app.create_product(&owner.token, "shop").await;
    let minted = app
        .post("/products/shop/tracking-key", Some(&owner.token), json!({}))
        .await;
    let minted = minted.expect(200);
    let key = minted["key"].as_str().unwrap();
    assert!(key.starts_with("svc_pub_"), "{key}");
    // The tag the dashboard hands out is the one the page uses.
    let tag = minted["snippet"].as_str().unwrap();
    assert!(
        tag.contains(&format!("{}/svc.js", app.base_url)) && tag.contains(key),
        "{tag}"
    );

    let page = serve_page(format!(
        "<!doctype html><html><head><title>Shop</title>{tag}</head>\
         <body><h1>Shop</h1></body></html>"
    ))
    .await;
    let landing =
        format!("{page}/?utm_source=google&utm_medium=cpc&utm_campaign=spring&gclid=abc123");

    let root = repo_root();
    let run = tokio::task::spawn_blocking({
        let landing = landing.clone();
        move || {
            std::process::Command::new("node")
                .arg("e2e/drive-snippet.mjs")
                .arg(&landing)
                .current_dir(&root)
                .output()
        }
    })
    .await
    .unwrap()
    .expect("node runs (scripts/e2e-setup installs the browser harness)");
    let driver_log = String::from_utf8_lossy(&run.stderr).into_owned();
    assert!(
        run.status.success(),
        "drive-snippet failed (scripts/e2e-setup installs Chromium and e2e/node_modules):\n{driver_log}"
    );

    // Beacons are fire-and-forget: wait for the rows rather than for the browser.
    let deadline = Instant::now() + Duration::from_secs(10);
    let events = loop {
        let events = stored_events(&app.state.store).await;
        if events.len() >= 5 || Instant::now() > deadline {
            break events;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    let stages: Vec<(&str, Option<&str>)> = events
        .iter()
        .map(|e| (e.stage.as_str(), e.name.as_deref()))
        .collect();
    assert_eq!(
        stages,
        [
            ("visit", None),
            ("visit", None),
            ("engaged", Some("identify")),
            ("signup", Some("signup_form")),
            ("converted", None),
        ],
        "driver log:\n{driver_log}"
    );

    let anonymous_id = events[0].anonymous_id.clone().expect("anonymous id");
    for event in &events {
        assert_eq!(
            event.anonymous_id.as_ref(),
            Some(&anonymous_id),
            "{event:?}"
        );
    }
    assert_eq!(events[0].user_id, None);
    assert_eq!(
        events[1].user_id, None,
        "the /pricing visit came before identify"
    );
    for event in &events[2..] {
        assert_eq!(event.user_id.as_deref(), Some("user-42"), "{event:?}");
    }
    assert_eq!(events[2].email.as_deref(), Some("buyer@example.com"));

    let first = &events[0];
    for (field, expected) in [
        ("utm_source", "google"),
        ("utm_medium", "cpc"),
        ("utm_campaign", "spring"),
        ("gclid", "abc123"),
        ("referrer", "https://www.google.com/"),
    ] {
        assert_eq!(first.attribution[field], expected, "{}", first.attribution);
    }
    assert!(
        first.attribution["landing_url"]
            .as_str()
            .is_some_and(|url| url.starts_with(&page) && url.contains("gclid=abc123")),
        "{}",
        first.attribution
    );
    assert_eq!(first.channel.as_deref(), Some("paid_google"));
    // The session keeps its landing: the in-app page and later events carry it too.
    for event in &events[1..] {
        assert_eq!(event.attribution, first.attribution, "{event:?}");
    }

    let converted = &events[4];
    assert_eq!(converted.value_cents, Some(4900));
    assert_eq!(converted.currency.as_deref(), Some("USD"));
}

/// Where a customer's page is, for requests the test sends itself: another origin than the
/// service's.
const CUSTOMER_SITE: &str = "http://127.0.0.1:9";

/// The write key of a fresh product `shop`.
async fn shop_write_key(app: &TestApp) -> String {
    let owner = app.signup_verified("owner@example.com").await;
    app.create_product(&owner.token, "shop").await;
    let minted = app
        .post("/products/shop/tracking-key", Some(&owner.token), json!({}))
        .await;
    minted.expect(200)["key"].as_str().unwrap().to_owned()
}

/// The preflight a browser sends before a cross-origin `fetch` of `application/json`.
async fn preflight(app: &TestApp) -> Reply {
    let response = app
        .client
        .request(reqwest::Method::OPTIONS, app.url("/t/events"))
        .header("origin", CUSTOMER_SITE)
        .header("access-control-request-method", "POST")
        .header("access-control-request-headers", "content-type")
        .send()
        .await
        .unwrap();
    Reply::read(response).await
}

/// The POST a browser sends once the preflight allowed it.
async fn post_json_from_site(app: &TestApp, body: &Value) -> Reply {
    let response = app
        .client
        .post(app.url("/t/events"))
        .header("origin", CUSTOMER_SITE)
        .header("content-type", "application/json")
        .body(body.to_string())
        .send()
        .await
        .unwrap();
    Reply::read(response).await
}

#[track_caller]
fn assert_preflight_allowed(reply: &Reply) {
    assert_eq!(reply.status, 204, "preflight: {}", reply.text);
    assert_eq!(reply.text, "", "a preflight answers no body");
    assert_eq!(reply.header("access-control-allow-origin"), Some("*"));
    let methods = reply
        .header("access-control-allow-methods")
        .unwrap_or_default()
        .to_ascii_uppercase();
    assert!(methods.split(',').any(|m| m.trim() == "POST"), "{methods}");
    let headers = reply
        .header("access-control-allow-headers")
        .unwrap_or_default()
        .to_ascii_lowercase();
    assert!(
        headers.split(',').any(|h| h.trim() == "content-type"),
        "{headers}"
    );
    assert_eq!(reply.header("access-control-max-age"), Some("86400"));
}

/// `OPTIONS /t/events` answers 204 with the grant (any origin, `POST`, `Content-Type`, cached
/// a day), and is no batch: more preflights than the per-address limit all pass, before and
/// after the limit refuses batches. The batches' answers (200, 413, 429) all carry
/// `Access-Control-Allow-Origin`, so the page can read them.
async fn t_events_answers_preflights_outside_its_limits(backend: Backend) {
    let app = TestApp::spawn_with(backend, |config| {
        config.tracking_rate_limit_per_minute = 3;
    })
    .await;
    let key = shop_write_key(&app).await;
    for _ in 0..5 {
        assert_preflight_allowed(&preflight(&app).await);
    }

    let visit = json!({ "key": key, "events": [{ "dedupe_id": "p1", "stage": "visit", "anonymous_id": "a-1" }] });
    let accepted = post_json_from_site(&app, &visit).await;
    assert_eq!(accepted.expect(200), &json!({ "ok": true, "received": 1 }));
    assert_eq!(accepted.header("access-control-allow-origin"), Some("*"));

    let pad = "x".repeat(3000);
    let events: Vec<Value> = (0..25)
        .map(|i| json!({ "dedupe_id": format!("big{i}"), "stage": "visit", "properties": { "pad": pad } }))
        .collect();
    let too_big = post_json_from_site(&app, &json!({ "key": key, "events": events })).await;
    too_big.expect_error(413, "/t/events takes at most 65536 bytes");
    assert_eq!(too_big.header("access-control-allow-origin"), Some("*"));

    let signup = json!({ "key": key, "events": [{ "dedupe_id": "p2", "stage": "signup", "anonymous_id": "a-1" }] });
    assert_eq!(
        post_json_from_site(&app, &signup).await.expect(200)["received"],
        1
    );
    let limited = post_json_from_site(&app, &visit).await;
    limited.expect_error(
        429,
        "too many requests from this address: at most 3 per minute",
    );
    assert_eq!(limited.header("access-control-allow-origin"), Some("*"));
    // The limit refuses batches, not the preflights that announce them.
    assert_preflight_allowed(&preflight(&app).await);
    // An OPTIONS without `Origin` (no browser's preflight) is answered the same way.
    let plain = app
        .request(reqwest::Method::OPTIONS, "/t/events", None)
        .await;
    assert_preflight_allowed(&plain);

    let stored: Vec<(String, Option<String>, Option<i64>)> = app
        .sql_rows(
            "SELECT dedupe_id, namespace, NULL FROM events ORDER BY dedupe_id",
            &[],
        )
        .await;
    assert_eq!(
        stored,
        [
            ("p1".to_owned(), Some("web:shop".to_owned()), None),
            ("p2".to_owned(), Some("web:shop".to_owned()), None),
        ]
    );
}

per_backend!(t_events_answers_preflights_outside_its_limits);

/// A site's own script posting JSON with `fetch` from its origin (another loopback port), in
/// headless Chromium: the browser preflights, then sends; the page reads every answer, the
/// refusals (413, 429) included, and the accepted events are stored under `web:shop`.
#[tokio::test]
async fn json_fetch_from_another_origin_in_chromium_is_stored() {
    let app = TestApp::spawn_with(Backend::Sqlite, |config| {
        config.tracking_rate_limit_per_minute = 3;
    })
    .await;
    let key = shop_write_key(&app).await;
    let endpoint = serde_json::to_string(&app.url("/t/events")).unwrap();
    let key = serde_json::to_string(&key).unwrap();
    // `window.results`: each request's status and parsed body, or the error `fetch` threw (a
    // refused preflight makes it throw `TypeError: Failed to fetch`).
    let page = serve_page(format!(
        r#"<!doctype html><html><head><title>Shop</title></head><body><h1>Shop</h1>
<script>
const endpoint = {endpoint};
const key = {key};
async function post(events) {{
  try {{
    const res = await fetch(endpoint, {{
      method: 'POST',
      headers: {{ 'Content-Type': 'application/json' }},
      body: JSON.stringify({{ key, events }}),
    }});
    const text = await res.text();
    let body = null;
    try {{ body = JSON.parse(text); }} catch (_) {{ body = text; }}
    return {{ status: res.status, body }};
  }} catch (err) {{
    return {{ error: String(err) }};
  }}
}}
window.results = (async () => {{
  const out = [];
  out.push(await post([
    {{ dedupe_id: 'f1', stage: 'visit', anonymous_id: 'fetch-1' }},
    {{ dedupe_id: 'f2', stage: 'signup', anonymous_id: 'fetch-1', user_id: 'u-fetch' }},
  ]));
  out.push(await post(Array.from({{ length: 25 }}, (_, i) =>
    ({{ dedupe_id: 'big' + i, stage: 'visit', properties: {{ pad: 'x'.repeat(3000) }} }}))));
  out.push(await post([
    {{ dedupe_id: 'f3', stage: 'converted', user_id: 'u-fetch', value: 4900, currency: 'USD' }},
  ]));
  out.push(await post([{{ dedupe_id: 'f4', stage: 'visit', anonymous_id: 'fetch-2' }}]));
  return out;
}})();
</script></body></html>"#
    ))
    .await;
    assert_ne!(page, app.base_url, "the page is on an origin of its own");

    let root = repo_root();
    let run = tokio::task::spawn_blocking(move || {
        std::process::Command::new("node")
            .arg("e2e/drive-page-results.mjs")
            .arg(&page)
            .current_dir(&root)
            .output()
    })
    .await
    .unwrap()
    .expect("node runs (scripts/e2e-setup installs the browser harness)");
    let driver_log = String::from_utf8_lossy(&run.stderr).into_owned();
    assert!(
        run.status.success(),
        "drive-page-results failed:\n{driver_log}"
    );
    let results: Value = serde_json::from_slice(&run.stdout).unwrap_or_else(|err| {
        panic!(
            "{err}: {}\n{driver_log}",
            String::from_utf8_lossy(&run.stdout)
        )
    });

    assert_eq!(
        results[0],
        json!({ "status": 200, "body": { "ok": true, "received": 2 } }),
        "{driver_log}"
    );
    assert_eq!(results[1]["status"], 413, "{results}");
    assert_eq!(
        results[1]["body"]["error"],
        "request body too large: /t/events takes at most 65536 bytes; send the events as several smaller batches"
    );
    assert_eq!(
        results[2],
        json!({ "status": 200, "body": { "ok": true, "received": 1 } })
    );
    assert_eq!(results[3]["status"], 429, "{results}");
    let limited = results[3]["body"]["error"].as_str().unwrap();
    assert!(
        limited.starts_with("too many requests from this address: at most 3 per minute"),
        "{limited}"
    );
    assert_eq!(results.as_array().unwrap().len(), 4);

    let stored: Vec<(String, Option<String>, Option<i64>)> = app
        .sql_rows(
            "SELECT dedupe_id, namespace, value_cents FROM events ORDER BY dedupe_id",
            &[],
        )
        .await;
    assert_eq!(
        stored,
        [
            ("f1".to_owned(), Some("web:shop".to_owned()), None),
            ("f2".to_owned(), Some("web:shop".to_owned()), None),
            ("f3".to_owned(), Some("web:shop".to_owned()), Some(4900)),
        ]
    );
}
